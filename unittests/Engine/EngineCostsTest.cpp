//===- unittests/Engine/EngineCostsTest.cpp -------------------------------===//
#include "ddtc/Engine/EngineCosts.h"

#include <gtest/gtest.h>

using namespace ddtc;

namespace {

TEST(EngineCostsTest, ShippedTableParses) {
  const EngineCosts &C = getDefaultEngineCosts();
  EXPECT_EQ(C.Engine, "mpich-4.0.2");
  EXPECT_FALSE(C.Fit.empty());
  // A pack call of a non-contiguous type costs something.
  EXPECT_GT(C.NsPerUnit[size_t(WorkUnit::Call)] +
                C.NsPerUnit[size_t(WorkUnit::EngineCall)],
            0);
  Expected<EngineCosts> ByName = findEngineCosts("mpich");
  ASSERT_TRUE(bool(ByName));
  EXPECT_EQ(ByName->Engine, "mpich-4.0.2");
}

TEST(EngineCostsTest, PrintThenParseIsIdentity) {
  EngineCosts C;
  C.Engine = "test-1";
  C.Machine = "a machine";
  for (size_t I = 0; I < NumWorkUnits; ++I)
    C.NsPerUnit[I] = 0.5 * double(I + 1);
  Expected<EngineCosts> Back =
      parseEngineCosts(printEngineCosts(C, "two\nlines"), "t.costs");
  ASSERT_TRUE(bool(Back)) << Back.takeError().message();
  EXPECT_EQ(Back->Engine, "test-1");
  EXPECT_EQ(Back->Machine, "a machine");
  EXPECT_EQ(Back->NsPerUnit, C.NsPerUnit);
}

std::string parseError(const std::string &Text) {
  Expected<EngineCosts> C = parseEngineCosts(Text, "t.costs");
  return C ? std::string("parsed") : C.takeError().message();
}

std::string fullTable(const std::string &Replace = "",
                      const std::string &With = "") {
  EngineCosts C;
  C.Engine = "e";
  std::string T = printEngineCosts(C);
  if (!Replace.empty())
    T.replace(T.find(Replace), Replace.size(), With);
  return T;
}

TEST(EngineCostsTest, BadTablesNameTheLine) {
  EXPECT_EQ(parseError(fullTable()), "parsed");
  EXPECT_EQ(parseError("engine e\nfrobs 1\n"),
            "t.costs:2: unknown key 'frobs'");
  // "t.costs:N: 'call' needs ...", N the line of the bad value.
  std::string Negative = parseError(fullTable("call 0", "call -1"));
  EXPECT_EQ(Negative.rfind("t.costs:", 0), 0u) << Negative;
  EXPECT_NE(Negative.find(": 'call' needs a non-negative number"),
            std::string::npos)
      << Negative;
  EXPECT_NE(parseError(fullTable("call 0", "call 1\ncall 2"))
                .find("'call' given twice"),
            std::string::npos);
  EXPECT_EQ(parseError(fullTable("call 0\n", "")), "t.costs: no 'call' line");
  EXPECT_EQ(parseError(fullTable("engine e\n", "")),
            "t.costs: no 'engine' line");
  EXPECT_FALSE(bool(findEngineCosts("openmpi")));
}

TEST(EngineCostsTest, FamilyLinesPriceEveryUnitWithoutALineOfItsOwn) {
  // The specific line comes first: it still wins over the family line.
  std::string T = "engine e\nunrolled-element.f64.2 2\nunrolled-element 1\n"
                  "unrolled-element.i8 3\n";
  for (size_t U = 0; U < NumWorkUnits; ++U) {
    std::string Name = getWorkUnitName(WorkUnit(U));
    if (Name.rfind("unrolled-element.", 0) != 0)
      T += Name + " 0\n";
  }
  Expected<EngineCosts> C = parseEngineCosts(T, "t.costs");
  ASSERT_TRUE(bool(C)) << C.takeError().message();
  auto Price = [&](ElementClass K, int64_t B) {
    return C->NsPerUnit[size_t(unrolledUnit(K, B))];
  };
  EXPECT_EQ(Price(ElementClass::F64, 2), 2);
  EXPECT_EQ(Price(ElementClass::F64, 3), 1);
  EXPECT_EQ(Price(ElementClass::I8, 7), 3);
  EXPECT_EQ(Price(ElementClass::Wide, 1), 1);
  // A family is a key like any other: twice is an error, and a prefix that
  // is not a whole name component names nothing.
  EXPECT_NE(parseError(T + "unrolled-element 4\n").find("given twice"),
            std::string::npos);
  EXPECT_EQ(parseError("engine e\nunrolled-elem 1\n"),
            "t.costs:2: unknown key 'unrolled-elem'");
}

} // namespace

//===- unittests/IR/RoundTripTest.cpp -------------------------------------===//
//
// Random types survive the textual form and format v1 unchanged: the same
// nodes come back. Also checks the verifier and the walker/summary
// agreement on the same random types.
//
//===----------------------------------------------------------------------===//
#include "ddtc/Format/DescriptionWriter.h"
#include "ddtc/IR/TextForm.h"
#include "ddtc/IR/TypemapWalker.h"
#include "ddtc/IR/Verifier.h"
#include "ddtc/Reader/FormatReader.h"
#include "ddtc/Target/MPICHRules.h"
#include "ddtc/Testing/RandomType.h"

#include <gtest/gtest.h>

using namespace ddtc;

namespace {

Module randomModule(TypeContext &Ctx, std::mt19937_64 &Rng, unsigned N) {
  Module M(Ctx);
  for (unsigned I = 0; I < N; ++I) {
    NamedType T;
    T.Name = "t" + std::to_string(I);
    T.T = randomType(Ctx, Rng);
    M.types().push_back(T);
  }
  return M;
}

TEST(RoundTripTest, TextAndJsonGiveBackTheSameNodes) {
  TypeContext Ctx(getMPICHRules());
  std::mt19937_64 Rng(2024);
  Module M = randomModule(Ctx, Rng, 500);
  ASSERT_FALSE(verifyModule(M));

  std::string Text = printModule(M);
  Module FromText(Ctx);
  Error E = parseModule(Text, FromText);
  ASSERT_FALSE(E) << E.message();
  std::string Json = writeDescription(M);
  Module FromJson(Ctx);
  E = readDescription(Json, FromJson);
  ASSERT_FALSE(E) << E.message();

  ASSERT_EQ(FromText.types().size(), M.types().size());
  ASSERT_EQ(FromJson.types().size(), M.types().size());
  for (size_t I = 0; I < M.types().size(); ++I) {
    EXPECT_EQ(FromText.types()[I].T, M.types()[I].T) << M.types()[I].Name;
    EXPECT_EQ(FromJson.types()[I].T, M.types()[I].T) << M.types()[I].Name;
  }
  EXPECT_EQ(printModule(FromText), Text);
}

TEST(RoundTripTest, WalkerAgreesWithBlockSummaryOnRandomTypes) {
  TypeContext Ctx(getMPICHRules());
  std::mt19937_64 Rng(99);
  for (int I = 0; I < 2000; ++I) {
    const Type *T = randomType(Ctx, Rng);
    const TypeLayout &L = T->getLayout();
    TypemapWalker W(T, 1, WalkMode::Bytes);
    TypemapRun R;
    uint64_t Runs = 0;
    int64_t Bytes = 0, Min = INT64_MAX, Max = 0;
    while (W.next(R)) {
      ++Runs;
      Bytes += R.Length;
      Min = std::min(Min, R.Length);
      Max = std::max(Max, R.Length);
    }
    ASSERT_EQ(Runs, L.Blocks.Count) << printType(T);
    EXPECT_EQ(Bytes, L.Size) << printType(T);
    if (Runs) {
      EXPECT_EQ(Min, L.Blocks.minLength()) << printType(T);
      EXPECT_EQ(Max, L.Blocks.maxLength()) << printType(T);
    }
    // The typed walk covers the same bytes and counts the entries.
    TypemapWalker Typed(T, 1, WalkMode::Typed);
    uint64_t Entries = 0;
    while (Typed.next(R))
      Entries +=
          static_cast<uint64_t>(R.Length) / getPredefinedInfo(R.Basic).Size;
    EXPECT_EQ(Entries, L.Elements) << printType(T);
  }
}

} // namespace

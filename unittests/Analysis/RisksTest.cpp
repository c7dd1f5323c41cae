//===- unittests/Analysis/RisksTest.cpp -----------------------------------===//
//
// The risk analysis on hand-made types whose risks follow from the MPI
// semantics and the documented thresholds (docs/cli.md, "Risks"), worked
// out in the comments, not read off the implementation; then on random
// types (every kind, negative strides, resized bounds, zero sizes): it never
// fails, reports only the documented ids, each with a message and a
// suggestion, and nothing about a type twice.
//
//===----------------------------------------------------------------------===//
#include "ddtc/Analysis/Risks.h"
#include "ddtc/IR/Module.h"
#include "ddtc/IR/TextForm.h"
#include "ddtc/IR/TypeContext.h"
#include "ddtc/Passes/Normalizer.h"
#include "ddtc/Target/MPICHRules.h"
#include "ddtc/Testing/RandomType.h"

#include <gtest/gtest.h>

#include <set>

using namespace ddtc;

namespace {

/// The ids of the risks of the type `t` of a one-line textual module.
std::set<std::string> riskIds(std::string_view Text) {
  TypeContext Ctx(getMPICHRules());
  Module M(Ctx);
  if (Error E = parseModule(Text, M)) {
    ADD_FAILURE() << E.message();
    return {};
  }
  const Type *T = M.lookup("t")->T;
  Normalizer N(Ctx);
  const Type *F = N.normalize(T);
  MPIFormAdvice Advice;
  Advice.Engine = "mpich";
  std::set<std::string> Ids;
  for (const Risk &R : findRisks(T, F, printType(F), Advice, Ctx.getRules()))
    Ids.insert(R.Id);
  return Ids;
}

using RiskSet = std::set<std::string>;

// 1000 doubles, one after the other: one block, and count x T is one block
// too -- every engine copies it with one memcpy. Nothing to report.
TEST(RisksTest, ContiguousHasNone) {
  EXPECT_EQ(riskIds("type t = contiguous(count=1000, oldtype=MPI_DOUBLE)"),
            RiskSet{});
}

// Every other double of 2,000: 1,000 blocks of 8 bytes, below the 16-byte
// mean of tiny-blocks. One loop level, no struct, no list. The next
// instance starts right after the last block (extent 15,992), so two
// instances have 1,999 blocks, not <= 0.8 x 2,000: no GL1. The vector is
// already the cheapest description: no GL4.
TEST(RisksTest, StridedDoublesAreTiny) {
  EXPECT_EQ(riskIds("type t = vector(count=1000, blocklength=1, stride=2, "
                    "oldtype=MPI_DOUBLE)"),
            RiskSet{"tiny-blocks"});
}

// The same layout, 100 doubles, written as an index list of 100 entries:
// a list of >= 64 entries whose normal form (a vector) needs none is
// long-index-list, and the vector is cheaper: GL4. Blocks are still 8
// bytes: tiny-blocks.
TEST(RisksTest, RegularIndexList) {
  std::string Text = "type t = indexed_block(blocklength=1, displacements=[";
  for (int I = 0; I < 100; ++I)
    Text += (I ? ", " : "") + std::to_string(2 * I);
  Text += "], oldtype=MPI_DOUBLE)";
  EXPECT_EQ(riskIds(Text), (RiskSet{"GL4", "long-index-list", "tiny-blocks"}));
}

// An int at 0 and a double at 4: 12 contiguous bytes, but MPICH pads the
// extent to the double's alignment, 16: alignment-padding. Mixed basic
// types need a struct in any description: struct. Instances are 16 bytes
// apart with 12 bytes of data, so they never touch: no GL1.
TEST(RisksTest, PaddedStruct) {
  EXPECT_EQ(riskIds("type t = struct(blocklengths=[1, 1], displacements=[0, "
                    "4], types=[MPI_INT, MPI_DOUBLE])"),
            (RiskSet{"alignment-padding", "struct"}));
}

// Ints at bytes 0 and 8, extent 12: the second instance's block at 12
// continues the first one's at 8, so two instances have 3 blocks, fewer
// than 0.8 x 4: GL1 (describe the message as one type).
TEST(RisksTest, InstancesThatTouch) {
  RiskSet R =
      riskIds("type t = resized(lb=0, extent=12, oldtype=hvector(count=2, "
              "blocklength=1, stride=8, oldtype=MPI_INT))");
  EXPECT_TRUE(R.count("GL1"));
  EXPECT_FALSE(R.count("tiny-blocks")); // 2 blocks, fewer than 8
  EXPECT_FALSE(R.count("struct"));
}

// Four nested vectors with strides 3, 10, 100 and 1000 ints that no vector
// can merge (no stride is a multiple of the span below it): four loop
// levels, more than the three MPICH 4.0.2's Yaksa has kernels for:
// deep-tree. Three levels have a kernel.
TEST(RisksTest, FourLevels) {
  RiskSet R = riskIds("type t = vector(count=4, blocklength=1, stride=1000, "
                      "oldtype=vector(count=4, blocklength=1, stride=100, "
                      "oldtype=vector(count=4, blocklength=1, stride=10, "
                      "oldtype=vector(count=2, blocklength=1, stride=3, "
                      "oldtype=MPI_INT))))");
  EXPECT_TRUE(R.count("deep-tree"));
  EXPECT_TRUE(R.count("tiny-blocks")); // 128 blocks of 4 bytes
  EXPECT_FALSE(riskIds("type t = vector(count=4, blocklength=1, stride=100, "
                       "oldtype=vector(count=4, blocklength=1, stride=10, "
                       "oldtype=vector(count=2, blocklength=1, stride=3, "
                       "oldtype=MPI_INT)))")
                   .count("deep-tree"));
}

// The transpose of a 512 x 512 matrix of doubles: a column (512 doubles,
// 4,096 bytes apart: a page each) copied 512 times, 8 bytes apart. Each copy
// touches 512 pages, more than a 64-entry TLB, and the copies interleave:
// tlb-pressure.
TEST(RisksTest, Transpose) {
  RiskSet R = riskIds("type t = contiguous(count=512, oldtype=resized(lb=0, "
                      "extent=8, oldtype=vector(count=512, blocklength=1, "
                      "stride=512, oldtype=MPI_DOUBLE)))");
  EXPECT_TRUE(R.count("tlb-pressure"));
  EXPECT_FALSE(R.count("deep-tree")); // two loop levels
}

// A matrix's rows, 512 doubles each, every other row: each copy is one
// block in one or two pages, far below the TLB's 64: no tlb-pressure.
TEST(RisksTest, RowsDoNotPressTheTlb) {
  EXPECT_FALSE(riskIds("type t = vector(count=512, blocklength=512, "
                       "stride=1024, oldtype=MPI_DOUBLE)")
                   .count("tlb-pressure"));
}

TEST(RisksTest, RandomTypes) {
  const std::set<std::string> Known = {
      "GL4",       "GL1",    "alignment-padding", "tiny-blocks",
      "deep-tree", "struct", "long-index-list",   "tlb-pressure"};
  TypeContext Ctx(getMPICHRules());
  Normalizer N(Ctx);
  std::mt19937_64 Rng(99);
  std::map<std::string, unsigned> Seen;
  for (int I = 0; I < 1000; ++I) {
    const Type *T = randomType(Ctx, Rng);
    const Type *F = N.normalize(T);
    MPIFormAdvice Advice;
    Advice.Engine = "mpich";
    std::vector<Risk> Risks =
        findRisks(T, F, printType(F), Advice, Ctx.getRules());
    std::set<std::string> Ids;
    for (const Risk &R : Risks) {
      EXPECT_TRUE(Known.count(R.Id)) << R.Id;
      EXPECT_FALSE(R.Message.empty()) << R.Id;
      EXPECT_FALSE(R.Suggestion.empty()) << R.Id;
      EXPECT_TRUE(Ids.insert(R.Id).second)
          << R.Id << " twice: " << printType(T);
      ++Seen[R.Id];
    }
  }
  // Random types are varied enough to raise most risks.
  for (const char *Id : {"GL4", "GL1", "alignment-padding", "tiny-blocks",
                         "deep-tree", "struct"})
    EXPECT_GT(Seen[Id], 0u) << Id;
}

} // namespace

//===- unittests/Passes/SegmentDPBoundTest.cpp ----------------------------===//
//
// segmentDPLowerBound must never exceed the cost of the plan the dynamic
// program returns: the lattice planner skips the program on its word
// (LatticePlanner.cpp), and a bound that is too high would change normal
// forms. Random block lists with the structure the program exploits
// (equal gaps, repeated chunks, back-to-back copies, mixed shapes, whose
// changes the bound charges) and without it.
//
//===----------------------------------------------------------------------===//
#include "../../lib/Passes/BlockPlan.h"

#include <gtest/gtest.h>

#include <random>

using namespace ddtc;
using namespace ddtc::recon;

namespace {

/// A list of N blocks: gaps drawn from an alphabet of Alphabet values,
/// shapes from Shapes counts, with chunks of the list copied now and then.
std::vector<Block> randomBlocks(std::mt19937_64 &Rng, size_t N) {
  auto Pick = [&](uint64_t Below) { return Rng() % Below; };
  uint64_t Alphabet = 1 + Pick(Pick(2) ? 4 : 100);
  uint64_t Shapes = 1 + Pick(3);
  bool Touch = Pick(4) == 0;
  bool MixBasics = Pick(4) == 0;
  std::vector<Block> B;
  int64_t At = int64_t(Pick(64));
  while (B.size() < N) {
    if (B.size() >= 2 && Pick(3) == 0) {
      // Copy a recent chunk a few times, at one or at random translations.
      size_t Q = 1 + Pick(std::min<size_t>(B.size(), 12));
      size_t From = B.size() - Q;
      int64_t Span = B.back().Offset + 64 - B[From].Offset;
      bool Regular = Pick(2);
      int64_t Step = Span + (Touch ? 0 : int64_t(Pick(8)) * 8);
      for (uint64_t R = 1 + Pick(5); R-- > 0 && B.size() < N;) {
        int64_t Shift = B.back().Offset + 8 * int64_t(1 + Pick(4)) +
                        (Regular ? 0 : int64_t(Pick(4)) * 8);
        int64_t Delta = Regular ? Step : Shift - B[From].Offset;
        size_t End = B.size();
        for (size_t T = End - Q; T < End && B.size() < N; ++T)
          B.push_back({B[T].Offset + Delta, B[T].Count, B[T].Basic});
      }
      At = B.back().Offset + 64;
      continue;
    }
    int64_t Count = 1 + int64_t(Pick(Shapes));
    // Shapes differ by length and, in some lists, by basic type.
    PredefinedId Basic =
        MixBasics && Pick(4) == 0 ? PredefinedId::Int64 : PredefinedId::Double;
    B.push_back({At, Count, Basic});
    At += 8 * (Count + int64_t(Pick(Alphabet)) + (Touch ? 0 : 1));
  }
  return B;
}

TEST(SegmentDPBoundTest, NeverAboveTheProgramsCost) {
  std::mt19937_64 Rng(14);
  PlannerLimits L;
  size_t Tight = 0, Structured = 0;
  for (int Round = 0; Round < 3000; ++Round) {
    size_t N = 2 + Rng() % (Round % 10 == 0 ? 300 : 60);
    std::vector<Block> B = randomBlocks(Rng, N);
    uint64_t Bound = segmentDPLowerBound(B);
    for (bool Place : {false, true}) {
      uint64_t Cost = planSegmentDP(B, L, Place).front().Cost;
      ASSERT_LE(Bound, Cost) << "round " << Round << ", " << N << " blocks";
      Tight += !Place && Bound == Cost;
      Structured += !Place && Cost + 5 < indexBlockCost(N);
    }
  }
  // The lists must exercise the program (a few hundred plans well below
  // the list's cost), and a bound that is never exact would be useless.
  EXPECT_GT(Structured, 300u);
  EXPECT_GT(Tight, 50u);
}

TEST(SegmentDPBoundTest, ShortestRepetitionThatPays) {
  // contiguous(3, chunk of a 1-element and a 2-element block): the copies
  // reproduce 3 positions at lag 2, the fewest a repetition that saves
  // anything can rest on; the bound must count them.
  std::vector<Block> B;
  for (int64_t K = 0; K < 3; ++K) {
    B.push_back({32 * K, 1, PredefinedId::Double});
    B.push_back({32 * K + 16, 2, PredefinedId::Double});
  }
  uint64_t Cost = planSegmentDP(B, PlannerLimits(), false).front().Cost;
  EXPECT_EQ(Cost, 9u);
  EXPECT_LE(segmentDPLowerBound(B), Cost);
}

TEST(SegmentDPBoundTest, ExactOnListsWithoutRepetition) {
  // Gaps 8, 16, 24, ... all distinct: nothing repeats, the list is best.
  std::vector<Block> B;
  for (int64_t T = 0, At = 0; T < 50; ++T, At += 8 * (T + 1))
    B.push_back({At, 1, PredefinedId::Double});
  EXPECT_EQ(segmentDPLowerBound(B), indexBlockCost(B.size()));
  EXPECT_EQ(planSegmentDP(B, PlannerLimits(), false).front().Cost,
            indexBlockCost(B.size()));
}

} // namespace

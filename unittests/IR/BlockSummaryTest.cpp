//===- unittests/IR/BlockSummaryTest.cpp ----------------------------------===//
//
// The symbolic block algebra against explicit block lists.
//
//===----------------------------------------------------------------------===//
#include "ddtc/IR/BlockSummary.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

using namespace ddtc;

namespace {

/// Explicit merged block list -> summary, the obviously correct way.
BlockSummary summarize(const std::vector<ByteBlock> &Raw) {
  std::vector<ByteBlock> Merged;
  for (const ByteBlock &B : Raw) {
    if (!Merged.empty() && Merged.back().end() == B.Offset)
      Merged.back().Length += B.Length;
    else
      Merged.push_back(B);
  }
  BlockSummary S;
  S.Count = Merged.size();
  if (Merged.empty())
    return S;
  S.First = Merged.front();
  S.Last = Merged.back();
  if (Merged.size() >= 3) {
    S.MiddleMin = S.MiddleMax = Merged[1].Length;
    for (size_t I = 1; I + 1 < Merged.size(); ++I) {
      S.MiddleMin = std::min(S.MiddleMin, Merged[I].Length);
      S.MiddleMax = std::max(S.MiddleMax, Merged[I].Length);
    }
  }
  return S;
}

std::vector<ByteBlock> randomBlocks(std::mt19937_64 &Rng) {
  std::vector<ByteBlock> Blocks;
  int64_t Offset = static_cast<int64_t>(Rng() % 8);
  size_t N = Rng() % 6;
  for (size_t I = 0; I < N; ++I) {
    int64_t Len = 1 + static_cast<int64_t>(Rng() % 4);
    Blocks.push_back({Offset, Len});
    // Sometimes touch the next block, sometimes leave a gap or go back.
    Offset += Len + static_cast<int64_t>(Rng() % 3) - (Rng() % 4 == 0 ? 6 : 0);
  }
  return Blocks;
}

std::vector<ByteBlock> shifted(std::vector<ByteBlock> V, int64_t D) {
  for (ByteBlock &B : V)
    B.Offset += D;
  return V;
}

TEST(BlockSummaryTest, ConcatMatchesExplicitMerge) {
  std::mt19937_64 Rng(7);
  for (int Trial = 0; Trial < 20000; ++Trial) {
    std::vector<ByteBlock> A = randomBlocks(Rng), B = randomBlocks(Rng);
    std::vector<ByteBlock> AB = A;
    AB.insert(AB.end(), B.begin(), B.end());
    EXPECT_EQ(concatBlocks(summarize(A), summarize(B)), summarize(AB));
  }
}

TEST(BlockSummaryTest, RepeatMatchesExplicitCopies) {
  std::mt19937_64 Rng(11);
  for (int Trial = 0; Trial < 5000; ++Trial) {
    std::vector<ByteBlock> A = randomBlocks(Rng);
    uint64_t Count = Rng() % 40;
    int64_t Stride = static_cast<int64_t>(Rng() % 30) - 10;
    std::vector<ByteBlock> All;
    for (uint64_t I = 0; I < Count; ++I) {
      std::vector<ByteBlock> Copy =
          shifted(A, static_cast<int64_t>(I) * Stride);
      All.insert(All.end(), Copy.begin(), Copy.end());
    }
    EXPECT_EQ(repeatBlocks(summarize(A), Count, Stride), summarize(All))
        << "count " << Count << " stride " << Stride;
  }
}

TEST(BlockSummaryTest, HugeRepetitionIsSymbolic) {
  BlockSummary One = summarize({{0, 4}});
  // 10^12 touching copies merge into one block, computed in O(log n).
  BlockSummary Dense = repeatBlocks(One, 1000000000000ull, 4);
  EXPECT_EQ(Dense.Count, 1u);
  EXPECT_EQ(Dense.First.Length, 4000000000000ll);
  BlockSummary Sparse = repeatBlocks(One, 1000000000000ull, 8);
  EXPECT_EQ(Sparse.Count, 1000000000000ull);
  EXPECT_EQ(Sparse.minLength(), 4);
  EXPECT_EQ(Sparse.maxLength(), 4);
  EXPECT_EQ(Sparse.Last.Offset, 8 * (1000000000000ll - 1));
}

} // namespace

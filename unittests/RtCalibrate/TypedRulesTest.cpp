//===- unittests/RtCalibrate/TypedRulesTest.cpp ---------------------------===//
#include "TypedRules.h"

#include <gtest/gtest.h>

using namespace ddtc;

namespace {

constexpr Outcome W = Outcome::TypedWins, L = Outcome::TypedLoses,
                  T = Outcome::Tie;

// The calibration's probes: blocks of 256 B to 4 KiB, messages of 16 KiB
// to 1 MiB.
const std::vector<uint64_t> Blocks = {256, 384, 512, 1024, 4096};
const std::vector<uint64_t> Sizes = {16 << 10,  32 << 10,  64 << 10,
                                     128 << 10, 256 << 10, 1 << 20};

std::string text(const std::vector<TypedRule> &Rules) {
  return formatTypedRules(Rules.data(), Rules.size(), /*Suffixes=*/true);
}

std::vector<TypedRule> derive(const std::vector<std::vector<Outcome>> &Table,
                              size_t MaxRules = 4) {
  return deriveTypedRules(Blocks, Sizes, Table, MaxRules);
}

TEST(TypedRules, NoWinIsOff) {
  std::vector<std::vector<Outcome>> Table(5, std::vector<Outcome>(6, L));
  EXPECT_TRUE(derive(Table).empty());
  EXPECT_EQ(text(derive(Table)), "off");
}

// A machine whose threshold falls as blocks grow (a Zen 3 host in its fast
// launches): a rule per threshold, each at the size before the first win
// of its block.
TEST(TypedRules, ARulePerThreshold) {
  std::vector<std::vector<Outcome>> Table = {
      {L, L, L, W, L, L}, // 256: loses above its win: nowhere
      {L, L, W, W, W, W}, // 384: from 64K
      {L, W, W, W, W, W}, // 512: from 32K
      {W, W, W, W, W, W}, // 1K: from 16K
      {W, W, W, W, W, W}, // 4K: from 16K, the same rule as 1K
  };
  std::vector<TypedRule> Rules = derive(Table);
  std::vector<TypedRule> Expected = {
      {1024, 8 << 10}, {512, 16 << 10}, {384, 32 << 10}};
  EXPECT_EQ(Rules, Expected);
  EXPECT_EQ(text(Rules), "1K:8K,512:16K,384:32K");
}

// A rule covers the larger blocks too: its threshold is theirs where they
// start winning later.
TEST(TypedRules, LargerBlocksRaiseTheThreshold) {
  std::vector<std::vector<Outcome>> Table = {
      {L, L, L, L, L, L}, // 256
      {L, L, L, L, L, L}, // 384
      {W, W, W, W, W, W}, // 512: from 16K
      {L, L, W, W, W, W}, // 1K: from 64K
      {L, L, T, W, W, W}, // 4K: from 64K (a tie counts for MPI)
  };
  std::vector<TypedRule> Expected = {{512, 32 << 10}};
  EXPECT_EQ(derive(Table), Expected);
}

// A block size where MPI wins nowhere ends the rules: a rule for a smaller
// block would cover it.
TEST(TypedRules, AGapStopsTheSmallerBlocks) {
  std::vector<std::vector<Outcome>> Table = {
      {W, W, W, W, W, W}, // 256
      {W, W, W, W, W, W}, // 384
      {L, L, L, L, L, L}, // 512: nowhere
      {L, W, W, W, W, W}, // 1K: from 32K
      {W, W, W, W, W, W}, // 4K: from 16K
  };
  std::vector<TypedRule> Expected = {{4096, 8 << 10}, {1024, 16 << 10}};
  EXPECT_EQ(derive(Table), Expected);
}

// A tie counts for MPI: where the packed path is not faster by the
// margin, its gain is uncertain and MPI's own path is taken; a loss above
// a block's wins and ties takes its rule away.
TEST(TypedRules, TiesCountForMPI) {
  std::vector<std::vector<Outcome>> Table = {
      {L, L, L, L, L, L}, // 256
      {L, L, L, L, L, L}, // 384
      {L, L, L, L, L, L}, // 512
      {L, T, W, T, W, T}, // 1K: from 32K, a tie
      {W, W, W, W, W, L}, // 4K: loses at 1M: nowhere
  };
  EXPECT_TRUE(derive(Table).empty());
  Table[4][5] = T; // 4K: from 16K
  std::vector<TypedRule> Expected = {{4096, 8 << 10}, {1024, 16 << 10}};
  EXPECT_EQ(derive(Table), Expected);
  // Ties alone: MPI from the first of them.
  Table[3] = {L, L, T, T, T, T}; // 1K: from 64K
  Table[4] = {T, T, T, T, T, T}; // 4K: from 16K
  Expected = {{4096, 8 << 10}, {1024, 32 << 10}};
  EXPECT_EQ(derive(Table), Expected);
}

// The runtime takes four rules: the ones of the largest blocks are kept
// (a rule dropped leaves messages to the kernels, never to MPI where it
// lost).
TEST(TypedRules, AtMostMaxRules) {
  std::vector<std::vector<Outcome>> Table = {
      {L, L, L, L, L, W}, // 256: from 1M
      {L, L, L, L, W, W}, // 384: from 256K
      {L, L, L, W, W, W}, // 512: from 128K
      {L, W, W, W, W, W}, // 1K: from 32K
      {W, W, W, W, W, W}, // 4K: from 16K
  };
  std::vector<TypedRule> All = derive(Table, 5);
  ASSERT_EQ(All.size(), 5u);
  EXPECT_EQ(All.back(), (TypedRule{256, 256 << 10}));
  std::vector<TypedRule> Four = derive(Table);
  EXPECT_EQ(Four, std::vector<TypedRule>(All.begin(), All.begin() + 4));
  EXPECT_EQ(text(Four), "4K:8K,1K:16K,512:64K,384:128K");
}

// What the calibration writes, the runtime reads back (one definition of
// the syntax, ddtc/Runtime/TypedBlockRules.h), with suffixes as in a
// settings file and in bytes as in the runtime's report.
TEST(TypedRules, WrittenRulesReadBack) {
  std::vector<TypedRule> Rules = {
      {4096, 8 << 10}, {1024, 16 << 10}, {384, 32 << 10}, {256, 1 << 20}};
  for (bool Suffixes : {true, false}) {
    std::string Text = formatTypedRules(Rules.data(), Rules.size(), Suffixes);
    TypedRule Read[MaxTypedRules];
    size_t N = 0;
    ASSERT_TRUE(parseTypedRules(Text, Read, N)) << Text;
    EXPECT_EQ(std::vector<TypedRule>(Read, Read + N), Rules) << Text;
  }
  EXPECT_EQ(formatTypedRules(Rules.data(), 2, false), "4096:8192,1024:16384");
  TypedRule Read[MaxTypedRules];
  size_t N = 3;
  ASSERT_TRUE(parseTypedRules("off", Read, N));
  EXPECT_EQ(N, 0u);
}

TEST(TypedRules, BadSettingsAreRefusedWhole) {
  for (const char *Bad : {"", "1K", "1K:16K,", ",1K:16K", "0:16K",
                          "1K:16K,,256:256K", "1:1,2:2,3:3,4:4,5:5", "1K:x"}) {
    TypedRule Read[MaxTypedRules] = {{7, 7}};
    size_t N = 1;
    EXPECT_FALSE(parseTypedRules(Bad, Read, N)) << Bad;
    EXPECT_EQ(N, 1u) << Bad;
    EXPECT_EQ(Read[0], (TypedRule{7, 7})) << Bad;
  }
}

} // namespace

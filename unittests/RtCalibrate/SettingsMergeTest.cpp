//===- unittests/RtCalibrate/SettingsMergeTest.cpp ------------------------===//
#include "SettingsMerge.h"

#include <gtest/gtest.h>

using namespace ddtc;

namespace {

std::vector<TypedRule> rules(const char *Text) {
  TypedRule Out[MaxTypedRules];
  size_t N = 0;
  EXPECT_TRUE(parseTypedRules(Text, Out, N)) << Text;
  return std::vector<TypedRule>(Out, Out + N);
}

std::string merged(const char *A, const char *B, size_t MaxRules = 4) {
  std::vector<TypedRule> R = unionTypedRules(rules(A), rules(B), MaxRules);
  return formatTypedRules(R.data(), R.size(), /*Suffixes=*/true);
}

// Where the window is measured to gain in both, and nowhere else.
TEST(SettingsMerge, WindowsIntersect) {
  EXPECT_EQ(intersectWindows({8192, 2 << 20}, {4160, 1 << 20}),
            (SplitWindow{8192, 1 << 20}));
  EXPECT_EQ(intersectWindows({8192, 2 << 20}, {8192, 2 << 20}),
            (SplitWindow{8192, 2 << 20}));
}

TEST(SettingsMerge, WindowsApartOrOffAreOff) {
  EXPECT_EQ(intersectWindows({4000, 8192}, {16384, 65536}),
            (SplitWindow{0, 0}));
  // Touching at one end: (4000, 8192] and (8192, ...] share no size.
  EXPECT_EQ(intersectWindows({4000, 8192}, {8192, 65536}), (SplitWindow{0, 0}));
  EXPECT_EQ(intersectWindows({0, 0}, {8192, 2 << 20}), (SplitWindow{0, 0}));
  EXPECT_EQ(intersectWindows({8192, 2 << 20}, {0, 0}), (SplitWindow{0, 0}));
}

TEST(SettingsMerge, EqualRulesStay) {
  EXPECT_EQ(merged("1K:8K,256:16K", "1K:8K,256:16K"), "1K:8K,256:16K");
  EXPECT_EQ(merged("off", "off"), "off");
}

// The lingering slow state of this project's VM stores 1 KiB blocks
// packed (4K:8K); an idle measurement leaves them to MPI (1K:8K): MPI.
TEST(SettingsMerge, EitherSendingToMPIWins) {
  EXPECT_EQ(merged("4K:8K", "1K:8K,256:16K"), "1K:8K,256:16K");
  EXPECT_EQ(merged("off", "4K:256K"), "4K:256K");
  // Two idle measurements of this VM, apart on 256-byte blocks.
  EXPECT_EQ(merged("1K:8K,256:16K", "256:8K"), "256:8K");
  // Neither covers the other: both rules, largest block first.
  EXPECT_EQ(merged("4K:8K", "256:64K"), "4K:8K,256:64K");
}

TEST(SettingsMerge, CoveredRulesGo) {
  EXPECT_EQ(merged("1:8K", "4K:8K,1K:16K,256:256K"), "1:8K");
  // Of one block, the lower threshold.
  EXPECT_EQ(merged("1K:64K", "1K:16K"), "1K:16K");
}

// Past the limit, neighbours are joined so that every message either
// measurement sends to MPI still goes there.
TEST(SettingsMerge, TooManyRulesJoinTowardMPI) {
  EXPECT_EQ(merged("4K:8K,1K:32K,256:128K", "2K:16K,512:64K,128:1M"),
            "4K:8K,2K:16K,256:32K,128:1M");
  EXPECT_EQ(merged("4K:8K,256:16K", "1K:12K", 2), "4K:8K,256:12K");
  // Whatever is joined, each rule of either input is covered.
  std::vector<TypedRule> A = rules("4K:8K,1K:32K,256:128K"),
                         B = rules("2K:16K,512:64K,128:1M");
  for (size_t Max = 1; Max <= 4; ++Max) {
    std::vector<TypedRule> M = unionTypedRules(A, B, Max);
    EXPECT_LE(M.size(), Max);
    for (const std::vector<TypedRule> *In : {&A, &B})
      for (const TypedRule &R : *In) {
        bool Covered = false;
        for (const TypedRule &K : M)
          Covered |= K.Block <= R.Block && K.Above <= R.Above;
        EXPECT_TRUE(Covered) << R.Block << ":" << R.Above << " with " << Max;
      }
  }
}

} // namespace

//===- unittests/Runtime/PlacementTest.cpp - DDTC_RT_PLACEMENT -------------===//
#include "Placement.h"

#include <gtest/gtest.h>

using namespace ddtc;

TEST(PlacementTest, ReadsANodePerRank) {
  std::vector<int> Nodes;
  ASSERT_TRUE(Placement::parse("0,0,1,1", 4, Nodes));
  EXPECT_EQ(Nodes, (std::vector<int>{0, 0, 1, 1}));
  ASSERT_TRUE(Placement::parse("7", 1, Nodes));
  EXPECT_EQ(Nodes, (std::vector<int>{7}));
}

TEST(PlacementTest, RefusesWhatDoesNotFitTheJob) {
  std::vector<int> Nodes{5};
  for (const char *Bad : {"0,1", "0,1,2,3", "0,,1", "0,1,", ",0,1", "0,-1,2",
                          "0,x,1", "0, 1,2", "1234567890,0,0", ""})
    EXPECT_FALSE(Placement::parse(Bad, 3, Nodes)) << Bad;
  // Untouched on failure.
  EXPECT_EQ(Nodes, (std::vector<int>{5}));
}

//===- unittests/RtCalibrate/CpuWaitTest.cpp - Time waiting for a CPU -----===//
#include "CpuWait.h"

#include <gtest/gtest.h>

#include <chrono>
#include <fstream>

using namespace ddtc;

TEST(CpuWait, ReadsTheWaitOfASchedstatLine) {
  EXPECT_DOUBLE_EQ(*parseSchedstatWait("123456789 2500000000 17\n"), 2.5);
  EXPECT_DOUBLE_EQ(*parseSchedstatWait("0 0 1"), 0.0);
  EXPECT_FALSE(parseSchedstatWait(""));
  EXPECT_FALSE(parseSchedstatWait("12 x 3"));
  EXPECT_FALSE(parseSchedstatWait("12 34"));
}

TEST(CpuWait, NeverRunsBackwards) {
  if (!std::ifstream("/proc/self/schedstat"))
    GTEST_SKIP() << "this kernel does not count the time spent waiting";
  std::optional<double> Before = cpuWaitSeconds();
  ASSERT_TRUE(Before);
  auto End = std::chrono::steady_clock::now() + std::chrono::milliseconds(20);
  while (std::chrono::steady_clock::now() < End) {
  }
  std::optional<double> After = cpuWaitSeconds();
  ASSERT_TRUE(After);
  EXPECT_GE(*After, *Before);
}

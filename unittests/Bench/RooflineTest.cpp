//===- unittests/Bench/RooflineTest.cpp - Lines a message touches ---------===//

#include "Roofline.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

using namespace ddtc::bench;

namespace {

TEST(RooflineTest, LinesOfBlocksInOneInstance) {
  // Bytes [0, 8), [60, 70) (two lines), [200, 264) (one whole line and a
  // byte of the next).
  std::vector<Block> B = {{0, 8}, {60, 10}, {200, 64}};
  std::vector<int64_t> Starts;
  LineCount C = countLines(B, 1000, 1, &Starts);
  EXPECT_EQ(C.Lines, 4); // lines 0, 1, 3 and 4, none of them whole
  EXPECT_EQ(C.FullLines, 0);
  EXPECT_EQ(C.OverlapBytes, 0);
  // One byte of the message in every line, in address order.
  EXPECT_EQ(Starts, (std::vector<int64_t>{0, 64, 200, 256}))
      << "line 0 holds [0, 8) and [60, 64): counted once";
}

TEST(RooflineTest, SharedAndFullLines) {
  // Two instances 32 bytes apart of a 32-byte block: one line, shared.
  std::vector<Block> B = {{0, 32}};
  std::vector<int64_t> Starts;
  LineCount C = countLines(B, 32, 2, &Starts);
  EXPECT_EQ(C.Lines, 1);
  EXPECT_EQ(C.FullLines, 1);
  EXPECT_EQ(C.InstanceLines, 2);
  EXPECT_EQ(Starts, (std::vector<int64_t>{0}));
}

TEST(RooflineTest, OverlappingInstancesAndNegativeOffsets) {
  // A 100-byte block at -50, instances 60 apart: bytes [-50, 50) and
  // [10, 110) overlap by 40.
  std::vector<Block> B = {{-50, 100}};
  std::vector<int64_t> Starts;
  LineCount C = countLines(B, 60, 2, &Starts);
  EXPECT_EQ(C.OverlapBytes, 40);
  EXPECT_EQ(C.Lines, 3); // lines -1, 0, 1
  EXPECT_EQ(Starts, (std::vector<int64_t>{-50, 0, 64}));
}

TEST(RooflineTest, TheWalkTouchesEveryListedByte) {
  std::vector<uint8_t> Buf(256, 1);
  std::vector<int64_t> Starts = {0, 64, 200};
  EXPECT_EQ(walkLinesRead(Buf.data(), Starts), 3u);
  walkLinesWrite(Buf.data(), Starts);
  EXPECT_EQ(Buf[0], 0);
  EXPECT_EQ(Buf[64], 64);
  EXPECT_EQ(Buf[200], 200);
  EXPECT_EQ(Buf[1], 1); // nothing else written
}

} // namespace

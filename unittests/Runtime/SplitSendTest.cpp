//===- unittests/Runtime/SplitSendTest.cpp - The wire of packed sends -----===//
//
// The split window's setting and the two-block wire it gives MPI, checked
// against MPI's own answers for the type (size, true extent) in a
// singleton MPI process.
//
//===----------------------------------------------------------------------===//
#include "ddtc/MPI/SplitSend.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <numeric>
#include <vector>

using namespace ddtc;

namespace {

class MpiEnvironment : public ::testing::Environment {
public:
  void SetUp() override { MPI_Init(nullptr, nullptr); }
  void TearDown() override {
    SplitSends::get().release();
    MPI_Finalize();
  }
};

const ::testing::Environment *const Env =
    ::testing::AddGlobalTestEnvironment(new MpiEnvironment);

} // namespace

TEST(SplitSendTest, OffUnlessSet) {
  SplitSends &S = SplitSends::get();
  EXPECT_EQ(S.configure(nullptr), "");
  EXPECT_EQ(S.window(), "off");
  EXPECT_EQ(S.bufferBytes(16384), 16384u);
  EXPECT_EQ(S.configure("8K:32K"), "");
  EXPECT_EQ(S.window(), "8192:32768");
  EXPECT_EQ(S.configure("off"), "");
  EXPECT_EQ(S.window(), "off");
}

TEST(SplitSendTest, ABadSettingIsAWarningAndOff) {
  SplitSends &S = SplitSends::get();
  for (const char *Bad : {"big", "32K:8K", "8K", "8K:8K"}) {
    S.configure("8K:32K");
    std::string W = S.configure(Bad);
    EXPECT_NE(W.find("is neither LO:HI"), std::string::npos) << Bad;
    EXPECT_NE(W.find("keeping off"), std::string::npos) << Bad;
    EXPECT_EQ(S.window(), "off") << Bad;
  }
  EXPECT_NE(S.configure("big", /*Remote=*/true).find("DDTC_RT_REMOTE_"),
            std::string::npos);
}

TEST(SplitSendTest, WithinANodeAndBetweenNodesApart) {
  SplitSends &S = SplitSends::get();
  S.configure("8K:32K");
  S.configure("64K:1M", /*Remote=*/true);
  EXPECT_EQ(S.bufferBytes(16384), 16384u + SplitSends::Gap);
  EXPECT_EQ(S.bufferBytes(16384, /*Remote=*/true), 16384u);
  EXPECT_EQ(S.bufferBytes(100000), 100000u);
  EXPECT_EQ(S.bufferBytes(100000, /*Remote=*/true), 100000u + SplitSends::Gap);
  EXPECT_EQ(S.window(true), "65536:1048576");
  S.configure("off", true);
}

TEST(SplitSendTest, TheWireHasTheStreamsSignature) {
  SplitSends &S = SplitSends::get();
  S.configure("8K:32K");
  constexpr uint64_t Bytes = 20000;
  std::vector<char> Buf(S.bufferBytes(Bytes));
  std::iota(Buf.begin(), Buf.begin() + Bytes, 0);
  std::vector<char> Stream(Buf.begin(), Buf.begin() + Bytes);
  uint64_t Before = S.count();
  SplitSends::Wire W = S.wire(Buf.data(), Bytes);
  EXPECT_EQ(S.count(), Before + 1);
  ASSERT_EQ(W.Count, 1);
  // n times MPI_PACKED: any receive of the contiguous message matches.
  MPI_Count Size = 0, Lb = 0, Extent = 0;
  MPI_Type_size_c(W.Type, &Size);
  EXPECT_EQ(Size, static_cast<MPI_Count>(Bytes));
  MPI_Type_get_true_extent_c(W.Type, &Lb, &Extent);
  EXPECT_EQ(Lb, 0);
  EXPECT_EQ(Extent, static_cast<MPI_Count>(Bytes + SplitSends::Gap));
  // What MPI packs from the two blocks is the stream.
  std::vector<char> Packed(Bytes);
  int Position = 0;
  MPI_Pack(Buf.data(), 1, W.Type, Packed.data(), static_cast<int>(Bytes),
           &Position, MPI_COMM_SELF);
  EXPECT_EQ(Position, static_cast<int>(Bytes));
  EXPECT_EQ(Packed, Stream);
  // Outside the window, and where not split: contiguous.
  SplitSends::Wire C = S.wire(Buf.data(), 4000);
  EXPECT_EQ(C.Count, 4000);
  EXPECT_EQ(C.Type, MPI_PACKED);
  S.configure("off");
}

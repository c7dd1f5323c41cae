//===- unittests/Runtime/SparseBlocksTest.cpp - The sparse-blocks rule ----===//
//
// From how many instances a message of a nest of vectors touches more pages
// than a TLB holds (4,096 pages of 4 KiB here), so that it goes to MPI as
// written. Whether the runtime then leaves such messages to MPI is checked
// with ranks by test/Runtime/rt-sparse.test.
//
//===----------------------------------------------------------------------===//
#include "SparseBlocks.h"

#include "ddtc/IR/TypeContext.h"
#include "ddtc/Target/MPICHRules.h"

#include <gtest/gtest.h>

using namespace ddtc;

namespace {

constexpr uint64_t Page = 4096;

class SparseBlocksTest : public ::testing::Test {
protected:
  TypeContext Ctx{getMPICHRules()};
  const Type *Double = Ctx.getPredefined(PredefinedId::Double);

  const Type *vector(int64_t Count, int64_t BlockLength, int64_t Stride,
                     const Type *Old) {
    return *Ctx.getVector(Count, BlockLength, Stride, Old);
  }
  const Type *hvector(int64_t Count, int64_t Stride, const Type *Old) {
    return *Ctx.getHVector(Count, 1, Stride, Old);
  }
  /// What the runtime computes at commit for T.
  uint64_t from(const Type *T) {
    const TypeLayout &L = T->getLayout();
    return isStridedNest(T)
               ? sparseFromCount(L, T->size() / L.Blocks.Count, Page)
               : 0;
  }
};

TEST_F(SparseBlocksTest, BlocksAPageApartCountOnePagePerBlock) {
  // 2,048 doubles 4,160 bytes apart: two instances are 4,096 pages.
  EXPECT_EQ(from(vector(2048, 1, 520, Double)), 2u);
  // One instance of 4,096 is enough; 64 need 64 instances.
  EXPECT_EQ(from(vector(4096, 1, 520, Double)), 1u);
  EXPECT_EQ(from(vector(64, 1, 520, Double)), 64u);
}

TEST_F(SparseBlocksTest, BlocksSharingPagesCountThePagesTheyCover) {
  // DDTBench's NAS_MG_x face of 128 x 128 doubles, rows 2,064 bytes and
  // planes 268,320 bytes apart: 34 MB, some 8,400 pages, in one instance.
  const Type *Row = vector(128, 1, 258, Double);
  EXPECT_EQ(from(hvector(128, 268320, Row)), 1u);
  // A 64 x 64 face at those strides covers 2,128 pages: two instances
  // reach 4,096.
  const Type *Small = vector(64, 1, 258, Double);
  EXPECT_EQ(from(hvector(64, 136224, Small)), 2u);
  // 2,048 doubles 2,080 bytes apart cover 1,040 pages an instance;
  // consecutive instances lie an extent apart, so four cover 4,160.
  EXPECT_EQ(from(vector(2048, 1, 260, Double)), 4u);
}

TEST_F(SparseBlocksTest, InstancesCloserThanTheirSpanCoverFewerPages) {
  // 4,096 doubles a page apart, resized to an extent of 8 bytes: the
  // instances of a message interleave on the same 4,096 pages, so one is
  // enough. 1,024 of them resized to 4 KiB: each further instance adds one
  // page to the 1,024 of the first.
  const Type *Face = vector(4096, 1, 512, Double);
  EXPECT_EQ(from(*Ctx.getResized(0, 8, Face)), 1u);
  const Type *Short = vector(1024, 1, 512, Double);
  EXPECT_EQ(from(*Ctx.getResized(0, 4096, Short)), 3073u);
  // An extent of 0 puts every instance on the same pages: never.
  EXPECT_EQ(from(*Ctx.getResized(0, 0, Short)), 0u);
}

TEST_F(SparseBlocksTest, DenseLinesAndLongBlocksAreNotSparse) {
  // Doubles 32 bytes apart share cache lines, which a kernel streams,
  // however many pages they cover.
  EXPECT_EQ(from(vector(1 << 22, 1, 4, Double)), 0u);
  // Blocks longer than a cache line are copied in stretches.
  EXPECT_EQ(from(vector(8192, 9, 520, Double)), 0u);
  // A cache line a block, a page apart, counts.
  EXPECT_EQ(from(vector(4096, 8, 512, Double)), 1u);
}

TEST_F(SparseBlocksTest, OnlyNestsOfVectors) {
  std::vector<int64_t> Displs;
  for (int64_t I = 0; I < 8192; ++I)
    Displs.push_back(520 * I);
  const Type *List = *Ctx.getIndexedBlock(1, Displs, Double);
  EXPECT_FALSE(isStridedNest(List));
  EXPECT_TRUE(isStridedNest(*Ctx.getDup(*Ctx.getContiguous(
      2, hvector(128, 268320, vector(128, 1, 258, Double))))));
}

} // namespace

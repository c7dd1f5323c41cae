//===- unittests/CodeGen/PackPlanTest.cpp ---------------------------------===//
//
// The plan lib/CodeGen/PackPlan.cpp makes for hand-made types, one test per
// decision: runs or loops, strided or tabled segments, repetitions, dense
// children as one block, grouping and splitting of list pieces, prefetching
// and tiling. The expected plans are worked out from the types by hand (the
// arithmetic is in the comments). Each plan is also interpreted
// (ddtc/Testing/PlanInterpreter.h) and must copy exactly the typemap's
// bytes, in order.
//
//===----------------------------------------------------------------------===//
#include "ddtc/CodeGen/PackPlan.h"
#include "ddtc/IR/TypeContext.h"
#include "ddtc/Target/MPICHRules.h"
#include "ddtc/Testing/PlanInterpreter.h"

#include <gtest/gtest.h>

#include <vector>

using namespace ddtc;

namespace {

class PackPlanTest : public ::testing::Test {
protected:
  // First: the members below are initialized from it.
  TypeContext Ctx{getMPICHRules()};
  const Type *Int = Ctx.getPredefined(PredefinedId::Int);
  const Type *Double = Ctx.getPredefined(PredefinedId::Double);

  /// The kernel of T in a fresh plan, after checking that the plan of T
  /// copies the typemap's bytes of three instances.
  const Kernel &plan(const Type *T, const PlanOptions &Options = {}) {
    Plan = std::make_unique<PackPlan>(Options);
    const Kernel &K = Plan->getKernel(T);
    EXPECT_EQ(interpretPlan(K, T->extent(), 3), typemapBytes(T, 3));
    return K;
  }

  std::unique_ptr<PackPlan> Plan;
};

TEST_F(PackPlanTest, NoDataIsEmpty) {
  const Kernel &K = plan(*Ctx.getContiguous(0, Int));
  EXPECT_EQ(K.Shape, KernelShape::Empty);
  EXPECT_TRUE(K.Runs.empty());
  EXPECT_TRUE(K.Segments.empty());
}

TEST_F(PackPlanTest, ContiguousIsOneBlock) {
  // 4 doubles, one 32-byte block at 0.
  const Kernel &K = plan(*Ctx.getContiguous(4, Double));
  EXPECT_EQ(K.Shape, KernelShape::Block);
  EXPECT_EQ(K.Runs, (std::vector<ByteBlock>{{0, 32}}));
}

TEST_F(PackPlanTest, FewBlocksAreRuns) {
  // 3 ints, 2 ints apart: blocks of 4 bytes at 0, 8 and 16; 3 <= 16 runs.
  const Kernel &K = plan(*Ctx.getVector(3, 1, 2, Int));
  EXPECT_EQ(K.Shape, KernelShape::Runs);
  EXPECT_EQ(K.Runs, (std::vector<ByteBlock>{{0, 4}, {8, 4}, {16, 4}}));
  EXPECT_TRUE(K.Segments.empty());
}

TEST_F(PackPlanTest, VectorOfDoublesIsOneStridedSegment) {
  // 200 blocks of 2 doubles, 5 doubles (40 bytes) apart: 200 > 16 blocks,
  // so one loop of 200 elements, each 2 copies of the dense double.
  const Kernel &K = plan(*Ctx.getVector(200, 2, 5, Double));
  ASSERT_EQ(K.Shape, KernelShape::Loops);
  ASSERT_EQ(K.Segments.size(), 1u);
  const Segment &S = K.Segments[0];
  EXPECT_EQ(S.Child, Double);
  EXPECT_TRUE(S.DenseChild);
  EXPECT_EQ(S.ChildKernel, nullptr);
  EXPECT_TRUE(S.Strided);
  EXPECT_EQ(S.Count, 200u);
  EXPECT_EQ(S.Disp0, 0);
  EXPECT_EQ(S.Stride, 40);
  EXPECT_TRUE(S.uniformReps());
  EXPECT_EQ(S.Reps, 2);
  EXPECT_EQ(S.PackedStart, 0u);
  EXPECT_EQ(S.PackedSize, 200u * 2 * 8);
  // A constant stride is left to the hardware prefetcher.
  EXPECT_EQ(S.Prefetch, 0u);
  EXPECT_FALSE(K.tiled());
  // The dense child needs no kernel of its own.
  EXPECT_EQ(Plan->kernels().size(), 1u);
}

TEST_F(PackPlanTest, DenseChildBlockIsOneCopy) {
  // Blocks of 3 copies of a dense pair of doubles (16 bytes): an element
  // is one block of 48 bytes, at 100 bytes apart (hvector); 20 blocks.
  const Type *Pair = *Ctx.getContiguous(2, Double);
  const Kernel &K = plan(*Ctx.getHVector(20, 3, 100, Pair));
  ASSERT_EQ(K.Shape, KernelShape::Loops);
  ASSERT_EQ(K.Segments.size(), 1u);
  const Segment &S = K.Segments[0];
  EXPECT_EQ(S.Child, Pair);
  EXPECT_TRUE(S.DenseChild);
  EXPECT_EQ(S.Reps, 3);
  EXPECT_EQ(S.Stride, 100);
  EXPECT_EQ(S.PackedSize, 20u * 48);
  // Interpreted: one 48-byte block per element.
  std::vector<ByteBlock> Blocks = interpretPlan(K, K.T->extent(), 1);
  ASSERT_EQ(Blocks.size(), 20u);
  EXPECT_EQ(Blocks[1], (ByteBlock{100, 48}));
}

TEST_F(PackPlanTest, RepetitionsOfSparseChildCallItsKernel) {
  // A vector of 3 ints 2 apart has size 12, extent 20 and blocks at 0, 8,
  // 16; 10 of them touch end to start (16 + 4 = 20), so 10 * 3 - 9 = 21
  // blocks > 16: one segment of 1 element of 10 copies of the child,
  // whose own kernel (the 3 runs) comes first.
  const Type *V = *Ctx.getVector(3, 1, 2, Int);
  const Kernel &K = plan(*Ctx.getContiguous(10, V));
  ASSERT_EQ(K.Shape, KernelShape::Loops);
  ASSERT_EQ(K.Segments.size(), 1u);
  const Segment &S = K.Segments[0];
  EXPECT_EQ(S.Child, V);
  EXPECT_FALSE(S.DenseChild);
  ASSERT_NE(S.ChildKernel, nullptr);
  EXPECT_EQ(S.ChildKernel->T, V);
  EXPECT_EQ(S.ChildKernel->Shape, KernelShape::Runs);
  EXPECT_EQ(S.Count, 1u);
  EXPECT_EQ(S.Reps, 10);
  EXPECT_EQ(S.PackedSize, 10u * 12);
  ASSERT_EQ(Plan->kernels().size(), 2u);
  EXPECT_EQ(S.ChildKernel->Id, 0u);
  EXPECT_EQ(K.Id, 1u);
}

TEST_F(PackPlanTest, CopiesOfResizedElementAreAStridedLoop) {
  // contiguous(100, resized(0, 12, MPI_INT)), the normal form of one int
  // of every three: the same loop as vector(100, 1, 3, MPI_INT) -- 100
  // elements 12 bytes apart, each one dense int, unrolled (small moves at
  // a short stride) -- not 100 calls of the resized int's kernel.
  for (const Type *T : {*Ctx.getContiguous(100, *Ctx.getResized(0, 12, Int)),
                        *Ctx.getVector(100, 1, 3, Int)}) {
    const Kernel &K = plan(T); // valid until the next plan()
    ASSERT_EQ(K.Segments.size(), 1u);
    const Segment &S = K.Segments[0];
    EXPECT_EQ(S.Child, Int);
    EXPECT_TRUE(S.DenseChild);
    EXPECT_EQ(S.Count, 100u);
    EXPECT_EQ(S.Stride, 12);
    EXPECT_EQ(S.Reps, 1);
    EXPECT_EQ(S.Unroll, 8u);
  }
}

TEST_F(PackPlanTest, ResizedAndDupAreLookedThrough) {
  const Type *V = *Ctx.getVector(30, 1, 2, Int);
  PackPlan P;
  const Kernel &K = P.getKernel(V);
  EXPECT_EQ(&P.getKernel(*Ctx.getResized(-8, 400, V)), &K);
  EXPECT_EQ(&P.getKernel(*Ctx.getDup(V)), &K);
  EXPECT_EQ(P.kernels().size(), 1u);
}

TEST_F(PackPlanTest, IrregularIndexListIsTabled) {
  // 130 ints at 3k + (k mod 2) ints: steps of 4 and 2 ints, never adjacent,
  // so 130 blocks and no arithmetic progression: one table of byte
  // displacements 4 * (3k + k mod 2). 130 >= 2 * 64 elements of 4 <= 64
  // bytes: the loop prefetches 64 elements ahead.
  std::vector<int64_t> Lengths(130, 1), Disps, Bytes;
  for (int64_t K = 0; K < 130; ++K) {
    Disps.push_back(3 * K + K % 2);
    Bytes.push_back(4 * (3 * K + K % 2));
  }
  const Kernel &K = plan(*Ctx.getIndexed(Lengths, Disps, Int));
  ASSERT_EQ(K.Shape, KernelShape::Loops);
  ASSERT_EQ(K.Segments.size(), 1u);
  const Segment &S = K.Segments[0];
  EXPECT_FALSE(S.Strided);
  EXPECT_EQ(S.Count, 130u);
  EXPECT_EQ(S.Disps, Bytes);
  EXPECT_EQ(S.Reps, 1);
  EXPECT_TRUE(S.DenseChild);
  EXPECT_EQ(S.Prefetch, 64u);
}

TEST_F(PackPlanTest, ShortIrregularTableIsNotPrefetched) {
  // The same with 127 elements: fewer than twice the distance.
  std::vector<int64_t> Lengths(127, 1), Disps;
  for (int64_t K = 0; K < 127; ++K)
    Disps.push_back(3 * K + K % 2);
  const Kernel &K = plan(*Ctx.getIndexed(Lengths, Disps, Int));
  ASSERT_EQ(K.Segments.size(), 1u);
  EXPECT_FALSE(K.Segments[0].Strided);
  EXPECT_EQ(K.Segments[0].Prefetch, 0u);
}

TEST_F(PackPlanTest, IndexListInProgressionIsStrided) {
  // hindexed_block: 20 blocks of 2 ints at 50 + 24k bytes.
  std::vector<int64_t> Disps;
  for (int64_t K = 0; K < 20; ++K)
    Disps.push_back(50 + 24 * K);
  const Kernel &K = plan(*Ctx.getHIndexedBlock(2, Disps, Int));
  ASSERT_EQ(K.Segments.size(), 1u);
  const Segment &S = K.Segments[0];
  EXPECT_TRUE(S.Strided);
  EXPECT_TRUE(S.Disps.empty());
  EXPECT_EQ(S.Disp0, 50);
  EXPECT_EQ(S.Stride, 24);
  EXPECT_EQ(S.Count, 20u);
  EXPECT_EQ(S.Reps, 2);
}

TEST_F(PackPlanTest, MixedBlockLengthsAreAList) {
  // 18 blocks of alternately 1 and 2 ints at 3k ints (12k bytes): one
  // strided segment with a list of repetitions (stretches of one length
  // are 1 long, below 8).
  std::vector<int64_t> Lengths, Disps, Reps;
  for (int64_t K = 0; K < 18; ++K) {
    Lengths.push_back(1 + K % 2);
    Disps.push_back(3 * K);
  }
  const Kernel &K = plan(*Ctx.getIndexed(Lengths, Disps, Int));
  ASSERT_EQ(K.Segments.size(), 1u);
  const Segment &S = K.Segments[0];
  EXPECT_TRUE(S.Strided);
  EXPECT_EQ(S.Stride, 12);
  EXPECT_FALSE(S.uniformReps());
  EXPECT_EQ(S.Reps, 0);
  EXPECT_EQ(S.RepsList, Lengths);
  EXPECT_EQ(S.PackedSize, 9u * 4 + 9u * 8);
}

TEST_F(PackPlanTest, LongStretchesOfOneLengthAreSplit) {
  // 9 blocks of 1 int, then 9 of 2 ints, at 3k ints (12k bytes): two
  // stretches of at least 8, so two segments with constant lengths.
  std::vector<int64_t> Lengths, Disps;
  for (int64_t K = 0; K < 18; ++K) {
    Lengths.push_back(K < 9 ? 1 : 2);
    Disps.push_back(3 * K);
  }
  const Kernel &K = plan(*Ctx.getIndexed(Lengths, Disps, Int));
  ASSERT_EQ(K.Segments.size(), 2u);
  const Segment &A = K.Segments[0], &B = K.Segments[1];
  EXPECT_EQ(A.Count, 9u);
  EXPECT_EQ(A.Reps, 1);
  EXPECT_EQ(A.Disp0, 0);
  EXPECT_EQ(A.Stride, 12);
  EXPECT_EQ(A.PackedStart, 0u);
  EXPECT_EQ(A.PackedSize, 36u);
  EXPECT_EQ(B.Count, 9u);
  EXPECT_EQ(B.Reps, 2);
  EXPECT_EQ(B.Disp0, 108);
  EXPECT_EQ(B.Stride, 12);
  EXPECT_EQ(B.PackedStart, 36u);
  EXPECT_EQ(B.PackedSize, 72u);
}

TEST_F(PackPlanTest, StructGroupsMembersOfOneType) {
  // 10 ints 8 bytes apart, a member without data, 10 doubles 16 bytes
  // apart from 80: the empty member is dropped and each run of members of
  // one type is a segment, 20 blocks in all.
  std::vector<int64_t> Lengths, Disps;
  std::vector<const Type *> Types;
  for (int64_t K = 0; K < 10; ++K) {
    Lengths.push_back(1);
    Disps.push_back(8 * K);
    Types.push_back(Int);
  }
  Lengths.push_back(0);
  Disps.push_back(4);
  Types.push_back(Int);
  for (int64_t K = 0; K < 10; ++K) {
    Lengths.push_back(1);
    Disps.push_back(80 + 16 * K);
    Types.push_back(Double);
  }
  const Kernel &K = plan(*Ctx.getStruct(Lengths, Disps, Types));
  ASSERT_EQ(K.Shape, KernelShape::Loops);
  ASSERT_EQ(K.Segments.size(), 2u);
  const Segment &A = K.Segments[0], &B = K.Segments[1];
  EXPECT_EQ(A.Child, Int);
  EXPECT_EQ(A.Count, 10u);
  EXPECT_TRUE(A.Strided);
  EXPECT_EQ(A.Stride, 8);
  EXPECT_EQ(A.PackedSize, 40u);
  EXPECT_EQ(B.Child, Double);
  EXPECT_EQ(B.Count, 10u);
  EXPECT_EQ(B.Disp0, 80);
  EXPECT_EQ(B.Stride, 16);
  EXPECT_EQ(B.PackedStart, 40u);
  EXPECT_EQ(B.PackedSize, 80u);
}

/// A column of an N x N matrix of doubles: N doubles N doubles apart.
const Type *column(TypeContext &Ctx, int64_t N) {
  return *Ctx.getVector(N, 1, N, Ctx.getPredefined(PredefinedId::Double));
}

TEST_F(PackPlanTest, LargeTransposeIsTiled) {
  // 512 columns 8 bytes apart, each 512 doubles 4096 bytes apart: a column
  // touches 512 pages >= 64; the row of 512 blocks spans 511 * 8 + 8 = 4096
  // <= 4096 bytes, so the blocks are disjoint. Tiles of 64 x 8.
  const Type *T = *Ctx.getHVector(512, 1, 8, column(Ctx, 512));
  PackPlan P;
  const Kernel &K = P.getKernel(T);
  ASSERT_EQ(K.Shape, KernelShape::Loops);
  ASSERT_TRUE(K.tiled());
  EXPECT_EQ(K.Tile.Columns, 512u);
  EXPECT_EQ(K.Tile.Rows, 512u);
  EXPECT_EQ(K.Tile.ColumnStride, 8);
  EXPECT_EQ(K.Tile.RowStride, 4096);
  EXPECT_EQ(K.Tile.Offset, 0);
  EXPECT_EQ(K.Tile.BlockBytes, 8);
  EXPECT_EQ(K.Tile.TileColumns, 64u);
  EXPECT_EQ(K.Tile.TileRows, 8u);
  // The segments still describe typemap order (for pack_range).
  ASSERT_EQ(K.Segments.size(), 1u);
  EXPECT_EQ(K.Segments[0].Count, 512u);
  EXPECT_EQ(K.Segments[0].Stride, 8);
}

TEST_F(PackPlanTest, TransposeAsContiguousOfResizedColumnIsTiled) {
  // The same layout as normalization writes it: 512 copies of the column
  // resized to an extent of 8. The layout decides, not the kind.
  const Type *T =
      *Ctx.getContiguous(512, *Ctx.getResized(0, 8, column(Ctx, 512)));
  PackPlan P;
  const Kernel &K = P.getKernel(T);
  ASSERT_TRUE(K.tiled());
  EXPECT_EQ(K.Tile.Columns, 512u);
  EXPECT_EQ(K.Tile.Rows, 512u);
  EXPECT_EQ(K.Tile.ColumnStride, 8);
  EXPECT_EQ(K.Tile.RowStride, 4096);
}

TEST_F(PackPlanTest, SmallTransposeIsNotTiled) {
  // 32 x 32: a column spans 31 * 256 + 8 = 7944 bytes, 2 pages < 64. The
  // page count is what decides: a threshold of 2 pages tiles it, 3 not.
  const Type *T = *Ctx.getHVector(32, 1, 8, column(Ctx, 32));
  const Kernel &K = plan(T);
  ASSERT_EQ(K.Shape, KernelShape::Loops);
  EXPECT_FALSE(K.tiled());
  PlanOptions Options;
  Options.TileMinPages = 2;
  EXPECT_TRUE(plan(T, Options).tiled());
  Options.TileMinPages = 3;
  EXPECT_FALSE(plan(T, Options).tiled());
}

TEST_F(PackPlanTest, OverlappingColumnsAreNotTiled) {
  // Columns 8 bytes apart of blocks of 2 doubles (16 bytes) overlap, and
  // tiling would reorder overlapping writes in unpack.
  const Type *Col = *Ctx.getVector(512, 2, 512, Double);
  const Kernel &K = plan(*Ctx.getHVector(256, 1, 8, Col));
  EXPECT_FALSE(K.tiled());
}

TEST_F(PackPlanTest, TilesAtSmallThresholdsCopyTheTypemap) {
  // A 6 x 5 transpose with 64-byte pages: a column of 5 doubles 48 bytes
  // apart spans 4 * 48 + 8 = 200 bytes, 4 pages >= 1. Its 5 blocks make it
  // a loop (a transpose's column must be) only above 4 unrolled runs.
  // Tiles of 4 x 2 divide neither 6 columns nor 5 rows; plan() checks the
  // bytes.
  PlanOptions Options;
  Options.MaxUnrolledRuns = 4;
  Options.TileMinPages = 1;
  Options.PageBytes = 64;
  Options.TileColumns = 4;
  Options.TileRows = 2;
  const Type *Col = *Ctx.getVector(5, 1, 6, Double);
  const Kernel &K = plan(*Ctx.getHVector(6, 1, 8, Col), Options);
  ASSERT_TRUE(K.tiled());
  EXPECT_EQ(K.Tile.Columns, 6u);
  EXPECT_EQ(K.Tile.Rows, 5u);
  EXPECT_EQ(K.Tile.RowStride, 48);
  EXPECT_EQ(K.Tile.TileColumns, 4u);
  EXPECT_EQ(K.Tile.TileRows, 2u);
}

} // namespace

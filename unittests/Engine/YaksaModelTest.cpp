//===- unittests/Engine/YaksaModelTest.cpp --------------------------------===//
//
// The replay of MPICH's engine: Yaksa's shortcuts, the path it takes, and
// the work counted for shapes whose loops can be counted by hand.
//
//===----------------------------------------------------------------------===//
#include "ddtc/Engine/YaksaModel.h"
#include "ddtc/IR/TypeContext.h"
#include "ddtc/Target/MPICHRules.h"

#include <gtest/gtest.h>

using namespace ddtc;

namespace {

class YaksaModelTest : public ::testing::Test {
protected:
  const Type *get(Expected<const Type *> T) {
    EXPECT_TRUE(bool(T));
    return *T;
  }
  TypeContext Ctx{getMPICHRules()};
  const Type *Int = Ctx.getPredefined(PredefinedId::Int);
  const Type *Double = Ctx.getPredefined(PredefinedId::Double);
  YaksaModel Model;
};

TEST_F(YaksaModelTest, Shortcuts) {
  // A vector of count 1 and blocklength 1 is its oldtype: memcpy.
  EXPECT_EQ(Model.describePath(get(Ctx.getVector(1, 1, 7, Int))), "memcpy");
  // Block-indexed from 0, equally spaced: an hvector.
  int64_t Even[] = {0, 3, 6, 9};
  EXPECT_EQ(Model.describePath(get(Ctx.getIndexedBlock(2, Even, Int))),
            "kernel hvector");
  int64_t Uneven[] = {0, 3, 8, 11};
  EXPECT_EQ(Model.describePath(get(Ctx.getIndexedBlock(2, Uneven, Int))),
            "kernel blkhindx");
  // Indexed with equal lengths: block-indexed.
  int64_t Lengths[] = {2, 2, 2, 2};
  EXPECT_EQ(Model.describePath(get(Ctx.getIndexed(Lengths, Uneven, Int))),
            "kernel blkhindx");
  int64_t Mixed[] = {1, 2, 1, 2};
  EXPECT_EQ(Model.describePath(get(Ctx.getIndexed(Mixed, Uneven, Int))),
            "kernel hindexed");
  // A struct of one member type is an indexed; of two, the interpreter.
  int64_t Ones[] = {1, 1};
  int64_t Displs[] = {0, 16};
  const Type *Same[] = {Double, Double};
  const Type *Two[] = {Double, Int};
  EXPECT_EQ(Model.describePath(get(Ctx.getStruct(Ones, Displs, Same))),
            "kernel hvector");
  EXPECT_EQ(Model.describePath(get(Ctx.getStruct(Ones, Displs, Two))),
            "interpreter struct (2 members)");
}

TEST_F(YaksaModelTest, KernelsAreThreeLevelsDeep) {
  // MPICH 4.0.2's Yaksa generates kernels three levels deep.
  const Type *V = get(Ctx.getVector(2, 2, 3, Int));
  const Type *VV = get(Ctx.getHVector(8, 1, 64, V));
  EXPECT_EQ(Model.describePath(VV), "kernel hvector_hvector");
  const Type *VVV = get(Ctx.getHVector(4, 1, 1024, VV));
  EXPECT_EQ(Model.describePath(VVV), "kernel hvector_hvector_hvector");
  const Type *VVVV = get(Ctx.getHVector(3, 1, 8192, VVV));
  EXPECT_EQ(Model.describePath(VVVV),
            "interpreter hvector -> kernel hvector_hvector_hvector");
  // Four levels: one dispatch per block of the top node, plus its own.
  EngineWork W = Model.packWork(VVVV, 1);
  EXPECT_EQ(W[WorkUnit::Dispatch], 1 + 3);
  EXPECT_EQ(W[WorkUnit::Call], 1);
}

TEST_F(YaksaModelTest, KernelLoopsCountedByHand) {
  // hvector(100, 2, 16 bytes, MPI_INT), count 3: the i loop runs 3 times,
  // the j loop 300, the unrolled k loop copies 600 elements.
  const Type *V = get(Ctx.getHVector(100, 2, 16, Int));
  EngineWork W = Model.packWork(V, 3);
  EXPECT_EQ(W[WorkUnit::Dispatch], 1);
  EXPECT_EQ(W[WorkUnit::LoopIteration], 3 + 300);
  EXPECT_EQ(W[unrolledUnit(ElementClass::I32, 2)], 600);
  EXPECT_EQ(W[blockUnit(ElementClass::I32, BlockLoop::HVector)], 0);
  EXPECT_EQ(W[WorkUnit::InnerLoop], 0);
  EXPECT_EQ(W[WorkUnit::KernelByte], 3 * 800);
  // Blocks of 9: a run-time innermost loop, entered once per block, over
  // elements a constant size apart.
  const Type *G = get(Ctx.getHVector(100, 9, 64, Int));
  EngineWork WG = Model.packWork(G, 1);
  EXPECT_EQ(WG[blockUnit(ElementClass::I32, BlockLoop::HVector)], 900);
  EXPECT_EQ(WG[WorkUnit::InnerLoop], 100);
  // A contiguous type's loop steps by its child's extent, read at run
  // time: resized(contiguous(9, MPI_INT)), count 100, priced per class.
  const Type *R = get(Ctx.getResized(0, 64, get(Ctx.getContiguous(9, Int))));
  EXPECT_EQ(Model.describePath(R), "kernel resized_contig");
  EngineWork WR = Model.packWork(R, 100);
  EXPECT_EQ(WR[stridedUnit(ElementClass::I32, 2)], 900);
  EXPECT_EQ(WR[WorkUnit::InnerLoop], 100);
  EXPECT_EQ(WR[blockUnit(ElementClass::I32, BlockLoop::HVector)], 0);
  // The same loop in a kernel of three levels is another function, priced
  // apart: contiguous(100, resized(contiguous(9, MPI_INT))).
  EngineWork W3 = Model.packWork(get(Ctx.getContiguous(100, R)), 1);
  EXPECT_EQ(W3[stridedUnit(ElementClass::I32, 3)], 900);
  EXPECT_EQ(W3[stridedUnit(ElementClass::I32, 2)], 0);
  EngineWork WD = Model.packWork(
      get(Ctx.getResized(0, 128, get(Ctx.getContiguous(9, Double)))), 100);
  EXPECT_EQ(WD[stridedUnit(ElementClass::F64, 2)], 900);
  EXPECT_EQ(WD[stridedUnit(ElementClass::I32, 2)], 0);
  // A vector's block loop above a resize steps by the resized extent.
  const Type *RI = get(Ctx.getResized(0, 8, Int));
  EngineWork WV = Model.packWork(get(Ctx.getVector(10, 12, 30, RI)), 1);
  EXPECT_EQ(WV[stridedUnit(ElementClass::I32, 2)], 120);
  EXPECT_EQ(WV[blockUnit(ElementClass::I32, BlockLoop::HVector)], 0);
  // A block-indexed list loads one displacement per block.
  int64_t Uneven[] = {0, 3, 8, 11};
  EngineWork WB = Model.packWork(get(Ctx.getIndexedBlock(2, Uneven, Int)), 5);
  EXPECT_EQ(WB[WorkUnit::IndexLoad], 20);
  // Blocks of 9 of a block-indexed list: its own block loop's price.
  EngineWork WB9 = Model.packWork(get(Ctx.getIndexedBlock(9, Uneven, Int)), 1);
  EXPECT_EQ(WB9[blockUnit(ElementClass::I32, BlockLoop::BlkHindx)], 36);
  EXPECT_EQ(WB9[blockUnit(ElementClass::I32, BlockLoop::HVector)], 0);
}

TEST_F(YaksaModelTest, LargeBlocksGoThroughTheIovec) {
  // Blocks of 32 KiB: memcpy per piece instead of the kernel.
  const Type *V = get(Ctx.getVector(4, 4096, 8192, Double));
  EXPECT_EQ(Model.describePath(V), "memcpy per piece (iovec)");
  EngineWork W = Model.packWork(V, 2);
  EXPECT_EQ(W[WorkUnit::CopyCall], 8);
  EXPECT_EQ(W[WorkUnit::CopyByte], 2 * 4 * 4096 * 8);
}

TEST_F(YaksaModelTest, HugeTypesAreCountedNotWalked) {
  // 10^12 elements: counted from the tree, without a walk.
  const Type *Inner = get(Ctx.getHVector(1000000, 1, 16, Double));
  const Type *Outer = get(Ctx.getHVector(1000000, 1, int64_t(1) << 25, Inner));
  EngineWork W = Model.packWork(Outer, 1);
  EXPECT_DOUBLE_EQ(W[unrolledUnit(ElementClass::F64, 1)], 1e12);
}

TEST_F(YaksaModelTest, SendsCutLargeInstancesBlockByBlock) {
  // tiled_A2 of seed 000 (docs/design.md#references) as described, and its
  // normal form. Sent with count 1 in 8 KiB fragments: the contiguous hands
  // whole instances of its 16-byte unit to one kernel call per fragment; the
  // vector is cut block by block, one dispatch each.
  const Type *Unit = get(Ctx.getResized(0, 16, get(Ctx.getContiguous(2, Int))));
  const Type *Given = get(Ctx.getContiguous(2048, Unit));
  const Type *Normal =
      get(Ctx.getResized(0, 32768, get(Ctx.getVector(2048, 2, 4, Int))));
  EXPECT_LT(Model.fragmentedPackWork(Given, 1)[WorkUnit::Dispatch], 16);
  EXPECT_GE(Model.fragmentedPackWork(Normal, 1)[WorkUnit::Dispatch], 2048);
  // MPI_Pack of the whole message in one call does not cut it.
  EXPECT_LE(Model.packWork(Normal, 1)[WorkUnit::Dispatch], 1);
}

} // namespace

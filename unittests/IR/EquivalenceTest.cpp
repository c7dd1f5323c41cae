//===- unittests/IR/EquivalenceTest.cpp -----------------------------------===//
//
// Different descriptions of one layout are equivalent; near misses are not.
//
//===----------------------------------------------------------------------===//
#include "ddtc/IR/Equivalence.h"
#include "ddtc/IR/TypeContext.h"
#include "ddtc/Target/MPICHRules.h"

#include <gtest/gtest.h>

using namespace ddtc;

namespace {

class EquivalenceTest : public ::testing::Test {
protected:
  TypeContext Ctx{getMPICHRules()};
  const Type *Int = Ctx.getPredefined(PredefinedId::Int);
  const Type *TwoInt = Ctx.getPredefined(PredefinedId::TwoInt);
};

TEST_F(EquivalenceTest, DescriptionsOfOneLayout) {
  // A 4x3 block of ints in rows of 10: vector, indexed_block, subarray.
  const Type *V = *Ctx.getVector(4, 3, 10, Int);
  int64_t Disps[] = {0, 10, 20, 30};
  const Type *IB = *Ctx.getIndexedBlock(3, Disps, Int);
  EXPECT_TRUE(checkEquivalent(V, IB).Equivalent);
  int64_t Sizes[] = {4, 10}, Sub[] = {4, 3}, Starts[] = {0, 0};
  const Type *S = *Ctx.getSubarray(Sizes, Sub, Starts, ArrayOrder::C, Int);
  // Same typemap, different extent (the subarray spans the whole array).
  EXPECT_TRUE(checkEquivalent(V, S, 1, /*CheckBounds=*/false).Equivalent);
  EquivalenceResult R = checkEquivalent(V, S);
  EXPECT_FALSE(R.Equivalent);
  EXPECT_EQ(R.Difference, "extent 132 vs 160");
  const Type *Resized = *Ctx.getResized(0, 160, V);
  EXPECT_TRUE(checkEquivalent(Resized, S).Equivalent);
  EXPECT_TRUE(checkEquivalent(Resized, S, 3).Equivalent);
}

TEST_F(EquivalenceTest, PairTypesAreTheirComponents) {
  const Type *C = *Ctx.getContiguous(2, Int);
  EXPECT_TRUE(checkEquivalent(TwoInt, C).Equivalent);
}

TEST_F(EquivalenceTest, ReportsTheFirstDifference) {
  int64_t A[] = {0, 2}, B[] = {0, 3};
  const Type *X = *Ctx.getResized(0, 16, *Ctx.getIndexedBlock(1, A, Int));
  const Type *Y = *Ctx.getResized(0, 16, *Ctx.getIndexedBlock(1, B, Int));
  EquivalenceResult R = checkEquivalent(X, Y);
  EXPECT_FALSE(R.Equivalent);
  EXPECT_EQ(R.Difference,
            "run 1: MPI_INT at 8 (4 bytes) vs MPI_INT at 12 (4 bytes)");
  // Same bytes, different signature.
  const Type *F = *Ctx.getContiguous(2, Ctx.getPredefined(PredefinedId::Float));
  EXPECT_FALSE(checkEquivalent(F, TwoInt).Equivalent);
}

} // namespace

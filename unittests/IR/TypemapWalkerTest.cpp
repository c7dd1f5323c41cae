//===- unittests/IR/TypemapWalkerTest.cpp ---------------------------------===//
//
// The walker's runs for hand-made types, and its agreement with the
// symbolic block summary on every kind.
//
//===----------------------------------------------------------------------===//
#include "ddtc/IR/TypemapWalker.h"
#include "ddtc/IR/TypeContext.h"
#include "ddtc/Target/MPICHRules.h"

#include <gtest/gtest.h>

using namespace ddtc;

namespace {

std::vector<TypemapRun> runs(const Type *T, uint64_t Count, WalkMode Mode) {
  std::vector<TypemapRun> R;
  TypemapWalker W(T, Count, Mode);
  TypemapRun Run;
  while (W.next(Run))
    R.push_back(Run);
  return R;
}

TEST(TypemapWalkerTest, VectorOfIntWithNegativeStride) {
  TypeContext Ctx(getMPICHRules());
  const Type *Int = Ctx.getPredefined(PredefinedId::Int);
  const Type *V = *Ctx.getVector(3, 2, -4, Int);
  std::vector<TypemapRun> R = runs(V, 1, WalkMode::Bytes);
  ASSERT_EQ(R.size(), 3u);
  EXPECT_EQ(R[0], (TypemapRun{0, 8, PredefinedId::Byte}));
  EXPECT_EQ(R[1], (TypemapRun{-16, 8, PredefinedId::Byte}));
  EXPECT_EQ(R[2], (TypemapRun{-32, 8, PredefinedId::Byte}));
}

TEST(TypemapWalkerTest, TypedRunsSplitAtTypeChanges) {
  TypeContext Ctx(getMPICHRules());
  const Type *DoubleInt = Ctx.getPredefined(PredefinedId::DoubleInt);
  // Two MPI_DOUBLE_INT: double, int, (4 bytes padding), double, int.
  std::vector<TypemapRun> Typed = runs(DoubleInt, 2, WalkMode::Typed);
  ASSERT_EQ(Typed.size(), 4u);
  EXPECT_EQ(Typed[0], (TypemapRun{0, 8, PredefinedId::Double}));
  EXPECT_EQ(Typed[1], (TypemapRun{8, 4, PredefinedId::Int}));
  EXPECT_EQ(Typed[2], (TypemapRun{16, 8, PredefinedId::Double}));
  std::vector<TypemapRun> Bytes = runs(DoubleInt, 2, WalkMode::Bytes);
  ASSERT_EQ(Bytes.size(), 2u);
  EXPECT_EQ(Bytes[1].Offset, 16);
  EXPECT_EQ(Bytes[1].Length, 12);
}

TEST(TypemapWalkerTest, AgreesWithBlockSummary) {
  TypeContext Ctx(getMPICHRules());
  const Type *Int = Ctx.getPredefined(PredefinedId::Int);
  const Type *Char = Ctx.getPredefined(PredefinedId::Char);
  const Type *ShortInt = Ctx.getPredefined(PredefinedId::ShortInt);
  int64_t Bl[] = {2, 0, 1, 3}, Disp[] = {0, 7, 2, -5};
  int64_t SBl[] = {1, 2, 1}, SDisp[] = {0, 1, 9};
  const Type *ST[] = {Char, Int, ShortInt};
  int64_t Sizes[] = {5, 6, 4}, Sub[] = {2, 3, 2}, Starts[] = {1, 2, 2};
  int64_t G[] = {7, 9}, D[] = {1, 0}, A[] = {2, DefaultDarg}, P[] = {2, 3};
  std::vector<const Type *> Types = {
      *Ctx.getContiguous(3, ShortInt),
      *Ctx.getVector(4, 2, 3, Int),
      *Ctx.getHVector(3, 1, -7, Int),
      *Ctx.getIndexed(Bl, Disp, Int),
      *Ctx.getHIndexedBlock(2, Disp, Char),
      *Ctx.getStruct(SBl, SDisp, ST),
      *Ctx.getResized(-4, 20, *Ctx.getVector(2, 1, 2, Int)),
      *Ctx.getSubarray(Sizes, Sub, Starts, ArrayOrder::Fortran, Int),
      *Ctx.getDarray(6, 4, G, D, A, P, ArrayOrder::C, ShortInt),
  };
  for (const Type *T : Types)
    for (uint64_t Count : {1, 2, 5}) {
      std::vector<TypemapRun> R = runs(T, Count, WalkMode::Bytes);
      const TypeLayout &L = T->getLayout();
      BlockSummary S = repeatBlocks(L.Blocks, Count, L.extent());
      ASSERT_EQ(R.size(), S.Count) << getKindName(T->getKind());
      if (R.empty())
        continue;
      EXPECT_EQ(R.front().Offset, S.First.Offset);
      EXPECT_EQ(R.front().Length, S.First.Length);
      EXPECT_EQ(R.back().Offset, S.Last.Offset);
      int64_t Bytes = 0;
      for (const TypemapRun &Run : R)
        Bytes += Run.Length;
      EXPECT_EQ(Bytes, L.Size * static_cast<int64_t>(Count));
    }
}

} // namespace

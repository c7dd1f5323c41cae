//===- unittests/Passes/PruneByGivenTest.cpp ------------------------------===//
//
// The reconstruction skips planning the pieces of a long block sequence
// when a lower bound shows that nothing built from them can beat the given
// description (ReconstructOptions::PruneByGiven, LatticePlanner.cpp). The
// bound is on predicted costs and the built trees are canonicalized
// afterwards, so the argument has a gap that only a test closes: long
// lists in the shapes applications write, and in shapes made to defeat
// the bound (copies of one chunk, pair types, blocks off the element
// grid), must get the same normal form with and without the pruning --
// and the pruning must actually happen on many of them.
//
//===----------------------------------------------------------------------===//
#include "ddtc/IR/Module.h"
#include "ddtc/IR/TextForm.h"
#include "ddtc/Passes/Normalizer.h"
#include "ddtc/Target/MPICHRules.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

using namespace ddtc;

namespace {

const Type *value(Expected<const Type *> T) {
  EXPECT_TRUE(bool(T));
  return T ? *T : nullptr;
}

/// An index list of N blocks in one of the shapes below, as the given
/// description an application would write.
const Type *longList(TypeContext &Ctx, std::mt19937_64 &Rng, int Shape,
                     int Element, size_t N) {
  auto Pick = [&](int64_t Lo, int64_t Hi) {
    return Lo + int64_t(Rng() % uint64_t(Hi - Lo + 1));
  };
  std::vector<int64_t> D;
  switch (Shape) {
  case 0: { // sorted random, blocks of 2 that sometimes touch or overlap
    int64_t At = 0;
    for (size_t K = 0; K < N; ++K)
      D.push_back(At += Pick(1, 60));
    break;
  }
  case 1: { // clustered: groups a few elements apart, groups far apart
    int64_t At = 0;
    while (D.size() < N) {
      for (int64_t G = Pick(8, 64); G-- > 0 && D.size() < N;)
        D.push_back(At += Pick(2, 4));
      At += Pick(1000, 100000);
    }
    break;
  }
  case 2: { // runs of equal gaps
    int64_t At = 0;
    while (D.size() < N) {
      int64_t Gap = Pick(2, 50);
      for (int64_t G = Pick(3, 40); G-- > 0 && D.size() < N;)
        D.push_back(At += Gap);
      At += Pick(100, 10000);
    }
    break;
  }
  case 3: { // one irregular chunk copied at random translations
    std::vector<int64_t> Chunk;
    int64_t At = 0;
    for (int K = 0; K < 50; ++K)
      Chunk.push_back(At += Pick(3, 30));
    int64_t Base = 0;
    while (D.size() < N) {
      for (int64_t X : Chunk)
        D.push_back(Base + X);
      Base += At + Pick(3, 300);
    }
    D.resize(N);
    break;
  }
  }
  if (Element == 0) // plain doubles, blocklength 2
    return value(
        Ctx.getIndexedBlock(2, D, Ctx.getPredefined(PredefinedId::Double)));
  if (Element == 1) { // pair types: MPI_DOUBLE_INT, 16 bytes apart
    for (int64_t &X : D)
      X *= 2;
    return value(
        Ctx.getIndexedBlock(1, D, Ctx.getPredefined(PredefinedId::DoubleInt)));
  }
  // Off the element grid: doubles at odd byte displacements.
  for (int64_t &X : D)
    X = 8 * X + (Rng() % 2 ? 3 : 0);
  return value(
      Ctx.getHIndexedBlock(2, D, Ctx.getPredefined(PredefinedId::Double)));
}

TEST(PruneByGivenTest, SameNormalFormsWithAndWithoutPruning) {
  std::mt19937_64 Rng(20261123);
  unsigned Pruned = 0, Compared = 0;
  for (int Round = 0; Round < 96; ++Round) {
    TypeContext Ctx(getMPICHRules());
    size_t N = 2100 + Rng() % 3000;
    const Type *T = longList(Ctx, Rng, Round % 4, Round / 4 % 3, N);
    ASSERT_TRUE(T);
    ReconstructOptions Off;
    Off.PruneByGiven = false;
    Normalizer With(Ctx), Without(Ctx, Off);
    const Type *A = With.normalize(T), *B = Without.normalize(T);
    EXPECT_EQ(A, B) << "round " << Round << ", shape " << Round % 4
                    << "\n  with:    " << printType(A).substr(0, 300)
                    << "\n  without: " << printType(B).substr(0, 300);
    Pruned += With.getReconstructor().getNumPruned();
    ++Compared;
  }
  // Sorted lists of plain doubles on the grid are pruned (8 of them).
  EXPECT_GE(Pruned, 8u) << "of " << Compared;
}

TEST(PruneByGivenTest, CopiesOfOneChunkAreNotPruned) {
  // Four copies of one lattice at irregular translations (2,400 blocks),
  // described compactly: the pieces' struct costs far more than the given
  // tree, but struct-to-hindexed makes the built struct of four equal
  // trees cheaper than it. Pruning on the bound would keep the given tree
  // (found by ReconstructTest's uniqueness check).
  TypeContext Ctx(getMPICHRules());
  Module M(Ctx);
  Error E = parseModule(
      "type t = indexed_block(blocklength=60, displacements=[20, 100, 100, "
      "-20], oldtype=resized(lb=0, extent=170, oldtype=contiguous(count=5, "
      "oldtype=resized(lb=64, extent=34, oldtype=hindexed_block(blocklength=1,"
      " displacements=[-16, -7], oldtype=MPI_C_COMPLEX)))))",
      M);
  ASSERT_FALSE(E) << E.message();
  const Type *T = M.types().front().T;
  ReconstructOptions Off;
  Off.PruneByGiven = false;
  Normalizer With(Ctx), Without(Ctx, Off);
  const Type *A = With.normalize(T);
  EXPECT_EQ(A, Without.normalize(T));
  EXPECT_TRUE(A->isCheaperThan(T)) << printType(A);
  EXPECT_EQ(With.getReconstructor().getNumPruned(), 0u);
}

} // namespace

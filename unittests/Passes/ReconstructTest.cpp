//===- unittests/Passes/ReconstructTest.cpp -------------------------------===//
//
// Random differential testing of normalization (canonicalize, reconstruct,
// canonicalize) on 10,000 random types: the normal form passes the
// verifier, is equivalent to its input by the streaming checker (the MPICH
// oracle confirms a sample in test/MPI/normalized.test), is never costlier
// and is a fixpoint.
//
// Uniqueness: an independent description of the same typemap -- a struct
// listing every block, resized to the same bounds -- gets the very same
// tree, unless the given description was cheaper than any tree the
// planners build from blocks (random types overlap and interleave their
// copies in ways no regular layout does); then the given one is kept. That
// must stay the exception.
//
//===----------------------------------------------------------------------===//
#include "ddtc/IR/Equivalence.h"
#include "ddtc/IR/TextForm.h"
#include "ddtc/IR/TypemapWalker.h"
#include "ddtc/IR/Verifier.h"
#include "ddtc/Passes/Normalizer.h"
#include "ddtc/Target/MPICHRules.h"
#include "ddtc/Testing/RandomType.h"

#include <gtest/gtest.h>

#include <cstdio>

using namespace ddtc;

namespace {

/// T's typemap spelled out as a struct of its typed runs, resized to T's
/// bounds: an equivalent description sharing nothing with T's tree.
const Type *listBlocks(TypeContext &Ctx, const Type *T) {
  std::vector<int64_t> Lengths, Disps;
  std::vector<const Type *> Types;
  TypemapWalker W(T, 1, WalkMode::Typed);
  for (TypemapRun R; W.next(R);) {
    Lengths.push_back(R.Length / getPredefinedInfo(R.Basic).Size);
    Disps.push_back(R.Offset);
    Types.push_back(Ctx.getPredefined(R.Basic));
  }
  Expected<const Type *> S = Ctx.getStruct(Lengths, Disps, Types);
  if (!S)
    return nullptr;
  Expected<const Type *> R = Ctx.getResized(T->lb(), T->extent(), *S);
  return R ? *R : nullptr;
}

/// True if T's tree mentions a pair type (MPI_DOUBLE_INT, ...).
bool hasPairType(const Type *T) {
  if (auto *P = dyn_cast<PredefinedType>(T))
    return !P->getInfo().isBasic();
  for (const Type *Op : T->getOperands())
    if (hasPairType(Op))
      return true;
  return T->getExpansion() && hasPairType(T->getExpansion());
}

TEST(ReconstructTest, RandomTypesNormalizeEquivalentCheaperAndUnique) {
  TypeContext Ctx(getMPICHRules());
  Normalizer N(Ctx);
  std::mt19937_64 Rng(20261121);
  unsigned Cheaper = 0, UniqueChecked = 0, GivenWasCheaper = 0;
  // 4,000 types here; the 10^5-type campaign (test/MPI/campaign.sh) runs
  // the same properties at scale.
  for (int I = 0; I < 4000; ++I) {
    const Type *T = randomType(Ctx, Rng);
    const Type *F = N.normalize(T);
    ASSERT_FALSE(verifyType(F, Ctx.getRules())) << printType(T);
    for (uint64_t Count : {1, 3}) {
      EquivalenceResult R = checkEquivalent(T, F, Count);
      ASSERT_TRUE(R.Equivalent)
          << R.Difference << "\n  input:  " << printType(T)
          << "\n  output: " << printType(F);
    }
    // Never costlier in the cost model (size plus copy pieces).
    const TypeLayout &LF = F->getLayout(), &LT = T->getLayout();
    ASSERT_FALSE(LT.isCheaperThan(LF)) << printType(T);
    ASSERT_GE(LF.Pieces, LT.Blocks.Count) << printType(F);
    Cheaper += LF.isCheaperThan(LT);
    EXPECT_EQ(N.normalize(F), F) << "not a fixpoint: " << printType(F);

    // A type without data normalizes to its bounds alone (bounds-only),
    // as its listing does. Pair types are left out: a pair's element may
    // split a run of its first component where the cost model prefers the
    // pair.
    if (hasPairType(T))
      continue;
    const Type *L = listBlocks(Ctx, T);
    ASSERT_TRUE(L) << printType(T);
    const Type *G = N.normalize(L);
    ++UniqueChecked;
    // Never costlier than the listing either. (It may copy more pieces
    // than the listing's runs: runs cut to their common length, where
    // copies of a chunk touch, can make the description that much
    // smaller.)
    EXPECT_FALSE(L->getLayout().isCheaperThan(G->getLayout())) << printType(G);
    if (G == F)
      continue;
    ++GivenWasCheaper;
    EXPECT_TRUE(F->getLayout().isCheaperThan(G->getLayout()))
        << "two normal forms of one layout\n  input:  " << printType(T)
        << "\n  normal: " << printType(F) << "\n  listed: " << printType(G);
  }
  EXPECT_GT(Cheaper, 2400u);
  EXPECT_GT(UniqueChecked, 2000u);
  EXPECT_LT(GivenWasCheaper * 5, UniqueChecked) << GivenWasCheaper;
  std::printf("%u of 4000 types made cheaper; uniqueness checked on %u "
              "types; the given description was cheaper than any "
              "block-based tree for %u\n",
              Cheaper, UniqueChecked, GivenWasCheaper);
}

TEST(ReconstructTest, MessageFormDescribesCountInstances) {
  TypeContext Ctx(getMPICHRules());
  Normalizer N(Ctx);
  std::mt19937_64 Rng(7);
  for (int I = 0; I < 400; ++I) {
    const Type *T = randomType(Ctx, Rng);
    for (uint64_t Count : {1, 2, 5}) {
      Expected<const Type *> M = N.normalizeMessage(T, Count);
      ASSERT_TRUE(M) << M.takeError().message();
      Expected<const Type *> Whole = Ctx.getContiguous(int64_t(Count), T);
      ASSERT_TRUE(Whole);
      EquivalenceResult R =
          checkEquivalent(*Whole, *M, 1, /*CheckBounds=*/false);
      ASSERT_TRUE(R.Equivalent)
          << R.Difference << "\n  input: " << printType(T) << " x" << Count
          << "\n  message: " << printType(*M);
    }
  }
}

} // namespace

// Found by fuzz-normalize: a vector whose stride places nothing -- one
// block, or copies of a type with no data -- may have any stride, and
// stride * extent overflowed where the passes asked for the byte stride.
TEST(ReconstructTest, VectorsWhoseStridePlacesNothing) {
  TypeContext Ctx(getMPICHRules());
  const Type *Double = Ctx.getPredefined(PredefinedId::Double);
  const Type *Int = Ctx.getPredefined(PredefinedId::Int);
  Expected<const Type *> None = Ctx.getContiguous(0, Int);
  ASSERT_TRUE(bool(None));
  struct Case {
    int64_t Count, Lb, Extent, Stride;
    const Type *Old;
  } Cases[] = {{1, 0, -12287747, 833385441020328087, Double},
               {3, 0, 7, 4996731269832478842, *None}};
  for (const Case &C : Cases) {
    Expected<const Type *> Wide = Ctx.getResized(C.Lb, C.Extent, C.Old);
    ASSERT_TRUE(bool(Wide));
    Expected<const Type *> V = Ctx.getVector(C.Count, 2, C.Stride, *Wide);
    ASSERT_TRUE(bool(V));
    EXPECT_EQ(cast<VectorType>(*V)->getByteStride(), 0);
    Normalizer N(Ctx);
    const Type *Normal = N.normalize(*V);
    EXPECT_TRUE(checkEquivalent(*V, Normal).Equivalent) << printType(Normal);
    EXPECT_FALSE((*V)->isCheaperThan(Normal));
  }
}

//===- unittests/Passes/CanonicalizeTest.cpp ------------------------------===//
//
// Random differential testing of canonicalization: on 10,000 random types
// the result is equivalent to the input (ddtc's streaming checker; the
// MPICH oracle confirms a sample in test/MPI) and never costlier.
//
//===----------------------------------------------------------------------===//
#include "ddtc/Passes/Canonicalize.h"
#include "ddtc/IR/Equivalence.h"
#include "ddtc/IR/TextForm.h"
#include "ddtc/IR/Verifier.h"
#include "ddtc/Target/MPICHRules.h"
#include "ddtc/Testing/RandomType.h"

#include <gtest/gtest.h>

using namespace ddtc;

namespace {

TEST(CanonicalizeTest, RandomTypesStayEquivalentAndGetNoCostlier) {
  TypeContext Ctx(getMPICHRules());
  Canonicalizer C(Ctx);
  std::mt19937_64 Rng(20261121);
  unsigned Changed = 0;
  for (int I = 0; I < 10000; ++I) {
    const Type *T = randomType(Ctx, Rng);
    const Type *N = C.canonicalize(T);
    ASSERT_FALSE(verifyType(N, Ctx.getRules())) << printType(T);
    for (uint64_t Count : {1, 3}) {
      EquivalenceResult R = checkEquivalent(T, N, Count);
      ASSERT_TRUE(R.Equivalent)
          << R.Difference << "\n  input:  " << printType(T)
          << "\n  output: " << printType(N);
    }
    // Never costlier in the cost model (merging touching blocks of an
    // indexed_block lengthens the description and saves copies).
    EXPECT_FALSE(T->isCheaperThan(N)) << printType(T);
    Changed += N != T;
    // Canonical forms are fixpoints.
    EXPECT_EQ(C.canonicalize(N), N) << printType(N);
  }
  EXPECT_GT(Changed, 1000u);
  // Every pattern fires on random input but resized-element: where its
  // vector of vectors sits under a resize to whole copies, tile-copies
  // proposes a cheaper form of the same copies and wins; and
  // fold-periodic-list: random lists have random displacements, never
  // copies of their first entries (the uniqueness test's flattened lists
  // have them). Their own cases are below.
  for (const RewritePattern &P : getCanonicalizationPatterns()) {
    if (std::string_view(P.Name) != "resized-element" &&
        std::string_view(P.Name) != "fold-periodic-list") {
      EXPECT_GT(C.getStats().count(P.Name), 0u) << P.Name;
    }
  }
}

TEST(CanonicalizeTest, FoldPeriodicListWhereCopiesOverlap) {
  // Three copies, 19 bytes apart, of a block of 2 and a block of 3
  // elements of extent 0: each block names one place several times, and
  // the copies overlap. As copies of the first two entries the list is
  // a contiguous of three (the step is the pair's extent).
  TypeContext Ctx(getMPICHRules());
  Canonicalizer C(Ctx);
  const Type *E =
      *Ctx.getResized(-41, 0, Ctx.getPredefined(PredefinedId::UInt32));
  const Type *T = *Ctx.getHIndexed(std::vector<int64_t>{2, 3, 2, 3, 2, 3},
                                   std::vector<int64_t>{121, 102, 140, 121,
                                                        159, 140},
                                   E);
  const Type *N = C.canonicalize(T);
  EXPECT_EQ(printType(N),
            "contiguous(count=3, oldtype=hindexed(blocklengths=[2, 3], "
            "displacements=[121, 102], oldtype=resized(lb=-41, extent=0, "
            "oldtype=MPI_UINT32_T)))");
  EXPECT_GT(C.getStats().count("fold-periodic-list"), 0u);
  for (uint64_t Count : {1, 3})
    EXPECT_TRUE(checkEquivalent(T, N, Count).Equivalent);
  EXPECT_EQ(C.canonicalize(N), N);

  // Copies at steps that differ are not folded: the last pair is 20
  // bytes after the one before.
  const Type *U = *Ctx.getHIndexed(std::vector<int64_t>{2, 3, 2, 3, 2, 3},
                                   std::vector<int64_t>{121, 102, 140, 121,
                                                        160, 141},
                                   E);
  Canonicalizer C2(Ctx);
  C2.canonicalize(U);
  EXPECT_EQ(C2.getStats().count("fold-periodic-list"), 0u);
}

TEST(CanonicalizeTest, ResizedElementWhereCopiesDoNotTile) {
  // wchar_t elements 30 bytes apart in rows of 3, rows 60 bytes apart,
  // under a resize to 270 bytes: not a whole number of rows, so the
  // copies do not tile the extent and tile-copies does not apply.
  TypeContext Ctx(getMPICHRules());
  Canonicalizer C(Ctx);
  const Type *W = Ctx.getPredefined(PredefinedId::WChar);
  const Type *T = *Ctx.getResized(
      0, 270, *Ctx.getHVector(4, 1, 60, *Ctx.getHVector(3, 1, 30, W)));
  const Type *N = C.canonicalize(T);
  EXPECT_EQ(printType(N), "vector(count=4, blocklength=3, stride=2, "
                          "oldtype=resized(lb=0, extent=30, "
                          "oldtype=MPI_WCHAR))");
  EXPECT_GT(C.getStats().count("resized-element"), 0u);
  EXPECT_TRUE(checkEquivalent(T, N).Equivalent);
}

} // namespace

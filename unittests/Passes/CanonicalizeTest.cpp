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
#include "ddtc/Testing/RandomType.h"

#include <gtest/gtest.h>

using namespace ddtc;

namespace {

TEST(CanonicalizeTest, RandomTypesStayEquivalentAndGetNoCostlier) {
  TypeContext Ctx;
  Canonicalizer C(Ctx);
  std::mt19937_64 Rng(20261121);
  unsigned Changed = 0;
  for (int I = 0; I < 10000; ++I) {
    const Type *T = randomType(Ctx, Rng);
    const Type *N = C.canonicalize(T);
    ASSERT_FALSE(verifyType(N)) << printType(T);
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
  // proposes a cheaper form of the same copies and wins; its own case is
  // below.
  for (const RewritePattern &P : getCanonicalizationPatterns())
    if (std::string_view(P.Name) != "resized-element")
      EXPECT_GT(C.getStats().count(P.Name), 0u) << P.Name;
}

TEST(CanonicalizeTest, ResizedElementWhereCopiesDoNotTile) {
  // wchar_t elements 30 bytes apart in rows of 3, rows 60 bytes apart,
  // under a resize to 270 bytes: not a whole number of rows, so the
  // copies do not tile the extent and tile-copies does not apply.
  TypeContext Ctx;
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

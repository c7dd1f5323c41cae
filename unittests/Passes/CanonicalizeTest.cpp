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
  // Every pattern fires on random input.
  for (const RewritePattern &P : getCanonicalizationPatterns())
    EXPECT_GT(C.getStats().count(P.Name), 0u) << P.Name;
}

} // namespace

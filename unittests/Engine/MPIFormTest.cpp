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
#include "ddtc/Target/MPICHRules.h"
#include "ddtc/Testing/RandomType.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string_view>

using namespace ddtc;

namespace {

TEST(MPIFormTest, SeedTiledLayoutGoesInPieces) {
  TypeContext Ctx(getMPICHRules());
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
  TypeContext Ctx(getMPICHRules());
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
  TypeContext Ctx(getMPICHRules());
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

/// LAMMPS_full's shape: a struct of index lists of 3-double blocks at
/// scattered places, Lists lists of Entries entries each.
const Type *scatteredLists(TypeContext &Ctx, int Lists, int Entries) {
  const Type *Double = Ctx.getPredefined(PredefinedId::Double);
  std::mt19937_64 Rng(7);
  std::vector<int64_t> Ones, Displs;
  std::vector<const Type *> Members;
  for (int L = 0; L < Lists; ++L) {
    std::vector<int64_t> At;
    for (int E = 0; E < Entries; ++E)
      At.push_back(3 * int64_t(Rng() % 2600));
    Members.push_back(*Ctx.getIndexedBlock(3, At, Double));
    Displs.push_back(int64_t(L) * 8 * 3 * 2600);
    Ones.push_back(1);
  }
  return *Ctx.getStruct(Ones, Displs, Members);
}

TEST(MPIFormTest, ListsSentPointToPointGoInPieces) {
  // Sent with count 1, each fragment of a struct of long index lists is
  // packed block by block; in pieces of a few dozen blocks, piece by
  // piece. MPI_Pack pays a dispatch per piece, so only a program that
  // does not pack gets the pieces.
  TypeContext Ctx(getMPICHRules());
  Normalizer N(Ctx);
  YaksaModel Model;
  const Type *Given = scatteredLists(Ctx, 6, 2243);
  MPIFormOptions Sends;
  Sends.SendsOnly = true;
  Sends.Counts = {1};
  MPIForm F = chooseMPIForm(Given, getFormCandidates(Ctx, N, Given), Model,
                            getDefaultEngineCosts(), Sends);
  EXPECT_STREQ(F.Chosen.Origin, "list-pieces") << printType(F.Chosen.T);
  EXPECT_GE(F.SendGain, 1.3);
  EXPECT_GE(F.WorstGain, 0.98);
  EXPECT_TRUE(F.SendsOnly);
  EXPECT_TRUE(checkEquivalent(Given, F.Chosen.T).Equivalent);
  F = chooseMPIForm(Given, getFormCandidates(Ctx, N, Given), Model,
                    getDefaultEngineCosts());
  EXPECT_STRNE(F.Chosen.Origin, "list-pieces") << printType(F.Chosen.T);
  // Short lists are sent whole by one kernel call: nothing to cut.
  const Type *Short = scatteredLists(Ctx, 2, 40);
  F = chooseMPIForm(Short, getFormCandidates(Ctx, N, Short), Model,
                    getDefaultEngineCosts(), Sends);
  EXPECT_STRNE(F.Chosen.Origin, "list-pieces") << printType(F.Chosen.T);
}

TEST(MPIFormTest, ListPiecesKeepTheTypemap) {
  // Index lists of every kind, long enough to be cut, alone, resized or
  // as struct members among others, with empty blocks and repeated
  // entries.
  TypeContext Ctx(getMPICHRules());
  Normalizer N(Ctx);
  std::mt19937_64 Rng(17);
  const Type *Int = Ctx.getPredefined(PredefinedId::Int);
  const Type *Pair = Ctx.getPredefined(PredefinedId::DoubleInt);
  unsigned Pieces = 0;
  for (int I = 0; I < 60; ++I) {
    size_t Entries = 64 + Rng() % 1100;
    const Type *Old = Rng() % 2 ? Int : Pair;
    std::vector<int64_t> Lengths, Displs;
    for (size_t E = 0; E < Entries; ++E) {
      Lengths.push_back(int64_t(Rng() % 4));
      Displs.push_back(int64_t(Rng() % 5000) - 200);
    }
    const Type *List = nullptr;
    switch (I % 4) {
    case 0:
      List = *Ctx.getIndexed(Lengths, Displs, Old);
      break;
    case 1:
      List = *Ctx.getHIndexed(Lengths, Displs, Old);
      break;
    case 2:
      List = *Ctx.getIndexedBlock(2, Displs, Old);
      break;
    default:
      List = *Ctx.getHIndexedBlock(1, Displs, Old);
      break;
    }
    const Type *T = List;
    if (I % 3 == 1)
      T = *Ctx.getResized(-64, 50000, List);
    if (I % 3 == 2) {
      std::vector<int64_t> Ls{1, 2, 1}, Ds{16, 0, 90000};
      std::vector<const Type *> Ms{List, Int, List};
      T = *Ctx.getStruct(Ls, Ds, Ms);
    }
    for (const FormCandidate &C : getFormCandidates(Ctx, N, T)) {
      Pieces += std::string_view(C.Origin) == "list-pieces";
      ASSERT_TRUE(checkEquivalent(T, C.T).Equivalent)
          << C.Origin << "\n"
          << printType(T) << "\n"
          << printType(C.T);
    }
  }
  EXPECT_GT(Pieces, 60u);
}

TEST(MPIFormTest, EveryCandidateKeepsTheTypemap) {
  // Not only the chosen form: every candidate is one MPI could be handed.
  TypeContext Ctx(getMPICHRules());
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
  TypeContext Ctx(getMPICHRules());
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

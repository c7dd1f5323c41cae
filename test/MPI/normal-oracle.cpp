//===- test/MPI/normal-oracle.cpp - Normal forms confirmed by MPICH -------===//
//
// Confirms with MPICH that normalization keeps types equivalent: every
// type and its normal form are built as MPI handles (ddtc/MPI/TypeBuilder.h)
// and MPICH must report the same size, lb, extent and true extent, and MPI_Pack
// must write the same bytes for counts 1 to 3 from the same buffer. This is the
// independent check of ddtc's own equivalence checker.
//
// Usage:
//   ddtc-normal-oracle --random N [--seed S] [--max-depth D]
//       N random types whose normal form differs from them
//   ddtc-normal-oracle FILE...   every named type of the files
//
// Prints one MISMATCH line per difference (with both types) and a summary
// line; exits 1 if anything differs. Types whose MPI_Pack may crash MPICH
// 4.0.2 (mayCrashYaksaPack) are counted as skipped.
//
//===----------------------------------------------------------------------===//
#include "ddtc/MPI/PredefinedHandles.h"
#include "ddtc/MPI/TypeBuilder.h"

#include "ddtc/IR/TextForm.h"
#include "ddtc/IR/TypeContext.h"
#include "ddtc/IR/TypemapWalker.h"
#include "ddtc/Passes/Normalizer.h"
#include "ddtc/Reader/ReadFile.h"
#include "ddtc/Target/MPICHRules.h"
#include "ddtc/Testing/RandomType.h"

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace ddtc;

namespace {

constexpr int64_t GuardBytes = 64;
constexpr uint8_t Filler = 0xEE;

uint8_t patternByte(uint64_t I) {
  uint64_t X = (I + 1) * 0x9E3779B97F4A7C15ull;
  X ^= X >> 31;
  return static_cast<uint8_t>(X * 0xD6E8FEB86659FD93ull >> 56);
}

/// Packed bytes that carry no value (MPI_LONG_DOUBLE's padding, which
/// MPICH leaves unwritten).
std::vector<bool> padMask(const Type *T, int64_t Count, size_t Length) {
  std::vector<bool> Mask(Length, false);
  forEachPaddingByte(T, uint64_t(Count), [&](int64_t, int64_t Packed) {
    Mask[size_t(Packed)] = true;
  });
  return Mask;
}

class Comparer {
public:
  explicit Comparer(const std::vector<MPI_Datatype> &Predefined)
      : Predefined(Predefined) {}

  /// Empty if MPICH sees A and B as equivalent, else the first difference.
  std::string compare(const Type *A, const Type *B);

private:
  std::string packDifference(const Type *A, MPI_Datatype HA, MPI_Datatype HB,
                             int64_t Count);
  const std::vector<MPI_Datatype> &Predefined;
};

std::string Comparer::compare(const Type *A, const Type *B) {
  MpiBuilder BA(Predefined), BB(Predefined);
  std::string Err;
  std::optional<Handle> HA = BA.build(A, Err);
  if (!HA)
    return "building the input: " + Err;
  std::optional<Handle> HB = BB.build(B, Err);
  if (!HB)
    return "building the normal form: " + Err;
  MPI_Datatype TA = HA->get(), TB = HB->get();
  MPI_Type_commit(&TA);
  MPI_Type_commit(&TB);

  MPI_Count SA, SB, LA, LB, EA, EB, TLA, TLB, TEA, TEB;
  MPI_Type_size_c(TA, &SA);
  MPI_Type_size_c(TB, &SB);
  MPI_Type_get_extent_c(TA, &LA, &EA);
  MPI_Type_get_extent_c(TB, &LB, &EB);
  MPI_Type_get_true_extent_c(TA, &TLA, &TEA);
  MPI_Type_get_true_extent_c(TB, &TLB, &TEB);
  auto Diff = [](const char *What, MPI_Count X, MPI_Count Y) {
    return std::string(What) + " " + std::to_string(X) + " vs " +
           std::to_string(Y);
  };
  if (SA != SB)
    return Diff("size", SA, SB);
  if (LA != LB)
    return Diff("lb", LA, LB);
  if (EA != EB)
    return Diff("extent", EA, EB);
  // True bounds follow from the typemap when there is one; for an empty
  // typemap they are an implementation detail, not part of equivalence.
  if (SA != 0 && TLA != TLB)
    return Diff("true lb", TLA, TLB);
  if (SA != 0 && TEA != TEB)
    return Diff("true extent", TEA, TEB);
  for (int64_t Count = 1; Count <= 3; ++Count)
    if (std::string D = packDifference(A, TA, TB, Count); !D.empty())
      return D;
  return "";
}

std::string Comparer::packDifference(const Type *A, MPI_Datatype HA,
                                     MPI_Datatype HB, int64_t Count) {
  int64_t Shift = (Count - 1) * A->extent();
  int64_t Lo = std::min<int64_t>({0, A->trueLb(), A->trueLb() + Shift});
  int64_t Hi = std::max<int64_t>({0, A->trueLb() + A->trueExtent(),
                                  A->trueLb() + A->trueExtent() + Shift});
  std::vector<uint8_t> In(size_t(Hi - Lo + 2 * GuardBytes));
  for (size_t I = 0; I < In.size(); ++I)
    In[I] = patternByte(I);
  const uint8_t *Base = In.data() + (GuardBytes - Lo);
  size_t OutLen = size_t(Count * A->size() + GuardBytes);
  std::vector<uint8_t> OutA(OutLen, Filler), OutB(OutLen, Filler);
  MPI_Count PosA = 0, PosB = 0;
  if (MPI_Pack_c(Base, Count, HA, OutA.data(), MPI_Count(OutLen), &PosA,
                 MPI_COMM_SELF) != MPI_SUCCESS ||
      MPI_Pack_c(Base, Count, HB, OutB.data(), MPI_Count(OutLen), &PosB,
                 MPI_COMM_SELF) != MPI_SUCCESS)
    return "MPI_Pack failed, count " + std::to_string(Count);
  if (PosA != PosB)
    return "packed size " + std::to_string(PosA) + " vs " +
           std::to_string(PosB) + ", count " + std::to_string(Count);
  std::vector<bool> Mask = padMask(A, Count, OutLen);
  for (size_t I = 0; I < OutLen; ++I)
    if (!Mask[I] && OutA[I] != OutB[I])
      return "packed byte " + std::to_string(I) + " differs, count " +
             std::to_string(Count);
  return "";
}

struct Tally {
  unsigned Compared = 0, Mismatches = 0, Skipped = 0;
};

void check(Comparer &C, Tally &Tl, const std::string &Name, const Type *T,
           const Type *N) {
  if (mayCrashYaksaPack(T) || mayCrashYaksaPack(N)) {
    ++Tl.Skipped;
    return;
  }
  ++Tl.Compared;
  std::string D = C.compare(T, N);
  if (D.empty())
    return;
  ++Tl.Mismatches;
  std::printf("MISMATCH %s: %s\n  input:  %s\n  normal: %s\n", Name.c_str(),
              D.c_str(), printType(T).c_str(), printType(N).c_str());
}

int usage() {
  std::fprintf(stderr, "usage: ddtc-normal-oracle --random N [--seed S] "
                       "[--max-depth D] | FILE...\n");
  return 2;
}

} // namespace

namespace {

int run(const std::vector<MPI_Datatype> &Predefined, uint64_t Random,
        uint64_t Seed, const RandomTypeOptions &RO,
        const std::vector<std::string> &Files) {
  Comparer C(Predefined);
  Tally Tl;
  int Status = 0;

  if (Random) {
    // Draw until Random types have a normal form different from
    // themselves (bounded): those are the ones worth confirming.
    std::mt19937_64 Rng(Seed);
    for (uint64_t Drawn = 0;
         Tl.Compared + Tl.Skipped < Random && Drawn < 20 * Random; ++Drawn) {
      TypeContext Ctx(getMPICHRules());
      Normalizer N(Ctx);
      const Type *T = randomType(Ctx, Rng, RO);
      const Type *F = N.normalize(T);
      if (F != T)
        check(C, Tl, "random" + std::to_string(Drawn), T, F);
    }
  }
  for (const std::string &Path : Files) {
    TypeContext Ctx(getMPICHRules());
    Module M(Ctx);
    if (Error E = readAnyDescriptionFile(Path, M)) {
      std::fprintf(stderr, "error: %s\n", E.message().c_str());
      Status = 1;
      continue;
    }
    Normalizer N(Ctx);
    for (const NamedType &NT : M.types())
      check(C, Tl, Path + ":" + NT.Name, NT.T, N.normalize(NT.T));
  }
  std::printf("normal-oracle: %u types compared, %u mismatches, %u skipped\n",
              Tl.Compared, Tl.Mismatches, Tl.Skipped);
  return Tl.Mismatches || Status ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) {
  uint64_t Random = 0, Seed = 1;
  RandomTypeOptions RO;
  std::vector<std::string> Files;
  for (int I = 1; I < argc; ++I) {
    std::string A = argv[I];
    bool HasValue = I + 1 < argc;
    if (A == "--random" && HasValue)
      Random = std::strtoull(argv[++I], nullptr, 10);
    else if (A == "--seed" && HasValue)
      Seed = std::strtoull(argv[++I], nullptr, 10);
    else if (A == "--max-depth" && HasValue)
      RO.MaxDepth = unsigned(std::strtoul(argv[++I], nullptr, 10));
    else if (!A.empty() && A[0] != '-')
      Files.push_back(A);
    else
      return usage();
  }
  if (!Random == Files.empty())
    return usage();

  return runWithMpi(argc, argv, "ddtc-normal-oracle",
                    [&](const std::vector<MPI_Datatype> &Predefined) {
                      return run(Predefined, Random, Seed, RO, Files);
                    });
}

//===- test/Runtime/trace-check.cpp - Checks of libddtc_trace.so's traces -===//
//
// The helper of the trace tests (test/Runtime/trace-*.test). A trace must
// reproduce the types the program built; this tool compares a trace with
// what MPICH says of the program's own types, and with the descriptions the
// types were built from.
//
//   trace-check props TRACE
//       (MPI, one rank) builds every named type of TRACE with MPICH and
//       prints what MPICH says of it, one line per name (the x-aliases of
//       a type included), in the format of trace-program.c's .types files:
//         type NAME size S lb L extent E true_lb TL true_extent TE pack H
//       H hashes the bytes MPI_Pack writes for 2 instances from a patterned
//       buffer (packHash); for types of absolute addresses (x-bottom) the
//       buffer is where their offsets from the lowest address put it.
//
//   trace-check equiv TRACE REF...
//       (no MPI) for every named type of the description files REF, the
//       type of TRACE with the same name (or alias) must be equivalent
//       (IR/Equivalence.h). Prints `ok NAME`, `MISMATCH NAME: ...`,
//       `MISSING NAME`, `EXTRA NAME` (a traced type no REF names), then
//       `equiv: N types, M mismatches, K missing, E extra`; exit status 1
//       unless all agree.
//
//   trace-check without-bottom TRACE OUT
//       (no MPI) writes TRACE without its x-bottom types: ddtc-oracle sizes
//       its buffers from address 0 and cannot pack them.
//
//   trace-check build [--random N --seed S [--max-depth D]] [--ref OUT]
//   [FILE...]
//       (MPI, any ranks; run under the trace library) an MPI program that
//       builds every named type of the FILEs, or N random types named
//       random0, random1, ..., with MPI calls (TypeBuilder), names them
//       with MPI_Type_set_name, commits them, packs one instance and frees
//       them. Prints `NAME size S pack H` per type: its results, which
//       must be the same with and without the trace library. --ref writes
//       the random types as a description file (for equiv).
//
//===----------------------------------------------------------------------===//
#include "ddtc/Format/DescriptionWriter.h"
#include "ddtc/IR/Equivalence.h"
#include "ddtc/IR/Module.h"
#include "ddtc/IR/TypeContext.h"
#include "ddtc/MPI/MPISupport.h"
#include "ddtc/MPI/TypeBuilder.h"
#include "ddtc/Reader/ReadFile.h"
#include "ddtc/Support/Address.h"
#include "ddtc/Target/MPICHRules.h"
#include "ddtc/Testing/RandomType.h"

#include <nlohmann/json.hpp>

#include <mpi.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <vector>

using namespace ddtc;

namespace {

enum { ExitOk = 0, ExitFail = 1, ExitUsage = 2 };

uint64_t fnv(const unsigned char *P, size_t N) {
  uint64_t H = 1469598103934665603ULL;
  for (size_t I = 0; I < N; ++I)
    H = (H ^ P[I]) * 1099511628211ULL;
  return H;
}

/// The hash of the bytes MPI_Pack writes for Count instances of H from a
/// buffer whose byte at offset I from the lowest byte the typemap can
/// touch is I*131+7 -- the same function as trace-program.c's packHash
/// (whose types all have a size).
uint64_t packHash(MPI_Datatype H, int Count) {
  MPI_Count Lb, Extent, TrueLb, TrueExtent, Size;
  DDTC_MPI_QUERY_FN(MPI_Type_get_extent)(H, &Lb, &Extent);
  DDTC_MPI_QUERY_FN(MPI_Type_get_true_extent)(H, &TrueLb, &TrueExtent);
  DDTC_MPI_QUERY_FN(MPI_Type_size)(H, &Size);
  // An empty typemap packs nothing, and MPICH's true bounds of some empty
  // types are not a range (true extent -4).
  if (Size == 0)
    return fnv(nullptr, 0);
  MPI_Count Shift = (Count - 1) * Extent;
  MPI_Count Lo = std::min(TrueLb, TrueLb + Shift);
  MPI_Count Hi = std::max(TrueLb + TrueExtent, TrueLb + TrueExtent + Shift);
  std::vector<unsigned char> In(static_cast<size_t>(Hi - Lo) + 1);
  for (size_t I = 0; I < In.size(); ++I)
    In[I] = static_cast<unsigned char>(I * 131 + 7);
  std::vector<unsigned char> Out(static_cast<size_t>(Size * Count) + 1);
  MPICount Position = 0;
  DDTC_MPI_COUNT_FN(MPI_Pack)
  (displaceAddress(In.data(), -Lo), countArg(Count), H, Out.data(),
   countArg(Out.size()), &Position, MPI_COMM_WORLD);
  return fnv(Out.data(), static_cast<size_t>(Position));
}

std::string hex(uint64_t X) {
  char Buf[20];
  std::snprintf(Buf, sizeof(Buf), "%016" PRIx64, X);
  return Buf;
}

bool hasExtra(const NamedType &N, const char *Key,
              std::string *Value = nullptr) {
  for (const ExtraField &X : N.Extras)
    if (X.first == Key) {
      if (Value)
        *Value = X.second;
      return true;
    }
  return false;
}

/// The name and the x-aliases of a traced type.
std::vector<std::string> namesOf(const NamedType &N) {
  std::vector<std::string> Names{N.Name};
  std::string Aliases;
  if (hasExtra(N, "x-aliases", &Aliases))
    for (const auto &A : nlohmann::json::parse(Aliases))
      Names.push_back(A.get<std::string>());
  return Names;
}

bool read(const std::string &Path, Module &M) {
  if (Error E = readDescriptionFile(Path, M)) {
    std::fprintf(stderr, "trace-check: error: %s\n", E.message().c_str());
    return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// props
//===----------------------------------------------------------------------===//

int props(const std::string &Path, const std::vector<MPI_Datatype> &Handles) {
  TypeContext Ctx(getMPICHRules());
  Module M(Ctx);
  if (!read(Path, M))
    return ExitFail;
  MpiBuilder Builder(Handles);
  int Status = ExitOk;
  for (const NamedType &N : M.types()) {
    std::string Err;
    std::optional<Handle> H = Builder.build(N.T, Err);
    MPI_Datatype D = H ? H->get() : MPI_DATATYPE_NULL;
    if (!H || MPI_Type_commit(&D) != MPI_SUCCESS) {
      std::printf("ERROR %s: %s\n", N.Name.c_str(), Err.c_str());
      Status = ExitFail;
      continue;
    }
    MPI_Count Size, Lb, Extent, TrueLb, TrueExtent;
    DDTC_MPI_QUERY_FN(MPI_Type_size)(D, &Size);
    DDTC_MPI_QUERY_FN(MPI_Type_get_extent)(D, &Lb, &Extent);
    DDTC_MPI_QUERY_FN(MPI_Type_get_true_extent)(D, &TrueLb, &TrueExtent);
    std::string Pack = hex(packHash(D, 2));
    for (const std::string &Name : namesOf(N))
      std::printf("type %s size %ld lb %ld extent %ld true_lb %ld "
                  "true_extent %ld pack %s\n",
                  Name.c_str(), static_cast<long>(Size), static_cast<long>(Lb),
                  static_cast<long>(Extent), static_cast<long>(TrueLb),
                  static_cast<long>(TrueExtent), Pack.c_str());
  }
  return Status;
}

//===----------------------------------------------------------------------===//
// equiv, without-bottom
//===----------------------------------------------------------------------===//

int equiv(const std::string &TracePath, const std::vector<std::string> &Refs) {
  TypeContext Ctx(getMPICHRules());
  Module Trace(Ctx);
  if (!read(TracePath, Trace))
    return ExitFail;
  std::map<std::string, const NamedType *> ByName;
  for (const NamedType &N : Trace.types())
    for (const std::string &Name : namesOf(N))
      ByName.emplace(Name, &N);

  std::map<const NamedType *, bool> Matched;
  unsigned Types = 0, Mismatches = 0, Missing = 0, Extra = 0;
  for (const std::string &Path : Refs) {
    Module Ref(Ctx);
    if (!read(Path, Ref))
      return ExitFail;
    for (const NamedType &R : Ref.types()) {
      ++Types;
      auto It = ByName.find(R.Name);
      if (It == ByName.end()) {
        std::printf("MISSING %s\n", R.Name.c_str());
        ++Missing;
        continue;
      }
      Matched[It->second] = true;
      EquivalenceResult E = checkEquivalent(R.T, It->second->T);
      if (E.Equivalent) {
        std::printf("ok %s\n", R.Name.c_str());
      } else {
        std::printf("MISMATCH %s: %s\n", R.Name.c_str(), E.Difference.c_str());
        ++Mismatches;
      }
    }
  }
  for (const NamedType &N : Trace.types())
    if (!Matched.count(&N)) {
      std::printf("EXTRA %s\n", N.Name.c_str());
      ++Extra;
    }
  std::printf("equiv: %u types, %u mismatches, %u missing, %u extra\n", Types,
              Mismatches, Missing, Extra);
  return Mismatches || Missing || Extra ? ExitFail : ExitOk;
}

int withoutBottom(const std::string &In, const std::string &Out) {
  TypeContext Ctx(getMPICHRules());
  Module M(Ctx);
  if (!read(In, M))
    return ExitFail;
  std::erase_if(M.types(),
                [](const NamedType &N) { return hasExtra(N, "x-bottom"); });
  std::ofstream(Out) << writeDescription(M);
  return ExitOk;
}

//===----------------------------------------------------------------------===//
// build
//===----------------------------------------------------------------------===//

struct BuildOptions {
  std::vector<std::string> Files;
  unsigned Random = 0;
  uint64_t Seed = 0;
  unsigned MaxDepth = 4;
  std::string Ref;
};

int build(const BuildOptions &O, const std::vector<MPI_Datatype> &Handles) {
  int Rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  TypeContext Ctx(getMPICHRules());
  Module M(Ctx);
  if (O.Random) {
    std::mt19937_64 Rng(O.Seed);
    RandomTypeOptions RO;
    RO.MaxDepth = O.MaxDepth;
    for (unsigned I = 0; I < O.Random; ++I) {
      const Type *T = randomType(Ctx, Rng, RO);
      // A program cannot commit a predefined type as a type of its own:
      // it would have to dup it.
      if (isa<PredefinedType>(T))
        T = *Ctx.getDup(T);
      M.types().push_back({"random" + std::to_string(I), T, {}});
    }
    if (!O.Ref.empty() && Rank == 0)
      std::ofstream(O.Ref) << writeDescription(M);
  }
  for (const std::string &Path : O.Files) {
    Module File(Ctx);
    if (!read(Path, File))
      return ExitFail;
    for (NamedType &N : File.types())
      M.types().push_back(std::move(N));
  }

  MpiBuilder Builder(Handles);
  for (const NamedType &N : M.types()) {
    std::string Err;
    std::optional<Handle> H = Builder.build(N.T, Err);
    if (!H) {
      std::fprintf(stderr, "trace-check: error: %s: %s\n", N.Name.c_str(),
                   Err.c_str());
      return ExitFail;
    }
    // The handle is the program's now: named, committed, used, freed.
    MPI_Datatype D = H->get();
    MPI_Type_set_name(D, N.Name.c_str());
    MPI_Type_commit(&D);
    MPI_Count Size = 0;
    DDTC_MPI_QUERY_FN(MPI_Type_size)(D, &Size);
    int PackSize = 0;
    MPI_Pack_size(1, D, MPI_COMM_WORLD, &PackSize);
    // MPICH 4.0.2 may die packing these (TypeBuilder.h).
    std::string Pack = mayCrashYaksaPack(N.T) ? "-" : hex(packHash(D, 1));
    if (Rank == 0)
      std::printf("%s size %ld pack %s\n", N.Name.c_str(),
                  static_cast<long>(Size), Pack.c_str());
  }
  return ExitOk;
}

void usage() {
  std::fprintf(stderr,
               "usage: trace-check props TRACE\n"
               "       trace-check equiv TRACE REF...\n"
               "       trace-check without-bottom TRACE OUT\n"
               "       trace-check build [--random N --seed S [--max-depth D]] "
               "[--ref OUT] [FILE...]\n");
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    usage();
    return ExitUsage;
  }
  std::string Mode = argv[1];
  std::vector<std::string> Args(argv + 2, argv + argc);
  if (Mode == "equiv" && Args.size() >= 2)
    return equiv(Args[0], {Args.begin() + 1, Args.end()});
  if (Mode == "without-bottom" && Args.size() == 2)
    return withoutBottom(Args[0], Args[1]);
  if (Mode == "props" && Args.size() == 1)
    return runWithMpi(argc, argv, "trace-check",
                      [&](const std::vector<MPI_Datatype> &Handles) {
                        return props(Args[0], Handles);
                      });
  if (Mode == "build") {
    BuildOptions O;
    for (size_t I = 0; I < Args.size(); ++I) {
      auto value = [&]() -> const char * {
        return I + 1 < Args.size() ? Args[++I].c_str() : nullptr;
      };
      const char *V = nullptr;
      if (Args[I] == "--random" && (V = value()))
        O.Random = static_cast<unsigned>(std::strtoul(V, nullptr, 10));
      else if (Args[I] == "--seed" && (V = value()))
        O.Seed = std::strtoull(V, nullptr, 10);
      else if (Args[I] == "--max-depth" && (V = value()))
        O.MaxDepth = static_cast<unsigned>(std::strtoul(V, nullptr, 10));
      else if (Args[I] == "--ref" && (V = value()))
        O.Ref = V;
      else if (Args[I].rfind("--", 0) == 0) {
        usage();
        return ExitUsage;
      } else
        O.Files.push_back(Args[I]);
    }
    return runWithMpi(argc, argv, "trace-check",
                      [&](const std::vector<MPI_Datatype> &Handles) {
                        return build(O, Handles);
                      });
  }
  usage();
  return ExitUsage;
}

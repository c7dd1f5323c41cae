//===- test/Runtime/ExchangeSupport.h - Buffers and digests of the runtime's test programs -*- C++ -*-===//
//
// What rt-exchange and rt-collectives share: typed buffers filled with a
// pattern and digested with their gaps, the digest of a packed stream,
// the output lines every rank collects and world rank 0 prints, and the
// questions about a type the programs ask before an operation.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_TEST_RUNTIME_EXCHANGESUPPORT_H
#define DDTC_TEST_RUNTIME_EXCHANGESUPPORT_H

#include "ddtc/IR/Module.h"
#include "ddtc/IR/TypeContext.h"
#include "ddtc/IR/Type.h"
#include "ddtc/IR/TypemapWalker.h"
#include "ddtc/MPI/TypeBuilder.h"
#include "ddtc/Reader/ReadFile.h"
#include "ddtc/Support/Address.h"

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rtexchange {

using namespace ddtc;

inline int Rank = 0, Size = 1;
/// Where the exchanges happen (--reversed).
inline MPI_Comm Comm = MPI_COMM_WORLD;

/// Eight bytes of the fill pattern: word I of a buffer filled for Salt.
inline uint64_t patternWord(uint64_t I, uint64_t Salt) {
  uint64_t X = (I + 1) * 0x9E3779B97F4A7C15ull ^ Salt * 0xD1B54A32D192ED03ull;
  X ^= X >> 29;
  X *= 0xBF58476D1CE4E5B9ull;
  X ^= X >> 32;
  return X;
}

/// A buffer for Count instances of a type, filled with a pattern that
/// depends on Salt; Base() is the pointer given to MPI. Buffers of the
/// corpus types span tens of megabytes and every operation makes two, so
/// they are filled and digested a word at a time. The span is the MPI
/// library's own (H's extent and true bounds): libraries differ in which
/// types they pad to their alignment, and MPI touches the bytes its own
/// extent places.
class TypedBuffer {
public:
  TypedBuffer(const Type *T, MPI_Datatype H, int64_t Count, uint64_t Salt) {
    MPI_Aint Lb, Extent, TrueLb, TrueExtent;
    MPI_Type_get_extent(H, &Lb, &Extent);
    MPI_Type_get_true_extent(H, &TrueLb, &TrueExtent);
    int64_t Shift = (Count - 1) * int64_t(Extent);
    int64_t TrueUb = int64_t(TrueLb) + int64_t(TrueExtent);
    Lo = std::min({int64_t(TrueLb), int64_t(TrueLb) + Shift, int64_t(0)});
    int64_t Hi = std::max({TrueUb, TrueUb + Shift, int64_t(0)});
    Size = static_cast<size_t>(Hi - Lo) + 1;
    // Whole words, so that the pattern is written without a tail.
    Bytes.reset(new uint8_t[(Size + 7) / 8 * 8]);
    fill(Salt);
    // MPI_LONG_DOUBLE carries 6 bytes that are not part of its value;
    // neither MPICH nor ddtc promises what lands there, so the digest
    // skips them.
    forEachPaddingByte(T, static_cast<uint64_t>(Count),
                       [&](int64_t Typed, int64_t) {
                         Ignore.push_back(static_cast<size_t>(Typed - Lo));
                       });
    std::sort(Ignore.begin(), Ignore.end());
  }
  /// Writes the pattern of Salt over the whole buffer.
  void fill(uint64_t Salt) {
    for (size_t W = 0; W < (Size + 7) / 8; ++W) {
      uint64_t X = patternWord(W, Salt);
      std::memcpy(&Bytes[8 * W], &X, 8);
    }
  }
  void *base() { return displaceAddress(Bytes.get(), -Lo); }
  /// A hash of every byte of the allocation but the ignored ones (which
  /// count as zero), a word at a time.
  std::string digest() const {
    uint64_t H = 0xcbf29ce484222325ull;
    size_t Next = 0;
    for (size_t I = 0; I < Size; I += 8) {
      uint64_t W = 0;
      std::memcpy(&W, &Bytes[I], std::min<size_t>(8, Size - I));
      for (; Next < Ignore.size() && Ignore[Next] < I + 8; ++Next)
        W &= ~(uint64_t(0xff) << 8 * (Ignore[Next] - I));
      H = (H ^ W) * 0x100000001b3ull;
      H ^= H >> 29;
    }
    char Buf[20];
    std::snprintf(Buf, sizeof Buf, "%016llx",
                  static_cast<unsigned long long>(H));
    return Buf;
  }

private:
  int64_t Lo = 0;
  size_t Size = 0;
  std::unique_ptr<uint8_t[]> Bytes;
  std::vector<size_t> Ignore; ///< sorted offsets into Bytes
};

/// The bytes of the packed stream of Count instances of T that carry no
/// value (MPI_LONG_DOUBLE's padding, which MPICH leaves unwritten).
inline std::vector<bool> packedPadding(const Type *T, int64_t Count) {
  std::vector<bool> Pad(static_cast<size_t>(T->size() * Count), false);
  forEachPaddingByte(T, static_cast<uint64_t>(Count),
                     [&](int64_t, int64_t Packed) {
                       Pad[static_cast<size_t>(Packed)] = true;
                     });
  return Pad;
}

/// FNV-1a of the packed stream V, its padding bytes left out.
inline std::string digestOf(const std::vector<uint8_t> &V,
                     const std::vector<bool> &Pad) {
  uint64_t H = 0xcbf29ce484222325ull;
  for (size_t I = 0; I < V.size(); ++I) {
    if (I < Pad.size() && Pad[I])
      continue;
    H ^= V[I];
    H *= 0x100000001b3ull;
  }
  char Buf[20];
  std::snprintf(Buf, sizeof Buf, "%016llx", static_cast<unsigned long long>(H));
  return Buf;
}

/// This rank's output lines. Rank 0 prints every rank's at the end, in
/// rank order: ranks that print themselves share the launcher's output,
/// and Open MPI's launcher interleaves their writes within lines.
inline std::string Output;

inline void report(const char *Op, const std::string &Name, const std::string &What) {
  Output += std::to_string(Rank) + " " + Op + " " + Name + " " + What + "\n";
}

/// Prints every rank's Output on world rank 0 (collective), in the order
/// of the ranks of MPI_COMM_WORLD.
inline void printOutputs() {
  int WorldRank = 0, WorldSize = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &WorldRank);
  MPI_Comm_size(MPI_COMM_WORLD, &WorldSize);
  int Mine = static_cast<int>(Output.size());
  std::vector<int> Lengths(static_cast<size_t>(WorldSize));
  std::vector<int> Offsets(Lengths.size());
  MPI_Gather(&Mine, 1, MPI_INT, Lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::string All;
  if (WorldRank == 0) {
    int Total = 0;
    for (size_t R = 0; R < Lengths.size(); ++R) {
      Offsets[R] = Total;
      Total += Lengths[R];
    }
    All.resize(static_cast<size_t>(Total));
  }
  MPI_Gatherv(Output.data(), Mine, MPI_CHAR, All.data(), Lengths.data(),
              Offsets.data(), MPI_CHAR, 0, MPI_COMM_WORLD);
  std::fwrite(All.data(), 1, All.size(), stdout);
}

/// The status as the program sees it. (Not MPI_Get_elements: MPICH 4.0.2
/// divides by zero in it for some types with empty members.)
inline std::string countOf(const MPI_Status &S, MPI_Datatype T) {
  int N = 0, Bytes = 0;
  MPI_Get_count(&S, T, &N);
  MPI_Get_count(&S, MPI_BYTE, &Bytes);
  return "count=" + std::to_string(N) + " bytes=" + std::to_string(Bytes);
}

/// Whether Count instances of T, committed as H, have bytes in common;
/// instances lie the MPI library's extent of H apart.
inline bool overlaps(const Type *T, MPI_Datatype H, uint64_t Count) {
  MPI_Aint Lb, Extent;
  MPI_Type_get_extent(H, &Lb, &Extent);
  std::vector<std::pair<int64_t, int64_t>> Runs;
  TypemapWalker W(T, 1, WalkMode::Bytes);
  TypemapRun Run;
  while (W.next(Run))
    for (uint64_t I = 0; I < Count; ++I)
      Runs.emplace_back(Run.Offset + int64_t(I) * Extent,
                        Run.end() + int64_t(I) * Extent);
  std::sort(Runs.begin(), Runs.end());
  for (size_t I = 1; I < Runs.size(); ++I)
    if (Runs[I].first < Runs[I - 1].second)
      return true;
  return false;
}

/// Whether T is built of MPI_LONG_INT anywhere.
inline bool hasLongInt(const Type *T) {
  if (auto *P = dyn_cast<PredefinedType>(T))
    return P->getId() == PredefinedId::LongInt;
  for (const Type *Op : T->getOperands())
    if (hasLongInt(Op))
      return true;
  return false;
}

/// A type of a description file, built with MPI constructor calls as a
/// program would build it, and committed; freed with its handle.
struct CommittedType {
  std::string Name;
  const Type *T;
  Handle H;
  MPI_Datatype get() const { return H.get(); }
};

/// Reads the description file Path into M and commits its types with
/// Builder, but those of no data and those MPICH 4.0.2 crashes packing
/// (TypeBuilder.h). On an error, prints it after Tool and returns false.
inline bool commitTypes(const char *Tool, const std::string &Path, Module &M,
                        MpiBuilder &Builder, std::vector<CommittedType> &Out) {
  if (Error E = readAnyDescriptionFile(Path, M)) {
    std::fprintf(stderr, "%s: %s\n", Tool, E.message().c_str());
    return false;
  }
  for (const NamedType &N : M.types()) {
    if (N.T->size() == 0 || mayCrashYaksaPack(N.T))
      continue;
    std::string Err;
    std::optional<Handle> H = Builder.build(N.T, Err);
    if (!H) {
      std::fprintf(stderr, "%s: %s: %s\n", Tool, N.Name.c_str(), Err.c_str());
      return false;
    }
    MPI_Datatype D = H->get();
    MPI_Type_commit(&D);
    Out.push_back({N.Name, N.T, std::move(*H)});
  }
  return true;
}

/// The types of every file of Paths in order, committed; Modules keeps
/// their IR, in Ctx. False (after a diagnostic) where a file cannot be read.
inline bool commitFiles(const char *Tool, const std::vector<std::string> &Paths,
                        TypeContext &Ctx, MpiBuilder &Builder,
                        std::vector<std::unique_ptr<Module>> &Modules,
                        std::vector<CommittedType> &Types) {
  for (const std::string &Path : Paths) {
    Modules.push_back(std::make_unique<Module>(Ctx));
    if (!commitTypes(Tool, Path, *Modules.back(), Builder, Types))
      return false;
  }
  return true;
}

/// An exchange program's main: Run between MPI_Init and MPI_Finalize, the
/// ranks' report lines printed in rank order before the latter.
inline int runProgram(int Argc, char **Argv, int (*Run)(int, char **)) {
  MPI_Init(&Argc, &Argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &Size);
  int Status = Run(Argc, Argv);
  printOutputs();
  std::fflush(stdout);
  MPI_Finalize();
  return Status;
}

/// Pieces of possibly different types in one buffer, each in a region of
/// its own with a gap after it: the buffer of a w-form, whose
/// displacements are in bytes.
class RegionBuffer {
public:
  RegionBuffer(const std::vector<const CommittedType *> &Types,
               const std::vector<int> &Counts, uint64_t Salt) {
    for (size_t I = 0; I < Types.size(); ++I) {
      MPI_Aint Lb, Extent, TrueLb, TrueExtent;
      MPI_Type_get_extent(Types[I]->get(), &Lb, &Extent);
      MPI_Type_get_true_extent(Types[I]->get(), &TrueLb, &TrueExtent);
      int64_t Shift = std::max(Counts[I] - 1, 0) * int64_t(Extent);
      int64_t Lo = std::min<int64_t>(TrueLb, TrueLb + Shift);
      int64_t Hi = std::max<int64_t>(TrueLb + TrueExtent,
                                     TrueLb + TrueExtent + Shift);
      Displs.push_back(Total - Lo);
      Total += Hi - Lo + 16;
    }
    Bytes.resize(static_cast<size_t>(Total + 8));
    fill(Salt);
  }
  /// Writes the pattern of Salt over the whole buffer.
  void fill(uint64_t Salt) {
    for (size_t W = 0; W + 8 <= Bytes.size(); W += 8) {
      uint64_t X = patternWord(W / 8, Salt);
      std::memcpy(&Bytes[W], &X, 8);
    }
  }
  void *base() { return Bytes.data(); }
  std::string digest() const { return digestOf(Bytes, {}); }
  std::vector<MPI_Aint> Displs;

private:
  int64_t Total = 0;
  std::vector<uint8_t> Bytes;
};

} // namespace rtexchange

#endif // DDTC_TEST_RUNTIME_EXCHANGESUPPORT_H

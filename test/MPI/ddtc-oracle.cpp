//===- test/MPI/ddtc-oracle.cpp - Compare ddtc's types with MPICH ---------===//
//
// The differential oracle of ddtc's IR. For every type it builds the same
// type with real MPI constructor calls, commits it, and compares what MPICH
// says with what ddtc computes:
//
//   size         MPI_Type_size_x             vs Type::size()
//   lb, extent   MPI_Type_get_extent_x       vs Type::lb(), extent()
//   true_lb, true_extent
//                MPI_Type_get_true_extent_x  vs Type::trueLb(), trueExtent()
//   packed-size  the position MPI_Pack_c reaches vs packTypemap's result
//   pack         the bytes MPI_Pack_c writes vs packTypemap, byte for byte,
//                for counts 1, 2 and 3, from a buffer with a pattern that
//                differs at every byte the typemap may touch
//
// Usage:
//   ddtc-oracle [OPTIONS] FILE...          every named type of the
//                                          description files (format v1;
//                                          FILE.ddt: the textual IR)
//   ddtc-oracle [OPTIONS] --random N --seed S [--max-depth D]
//                                          N random types (RandomType.h),
//                                          named random0, random1, ...
//   --verbose       print each type on stderr before checking it (to find
//                   the type MPICH crashes on)
//   --no-pad-mask   compare the padding bytes of long doubles too (below)
//
// Output, deterministic: one line per type, `ok NAME` or one
// `MISMATCH NAME: PROPERTY mpi=V ddtc=V` line per differing property (in
// --random mode only the mismatching types are printed, each followed by
// its textual form, which `ddtc-oracle FILE.ddt` reads back), then the
// summary `oracle: N types, M mismatches` where M counts the types with at
// least one differing property. With several files a name is printed as
// FILE:NAME (the file's base name). Exit status 0 when everything agrees,
// 1 on a mismatch or an error (a file that does not read, MPICH refusing
// a type ddtc accepted), 2 on bad usage.
//
// The MPICH this runs against is 4.0.2 as Debian builds it: device ch4,
// whose datatype engine is Yaksa (Debian's --without-yaksa only means "the
// bundled Yaksa"; libmpich.so contains typerep_yaksa_*.c and no dataloop
// engine). Its known failures:
//  - MPI_Pack dies of SIGFPE on some structs with a member of size 0
//    (mayCrashYaksaPack below). Such types are packed in a child process;
//    a crash there is reported as `SKIP NAME: pack ...` and counted in the
//    summary (", K with checks skipped (MPICH crashed)"), not as a
//    mismatch: there is no MPICH answer to compare with.
//  - typerep_do_pack takes the element size of a contiguous derived type
//    from bits 8-15 of its handle (MPIR_Datatype_get_basic_size(datatype)
//    instead of dtp->basic_type), so once handle indices reach 512 (about
//    500 live derived types) MPI_Pack of a contiguous type can stop short
//    of the end. The oracle frees every type after checking it, which keeps
//    handle indices small.
//
// MPI_LONG_DOUBLE: x86-64's long double has 10 value bytes and 6 bytes of
// padding. Checked empirically: MPI_Pack leaves the 6 padding bytes of
// MPI_LONG_DOUBLE, and of each half of MPI_C_LONG_DOUBLE_COMPLEX,
// unwritten when it packs them element by element (a vector of long
// doubles: Yaksa's typed kernels copy with a long double load and store),
// but copies all 16 bytes when the data is contiguous (one memcpy) and
// inside MPI_LONG_DOUBLE_INT. So the packed streams are compared on value
// bytes only: the padding bytes (PredefinedInfo::PadMask, found by a
// WalkMode::Typed walk) are skipped wherever a long double is packed.
//
//===----------------------------------------------------------------------===//
#include "ddtc/IR/Module.h"
#include "ddtc/IR/TextForm.h"
#include "ddtc/IR/TypeContext.h"
#include "ddtc/IR/TypemapWalker.h"
#include "ddtc/IR/Verifier.h"
#include "ddtc/Reader/ReadFile.h"
#include "ddtc/Testing/CommandLine.h"
#include "ddtc/Testing/RandomType.h"

#include "ddtc/MPI/PredefinedHandles.h"
#include "ddtc/MPI/TypeBuilder.h"
#include "ddtc/MPI/TypeDecoder.h"
#include "ddtc/Target/MPICHRules.h"

#include <mpi.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

using namespace ddtc;

namespace {

//===----------------------------------------------------------------------===//
// Comparing
//===----------------------------------------------------------------------===//

/// The byte at index I of the input pattern: a hash, so that a byte read
/// from the wrong place almost never has the right value.
uint8_t patternByte(uint64_t I) {
  uint64_t X = I * 0x9E3779B97F4A7C15ull;
  X ^= X >> 29;
  X *= 0xBF58476D1CE4E5B9ull;
  X ^= X >> 32;
  return static_cast<uint8_t>(X);
}

constexpr int64_t GuardBytes = 64;
constexpr uint8_t Filler = 0xEE;

class Checker {
public:
  Checker(const std::vector<MPI_Datatype> &Predefined, bool UsePadMask)
      : Predefined(Predefined), Builder(Predefined), UsePadMask(UsePadMask) {}

  struct Result {
    std::vector<std::string> Mismatches; ///< empty: agreement
    std::vector<std::string> Skips;      ///< checks MPICH could not run
  };
  /// Compares T with MPICH.
  Result check(const std::string &Name, const Type *T);

private:
  void compare(std::vector<std::string> &Out, const std::string &Name,
               const std::string &Property, int64_t Mpich, int64_t Ddtc) {
    if (Mpich != Ddtc)
      Out.push_back("MISMATCH " + Name + ": " + Property + " mpi=" +
                    std::to_string(Mpich) + " ddtc=" + std::to_string(Ddtc));
  }
  void comparePack(std::vector<std::string> &Out, const std::string &Name,
                   const Type *T, MPI_Datatype H, int64_t Count);
  /// The pack comparisons of counts 1 to 3, run in a child process.
  void comparePacksIsolated(Result &R, const std::string &Name, const Type *T,
                            MPI_Datatype H);
  /// Marks the packed bytes of Count instances of T that carry no value.
  std::vector<bool> padMask(const Type *T, int64_t Count, size_t Length);

  /// The decoder reads the handle back into a fresh context: it must
  /// give the type that was built (the runtime's view of a program's type).
  void compareDecoded(std::vector<std::string> &Out, const std::string &Name,
                      const Type *T, MPI_Datatype H);

  const std::vector<MPI_Datatype> &Predefined;
  MpiBuilder Builder;
  bool UsePadMask;
};

Checker::Result Checker::check(const std::string &Name, const Type *T) {
  Result R;
  std::vector<std::string> &Out = R.Mismatches;
  std::string Err;
  std::optional<Handle> H = Builder.build(T, Err);
  if (!H) {
    Out.push_back("MISMATCH " + Name + ": construct mpi=error(" + Err +
                  ") ddtc=ok");
    return R;
  }
  // A predefined handle stays as it is: committing it is allowed, but
  // comparing it directly is the point.
  MPI_Datatype D = H->get();
  if (int Rc = MPI_Type_commit(&D); Rc != MPI_SUCCESS) {
    Out.push_back("MISMATCH " + Name + ": commit mpi=error(" +
                  mpiErrorString(Rc) + ") ddtc=ok");
    return R;
  }

  compareDecoded(Out, Name, T, D);

  MPI_Count Size = 0, Lb = 0, Extent = 0, TrueLb = 0, TrueExtent = 0;
  MPI_Type_size_x(D, &Size);
  MPI_Type_get_extent_x(D, &Lb, &Extent);
  MPI_Type_get_true_extent_x(D, &TrueLb, &TrueExtent);
  compare(Out, Name, "size", Size, T->size());
  compare(Out, Name, "lb", Lb, T->lb());
  compare(Out, Name, "extent", Extent, T->extent());
  compare(Out, Name, "true_lb", TrueLb, T->trueLb());
  compare(Out, Name, "true_extent", TrueExtent, T->trueExtent());
  // Packing needs sane bounds on both sides to size the buffers.
  if (!Out.empty())
    return R;
  if (mayCrashYaksaPack(T)) {
    comparePacksIsolated(R, Name, T, D);
    return R;
  }
  for (int64_t Count = 1; Count <= 3; ++Count)
    comparePack(Out, Name, T, D, Count);
  return R;
}

void Checker::compareDecoded(std::vector<std::string> &Out,
                             const std::string &Name, const Type *T,
                             MPI_Datatype H) {
  TypeContext Ctx(getMPICHRules());
  TypeDecoder Decoder(Ctx, Predefined);
  Expected<const Type *> Back = Decoder.decode(H);
  if (!Back) {
    Out.push_back("MISMATCH " + Name + ": decode error(" +
                  Back.takeError().message() + ")");
    return;
  }
  std::string Given = printType(T), Decoded = printType(*Back);
  if (Given != Decoded)
    Out.push_back("MISMATCH " + Name + ": decode gives " + Decoded);
}

void Checker::comparePacksIsolated(Result &R, const std::string &Name,
                                   const Type *T, MPI_Datatype H) {
  std::fflush(stdout);
  std::fflush(stderr);
  int Pipe[2];
  if (pipe(Pipe) != 0) {
    R.Mismatches.push_back("MISMATCH " + Name + ": pack: cannot create a pipe");
    return;
  }
  pid_t Pid = fork();
  if (Pid < 0) {
    close(Pipe[0]);
    close(Pipe[1]);
    R.Mismatches.push_back("MISMATCH " + Name + ": pack: cannot fork");
    return;
  }
  if (Pid == 0) {
    // The child only packs (no communication) and leaves without running
    // MPI_Finalize or exit handlers. UCX's handlers of fatal signals would
    // print a backtrace: die quietly instead.
    close(Pipe[0]);
    for (int Sig : {SIGFPE, SIGSEGV, SIGBUS, SIGILL, SIGABRT})
      std::signal(Sig, SIG_DFL);
    for (int64_t Count = 1; Count <= 3; ++Count) {
      std::vector<std::string> Lines;
      // Report progress first, so that the parent knows which count died.
      std::string Mark = "count " + std::to_string(Count) + "\n";
      (void)!write(Pipe[1], Mark.data(), Mark.size());
      comparePack(Lines, Name, T, H, Count);
      for (const std::string &L : Lines) {
        std::string Line = L + "\n";
        (void)!write(Pipe[1], Line.data(), Line.size());
      }
    }
    close(Pipe[1]);
    _exit(0);
  }
  close(Pipe[1]);
  std::string Text;
  char Buf[4096];
  for (ssize_t N; (N = read(Pipe[0], Buf, sizeof Buf)) != 0;) {
    if (N < 0) {
      if (errno == EINTR)
        continue;
      break;
    }
    Text.append(Buf, static_cast<size_t>(N));
  }
  close(Pipe[0]);
  int Status = 0;
  while (waitpid(Pid, &Status, 0) < 0 && errno == EINTR)
    ;
  std::string LastCount = "1";
  size_t Pos = 0;
  while (Pos < Text.size()) {
    size_t End = Text.find('\n', Pos);
    if (End == std::string::npos)
      End = Text.size();
    std::string Line = Text.substr(Pos, End - Pos);
    Pos = End + 1;
    if (Line.rfind("count ", 0) == 0)
      LastCount = Line.substr(6);
    else if (!Line.empty())
      R.Mismatches.push_back(Line);
  }
  if (WIFSIGNALED(Status))
    R.Skips.push_back("SKIP " + Name + ": pack count=" + LastCount +
                      ": MPI_Pack crashed with signal " +
                      std::to_string(WTERMSIG(Status)) +
                      " (MPICH 4.0.2 Yaksa bug: size / num_contig of a "
                      "zero-size struct member)");
  else if (!WIFEXITED(Status) || WEXITSTATUS(Status) != 0)
    R.Mismatches.push_back("MISMATCH " + Name +
                           ": pack: the isolated pack process failed");
}

std::vector<bool> Checker::padMask(const Type *T, int64_t Count,
                                   size_t Length) {
  std::vector<bool> Mask(Length, false);
  forEachPaddingByte(T, static_cast<uint64_t>(Count),
                     [&](int64_t, int64_t Packed) {
                       Mask[static_cast<size_t>(Packed)] = true;
                     });
  return Mask;
}

void Checker::comparePack(std::vector<std::string> &Out,
                          const std::string &Name, const Type *T,
                          MPI_Datatype H, int64_t Count) {
  std::string Prop = " count=" + std::to_string(Count);
  // Bytes the typemap of Count instances can touch, relative to the buffer
  // pointer: the true bounds of the first instance and of the last one
  // (extents may be negative), and the pointer itself.
  int64_t Shift = (Count - 1) * T->extent();
  int64_t Lo = std::min<int64_t>({0, T->trueLb(), T->trueLb() + Shift});
  int64_t Hi = std::max<int64_t>({0, T->trueLb() + T->trueExtent(),
                                  T->trueLb() + T->trueExtent() + Shift});
  std::vector<uint8_t> In(static_cast<size_t>(Hi - Lo + 2 * GuardBytes));
  for (size_t I = 0; I < In.size(); ++I)
    In[I] = patternByte(I);
  const uint8_t *Base = In.data() + (GuardBytes - Lo);

  int64_t Packed = Count * T->size();
  size_t OutLen = static_cast<size_t>(Packed + GuardBytes);
  std::vector<uint8_t> MpiOut(OutLen, Filler), DdtcOut(OutLen, Filler);

  // A library of int counts (MPI 3.1) cannot pack more than INT_MAX bytes
  // in one call: such a message is compared by size and bounds alone.
  if (static_cast<int64_t>(OutLen) > MaxMPICount || Count > MaxMPICount)
    return;
  MPICount Position = 0;
  int Rc = DDTC_MPI_COUNT_FN(MPI_Pack)(Base, countArg(Count), H, MpiOut.data(),
                                       countArg(static_cast<int64_t>(OutLen)),
                                       &Position, MPI_COMM_SELF);
  if (Rc != MPI_SUCCESS) {
    Out.push_back("MISMATCH " + Name + ": pack" + Prop + " mpi=error(" +
                  mpiErrorString(Rc) + ") ddtc=ok");
    return;
  }
  int64_t Written =
      packTypemap(T, static_cast<uint64_t>(Count), Base, DdtcOut.data());
  compare(Out, Name, "packed-size" + Prop, Position, Written);

  std::vector<bool> Mask;
  if (UsePadMask)
    Mask = padMask(T, Count, OutLen);
  for (size_t I = 0; I < OutLen; ++I) {
    if (UsePadMask && Mask[I])
      continue;
    if (MpiOut[I] != DdtcOut[I]) {
      char Buf[128];
      std::snprintf(Buf, sizeof Buf, " offset=%zu mpi=0x%02x ddtc=0x%02x", I,
                    MpiOut[I], DdtcOut[I]);
      Out.push_back("MISMATCH " + Name + ": pack" + Prop + Buf);
      return;
    }
  }
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

struct Options {
  std::vector<std::string> Files;
  std::optional<uint64_t> RandomCount;
  uint64_t Seed = 1;
  bool HaveSeed = false;
  unsigned MaxDepth = RandomTypeOptions().MaxDepth;
  bool PadMask = true;
  bool Verbose = false;
};

constexpr int ExitOk = 0, ExitFail = 1, ExitUsage = 2;

void usage() {
  std::fprintf(stderr,
               "usage: ddtc-oracle [--no-pad-mask] [--verbose] FILE...\n"
               "       ddtc-oracle [--no-pad-mask] [--verbose] --random N "
               "--seed S [--max-depth D]\n");
}

/// Returns false on a usage error.
bool parseArgs(int Argc, char **Argv, Options &O) {
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    auto Value = [&](uint64_t &V) {
      if (I + 1 >= Argc || !parseUnsigned(Argv[I + 1], V)) {
        std::fprintf(stderr, "ddtc-oracle: %s needs a non-negative integer\n",
                     A.c_str());
        return false;
      }
      ++I;
      return true;
    };
    uint64_t V = 0;
    if (A == "--random") {
      if (!Value(V))
        return false;
      O.RandomCount = V;
    } else if (A == "--seed") {
      if (!Value(V))
        return false;
      O.Seed = V;
      O.HaveSeed = true;
    } else if (A == "--max-depth") {
      if (!Value(V) || V > 64) {
        std::fprintf(stderr, "ddtc-oracle: --max-depth must be at most 64\n");
        return false;
      }
      O.MaxDepth = static_cast<unsigned>(V);
    } else if (A == "--verbose") {
      O.Verbose = true;
    } else if (A == "--no-pad-mask") {
      O.PadMask = false;
    } else if (A.size() > 1 && A[0] == '-') {
      std::fprintf(stderr, "ddtc-oracle: unknown option %s\n", A.c_str());
      return false;
    } else {
      O.Files.push_back(A);
    }
  }
  if (O.RandomCount) {
    if (!O.Files.empty() || !O.HaveSeed) {
      std::fprintf(stderr,
                   "ddtc-oracle: --random needs --seed and takes no files\n");
      return false;
    }
  } else if (O.Files.empty()) {
    return false;
  }
  return true;
}

std::string baseName(const std::string &Path) {
  size_t Slash = Path.find_last_of('/');
  return Slash == std::string::npos ? Path : Path.substr(Slash + 1);
}

int run(const Options &O, const std::vector<MPI_Datatype> &Handles) {
  Checker C(Handles, O.PadMask);
  uint64_t NumTypes = 0, NumMismatches = 0, NumSkips = 0;
  bool Failed = false;

  /// Checks one type and prints its mismatches and skips (or `ok NAME` if
  /// PrintOk); returns whether anything was printed.
  auto CheckOne = [&](const std::string &Name, const Type *T,
                      const std::string &Desc, bool PrintOk) {
    if (O.Verbose) {
      std::fprintf(stderr, "checking %s: %s\n", Name.c_str(), Desc.c_str());
      std::fflush(stderr);
    }
    Checker::Result R = C.check(Name, T);
    ++NumTypes;
    NumSkips += !R.Skips.empty();
    if (R.Mismatches.empty() && R.Skips.empty()) {
      if (PrintOk)
        std::printf("ok %s\n", Name.c_str());
      return false;
    }
    NumMismatches += !R.Mismatches.empty();
    for (const std::string &L : R.Mismatches)
      std::printf("%s\n", L.c_str());
    for (const std::string &L : R.Skips)
      std::printf("%s\n", L.c_str());
    return true;
  };

  if (O.RandomCount) {
    RandomTypeOptions RO;
    RO.MaxDepth = O.MaxDepth;
    std::mt19937_64 Rng(O.Seed);
    for (uint64_t I = 0; I < *O.RandomCount; ++I) {
      // A fresh context per type keeps memory flat over long runs; the
      // engine carries on, so type I depends only on the seed.
      TypeContext Ctx(getMPICHRules());
      const Type *T = randomType(Ctx, Rng, RO);
      std::string Name = "random" + std::to_string(I);
      if (Error E = verifyType(T, Ctx.getRules())) {
        std::printf("MISMATCH %s: verifier %s\n  type: %s\n", Name.c_str(),
                    E.message().c_str(), printType(T).c_str());
        ++NumTypes;
        ++NumMismatches;
        continue;
      }
      std::string Desc = printType(T);
      if (CheckOne(Name, T, Desc, /*PrintOk=*/false))
        std::printf("  type: %s\n", Desc.c_str());
    }
  } else {
    bool Qualify = O.Files.size() > 1;
    for (const std::string &Path : O.Files) {
      TypeContext Ctx(getMPICHRules());
      Module M(Ctx);
      if (Error E = readAnyDescriptionFile(Path, M)) {
        std::fflush(stdout);
        std::fprintf(stderr, "ddtc-oracle: %s\n", E.message().c_str());
        Failed = true;
        continue;
      }
      for (const NamedType &N : M.types()) {
        std::string Name = Qualify ? baseName(Path) + ":" + N.Name : N.Name;
        CheckOne(Name, N.T, O.Verbose ? printType(N.T, &M) : std::string(),
                 /*PrintOk=*/true);
      }
    }
  }
  std::printf("oracle: %llu types, %llu mismatches",
              static_cast<unsigned long long>(NumTypes),
              static_cast<unsigned long long>(NumMismatches));
  if (NumSkips)
    std::printf(", %llu with checks skipped (MPICH crashed)",
                static_cast<unsigned long long>(NumSkips));
  std::printf("\n");
  std::fflush(stdout);
  return Failed || NumMismatches ? ExitFail : ExitOk;
}

} // namespace

int main(int argc, char **argv) {
  Options O;
  if (!parseArgs(argc, argv, O)) {
    usage();
    return ExitUsage;
  }
  return runWithMpi(argc, argv, "ddtc-oracle",
                    [&](const std::vector<MPI_Datatype> &Handles) {
                      return run(O, Handles);
                    });
}

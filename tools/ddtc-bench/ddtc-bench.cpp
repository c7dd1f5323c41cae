//===- tools/ddtc-bench/ddtc-bench.cpp - Communication benchmark ----------===//
//
// `mpiexec -n P ddtc-bench FILE [options]` (docs/cli.md, "ddtc-bench"): for
// every named type of a description or trace file, every operation (ping-pong,
// MPI_Bcast, MPI_Allgather by default; persistent ping-pong, MPI_Alltoall,
// MPI_Alltoallw, MPI_Gather, MPI_Scatter, MPI_Neighbor_alltoallw on request)
// and every variant (Exchange.h), the time per operation with the method of
// seed 000 (docs/design.md#references) §2.3:
//
//   - before each measurement all ranks meet in MPI_Barrier; each times
//     its part with MPI_Wtime; a measurement is the largest time over the
//     ranks;
//   - nrep measurements per run, by message size m (one rank's bytes):
//     100 if m <= 32 KiB, 50 if m <= 320 KiB, 20 beyond (--nrep overrides);
//   - --runs runs; the median of each run; mean, min, max over the runs.
//
// The variants of one run are measured one after another, run after run,
// so that the machine's drift touches them alike. Before any timing, each
// variant does the operation once and its receive buffers are compared
// with the mpi variant's (reference: with the bytes sent): a difference
// ends the run with status 1 on every rank.
//
//===----------------------------------------------------------------------===//
#include "BenchOptions.h"
#include "Collective.h"
#include "Exchange.h"
#include "KernelLibrary.h"
#include "Results.h"

#include "ddtc/IR/Module.h"
#include "ddtc/IR/TypeContext.h"
#include "ddtc/MPI/MachineIdentity.h"
#include "ddtc/MPI/PredefinedHandles.h"
#include "ddtc/MPI/SplitSend.h"
#include "ddtc/MPI/TypeBuilder.h"
#include "ddtc/Reader/ReadFile.h"
#include "ddtc/Reader/TypeUses.h"
#include "ddtc/Runtime/RuntimeSettings.h"
#include "ddtc/Target/MPICHRules.h"

#include <mpi.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>

using namespace ddtc;
using namespace ddtc::bench;

namespace {

int Rank = 0, Size = 1;

/// Reports Msg (the same on every rank) from rank 0 and gives the status.
int fail(const std::string &Msg) {
  if (Rank == 0)
    std::fprintf(stderr, "ddtc-bench: error: %s\n", Msg.c_str());
  return 1;
}

std::string join(const std::vector<std::string> &V) {
  std::string Out;
  for (const std::string &S : V)
    Out += (Out.empty() ? "" : ", ") + S;
  return Out;
}

//===----------------------------------------------------------------------===//
// Progress
//===----------------------------------------------------------------------===//

/// A line on stderr of rank 0 once a run has taken more than two seconds:
/// rewritten in place on a terminal, a new line every ten seconds
/// otherwise (a log file).
class Progress {
public:
  explicit Progress(size_t Total)
      : Total(Total), Start(Clock::now()), Tty(isatty(2)) {}
  void step(const std::string &What) {
    ++Done;
    if (Rank != 0)
      return;
    double Now = seconds();
    if (Now < 2 || Now - Last < (Tty ? 0.2 : 10))
      return;
    Last = Now;
    std::fprintf(stderr, "%sddtc-bench: [%3zu%%] %.0f s, %s%s",
                 Tty ? "\r\033[K" : "", Done * 100 / Total, Now, What.c_str(),
                 Tty ? "" : "\n");
    Shown = true;
  }
  void finish() {
    if (Rank == 0 && Shown && Tty)
      std::fprintf(stderr, "\r\033[K");
  }

private:
  using Clock = std::chrono::steady_clock;
  double seconds() const {
    return std::chrono::duration<double>(Clock::now() - Start).count();
  }
  size_t Total, Done = 0;
  Clock::time_point Start;
  bool Tty, Shown = false;
  double Last = -100;
};

//===----------------------------------------------------------------------===//
// What to measure
//===----------------------------------------------------------------------===//

struct Case {
  const NamedType *N;
  int64_t Count;
  uint64_t Calls;
};

int nrepFor(int64_t Bytes, const BenchOptions &O) {
  if (O.Nrep > 0)
    return O.Nrep;
  if (Bytes <= 32 * 1024)
    return 100;
  if (Bytes <= 320 * 1024)
    return 50;
  return 20;
}

std::string mpiLibrary() {
  char Buf[MPI_MAX_LIBRARY_VERSION_STRING];
  int Len = 0;
  MPI_Get_library_version(Buf, &Len);
  // The first lines name the library and its version; the rest (the
  // configure line, compilers) is left out.
  std::string S(Buf, Len);
  size_t End = 0;
  for (int Line = 0; Line < 4 && End != std::string::npos; ++Line)
    End = S.find('\n', End ? End + 1 : 0);
  if (End != std::string::npos)
    S.resize(End);
  while (!S.empty() && (S.back() == '\n' || S.back() == ' '))
    S.pop_back();
  return S;
}

//===----------------------------------------------------------------------===//
// Measuring
//===----------------------------------------------------------------------===//

/// Does each variant once and compares; the message of the first
/// difference on any rank, or empty.
std::string check(Exchange &X, const std::vector<Variant> &Variants) {
  X.resetReceive();
  X.run(Variant::Mpi);
  X.keepOracle();
  std::string Bad;
  for (Variant V : Variants) {
    if (V == Variant::Mpi)
      continue;
    X.resetReceive();
    X.run(V);
    std::string Where;
    bool Ok = V == Variant::Reference ? X.referenceArrived(Where)
                                      : X.matchesOracle(Where);
    if (!Ok && Bad.empty())
      Bad = std::string("the ") + getName(V) + " variant received other " +
            "bytes than " + (V == Variant::Reference ? "were sent" : "mpi") +
            " (" + Where + ")";
  }
  return agree(Bad);
}

/// One run of V: nrep times, each the largest over the ranks; the median,
/// in microseconds, on rank 0.
double timeRun(Exchange &X, Variant V, int Nrep) {
  std::vector<double> Mine(Nrep), Largest(Nrep);
  for (int I = 0; I < Nrep; ++I) {
    MPI_Barrier(MPI_COMM_WORLD);
    double Start = MPI_Wtime();
    X.run(V);
    Mine[I] = MPI_Wtime() - Start;
  }
  MPI_Reduce(Mine.data(), Largest.data(), Nrep, MPI_DOUBLE, MPI_MAX, 0,
             MPI_COMM_WORLD);
  return median(Largest) * 1e6;
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

int run(int Argc, char **Argv) {
  BenchOptions O;
  if (int Status = parseBenchOptions(Argc, Argv, Rank, O); Status >= 0)
    return Status;

  TypeContext Ctx(getMPICHRules());
  Module M(Ctx);
  if (Error E = readAnyDescriptionFile(O.File, M))
    return fail(E.message());

  Report R;
  R.File = O.File;
  R.Ranks = Size;
  R.Runs = O.Runs;
  R.Chunk = O.Chunk;
  R.MpiLibrary = mpiLibrary();
  for (const auto &[Key, Value] : M.extras())
    R.FromTrace |= Key == "x-trace";

  // The types, in the file's order.
  std::vector<const NamedType *> Types;
  for (const std::string &Name : O.Types)
    if (!M.lookup(Name)) {
      std::vector<std::string> Known;
      for (const NamedType &N : M.types())
        Known.push_back(N.Name);
      return fail(O.File + ": no type named '" + Name + "' (the file has: " +
                  (Known.empty() ? "no named types" : join(Known)) + ")");
    }
  for (const NamedType &N : M.types())
    if (O.Types.empty() ||
        std::find(O.Types.begin(), O.Types.end(), N.Name) != O.Types.end())
      Types.push_back(&N);
  if (Types.empty())
    return fail(O.File + ": no named types to measure");

  for (Op Which : O.Ops)
    if ((Which == Op::PingPong || Which == Op::PingPongPersistent) &&
        Size < 2)
      return fail(std::string(getName(Which)) +
                  " needs 2 ranks (mpiexec -n 2 ddtc-bench ...); with one "
                  "rank, leave it out: --ops bcast,allgather");

  // The cases: (type, count) pairs.
  std::vector<Case> Cases;
  if (O.Uses) {
    bool AnyUses = false;
    for (const NamedType *N : Types) {
      Expected<TypeUses> Uses = readTypeUses(*N);
      if (!Uses)
        return fail(O.File + ": " + Uses.takeError().message());
      for (const auto &[Key, Value] : N->Extras)
        AnyUses |= Key == "x-uses";
      if (Uses->empty())
        R.Skips.push_back({N->Name, "never used for communication in the "
                                    "trace (no x-uses with a count)"});
      for (const auto &[Count, Calls] : Uses->Counts)
        Cases.push_back({N, Count, Calls});
    }
    if (!AnyUses)
      return fail(O.File + ": --uses: no type has x-uses (a trace written "
                           "by libddtc_trace.so has them; or give --count)");
  } else {
    for (const NamedType *N : Types)
      for (int64_t Count : O.Counts)
        Cases.push_back({N, Count, 0});
  }

  // Kernels and normalized types come from one library.
  bool WantsLibrary = false;
  for (Variant V : O.Variants)
    WantsLibrary |= V == Variant::Ddtc || V == Variant::MpiNormalized;
  KernelLibrary Library;
  if (WantsLibrary) {
    std::string Err;
    if (!Library.load(O, Err))
      return fail(Err);
  }

  // The MPI types, built once.
  std::string Missing;
  std::vector<MPI_Datatype> Predefined = makeHandleTable(Missing);
  MpiBuilder Builder(Predefined);
  std::map<const NamedType *, TypeUnderTest> Ready;
  std::vector<Handle> Handles;
  std::set<const NamedType *> Unusable;
  for (const NamedType *N : Types) {
    const Type *T = N->T;
    std::string Why;
    if (T->size() == 0)
      Why = "size 0: nothing to communicate";
    else if (mayCrashYaksaPack(T))
      Why = "MPICH 4.0.2's MPI_Pack may crash on it (a struct member of "
            "size 0)";
    TypeUnderTest U;
    U.Name = N->Name;
    U.T = T;
    if (Why.empty()) {
      std::optional<Handle> H = Builder.build(T, Why);
      if (H) {
        U.Mpi = H->get();
        MPI_Type_set_name(U.Mpi, N->Name.c_str());
        MPI_Type_commit(&U.Mpi);
        Handles.push_back(std::move(*H));
      }
    }
    if (!Why.empty()) {
      R.Skips.push_back({N->Name, Why});
      Unusable.insert(N);
      continue;
    }
    if (WantsLibrary) {
      if (BuildFn Build = Library.getBuild(N->Name)) {
        int Code = Build(&U.Normalized);
        if (Code != MPI_SUCCESS)
          return fail("ddtc_" + N->Name + "_build: " + mpiErrorString(Code));
        MPI_Type_commit(&U.Normalized);
        Handles.emplace_back(U.Normalized, true);
      }
      U.Kernel = Library.getKernel(N->Name);
      if (U.Kernel && (U.Kernel->size != uint64_t(T->size()) ||
                       U.Kernel->extent != T->extent()))
        return fail(Library.getPath() + ": the kernel of '" + N->Name +
                    "' is for size " + std::to_string(U.Kernel->size) +
                    " and extent " + std::to_string(U.Kernel->extent) +
                    ", the type in " + O.File + " has size " +
                    std::to_string(T->size()) + " and extent " +
                    std::to_string(T->extent()));
      for (Variant V : O.Variants)
        if ((V == Variant::Ddtc && !U.Kernel) ||
            (V == Variant::MpiNormalized && U.Normalized == MPI_DATATYPE_NULL))
          R.Skips.push_back(
              {N->Name,
               std::string("no ") + getName(V) +
                   " variant: " + Library.getPath() + " has no " +
                   (V == Variant::Ddtc ? "kernel"
                                       : "ddtc_" + N->Name + "_build") +
                   " for it"});
    }
    Ready.emplace(N, std::move(U));
  }

  Progress P(Cases.size() * O.Ops.size() * size_t(O.Runs));
  for (const Case &C : Cases) {
    if (Unusable.count(C.N))
      continue;
    const TypeUnderTest &U = Ready.at(C.N);
    for (Op Which : O.Ops) {
      if (std::optional<std::string> Why =
              Exchange::whyNot(U, Which, C.Count, Size, O.MaxBuffer)) {
        R.Skips.push_back({U.Name, std::string(getName(Which)) +
                                       " with count " +
                                       std::to_string(C.Count) + ": " + *Why});
        continue;
      }
      Exchange X(U, Which, C.Count, Rank, Size, O.Chunk);
      std::vector<Variant> Variants;
      for (Variant V : O.Variants)
        if (X.has(V))
          Variants.push_back(V);
      if (std::string Bad = check(X, Variants); !Bad.empty())
        return fail(U.Name + " (count " + std::to_string(C.Count) +
                    "): " + getName(Which) + ": " + Bad);
      int Nrep = nrepFor(X.messageBytes(), O);
      std::vector<Measurement> Ms;
      for (Variant V : Variants) {
        Ms.push_back(
            {U.Name, Which, V, C.Count, X.messageBytes(), Nrep, C.Calls, {}});
        X.run(V); // warm-up: the check did the first
      }
      for (int Run = 0; Run < O.Runs; ++Run) {
        for (size_t I = 0; I < Variants.size(); ++I) {
          double Us = timeRun(X, Variants[I], Nrep);
          if (Rank == 0)
            Ms[I].RunMediansUs.push_back(Us);
        }
        P.step(U.Name + " " + getName(Which) + " count " +
               std::to_string(C.Count));
      }
      for (Measurement &Mm : Ms)
        if (Mm.V == Variant::Ddtc && (X.kernelsOnEveryRank() || Rank == 0))
          Mm.KernelUs = X.kernelMicroseconds(Nrep);
      if (Rank == 0)
        R.Results.insert(R.Results.end(), Ms.begin(), Ms.end());
    }
  }
  P.finish();

  std::string Err;
  if (Rank == 0) {
    if (!O.Quiet)
      printTable(R, stdout);
    std::fflush(stdout);
    bool Ok = O.JsonOut.empty() || writeJson(R, O.JsonOut, Err);
    if (Ok && !O.CsvOut.empty())
      writeCsv(R, O.CsvOut, Err);
  }
  if (std::string Any = agree(Err); !Any.empty())
    return fail(Any);
  return 0;
}

} // namespace

int main(int Argc, char **Argv) {
  MPI_Init(&Argc, &Argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &Size);
  // The ddtc variant sends its packed bytes as the runtime does, window
  // and setting included, from the environment or the runtime's settings
  // file, named or stored (docs/runtime.md, "Settings"); it measures none.
  RuntimeSettings Settings;
  MachineIdentity Id = machineIdentity();
  std::vector<std::string> Warnings = Settings.load(Id.Node, Id.Library);
  if (std::string W =
          SplitSends::get().configure(Settings.get("DDTC_RT_SPLIT_SEND"));
      !W.empty())
    Warnings.push_back(Settings.where("DDTC_RT_SPLIT_SEND") + W);
  for (const std::string &W : Warnings)
    if (Rank == 0)
      std::fprintf(stderr, "ddtc-bench: warning: %s\n", W.c_str());
  int Status = run(Argc, Argv);
  SplitSends::get().release();
  MPI_Finalize();
  return Status;
}

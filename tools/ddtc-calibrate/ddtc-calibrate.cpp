//===- tools/ddtc-calibrate/ddtc-calibrate.cpp - Price an engine's work ---===//
//
// `ddtc calibrate` runs this MPI program (one process; docs/mpi-forms.md):
// it builds a set of probe types chosen to make each work unit of the
// engine model (EngineWork.h) visible -- vectors of every block length
// class, index lists and contiguous loops over an element type of each
// class, two- and three-level trees, structs, pair types, large blocks,
// columns of large matrices, counts -- times MPI_Pack of each
// (PackTimer.h: buffers in cache, the median over rounds), counts the work
// YaksaModel says each does, and fits nanoseconds per unit by non-negative
// least squares on relative errors. It writes the cost table and, with
// --report, every probe's measured and modelled time.
//
// The model's structure is Yaksa's: the table of another library is only
// as good as its engine resembles Yaksa's, and the tool says so.
//
//===----------------------------------------------------------------------===//
#include "ddtc/Engine/EngineCosts.h"
#include "ddtc/Engine/YaksaModel.h"
#include "ddtc/IR/Predefined.h"
#include "ddtc/IR/TextForm.h"
#include "ddtc/IR/TypeContext.h"
#include "ddtc/MPI/MPISupport.h"
#include "ddtc/MPI/PackTimer.h"
#include "ddtc/MPI/TypeBuilder.h"
#include "ddtc/Support/UsageStatus.h"
#include "ddtc/Target/MPICHRules.h"

#include <CLI/CLI.hpp>
#include <mpi.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

using namespace ddtc;

namespace {

struct Probe {
  std::string Name;
  const Type *T;
  int Count;
};

/// Builds the probe set. Messages are about 32 KiB packed so that buffers
/// stay in cache: the table prices the engine's work, not the memory.
class ProbeSet {
public:
  explicit ProbeSet(TypeContext &Ctx) : Ctx(Ctx) {}

  std::vector<Probe> build() {
    const Type *D = Ctx.getPredefined(PredefinedId::Double);
    const Type *I = Ctx.getPredefined(PredefinedId::Int);
    const Type *C = Ctx.getPredefined(PredefinedId::Char);
    const Type *DI = Ctx.getPredefined(PredefinedId::DoubleInt);
    // Every element class (EngineWork.h) through every kind of innermost
    // loop; char, int and double, the common ones, at more block lengths.
    for (PredefinedId Id :
         {PredefinedId::Char, PredefinedId::Short, PredefinedId::Int,
          PredefinedId::Long, PredefinedId::Float, PredefinedId::Double,
          PredefinedId::CDoubleComplex}) {
      const Type *E = Ctx.getPredefined(Id);
      bool Common = E == C || E == I || E == D;
      std::string En = elementName(Id);
      // Every unrolled block length (1-8) is a kernel of its own.
      std::vector<int64_t> BlockLengths = {1, 2, 3,  4,  5,   6,  7,
                                           8, 9, 32, 64, 100, 256};
      if (Common)
        BlockLengths.insert(BlockLengths.begin() + 9, {12, 16});
      for (int64_t B : BlockLengths) {
        bool Listed = B == 4 || B == 64 || (Common && (B == 1 || B == 16));
        bool Counted = B == 2 || B == 8 || B == 32 || B == 100;
        int64_t N = blocksFor(B * E->size());
        add("vector_b" + std::to_string(B) + "_" + En,
            get(Ctx.getVector(N, B, 2 * B, E)), 1);
        if (Common && B <= 16 && B != 5 && B != 7)
          add("vector_small_b" + std::to_string(B) + "_" + En,
              get(Ctx.getVector(4, B, 2 * B, E)), 1);
        if (Listed) {
          add("blkindex_b" + std::to_string(B) + "_" + En,
              get(Ctx.getIndexedBlock(B, irregular(N, 2 * B), E)), 1);
          std::vector<int64_t> Lengths(size_t(N / 2) * 2);
          for (size_t J = 0; J < Lengths.size(); ++J)
            Lengths[J] = B + int64_t(J % 2);
          add("indexed_b" + std::to_string(B) + "_" + En,
              get(Ctx.getIndexed(Lengths, irregular(Lengths.size(), 2 * B + 2),
                                 E)),
              1);
        }
        if (Counted) {
          // The same blocks with the instance count as the outer loop:
          // a contiguous type's loop, whose step is read at run time.
          add("vector_count_b" + std::to_string(B) + "_" + En,
              get(Ctx.getResized(0, 2 * B * E->size(),
                                 get(Ctx.getContiguous(B, E)))),
              int(N));
          add("contig_resized_b" + std::to_string(B) + "_" + En,
              get(Ctx.getContiguous(
                  N, get(Ctx.getResized(0, 2 * B * E->size(),
                                        get(Ctx.getContiguous(B, E)))))),
              1);
        }
      }
    }
    // Two levels: blocks of a small vector, strided and listed.
    for (int64_t Inner : {2, 4, 16}) {
      const Type *V = get(Ctx.getVector(Inner, 2, 3, I));
      int64_t N = blocksFor(Inner * 8);
      int64_t Stride = 4 * Inner * 4;
      add("vector_of_vector_" + std::to_string(Inner),
          get(Ctx.getHVector(N, 1, Stride, V)), 1);
      add("blkindex_of_vector_" + std::to_string(Inner),
          get(Ctx.getHIndexedBlock(1, irregular(N, Stride, 4), V)), 1);
      add("vector_of_contig_" + std::to_string(Inner),
          get(Ctx.getHVector(N, 1, Stride, get(Ctx.getContiguous(Inner, D)))),
          1);
      // Three levels: a kernel (MPICH 4.0.2's Yaksa generates them three
      // levels deep).
      const Type *W = get(Ctx.getHVector(2, 1, Stride, V));
      add("vector3_" + std::to_string(Inner),
          get(Ctx.getHVector(N / 2, 1, 4 * Stride, W)), 1);
      add("vector3_b4_" + std::to_string(Inner),
          get(Ctx.getHVector(N / 8, 4, 4 * Stride, W)), 1);
      // Four levels: no kernel, one dispatch per outer block.
      const Type *X = get(Ctx.getHVector(2, 1, 4 * Stride, W));
      add("vector4_" + std::to_string(Inner),
          get(Ctx.getHVector(N / 4, 1, 16 * Stride, X)), 1);
      add("vector4_b4_" + std::to_string(Inner),
          get(Ctx.getHVector(N / 16, 4, 16 * Stride, X)), 1);
    }
    // The interpreter: structs of two types, and a pair type.
    for (int64_t B : {1, 4, 32}) {
      int64_t Lengths[] = {B, B};
      int64_t Displs[] = {0, 8 * B + 8};
      const Type *Types[] = {D, I};
      const Type *S = get(Ctx.getStruct(Lengths, Displs, Types));
      int64_t N = blocksFor(12 * B);
      add("struct_b" + std::to_string(B), S, int(N));
      add("vector_of_struct_b" + std::to_string(B),
          get(Ctx.getHVector(N, 1, 2 * S->extent(), S)), 1);
    }
    add("double_int", DI, int(blocksFor(12)));
    add("vector_double_int", get(Ctx.getVector(blocksFor(12), 1, 2, DI)), 1);
    // Columns of large matrices: one element per page, more pages than
    // the TLB holds, so that the page walks show.
    for (int64_t Pages : {1024, 4096, 16384})
      add("column_" + std::to_string(Pages) + "_pages",
          get(Ctx.getVector(Pages, 1, 1024, I)), 1);
    add("column_pairs_4096_pages", get(Ctx.getVector(4096, 2, 512, D)), 1);
    // Contiguous messages and large blocks (memcpy, per piece).
    for (int64_t Bytes : {64, 4096, 65536})
      add("contiguous_" + std::to_string(Bytes),
          get(Ctx.getContiguous(Bytes / 8, D)), 1);
    for (int64_t B : {2048, 4096})
      add("vector_large_b" + std::to_string(B),
          get(Ctx.getVector(4, B, 2 * B, D)), 1);
    return Probes;
  }

private:
  static constexpr int64_t MessageBytes = 32768;

  static int64_t blocksFor(int64_t BlockBytes) {
    return std::max<int64_t>(2,
                             MessageBytes / std::max<int64_t>(BlockBytes, 1));
  }
  static std::string elementName(PredefinedId Id) {
    // "MPI_C_DOUBLE_COMPLEX" -> "c_double_complex"
    std::string Name(getPredefinedInfo(Id).Name.substr(4));
    for (char &Ch : Name)
      Ch = char(std::tolower(static_cast<unsigned char>(Ch)));
    return Name;
  }
  /// N displacements about Spacing apart, not equally spaced (so that
  /// Yaksa keeps the list), increasing.
  static std::vector<int64_t> irregular(size_t N, int64_t Spacing,
                                        int64_t Jitter = 1) {
    std::vector<int64_t> D(N);
    for (size_t J = 0; J < N; ++J)
      D[J] = int64_t(J) * Spacing + (J % 3 == 1 ? Jitter : 0);
    return D;
  }
  const Type *get(Expected<const Type *> T) {
    if (!T) { // probes are well-formed by construction
      std::fprintf(stderr, "ddtc-calibrate: internal error: %s\n",
                   T.takeError().message().c_str());
      std::exit(1);
    }
    return *T;
  }
  void add(std::string Name, const Type *T, int Count) {
    Probes.push_back({std::move(Name), T, Count});
  }

  TypeContext &Ctx;
  std::vector<Probe> Probes;
};

/// Non-negative least squares on relative errors: minimises
/// sum_i ((F_i . X - T_i) / T_i)^2 over X >= 0, by cyclic coordinate
/// descent on the normal equations (nine unknowns; converges in a few
/// hundred sweeps).
std::vector<double> fitNonNegative(const std::vector<EngineWork> &F,
                                   const std::vector<double> &T) {
  const size_t K = NumWorkUnits;
  std::vector<double> Scale(K, 0);
  for (const EngineWork &W : F)
    for (size_t J = 0; J < K; ++J)
      Scale[J] = std::max(Scale[J], W.Units[J]);
  std::vector<std::vector<double>> A(K, std::vector<double>(K, 0));
  std::vector<double> B(K, 0);
  for (size_t I = 0; I < F.size(); ++I) {
    double W = 1 / (T[I] * T[I]);
    for (size_t J = 0; J < K; ++J) {
      double FJ = Scale[J] ? F[I].Units[J] / Scale[J] : 0;
      B[J] += W * FJ * T[I];
      for (size_t L = 0; L < K; ++L)
        A[J][L] += W * FJ * (Scale[L] ? F[I].Units[L] / Scale[L] : 0);
    }
  }
  std::vector<double> X(K, 0);
  for (unsigned Sweep = 0; Sweep < 20000; ++Sweep) {
    double Change = 0;
    for (size_t J = 0; J < K; ++J) {
      if (A[J][J] <= 0)
        continue;
      double R = B[J];
      for (size_t L = 0; L < K; ++L)
        if (L != J)
          R -= A[J][L] * X[L];
      double New = std::max(0.0, R / A[J][J]);
      Change = std::max(Change, std::fabs(New - X[J]));
      X[J] = New;
    }
    if (Change < 1e-12)
      break;
  }
  for (size_t J = 0; J < K; ++J)
    X[J] = Scale[J] ? X[J] / Scale[J] : 0;
  return X;
}

std::string cpuName() {
  std::ifstream In("/proc/cpuinfo");
  std::string Line;
  while (std::getline(In, Line))
    if (Line.rfind("model name", 0) == 0) {
      size_t Colon = Line.find(':');
      return Colon == std::string::npos ? Line : Line.substr(Colon + 2);
    }
  return "unknown CPU";
}

struct Options {
  std::string Output;
  std::string Mpi = "mpich";
  bool Report = false;
  unsigned Batches = 9;
};

int run(const Options &O, const std::vector<MPI_Datatype> &Predefined) {
  std::string Library = mpiLibraryVersion();
  bool IsMpich = Library.find("MPICH") != std::string::npos;
  bool IsOpenMpi = Library.find("Open MPI") != std::string::npos;
  if ((O.Mpi == "mpich" && !IsMpich) || (O.Mpi == "openmpi" && !IsOpenMpi)) {
    std::fprintf(stderr,
                 "ddtc calibrate: error: --mpi %s, but this ddtc-calibrate "
                 "runs with '%s'; configure a build of ddtc with that "
                 "library's compiler wrappers (-DMPI_C_COMPILER=...) to "
                 "calibrate it\n",
                 O.Mpi.c_str(), Library.c_str());
    return 1;
  }
  if (IsOpenMpi)
    std::fprintf(stderr, "ddtc calibrate: warning: the engine model is MPICH's "
                         "(Yaksa); Open MPI's prices are fitted to it but its "
                         "engine works otherwise\n");

  TypeContext Ctx(getMPICHRules());
  std::vector<Probe> Probes = ProbeSet(Ctx).build();
  YaksaModel Model;

  // Every probe built and committed first, then timed in rounds
  // (timePackInRounds: timed one after another, probes in one of this VM's
  // slow spells and their neighbours out of it made a fit of median error
  // 16% instead of 9%).
  std::vector<Handle> Committed;
  std::vector<const Probe *> Used;
  std::vector<EngineWork> Work;
  for (const Probe &P : Probes) {
    std::string Err;
    MpiBuilder Builder(Predefined);
    std::optional<Handle> H = Builder.build(P.T, Err);
    if (!H) {
      std::fprintf(stderr, "ddtc calibrate: error: probe %s: %s\n",
                   P.Name.c_str(), Err.c_str());
      return 1;
    }
    MPI_Datatype T = H->get();
    MPI_Type_commit(&T);
    Committed.push_back(std::move(*H));
    Used.push_back(&P);
    Work.push_back(Model.packWork(P.T, uint64_t(P.Count)));
  }
  std::vector<PackMessage> Messages;
  for (size_t I = 0; I < Used.size(); ++I)
    Messages.push_back({Committed[I].get(), Used[I]->Count});
  size_t Failed = 0;
  std::string Err;
  std::optional<std::vector<double>> Timed = timePackInRounds(
      Messages, O.Batches, "ddtc calibrate", "probes", Failed, Err);
  if (!Timed) {
    std::fprintf(stderr, "ddtc calibrate: error: probe %s: %s\n",
                 Used[Failed]->Name.c_str(), Err.c_str());
    return 1;
  }
  std::vector<double> Measured = std::move(*Timed);

  std::vector<double> X = fitNonNegative(Work, Measured);
  EngineCosts Costs;
  Costs.Engine = O.Mpi == "mpich" ? "mpich" : "openmpi";
  // "MPICH 4.0.2" -> "mpich-4.0.2"
  if (size_t Tab = Library.find_last_of(' '); Tab != std::string::npos)
    Costs.Engine += "-" + Library.substr(Tab + 1);
  Costs.Machine = cpuName();
  std::copy(X.begin(), X.end(), Costs.NsPerUnit.begin());

  std::vector<double> Errors;
  for (size_t I = 0; I < Work.size(); ++I)
    Errors.push_back(std::fabs(Costs.estimateNs(Work[I]) - Measured[I]) /
                     Measured[I]);
  std::vector<double> Sorted = Errors;
  std::sort(Sorted.begin(), Sorted.end());
  char Fit[160];
  std::snprintf(Fit, sizeof Fit,
                "%zu probes, |model - measured| / measured: median %.0f%%, "
                "90th percentile %.0f%%, worst %.0f%%",
                Sorted.size(), 100 * Sorted[Sorted.size() / 2],
                100 * Sorted[Sorted.size() * 9 / 10], 100 * Sorted.back());
  Costs.Fit = Fit;

  if (O.Report) {
    std::printf("%-28s %6s %12s %12s %7s  %s\n", "probe", "count",
                "measured ns", "model ns", "error", "Yaksa path");
    for (size_t I = 0; I < Work.size(); ++I)
      std::printf("%-28s %6d %12.1f %12.1f %6.0f%%  %s\n",
                  Used[I]->Name.c_str(), Used[I]->Count, Measured[I],
                  Costs.estimateNs(Work[I]), 100 * Errors[I],
                  Model.describePath(Used[I]->T).c_str());
  }

  std::string Header =
      "Nanoseconds per unit of work of " + Library +
      "'s datatype engine,\nmeasured by ddtc calibrate (MPI_Pack of " +
      std::to_string(Probes.size()) +
      " probe types, buffers in cache,\nmedian over rounds; non-negative "
      "least squares on relative errors).\ndocs/mpi-forms.md";
  std::string Text = printEngineCosts(Costs, Header);
  if (O.Output.empty() || O.Output == "-") {
    std::fputs(Text.c_str(), stdout);
    return 0;
  }
  std::string Temp = O.Output + ".tmp-ddtc";
  {
    std::ofstream Out(Temp, std::ios::binary | std::ios::trunc);
    Out << Text;
    if (!Out.flush()) {
      std::fprintf(stderr, "ddtc calibrate: error: %s: cannot write: %s\n",
                   O.Output.c_str(), std::strerror(errno));
      std::remove(Temp.c_str());
      return 1;
    }
  }
  if (std::rename(Temp.c_str(), O.Output.c_str()) != 0) {
    std::fprintf(stderr, "ddtc calibrate: error: %s: cannot write: %s\n",
                 O.Output.c_str(), std::strerror(errno));
    std::remove(Temp.c_str());
    return 1;
  }
  std::fprintf(stderr, "ddtc calibrate: wrote %s (%s)\n", O.Output.c_str(),
               Fit);
  return 0;
}

} // namespace

int main(int Argc, char **Argv) {
  Options O;
  CLI::App App{"ddtc calibrate: measures the MPI library's datatype engine and "
               "writes the cost table `ddtc emit --engine` reads",
               "ddtc calibrate"};
  App.add_option("-o", O.Output, "the cost table to write");
  App.add_option("--mpi", O.Mpi, "the MPI library measured (default mpich)")
      ->check(CLI::IsMember({"mpich", "openmpi"}));
  App.add_option("--batches", O.Batches,
                 "batches of each probe, the median taken (default 9)")
      ->check(CLI::Range(1u, 100000u));
  App.add_flag("--report", O.Report,
               "print each probe's measured and modelled time");
  try {
    App.parse(Argc, Argv);
  } catch (const CLI::ParseError &E) {
    return usageStatus(App, E);
  }
  return runWithMpi(Argc, Argv, "ddtc-calibrate",
                    [&](const std::vector<MPI_Datatype> &Predefined) {
                      return run(O, Predefined);
                    });
}

//===- bench/normalization/NormalizeBench.cpp - Normalization throughput --===//
//
// The normalization targets, measured (docs/normalization.md, "Performance"):
//  - an indexed_block of 10^6 displacements forming a hidden 2-D lattice
//    rebuilt as nested vectors (lattice recovery by divisors);
//  - the full dynamic program on an irregular 2,000-block typemap;
//  - canonicalization and full normalization of every DDTBench type.
// A benchmark whose result is not the expected form fails instead of
// reporting a time.
//
//===----------------------------------------------------------------------===//
#include "ddtc/IR/TextForm.h"
#include "ddtc/IR/TypeContext.h"
#include "ddtc/Passes/Normalizer.h"
#include "ddtc/Reader/ReadFile.h"
#include "ddtc/Target/MPICHRules.h"

#include <benchmark/benchmark.h>

#include <filesystem>
#include <random>

using namespace ddtc;

namespace {

/// Rows x Cols blocks of 2 doubles: row r, column c at r*RowStride +
/// c*ColStride elements, listed one by one.
const Type *hiddenLattice(TypeContext &Ctx, int64_t Rows, int64_t Cols) {
  std::vector<int64_t> D;
  D.reserve(size_t(Rows * Cols));
  for (int64_t R = 0; R < Rows; ++R)
    for (int64_t C = 0; C < Cols; ++C)
      D.push_back(R * 5003 + C * 5);
  return *Ctx.getIndexedBlock(2, D, Ctx.getPredefined(PredefinedId::Double));
}

void BM_LatticeRecovery(benchmark::State &State) {
  for (auto _ : State) {
    State.PauseTiming();
    TypeContext Ctx(getMPICHRules());
    const Type *T = hiddenLattice(Ctx, 1000, 1000);
    State.ResumeTiming();
    Reconstructor R(Ctx);
    const Type *N = R.reconstruct(T);
    if (N->getLayout().Depth != 2 || N->getLayout().Cost > 10)
      State.SkipWithError(("not a nested vector: " + printType(N)).c_str());
    benchmark::DoNotOptimize(N);
  }
}
BENCHMARK(BM_LatticeRecovery)->Unit(benchmark::kMillisecond);

/// Blocks of 1-4 ints with random gaps and a few repeated motifs, so that
/// every DP option has work to do.
const Type *irregular(TypeContext &Ctx, size_t Blocks) {
  std::mt19937_64 Rng(42);
  std::vector<int64_t> Len, Disp;
  int64_t At = 0;
  for (size_t I = 0; I < Blocks; ++I) {
    Len.push_back(1 + int64_t(Rng() % 4));
    Disp.push_back(At);
    At += Len.back() + 1 + int64_t(Rng() % 7);
  }
  return *Ctx.getIndexed(Len, Disp, Ctx.getPredefined(PredefinedId::Int));
}

void BM_SegmentDP(benchmark::State &State) {
  size_t Blocks = size_t(State.range(0));
  for (auto _ : State) {
    State.PauseTiming();
    TypeContext Ctx(getMPICHRules());
    const Type *T = irregular(Ctx, Blocks);
    State.ResumeTiming();
    Reconstructor R(Ctx);
    benchmark::DoNotOptimize(R.reconstruct(T));
  }
}
BENCHMARK(BM_SegmentDP)->Arg(500)->Arg(2000)->Unit(benchmark::kMillisecond);

/// One benchmark per DDTBench type and step (canonicalize, normalize).
void registerCorpus() {
  std::filesystem::path Dir = DDTC_CORPUS_DIR;
  if (!std::filesystem::is_directory(Dir))
    return;
  std::vector<std::filesystem::path> Files;
  for (const auto &E : std::filesystem::directory_iterator(Dir))
    if (E.path().extension() == ".json")
      Files.push_back(E.path());
  std::sort(Files.begin(), Files.end());
  for (const std::filesystem::path &F : Files) {
    for (bool Full : {false, true}) {
      std::string Name =
          std::string(Full ? "BM_Normalize/" : "BM_Canonicalize/") +
          F.stem().string();
      benchmark::RegisterBenchmark(Name.c_str(), [F,
                                                  Full](benchmark::State &S) {
        // Read once: timing pauses cost more than canonicalizing a type.
        // Fresh canonicalizers have empty memo tables; the nodes they
        // create exist after the first iteration, as in a long-running tool.
        TypeContext Ctx(getMPICHRules());
        Module M(Ctx);
        if (Error E = readAnyDescriptionFile(F.string(), M)) {
          S.SkipWithError(E.message().c_str());
          return;
        }
        for (auto _ : S) {
          Canonicalizer C(Ctx);
          Normalizer N(Ctx);
          for (const NamedType &T : M.types())
            benchmark::DoNotOptimize(Full ? N.normalize(T.T)
                                          : C.canonicalize(T.T));
        }
        S.counters["types"] = double(M.types().size());
      })->Unit(benchmark::kMicrosecond);
    }
  }
}

} // namespace

int main(int argc, char **argv) {
  registerCorpus();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
}

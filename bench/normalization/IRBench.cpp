//===- bench/normalization/IRBench.cpp - Speed of core IR operations ------===//
//
//   build/bench/ddtc-ir-bench
//
// Walker throughput (typemap runs per second) on vectors whose runs cannot
// merge, and the cost of reading and measuring a large indexed_block.
//
//===----------------------------------------------------------------------===//
#include "ddtc/IR/TypeContext.h"
#include "ddtc/IR/TypemapWalker.h"
#include "ddtc/Reader/FormatReader.h"
#include "ddtc/Target/MPICHRules.h"

#include <benchmark/benchmark.h>

#include <random>
#include <string>

using namespace ddtc;

namespace {

/// Walks T once per iteration and reports runs per second.
void walkBenchmark(benchmark::State &State, const Type *T,
                   int64_t RunsPerWalk) {
  int64_t Runs = 0;
  for (auto _ : State) {
    TypemapWalker W(T, 1, WalkMode::Bytes);
    TypemapRun R;
    int64_t Sum = 0;
    while (W.next(R))
      Sum += R.Offset;
    benchmark::DoNotOptimize(Sum);
    Runs += RunsPerWalk;
  }
  State.counters["runs/s"] = benchmark::Counter(static_cast<double>(Runs),
                                                benchmark::Counter::kIsRate);
}

/// vector(count, 1, 2, MPI_INT): one 4-byte run per element.
void BM_WalkVector(benchmark::State &State) {
  TypeContext Ctx(getMPICHRules());
  const int64_t Count = State.range(0);
  const Type *V =
      *Ctx.getVector(Count, 1, 2, Ctx.getPredefined(PredefinedId::Int));
  walkBenchmark(State, V, Count);
}
BENCHMARK(BM_WalkVector)
    ->Arg(1 << 20)
    ->Arg(1 << 24)
    ->Unit(benchmark::kMillisecond);

/// The same walk through a two-level tree: vector of hvector of double.
void BM_WalkNested(benchmark::State &State) {
  TypeContext Ctx(getMPICHRules());
  const Type *Inner =
      *Ctx.getHVector(64, 1, 24, Ctx.getPredefined(PredefinedId::Double));
  const Type *Outer = *Ctx.getHVector(State.range(0) / 64, 1, 4096, Inner);
  walkBenchmark(State, Outer, State.range(0));
}
BENCHMARK(BM_WalkNested)->Arg(1 << 20)->Unit(benchmark::kMillisecond);

/// Reading a description of an indexed_block with 10^6 displacements and
/// computing all of its metrics (what `ddtc analyze` does).
void BM_ReadIndexedBlock(benchmark::State &State) {
  std::mt19937_64 Rng(1);
  std::string Text = "{\"ddtc\": 1, \"types\": [{\"name\": \"big\", \"kind\": "
                     "\"indexed_block\", \"blocklength\": 2, "
                     "\"displacements\": [";
  for (int64_t I = 0; I < State.range(0); ++I) {
    if (I)
      Text += ", ";
    Text += std::to_string(Rng() % 100000000);
  }
  Text += "], \"oldtype\": \"MPI_DOUBLE\"}]}";
  for (auto _ : State) {
    TypeContext Ctx(getMPICHRules());
    Module M(Ctx);
    Error E = readDescription(Text, M);
    if (E)
      State.SkipWithError(E.message().c_str());
    benchmark::DoNotOptimize(M.types()[0].T->getLayout().Blocks.Count);
  }
}
BENCHMARK(BM_ReadIndexedBlock)->Arg(1000000)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();

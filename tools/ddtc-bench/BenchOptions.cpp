//===- tools/ddtc-bench/BenchOptions.cpp - The command line ---------------===//

#include "BenchOptions.h"

#include "ddtc/Support/ByteSize.h"
#include "ddtc/Support/UsageStatus.h"

#include <CLI/CLI.hpp>

#include <cstdint>
#include <cstdio>
#include <map>
#include <sstream>

namespace ddtc::bench {

const char *getName(Op O) {
  switch (O) {
  case Op::PingPong:
    return "pingpong";
  case Op::Bcast:
    return "bcast";
  case Op::Allgather:
    return "allgather";
  case Op::PingPongPersistent:
    return "pingpong-persistent";
  case Op::Alltoall:
    return "alltoall";
  case Op::Alltoallw:
    return "alltoallw";
  case Op::Gather:
    return "gather";
  case Op::Scatter:
    return "scatter";
  case Op::NeighborAlltoallw:
    return "neighbor-alltoallw";
  }
  return "?";
}

const char *getName(Variant V) {
  switch (V) {
  case Variant::Reference:
    return "reference";
  case Variant::Mpi:
    return "mpi";
  case Variant::MpiNormalized:
    return "mpi-normalized";
  case Variant::MpiPack:
    return "mpi-pack";
  case Variant::Ddtc:
    return "ddtc";
  }
  return "?";
}

namespace {

std::vector<std::string> splitList(const std::string &S) {
  std::vector<std::string> Out;
  std::stringstream In(S);
  std::string Item;
  while (std::getline(In, Item, ','))
    if (!Item.empty())
      Out.push_back(Item);
  return Out;
}

/// The members of Names that appear in All (by getName), in the order of
/// All, each once; an unknown name throws a usage error.
template <typename E, size_t N>
std::vector<E> pickNamed(const std::string &Option, const std::string &List,
                         const E (&All)[N]) {
  std::vector<std::string> Names = splitList(List);
  std::vector<E> Out;
  for (const std::string &Name : Names) {
    bool Known = false;
    for (E X : All)
      Known |= Name == getName(X);
    if (!Known) {
      std::string Valid;
      for (E X : All)
        Valid += std::string(Valid.empty() ? "" : ", ") + getName(X);
      throw CLI::ValidationError(Option, "unknown '" + Name +
                                             "' (valid: " + Valid + ")");
    }
  }
  for (E X : All)
    for (const std::string &Name : Names)
      if (Name == getName(X)) {
        Out.push_back(X);
        break;
      }
  if (Out.empty())
    throw CLI::ValidationError(Option, "the list is empty");
  return Out;
}

} // namespace

int parseBenchOptions(int Argc, char **Argv, int Rank, BenchOptions &O) {
  CLI::App App{
      "ddtc-bench: ping-pong, MPI_Bcast, MPI_Allgather and other "
      "operations on the types of a description or trace file, with MPI's "
      "datatype engine, MPI_Pack and ddtc's kernels (run with mpiexec)",
      "ddtc-bench"};
  std::string Types, Ops, Variants, Counts, Chunk;
  App.add_option("file", O.File, "description (format v1) or trace file")
      ->required();
  App.add_option("--types", Types,
                 "types to measure, comma-separated "
                 "(default: every named type)");
  App.add_option("--ops", Ops,
                 "pingpong,pingpong-persistent,bcast,allgather,alltoall,"
                 "alltoallw,gather,scatter,neighbor-alltoallw, or all "
                 "(default: pingpong,bcast,allgather)");
  App.add_option("--variants", Variants,
                 "reference,mpi,mpi-normalized,mpi-pack,ddtc (default: all)");
  CLI::Option *CountOpt = App.add_option("--count", Counts,
                                         "instances of the type per message, "
                                         "comma-separated list (default: 1)");
  App.add_flag("--uses", O.Uses,
               "take the counts from the trace's x-uses (a file written by "
               "libddtc_trace.so)")
      ->excludes(CountOpt);
  App.add_option("--runs", O.Runs,
                 "runs; the median of each is reported "
                 "with mean, min and max over the runs")
      ->check(CLI::Range(1, 1000000));
  App.add_option("--nrep", O.Nrep,
                 "measurements per run (default: 100, "
                 "50 or 20 by message size)")
      ->check(CLI::Range(1, 100000000));
  App.add_option("--json", O.JsonOut, "write the results as JSON");
  App.add_option("--csv", O.CsvOut, "write the results as CSV");
  App.add_option("--kernels", O.KernelLibrary,
                 "use the kernels of this shared library (ddtc_generate(... "
                 "SHARED) or ddtc emit + a compiler) instead of emitting them");
  App.add_option("--cache-dir", O.CacheDir,
                 "where emitted kernels are kept (default: $DDTC_BENCH_CACHE, "
                 "else $XDG_CACHE_HOME/ddtc-bench, else ~/.cache/ddtc-bench)");
  App.add_option("--ddtc", O.Ddtc,
                 "the ddtc tool that emits the kernels (default: $DDTC, else "
                 "the one installed or built beside ddtc-bench)");
  App.add_option("--max-buffer", O.MaxBuffer,
                 "skip a type and count whose buffers would exceed this many "
                 "bytes (default: 1 GiB)")
      ->check(CLI::Range(uint64_t(1), uint64_t(1) << 46));
  App.add_option("--chunk", Chunk,
                 "the ddtc variant sends a longer message as pipelined pieces "
                 "of this many bytes (e.g. 8K; default 8K; off: one message)");
  App.add_flag("-q,--quiet", O.Quiet, "no table on stdout");
  try {
    App.parse(Argc, Argv);
    if (!Types.empty())
      O.Types = splitList(Types);
    if (Ops == "all")
      O.Ops.assign(std::begin(AllOps), std::end(AllOps));
    else if (!Ops.empty())
      O.Ops = pickNamed("--ops", Ops, AllOps);
    if (!Variants.empty())
      O.Variants = pickNamed("--variants", Variants, AllVariants);
    if (Chunk == "off") {
      O.Chunk = 0;
    } else if (!Chunk.empty()) {
      if (!parseByteSize(Chunk, O.Chunk) || O.Chunk == 0 ||
          O.Chunk > uint64_t(INT32_MAX))
        throw CLI::ValidationError(
            "--chunk", "'" + Chunk +
                           "' is not a size in bytes from 1 to 2G-1 (digits "
                           "with an optional K, M or G) or 'off'");
    }
    if (!Counts.empty()) {
      O.Counts.clear();
      for (const std::string &C : splitList(Counts)) {
        size_t End = 0;
        long long V = 0;
        try {
          V = std::stoll(C, &End);
        } catch (const std::exception &) {
          End = 0;
        }
        if (End != C.size() || V < 1)
          throw CLI::ValidationError("--count", "'" + C +
                                                    "' is not a positive "
                                                    "integer");
        O.Counts.push_back(V);
      }
      if (O.Counts.empty())
        throw CLI::ValidationError("--count", "the list is empty");
    }
  } catch (const CLI::ParseError &E) {
    return usageStatus(App, E, Rank);
  }
  return -1;
}

} // namespace ddtc::bench

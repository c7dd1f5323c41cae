//===- tools/ddtc-bench/BenchOptions.h - The command line -------*- C++ -*-===//
//
// What `ddtc-bench` is asked to measure (docs/cli.md, "ddtc-bench"). Every
// rank parses the same command line and so reaches the same verdict; only
// rank 0 prints it.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_BENCH_BENCHOPTIONS_H
#define DDTC_BENCH_BENCHOPTIONS_H

#include <cstdint>
#include <string>
#include <vector>

namespace ddtc::bench {

/// The communication operations, in the order they are reported: seed
/// 000's (docs/design.md#references) three, then the others.
enum class Op {
  PingPong,
  PingPongPersistent,
  Bcast,
  Allgather,
  Alltoall,
  Alltoallw,
  Gather,
  Scatter,
  NeighborAlltoallw
};
/// The ways of communicating one type, in the order they are reported.
enum class Variant { Reference, Mpi, MpiNormalized, MpiPack, Ddtc };

constexpr Op AllOps[] = {Op::PingPong,   Op::PingPongPersistent,
                         Op::Bcast,      Op::Allgather,
                         Op::Alltoall,   Op::Alltoallw,
                         Op::Gather,     Op::Scatter,
                         Op::NeighborAlltoallw};
/// Without --ops: seed 000's three, so that a run of a whole corpus stays
/// as long as its figures need.
constexpr Op DefaultOps[] = {Op::PingPong, Op::Bcast, Op::Allgather};
constexpr Variant AllVariants[] = {Variant::Reference, Variant::Mpi,
                                   Variant::MpiNormalized, Variant::MpiPack,
                                   Variant::Ddtc};

const char *getName(Op O);
const char *getName(Variant V);

struct BenchOptions {
  std::string File;
  std::vector<std::string> Types; ///< empty: every named type
  std::vector<Op> Ops{std::begin(DefaultOps), std::end(DefaultOps)};
  std::vector<Variant> Variants{std::begin(AllVariants), std::end(AllVariants)};
  std::vector<int64_t> Counts{1}; ///< --count
  bool Uses = false;              ///< counts from the trace's x-uses
  int Runs = 5;
  int Nrep = 0; ///< 0: by message size (seed 000)
  std::string JsonOut, CsvOut;
  std::string KernelLibrary; ///< --kernels: skip generation
  std::string CacheDir;      ///< --cache-dir; empty: the default
  std::string Ddtc;          ///< --ddtc; empty: beside this executable
  uint64_t MaxBuffer = uint64_t(1) << 30;
  /// --chunk: the ddtc variant's messages longer than this go as pieces of
  /// this many bytes, pipelined (Exchange.h); 0: one message. 8 KiB is the
  /// eager limit of MPICH's ch4:ucx between processes of one node
  /// (docs/cli.md): every piece goes without a rendezvous.
  uint64_t Chunk = 8192;
  bool Quiet = false; ///< no table on stdout
};

/// Parses the command line. Returns -1 when the run should go on, else
/// the exit status (0 after --help, 2 for a usage error, with the message
/// on stderr of rank 0).
int parseBenchOptions(int Argc, char **Argv, int Rank, BenchOptions &O);

} // namespace ddtc::bench

#endif // DDTC_BENCH_BENCHOPTIONS_H

//===- lib/Runtime/KernelCompiler.h - Kernels compiled on first use -*- C++ -*-===//
//
// A type that got a shape kernel at commit and turns out hot -- past a
// threshold of bytes packed -- has its exact kernel compiled into the
// kernel cache while the program runs (docs/runtime.md, "Kernels compiled
// on first use"), by a compile server the runtime starts before MPI_Init
// (`ddtc cache serve`, CacheServe.cpp): an MPI process must not fork once
// its network is up. The type's handles are bound again once the entry is
// there, so the calls that start after it use the compiled kernel; a call
// in flight keeps the binding it started with. The next run finds the
// entry at commit.
//
// The request is a description file of the decoded type, written to a
// private directory of the cache; the server is told its path on a socket
// and answers on it. Nothing here blocks a call: the requests are short
// lines, and the answers are read without waiting, at most every few
// milliseconds, and only while a request is pending.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_LIB_RUNTIME_KERNELCOMPILER_H
#define DDTC_LIB_RUNTIME_KERNELCOMPILER_H

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace ddtc {

struct Binding;
struct TypeStats;

class KernelCompiler {
public:
  /// The compiler of the process (the runtime is one per process).
  static KernelCompiler &get();

  /// Before PMPI_Init: reads the compile settings and makes the cache's
  /// directories where shape kernels are on and compiling is
  /// (DDTC_CACHE_COMPILE, default on), for launch(); what went wrong goes
  /// to Warnings, and nothing is compiled then.
  void start(std::vector<std::string> &Warnings);
  /// Before PMPI_Init, after start() and after the measurement of the
  /// settings: starts the compile server. Apart from start() because a
  /// server starting up (a large program loading) beside the measurement
  /// takes a core from it, which then refuses its figures.
  void launch(std::vector<std::string> &Warnings);
  /// The rank in warnings from now on.
  void setRank(int R) { Rank = R; }

  /// Whether a hot type may be compiled: the server runs and the bound on
  /// compiles per run is not reached.
  bool enabled() const { return Enabled.load(std::memory_order_relaxed); }
  /// Bytes packed by a type's shape kernel past which it is hot
  /// (DDTC_CACHE_HOT, default 1M).
  uint64_t hotBytes() const { return HotBytes; }
  /// Whether an answer is awaited: only then do calls poll.
  bool pending() const { return Pending.load(std::memory_order_relaxed) != 0; }
  /// Whether kernels are compiled after the program rather than while it
  /// runs (DDTC_CACHE_COMPILE=after, or on where the node has no core to
  /// spare).
  bool after() const { return After; }

  /// Asks for the kernel of B, hot (once per binding: the caller claimed
  /// it with Binding::CompileAsked): now where kernels are compiled while
  /// the program runs, else at stop(), if B is among the types that moved
  /// the most bytes by then.
  void request(const Binding &B);
  /// The types whose kernels arrived since the last call (their entries
  /// added to the cache's index), read at most every PollInterval; empty
  /// if none, or if another thread polls.
  std::vector<const TypeStats *> poll();

  /// For the report.
  size_t requested() const;
  size_t compiled() const;
  size_t failed() const;
  /// Stops the server at MPI_Finalize: it ends after the compile in
  /// progress (or, compiling after the program, after the compiles asked
  /// for now).
  void stop();

private:
  /// A hot type, kept until the program ends where kernels are compiled
  /// after it.
  struct Candidate {
    const TypeStats *Stats;
    std::string Description;
  };
  static std::string describe(const Binding &B);
  void remember(const Binding &B);
  /// Writes a request and hands it to the server.
  void send(const std::string &Description, const TypeStats *Stats);

  std::atomic<bool> Enabled{false};
  /// The server compiles when this process has ended (no answers come).
  bool After = false;
  std::atomic<int> Pending{0};
  int Rank = -1;
  int Socket = -1;
  uint64_t HotBytes = 1 << 20;
  size_t MaxCompiles = 32;
  std::string RequestDir;
  std::string EntryDir;
  /// The server's command and log, between start() and launch().
  std::vector<std::string> ServerArgv;
  std::string ServerLog;
  mutable std::mutex Lock;
  uint64_t NextId = 0;
  std::map<uint64_t, const TypeStats *> Waiting;
  std::vector<Candidate> Candidates;
  size_t CandidateBytes = 0;
  /// Bounds on the types kept: a program that commits a new index list
  /// per iteration makes a new hot type per iteration.
  static constexpr size_t MaxCandidates = 256;
  static constexpr size_t MaxCandidateBytes = size_t(64) << 20;
  std::string Partial; ///< an answer read in part
  size_t Requested = 0, Compiled = 0, Failed = 0;
  std::chrono::steady_clock::time_point LastPoll{};
  static constexpr std::chrono::milliseconds PollInterval{5};
};

} // namespace ddtc

#endif // DDTC_LIB_RUNTIME_KERNELCOMPILER_H

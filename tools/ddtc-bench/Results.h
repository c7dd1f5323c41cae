//===- tools/ddtc-bench/Results.h - Measurements and their output -*- C++ -*-===//
//
// The method of seed 000 (docs/design.md#references) §2.3.3: each run's nrep
// times reduce to their median; over the runs, the mean, minimum and maximum of
// those medians (and their median) are reported. Output: a table on stdout,
// JSON (read by `ddtc plot`; schema in docs/cli.md) and CSV.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_BENCH_RESULTS_H
#define DDTC_BENCH_RESULTS_H

#include "BenchOptions.h"

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace ddtc::bench {

struct Measurement {
  std::string Type;
  Op O;
  Variant V;
  int64_t Count = 0;
  int64_t Bytes = 0; ///< one rank's message: count x size
  int Nrep = 0;
  uint64_t Calls = 0; ///< uses of (type, count) in the trace; 0 otherwise
  std::vector<double> RunMediansUs;
  /// ddtc only: the kernels' time on the critical path (Exchange.h).
  double KernelUs = -1;

  double median() const;
  double mean() const;
  double min() const;
  double max() const;
};

struct Skipped {
  std::string Type;
  std::string Reason;
};

struct Report {
  std::string File;
  bool FromTrace = false;
  int Ranks = 0, Runs = 0;
  uint64_t Chunk = 0; ///< the ddtc variant's pipeline piece (0: none)
  std::string MpiLibrary;
  std::vector<Measurement> Results;
  std::vector<Skipped> Skips;
};

/// The median of V (not empty).
double median(std::vector<double> V);

/// Per (type, count, operation): every variant's times and its speedup
/// over mpi.
void printTable(const Report &R, std::FILE *Out);
/// Write the file whole or not at all; false with Err on failure.
bool writeJson(const Report &R, const std::string &Path, std::string &Err);
bool writeCsv(const Report &R, const std::string &Path, std::string &Err);

} // namespace ddtc::bench

#endif // DDTC_BENCH_RESULTS_H

//===- tools/ddtc/Subprocess.h - Programs ddtc runs -------------*- C++ -*-===//
//
// Some commands hand work to another program and wait for it: the MPI_Pack
// times of ddtc-measure (MPI, which ddtc does not link), the libraries `ldd`
// says a program loads, the C++ compiler that builds a cache entry. One
// function starts them all, so that every such program is found, waited for
// and reported on alike.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_TOOLS_DDTC_SUBPROCESS_H
#define DDTC_TOOLS_DDTC_SUBPROCESS_H

#include "ddtc/Support/Error.h"

#include <string>
#include <vector>

namespace ddtc {

struct SpawnOptions {
  /// Where the program's stdout goes: this string, or (null) where ours
  /// goes.
  std::string *Output = nullptr;
  /// Its stderr to /dev/null rather than to ours.
  bool DiscardStderr = false;
  /// Argv[0] looked up on PATH, as a shell would, rather than taken as a
  /// path.
  bool SearchPath = false;
  /// Seconds it may take (0: no bound). A program past it is killed with
  /// every process it started -- a compiler driver's cc1plus and as with
  /// it -- and that is an error.
  double TimeoutSeconds = 0;
};

/// Runs Argv and waits for it; its exit status. A program that cannot be
/// started, is killed by a signal or runs out of time is an error naming
/// it.
Expected<int> runProgram(const std::vector<std::string> &Argv,
                         const SpawnOptions &Options = {});

} // namespace ddtc

#endif // DDTC_TOOLS_DDTC_SUBPROCESS_H

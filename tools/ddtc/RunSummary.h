//===- tools/ddtc/RunSummary.h - What `ddtc run` says at the end -*- C++ -*-===//
//
// After the command, `ddtc run` prints on stderr what the runtime's
// reports say (docs/runtime.md, "The report"), summed over the ranks: the
// first thing a user reads, so it is short and aligned. A report that is
// missing or cannot be read is one line, never a failure: the command's
// exit status is ddtc run's.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_TOOLS_DDTC_RUNSUMMARY_H
#define DDTC_TOOLS_DDTC_RUNSUMMARY_H

#include <string>
#include <vector>

namespace ddtc {

struct RunOutcome {
  /// The files the command wrote (reports or traces), and the pattern that
  /// names them.
  std::vector<std::string> Files;
  std::string Pattern;
  /// The library preloaded and why ("libddtc_rt.so, for MPICH (app links
  /// libmpich.so.12)").
  std::string Library;
  /// The command's wait status (waitpid).
  int WaitStatus = 0;
  /// With --trace: the command that runs the program with the kernels
  /// emitted from the traces, for the next steps.
  std::string RunWithKernels;
};

/// The summary of the runtime's reports.
void printReportSummary(const RunOutcome &Outcome);

/// The summary of the trace library's traces, and the commands that emit
/// kernels from them and run the program with those.
void printTraceSummary(const RunOutcome &Outcome);

} // namespace ddtc

#endif // DDTC_TOOLS_DDTC_RUNSUMMARY_H

//===- ddtc/Support/UsageStatus.h - Exit status of a refused command line -*- C++ -*-===//
//
// Every tool and benchmark reads its command line with CLI11 and ends a
// refused one the same way: the message on stderr (the help on stdout), exit
// status 2 for a usage error, 0 for --help. For the tools (only they link
// CLI11; the runtime libraries never include this).
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_SUPPORT_USAGESTATUS_H
#define DDTC_SUPPORT_USAGESTATUS_H

#include <CLI/CLI.hpp>

namespace ddtc {

/// The exit status for E, which App's parse threw. Only Rank 0 prints: in an
/// MPI program every rank reaches the same verdict, and one says it.
inline int usageStatus(CLI::App &App, const CLI::ParseError &E, int Rank = 0) {
  int Code = Rank == 0 ? App.exit(E) : E.get_exit_code();
  return Code == 0 ? 0 : 2;
}

} // namespace ddtc

#endif // DDTC_SUPPORT_USAGESTATUS_H

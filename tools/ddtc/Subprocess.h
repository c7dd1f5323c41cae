//===- tools/ddtc/Subprocess.h - Programs ddtc runs and reads -*- C++ -*-===//
//
// Some commands learn what they need from another program's output: the
// MPI_Pack times of ddtc-measure (MPI, which ddtc does not link), the
// libraries `ldd` says a program loads.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_TOOLS_DDTC_SUBPROCESS_H
#define DDTC_TOOLS_DDTC_SUBPROCESS_H

#include "ddtc/Support/Error.h"

#include <string>
#include <vector>

namespace ddtc {

/// Runs Program (a path) with Args, its stdout into Output and its stderr
/// to ddtc's, or nowhere with DiscardStderr; its exit status. A program
/// that cannot be run, or is killed by a signal, is an error naming it.
Expected<int> runAndRead(const std::string &Program,
                         const std::vector<std::string> &Args,
                         std::string &Output, bool DiscardStderr = false);

} // namespace ddtc

#endif // DDTC_TOOLS_DDTC_SUBPROCESS_H

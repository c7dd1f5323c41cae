//===- tools/ddtc/SourceModule.h - The C/C++ front end as a module -*- C++ -*-===//
//
// `extract`, `rewrite` and `analyze --source` need Clang; the other
// commands do not. Linked into ddtc, Clang's libraries (libclang-cpp,
// libLLVM) cost every command about 0.08 s of loading and static
// construction before it read a byte (docs/performance.md). So the source
// commands live in a module, ddtc-source.so, that the driver loads only
// for them: beside ddtc in the build tree, in LIBDIR/ddtc once installed.
// Both are built from one tree by one compiler, so the options cross the
// boundary as the C++ structures of Commands.h.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_TOOLS_DDTC_SOURCEMODULE_H
#define DDTC_TOOLS_DDTC_SOURCEMODULE_H

#include "Commands.h"

#include <functional>

namespace ddtc {

/// The module's commands. Version guards against a module of another
/// build of ddtc.
struct SourceCommands {
  unsigned Version;
  int (*Extract)(const ExtractCommandOptions &);
  int (*Rewrite)(const RewriteOptions &);
  int (*AnalyzeSource)(const AnalyzeOptions &);
};

/// Bumped whenever SourceCommands or the option structures change.
inline constexpr unsigned SourceCommandsVersion = 1;

/// The symbol the module exports (extern "C"): returns its table.
inline constexpr const char *SourceCommandsSymbol = "ddtc_source_commands";

/// Loads the module (found from the executable's directory, Argv0 where
/// /proc is missing) and runs Command with its table; reports and returns
/// ExitBadInput if the module cannot be loaded.
int runSourceCommand(const std::string &Argv0,
                     const std::function<int(const SourceCommands &)> &Command);

} // namespace ddtc

#endif // DDTC_TOOLS_DDTC_SOURCEMODULE_H

//===- tools/ddtc/OutputFiles.h - Files written whole or not at all -*- C++ -*-===//
//
// Every file ddtc writes (emit's four, normalize's, extract's, rewrite's
// sources and fixes) goes through a temporary beside it, renamed into place
// once everything was written: bad input, a full disk or a crash never
// leaves a partial file, nor a mismatched set of emitted files. A file
// that is replaced keeps its permissions.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_TOOLS_DDTC_OUTPUTFILES_H
#define DDTC_TOOLS_DDTC_OUTPUTFILES_H

#include "ddtc/Support/Error.h"

#include <span>
#include <string>

namespace ddtc {

struct OutputFile {
  std::string Path;
  std::string Text;
};

/// Writes every file or none: temporaries first, then the renames. The
/// error names the file and the system's reason.
Error writeFiles(std::span<const OutputFile> Files);

/// One file; "-" is standard output.
Error writeFile(const std::string &Path, const std::string &Text);

} // namespace ddtc

#endif // DDTC_TOOLS_DDTC_OUTPUTFILES_H

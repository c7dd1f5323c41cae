//===- ddtc/Runtime/RuntimeSupport.h - Helpers of the runtime libraries -*- C++ -*-===//
//
// What both interposition libraries (libddtc_trace.so, libddtc_rt.so) need
// and may not take from LLVM, CLI11 or nlohmann: the output file patterns
// of their environment variables and writing a file so that readers never
// see half of it. (JSON quoting is the format writer's: DescriptionWriter.h.)
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_RUNTIME_RUNTIMESUPPORT_H
#define DDTC_RUNTIME_RUNTIMESUPPORT_H

#include "ddtc/Support/ByteSize.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace ddtc {

/// Pattern with `%r` replaced by Rank, `%p` by Pid and `%%` by `%`; any
/// other `%` sequence is kept as it is (docs/runtime.md: DDTC_TRACE,
/// DDTC_RT_REPORT).
std::string expandPattern(std::string_view Pattern, int Rank, long Pid);

/// The value of environment variable Name, or Default when it is unset or
/// empty.
std::string getEnvOr(const char *Name, std::string_view Default);

/// Writes Text to a temporary file beside Path and renames it to Path, so
/// that Path holds either its old content or all of Text. On failure
/// returns false with Err naming the file and the system's reason, and
/// leaves no temporary file behind. Mode is the new file's (less the
/// umask).
bool writeFileAtomically(const std::string &Path, const std::string &Text,
                         std::string &Err, unsigned Mode = 0666);

} // namespace ddtc

#endif // DDTC_RUNTIME_RUNTIMESUPPORT_H

//===- tools/ddtc/CacheTrim.h - The kernel cache kept to a size -*- C++ -*-===//
//
// Kernels compiled on first use add entries run after run -- a program
// whose index lists change every run adds new ones each time -- so the
// cache is kept to a size, as ccache keeps its own: past it, the entries
// used longest ago go. The runtime marks an entry used (its modification
// time) when it loads it, so that the kernels a program keeps using stay.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_TOOLS_DDTC_CACHETRIM_H
#define DDTC_TOOLS_DDTC_CACHETRIM_H

#include <sys/types.h>

#include <cstdint>
#include <set>
#include <string>
#include <utility>

namespace ddtc {

/// The default bound on the kernel cache (--max-size, DDTC_CACHE_MAX_SIZE).
constexpr uint64_t DefaultCacheMaxBytes = uint64_t(1) << 30;

struct TrimResult {
  uint64_t Bytes = 0;   ///< what the entries take now
  size_t Removed = 0;   ///< entries removed
};

/// Where the entries under KernelsDir (CACHE/kernels: every version and
/// target) take more than MaxBytes, removes the least recently used until
/// they take at most nine tenths of it, as whole files (the entries that
/// are links to one library go together). The libraries in Keep (device
/// and inode: what this build wrote) stay whatever their size.
using FileId = std::pair<dev_t, ino_t>;
TrimResult trimKernelCache(const std::string &KernelsDir, uint64_t MaxBytes,
                           const std::set<FileId> &Keep);

} // namespace ddtc

#endif // DDTC_TOOLS_DDTC_CACHETRIM_H

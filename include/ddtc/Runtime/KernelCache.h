//===- ddtc/Runtime/KernelCache.h - Compiled kernels per layout -*- C++ -*-===//
//
// The kernel cache holds compiled kernels by layout key, so that a program
// finds a kernel for a type at commit without naming a library
// (docs/runtime.md, "The kernel cache"). It lives in ddtc's cache directory
// (SettingsStore.h):
//
//   CACHE/kernels/abi4-0.1.0/            kernel ABI and ddtc version
//     generic-1f2e3d4c5b6a7988/          target, hash of compiler and flags
//       KEY.SIZE.EXTENT.so               one entry per layout key
//
// An entry is a shared object from `ddtc emit` output whose kernel table
// holds KEY's kernel (for SIZE bytes per instance of extent EXTENT). The
// entries of one compiled library are hard links to one file, so loading
// one registers its siblings. Every file is written under a temporary name
// and renamed, so a reader never sees part of one. A directory of another
// ABI or version is never read: its keys may mean something else.
//
// A target is `generic` (no -march), a CPU name given to -march
// (`znver3`, `x86-64-v3`), or `native.HASH`, -march=native on a CPU whose
// model and features hash to HASH: only a process on such a CPU loads it.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_RUNTIME_KERNELCACHE_H
#define DDTC_RUNTIME_KERNELCACHE_H

#include <cstdint>
#include <string>
#include <string_view>

namespace ddtc {

/// CacheDir/kernels/abiN-VERSION: the entries of this kernel ABI and ddtc
/// version.
std::string kernelCacheRoot(const std::string &CacheDir,
                            const std::string &Version);

/// The target of -march=native on this CPU: "native." and a hash of the
/// processor's model name and feature flags (/proc/cpuinfo).
std::string nativeTarget();

/// The target a -march value builds for: "generic" for none, nativeTarget()
/// for "native", else the value.
std::string targetOfMarch(const std::string &March);

/// The directory of the entries built for Target by one compiler with one
/// set of flags: TARGET-HASH, HASH of CompilerAndFlags.
std::string entryDirectoryName(const std::string &Target,
                               const std::string &CompilerAndFlags);

/// The target of an entry directory's name, "" if it is not one.
std::string targetOfDirectory(std::string_view Name);

/// Whether entries built for Target can run here: generic, a named CPU
/// (the user's choice, made for the nodes the cache serves), or native
/// on this CPU. Lower ranks are preferred: 0 native here, 1 named, 2
/// generic; -1 cannot run, or not a target ("").
int targetRank(const std::string &Target);

/// KEY.SIZE.EXTENT.so, KEY the 32 hex digits of the layout key.
std::string entryFileName(uint64_t KeyHi, uint64_t KeyLo, uint64_t Size,
                          int64_t Extent);

/// Reads an entry's name; false if Name is not one.
bool parseEntryFileName(std::string_view Name, uint64_t &KeyHi,
                        uint64_t &KeyLo, uint64_t &Size, int64_t &Extent);

} // namespace ddtc

#endif // DDTC_RUNTIME_KERNELCACHE_H

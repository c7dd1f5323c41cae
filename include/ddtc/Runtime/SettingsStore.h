//===- ddtc/Runtime/SettingsStore.h - Settings measured per machine -*- C++ -*-===//
//
// The settings the runtime measures by itself are stored per user, one file
// per node type and MPI library, so that later runs on any node of the type
// read them instead of measuring again (docs/runtime.md, "Settings"). The
// store is the `rt-settings` files of ddtc's cache directory. A file there
// is loaded into every MPI program the user runs under the runtime, so one
// that someone else could have written -- another owner, or writable by the
// group or others, in a directory that is -- is refused.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_RUNTIME_SETTINGSSTORE_H
#define DDTC_RUNTIME_SETTINGSSTORE_H

#include <string>

namespace ddtc {

/// The version of the stored files' contents: a file of another version is
/// measured again.
inline constexpr int SettingsVersion = 2;

/// ddtc's cache directory: DDTC_CACHE, else $XDG_CACHE_HOME/ddtc, else
/// $HOME/.cache/ddtc; "" if none of these is set.
std::string cacheDirectory();

/// The stored settings file for a node type and an MPI library within Dir
/// (DIR/rt-settings-HASH.conf, HASH of both and of SettingsVersion).
std::string storedSettingsPath(const std::string &Dir, const std::string &Node,
                               const std::string &Library);

/// Why Path (a file, or a directory where Directory) cannot be trusted:
/// "" if it is this user's and nobody else can write to it, else the
/// reason ("owned by uid 1001", "writable by others", ...). A missing path
/// is "missing"; a file that is a symbolic link is "not a regular file".
std::string whyUntrusted(const std::string &Path, bool Directory);

/// Creates Dir and its missing parents, private to the user (mode 0700),
/// and checks that Dir can be trusted; false with Err saying why not.
bool makeTrustedDirectory(const std::string &Dir, std::string &Err);

} // namespace ddtc

#endif // DDTC_RUNTIME_SETTINGSSTORE_H

//===- ddtc/Runtime/RuntimeSettings.h - The runtime's settings -*- C++ -*-===//
//
// The runtime's tuning settings (DDTC_RT_SPLIT_SEND, DDTC_RT_TYPED_BLOCKS,
// DDTC_RT_MAX_BUFFER, DDTC_RT_FORMS) come from the environment, or from the file that
// DDTC_RT_CONFIG names -- lines NAME=VALUE, `#` comments, as
// `ddtc-rt-calibrate` writes them for a machine -- the environment winning,
// as MPI libraries take their parameter files (docs/runtime.md, "Settings
// file and calibration"). ddtc-bench reads them too: its ddtc variant sends
// as the runtime does.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_RUNTIME_RUNTIMESETTINGS_H
#define DDTC_RUNTIME_RUNTIMESETTINGS_H

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace ddtc {

class RuntimeSettings {
public:
  /// Reads the file DDTC_RT_CONFIG names, if any. Lines it cannot read are
  /// returned as warnings naming the file and line, and skipped.
  std::vector<std::string> load();

  /// The value of Name: the environment's if set and not empty, else the
  /// file's, else null. Valid until the next load().
  const char *get(const char *Name) const;

  /// "FILE: " where Name's value comes from the settings file, else "":
  /// the prefix of a warning about the value.
  std::string where(const char *Name) const;

  /// The file read ("" without DDTC_RT_CONFIG).
  const std::string &path() const { return Path; }

  /// The names a settings file may set.
  static bool isKnown(const std::string &Name);

  /// The largest file read.
  static constexpr size_t MaxBytes = 64 * 1024;

private:
  std::string Path;
  std::map<std::string, std::string> FromFile;
};

} // namespace ddtc

#endif // DDTC_RUNTIME_RUNTIMESETTINGS_H

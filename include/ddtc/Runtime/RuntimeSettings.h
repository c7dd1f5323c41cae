//===- ddtc/Runtime/RuntimeSettings.h - The runtime's settings -*- C++ -*-===//
//
// The runtime's tuning settings (DDTC_RT_SPLIT_SEND, DDTC_RT_TYPED_BLOCKS and
// their DDTC_RT_REMOTE_ forms, DDTC_RT_MAX_BUFFER, DDTC_RT_FORMS) come from
// the environment, or from a settings file -- lines NAME=VALUE, `#`
// comments, as `ddtc-rt-calibrate` writes them -- the environment winning,
// as MPI libraries take their parameter files (docs/runtime.md,
// "Settings"). The file is, in this order: the one DDTC_RT_CONFIG names;
// the one stored in the user's cache for this node type and MPI library
// (SettingsStore.h), which the runtime measures by itself where there is
// none; none, and the defaults. ddtc-bench reads them too: its ddtc variant
// sends as the runtime does.
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
  /// Where the file of the settings in force came from.
  enum class Source { Named, Stored, Measured, Defaults };
  static const char *sourceName(Source S);

  /// Reads the file DDTC_RT_CONFIG names, if set (Named); else the stored
  /// file for the node type Node and the MPI library Library, if there is
  /// one this user can trust that was measured on them (Stored); else
  /// nothing (Defaults). What cannot be read or is refused is returned as
  /// warnings naming the file (and line).
  std::vector<std::string> load(const std::string &Node,
                                const std::string &Library);

  /// Reads the stored file for Node and Library alone (Stored), as load()
  /// does where DDTC_RT_CONFIG is not set: what a measurement merges with.
  std::vector<std::string> loadStored(const std::string &Node,
                                      const std::string &Library);

  /// Reads the stored file a measurement has just written (Measured), as
  /// load() reads a stored one; Seconds is what the measurement took.
  std::vector<std::string> loadMeasured(const std::string &Node,
                                        const std::string &Library,
                                        double Seconds);

  /// The value of Name: the environment's if set and not empty, else the
  /// file's, else null. Valid until the next load().
  const char *get(const char *Name) const;

  /// "FILE: " where Name's value comes from the settings file, else "":
  /// the prefix of a warning about the value.
  std::string where(const char *Name) const;

  Source source() const { return From; }
  /// The file read ("" for the defaults).
  const std::string &path() const { return Path; }
  /// Seconds the measurement took, for Source::Measured.
  double measureSeconds() const { return Seconds; }
  /// How many measurements, taken by different runs, the stored settings
  /// within a node (between nodes where Remote) combine
  /// (DDTC_RT_MEASUREMENTS, DDTC_RT_REMOTE_MEASUREMENTS): 1 until a second
  /// run has confirmed the first; 0 where the file holds no settings of
  /// that placement, and for a named file or the defaults.
  int measurements(bool Remote = false) const;

  /// The file's value of Name, whatever the environment says ("" if the
  /// file sets none), and every name the file sets with its value.
  std::string fileValue(const std::string &Name) const;
  const std::map<std::string, std::string> &fileValues() const {
    return FromFile;
  }

  /// The names a settings file may set: the settings, and the identity of
  /// what they were measured on (DDTC_RT_NODE, DDTC_RT_MPI) and how often
  /// (DDTC_RT_MEASUREMENTS), which the environment does not override.
  static bool isKnown(const std::string &Name);

  /// The largest file read.
  static constexpr size_t MaxBytes = 64 * 1024;

private:
  /// Reads File into FromFile; false (with a warning that calls it Label)
  /// if it cannot be read.
  bool read(const std::string &File, const std::string &Label,
            std::vector<std::string> &Warnings);
  /// Reads the stored file for Node and Library into FromFile if it is
  /// trusted and theirs; else leaves FromFile empty.
  bool readStored(const std::string &Node, const std::string &Library,
                  std::vector<std::string> &Warnings);

  Source From = Source::Defaults;
  std::string Path;
  double Seconds = 0;
  std::map<std::string, std::string> FromFile;
};

} // namespace ddtc

#endif // DDTC_RUNTIME_RUNTIMESETTINGS_H

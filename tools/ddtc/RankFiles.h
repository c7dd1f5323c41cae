//===- tools/ddtc/RankFiles.h - The files a pattern names per rank -*- C++ -*-===//
//
// The runtime's reports and the trace library's traces are named by a
// pattern: `%r` the rank, `%p` the process id, `%%` a `%` (docs/runtime.md,
// "The report"). `ddtc run` reads the files its command wrote, and only
// those: a file of the pattern left by an earlier run is not this run's.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_TOOLS_DDTC_RANKFILES_H
#define DDTC_TOOLS_DDTC_RANKFILES_H

#include "ddtc/Support/Error.h"

#include <filesystem>
#include <map>
#include <regex>
#include <string>
#include <vector>

namespace ddtc {

class RankFiles {
public:
  explicit RankFiles(const std::string &Pattern);

  /// False where the directory part of the pattern has `%r` or `%p` (a
  /// directory per rank): its files are not looked for.
  bool isListable() const { return Listable; }
  /// The existing files the pattern names, sorted.
  std::vector<std::string> list() const;
  /// Removes them; the first failure is the error.
  Error removeAll() const;
  /// Notes the files that exist now, so that fresh() leaves them out.
  void snapshot();
  /// The files written since snapshot(): new ones, and those modified.
  std::vector<std::string> fresh() const;

private:
  std::filesystem::path Dir;
  std::regex Name;
  bool Listable = true;
  std::map<std::string, std::filesystem::file_time_type> Before;
};

} // namespace ddtc

#endif // DDTC_TOOLS_DDTC_RANKFILES_H

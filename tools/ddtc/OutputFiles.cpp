//===- tools/ddtc/OutputFiles.cpp - Files written whole or not at all -----===//
#include "OutputFiles.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace ddtc {

namespace fs = std::filesystem;

namespace {

std::string temporaryFor(const std::string &Path) { return Path + ".tmp-ddtc"; }

/// Writes Text to Path; returns 0 or the errno of the failure.
int writeWhole(const std::string &Path, const std::string &Text) {
  errno = 0;
  std::ofstream Out(Path, std::ios::binary | std::ios::trunc);
  if (Out)
    Out << Text;
  if (!Out || !Out.flush())
    return errno ? errno : EIO;
  return 0;
}

Error cannotWrite(const std::string &Path, int Errno) {
  return makeError(Path + ": cannot write: " + std::strerror(Errno));
}

} // namespace

Error writeFiles(std::span<const OutputFile> Files) {
  auto RemoveTemporaries = [&] {
    for (const OutputFile &F : Files)
      std::remove(temporaryFor(F.Path).c_str());
  };
  for (const OutputFile &F : Files)
    if (int Errno = writeWhole(temporaryFor(F.Path), F.Text)) {
      RemoveTemporaries();
      return cannotWrite(F.Path, Errno);
    }
  for (const OutputFile &F : Files) {
    std::error_code EC;
    if (fs::exists(F.Path, EC))
      fs::permissions(temporaryFor(F.Path), fs::status(F.Path).permissions(),
                      EC);
    if (std::rename(temporaryFor(F.Path).c_str(), F.Path.c_str()) != 0) {
      int Saved = errno;
      RemoveTemporaries();
      return cannotWrite(F.Path, Saved);
    }
  }
  return Error::success();
}

Error writeFile(const std::string &Path, const std::string &Text) {
  if (Path == "-") {
    std::fwrite(Text.data(), 1, Text.size(), stdout);
    return std::fflush(stdout) == 0 ? Error::success()
                                    : cannotWrite("<stdout>", errno);
  }
  OutputFile F{Path, Text};
  return writeFiles({&F, 1});
}

} // namespace ddtc

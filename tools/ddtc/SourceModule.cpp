//===- tools/ddtc/SourceModule.cpp - Loading the C/C++ front end ---------===//
#include "SourceModule.h"

#include <cstdlib>
#include <dlfcn.h>
#include <filesystem>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace ddtc {

namespace {

/// The module's candidate paths: DDTC_SOURCE_MODULE if set (no fallback
/// that would hide a mistake in it), else beside the executable (the build
/// tree) and where `cmake --install` puts it.
std::vector<std::string> candidatePaths(const std::string &Argv0) {
  if (const char *Env = std::getenv("DDTC_SOURCE_MODULE"); Env && *Env)
    return {Env};
  fs::path Dir = getExecutableDir(Argv0);
  return {(Dir / "ddtc-source.so").string(),
          (Dir / DDTC_SOURCE_MODULE_DIR / "ddtc-source.so")
              .lexically_normal()
              .string()};
}

} // namespace

int runSourceCommand(
    const std::string &Argv0,
    const std::function<int(const SourceCommands &)> &Command) {
  std::string Tried;
  for (const std::string &Path : candidatePaths(Argv0)) {
    if (!isFile(Path)) {
      Tried += (Tried.empty() ? "" : ", ") + Path;
      continue;
    }
    // Never closed: the command runs to the end of the process.
    void *Handle = dlopen(Path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!Handle) {
      reportError("cannot load the C/C++ front end: " + std::string(dlerror()));
      return ExitBadInput;
    }
    using Getter = const SourceCommands *(*)();
    auto Get = reinterpret_cast<Getter>(dlsym(Handle, SourceCommandsSymbol));
    const SourceCommands *Table = Get ? Get() : nullptr;
    if (!Table || Table->Version != SourceCommandsVersion) {
      reportError(Path + " is not the C/C++ front end of this ddtc (" +
                  std::string(Get ? "another version" : "no command table") +
                  ")");
      return ExitBadInput;
    }
    return Command(*Table);
  }
  reportError("the C/C++ front end is not installed (looked for " + Tried +
              "); set DDTC_SOURCE_MODULE to the path of ddtc-source.so");
  return ExitBadInput;
}

} // namespace ddtc

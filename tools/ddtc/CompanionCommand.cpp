//===- tools/ddtc/CompanionCommand.cpp - Commands run by other programs ---===//
//
// `ddtc plot` and `ddtc calibrate` are done by programs of their own: the
// plots by a Python script (matplotlib, which C++ does not have), the
// calibration by an MPI program (the ddtc tool links no MPI). Keeping them
// apart keeps Python and MPI out of ddtc itself; running them from here
// keeps `ddtc COMMAND` the one name users learn. The arguments go to the
// program unchanged: its options and its --help are the command's.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;

namespace ddtc {

Expected<std::string> findCompanion(const std::string &Name,
                                    const std::string &EnvVar,
                                    const std::string &Argv0) {
  const char *FromEnv = std::getenv(EnvVar.c_str());
  if (FromEnv && *FromEnv) {
    // An explicit choice: no fallback that would hide a mistake in it.
    if (!isFile(FromEnv))
      return makeError(EnvVar + "=" + FromEnv +
                       ": not a file (it must name the " + Name + " program)");
    return std::string(FromEnv);
  }
  // Installed, both in bin/; else the build tree, where each tool has its
  // directory under tools/.
  fs::path Dir = getExecutableDir(Argv0);
  std::string Installed = (Dir / Name).string();
  std::string InBuildTree = (Dir.parent_path() / Name / Name).string();
  if (isFile(Installed))
    return Installed;
  if (isFile(InBuildTree))
    return InBuildTree;
  return makeError("cannot find " + Name + " (looked for " + Installed +
                   " and " + InBuildTree + "); set " + EnvVar + " to its path");
}

int runCompanion(const CompanionOptions &Options) {
  auto Report = [&](const std::string &Message) {
    std::fprintf(stderr, "ddtc %s: error: %s\n", Options.Command.c_str(),
                 Message.c_str());
    return ExitBadInput;
  };
  Expected<std::string> Found =
      findCompanion(Options.Program, Options.EnvVar, Options.Argv0);
  if (!Found)
    return Report(Found.takeError().message());
  std::string Program = *Found;

  std::vector<char *> Argv;
  Argv.push_back(Program.data());
  for (const std::string &Arg : Options.Args)
    Argv.push_back(const_cast<char *>(Arg.c_str()));
  Argv.push_back(nullptr);
  std::fflush(nullptr);
  execv(Program.c_str(), Argv.data());
  // The program exists: ENOENT means the interpreter its #! line names.
  std::string Reason = errno == ENOENT
                           ? "the interpreter named by its #! line is missing"
                           : std::strerror(errno);
  return Report("cannot run " + Program + ": " + Reason);
}

} // namespace ddtc

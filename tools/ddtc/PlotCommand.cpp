//===- tools/ddtc/PlotCommand.cpp - `ddtc plot` ---------------------------===//
//
// Draws figures from ddtc-bench results by running the ddtc-plot script
// (tools/ddtc-plot), which does all the work with matplotlib. The figures
// need a plotting library that C++ does not have; keeping the script a
// separate program keeps Python out of ddtc itself, and `ddtc plot` the one
// name users learn. The arguments go to the script unchanged: its options
// and its --help are the command's.
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

static void reportPlotError(const std::string &Message) {
  std::fprintf(stderr, "ddtc plot: error: %s\n", Message.c_str());
}

// The directory of the running executable: /proc/self/exe sees through
// symbolic links and PATH lookup, which argv[0] does not.
static fs::path getExecutableDir(const std::string &Argv0) {
  std::error_code EC;
  fs::path Exe = fs::read_symlink("/proc/self/exe", EC);
  if (EC)
    Exe = fs::absolute(Argv0, EC);
  return Exe.parent_path();
}

static bool isFile(const std::string &Path) {
  std::error_code EC;
  return fs::is_regular_file(Path, EC);
}

int runPlot(const PlotOptions &Options) {
  std::string Script;
  const char *FromEnv = std::getenv("DDTC_PLOT");
  if (FromEnv && *FromEnv) {
    // An explicit choice: no fallback that would hide a mistake in it.
    Script = FromEnv;
    if (!isFile(Script)) {
      reportPlotError("DDTC_PLOT=" + Script +
                      ": not a file (it must name the ddtc-plot script)");
      return ExitBadInput;
    }
  } else {
    // Installed, both in bin/; else the build tree, where each tool has its
    // directory under tools/.
    fs::path Dir = getExecutableDir(Options.Argv0);
    std::string Installed = (Dir / "ddtc-plot").string();
    std::string InBuildTree =
        (Dir.parent_path() / "ddtc-plot" / "ddtc-plot").string();
    Script = isFile(Installed) ? Installed : InBuildTree;
    if (!isFile(Script)) {
      reportPlotError("cannot find the ddtc-plot script (looked for " +
                      Installed + " and " + InBuildTree +
                      "); set DDTC_PLOT to its path");
      return ExitBadInput;
    }
  }

  std::vector<char *> Argv;
  Argv.push_back(Script.data());
  for (const std::string &Arg : Options.Args)
    Argv.push_back(const_cast<char *>(Arg.c_str()));
  Argv.push_back(nullptr);
  std::fflush(nullptr);
  execv(Script.c_str(), Argv.data());
  // The script exists: ENOENT means the interpreter its #! line names.
  std::string Reason = errno == ENOENT
                           ? "the interpreter named by its #! line is missing"
                           : std::strerror(errno);
  reportPlotError("cannot run " + Script + ": " + Reason);
  return ExitBadInput;
}

} // namespace ddtc

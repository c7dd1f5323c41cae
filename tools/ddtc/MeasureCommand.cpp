//===- tools/ddtc/MeasureCommand.cpp - MPI_Pack times for analyze ---------===//
//
// `ddtc analyze --measure` needs MPI, which the ddtc tool does not link: it
// writes the forms to time into a temporary description file and runs the
// MPI program ddtc-measure on it, reading its report from a pipe. The
// program's progress line goes to ddtc's stderr as it is.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "Subprocess.h"

#include "ddtc/Format/DescriptionWriter.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <unistd.h>

namespace ddtc {

namespace {

/// A file that removes itself.
struct TempFile {
  std::string Path;
  ~TempFile() {
    if (!Path.empty())
      std::remove(Path.c_str());
  }
};

Error writeTemp(const std::string &Text, TempFile &Out) {
  const char *Dir = std::getenv("TMPDIR");
  std::string Pattern =
      std::string(Dir && *Dir ? Dir : "/tmp") + "/ddtc-measure-XXXXXX.json";
  std::vector<char> Name(Pattern.begin(), Pattern.end());
  Name.push_back('\0');
  int Fd = mkstemps(Name.data(), 5);
  if (Fd < 0)
    return makeError("cannot create a temporary file in " + Pattern + ": " +
                     std::strerror(errno));
  Out.Path = Name.data();
  size_t Done = 0;
  while (Done < Text.size()) {
    ssize_t N = write(Fd, Text.data() + Done, Text.size() - Done);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0) {
      close(Fd);
      return makeError(Out.Path + ": cannot write: " + std::strerror(errno));
    }
    Done += size_t(N);
  }
  close(Fd);
  return Error::success();
}

} // namespace

Expected<PackMeasurements> measurePacks(const Module &M,
                                        const std::string &Argv0) {
  Expected<std::string> Program =
      findCompanion("ddtc-measure", "DDTC_MEASURE", Argv0);
  if (!Program)
    return makeError("--measure: " + Program.takeError().message());
  TempFile File;
  if (Error E = writeTemp(writeDescription(M), File))
    return makeError("--measure: " + E.message());
  std::string Output;
  SpawnOptions Options;
  Options.Output = &Output;
  Expected<int> Status = runProgram({*Program, File.Path}, Options);
  if (!Status)
    return makeError("--measure: " + Status.takeError().message());
  if (*Status != 0)
    return makeError("--measure: " + *Program + " failed (exit status " +
                     std::to_string(*Status) + ")");

  PackMeasurements R;
  std::istringstream Lines(Output);
  std::string Line;
  while (std::getline(Lines, Line)) {
    std::istringstream Fields(Line);
    std::string Kind, Name;
    Fields >> Kind;
    if (Kind == "library") {
      std::getline(Fields >> std::ws, R.Library);
    } else if (Kind == "time") {
      uint64_t Count = 0;
      double Ns = 0;
      if (Fields >> Name >> Count >> Ns)
        R.Ns[Name][Count] = Ns;
    } else if (Kind == "skip") {
      Fields >> Name;
      std::getline(Fields >> std::ws, R.Skipped[Name]);
    }
  }
  if (R.Library.empty())
    return makeError("--measure: " + *Program +
                     " printed no report (is it ddtc-measure?)");
  return R;
}

} // namespace ddtc

//===- tools/ddtc/MeasureCommand.cpp - MPI_Pack times for analyze ---------===//
//
// `ddtc analyze --measure` needs MPI, which the ddtc tool does not link: it
// writes the forms to time into a temporary description file and runs the
// MPI program ddtc-measure on it, reading its report from a pipe. The
// program's progress line goes to ddtc's stderr as it is.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include "ddtc/Format/DescriptionWriter.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <spawn.h>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

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

/// Runs Program with Args, its stdout into Output; its exit status.
Expected<int> runAndRead(const std::string &Program,
                         const std::vector<std::string> &Args,
                         std::string &Output) {
  int Pipe[2];
  if (pipe(Pipe) != 0)
    return makeError(std::string("pipe: ") + std::strerror(errno));
  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  posix_spawn_file_actions_adddup2(&Actions, Pipe[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&Actions, Pipe[0]);
  posix_spawn_file_actions_addclose(&Actions, Pipe[1]);
  std::vector<char *> Argv;
  Argv.push_back(const_cast<char *>(Program.c_str()));
  for (const std::string &A : Args)
    Argv.push_back(const_cast<char *>(A.c_str()));
  Argv.push_back(nullptr);
  std::fflush(nullptr);
  pid_t Pid = 0;
  int Spawned = posix_spawn(&Pid, Program.c_str(), &Actions, nullptr,
                            Argv.data(), environ);
  posix_spawn_file_actions_destroy(&Actions);
  close(Pipe[1]);
  if (Spawned != 0) {
    close(Pipe[0]);
    return makeError("cannot run " + Program + ": " + std::strerror(Spawned));
  }
  char Buf[4096];
  for (;;) {
    ssize_t N = read(Pipe[0], Buf, sizeof Buf);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      break;
    Output.append(Buf, size_t(N));
  }
  close(Pipe[0]);
  int Status = 0;
  while (waitpid(Pid, &Status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(Status))
    return makeError(Program + " was killed by signal " +
                     std::to_string(WTERMSIG(Status)));
  return WEXITSTATUS(Status);
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
  Expected<int> Status = runAndRead(*Program, {File.Path}, Output);
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

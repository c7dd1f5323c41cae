//===- tools/ddtc/Subprocess.cpp - Programs ddtc runs ---------------------===//
#include "Subprocess.h"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace ddtc {

namespace {

using Clock = std::chrono::steady_clock;

/// Milliseconds left before Deadline, for poll (-1: no deadline).
int millisecondsLeft(bool HasDeadline, Clock::time_point Deadline) {
  if (!HasDeadline)
    return -1;
  auto Left = std::chrono::duration_cast<std::chrono::milliseconds>(
                  Deadline - Clock::now())
                  .count();
  return Left < 0 ? 0 : static_cast<int>(Left);
}

} // namespace

Expected<int> runProgram(const std::vector<std::string> &Argv,
                         const SpawnOptions &Options) {
  const std::string &Name = Argv.at(0);
  int Pipe[2] = {-1, -1};
  if (Options.Output && pipe2(Pipe, O_CLOEXEC) != 0)
    return makeError(std::string("pipe: ") + std::strerror(errno));
  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  if (Options.Output)
    posix_spawn_file_actions_adddup2(&Actions, Pipe[1], STDOUT_FILENO);
  if (Options.DiscardStderr)
    posix_spawn_file_actions_addopen(&Actions, STDERR_FILENO, "/dev/null",
                                     O_WRONLY, 0);
  posix_spawnattr_t Attr;
  posix_spawnattr_init(&Attr);
  if (Options.TimeoutSeconds > 0) {
    // A group of its own, so that a timeout kills all it started.
    posix_spawnattr_setflags(&Attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&Attr, 0);
  }
  std::vector<char *> Args;
  for (const std::string &A : Argv)
    Args.push_back(const_cast<char *>(A.c_str()));
  Args.push_back(nullptr);
  std::fflush(nullptr);
  pid_t Pid = 0;
  int Spawned = Options.SearchPath
                    ? posix_spawnp(&Pid, Args[0], &Actions, &Attr,
                                   Args.data(), environ)
                    : posix_spawn(&Pid, Args[0], &Actions, &Attr,
                                  Args.data(), environ);
  posix_spawn_file_actions_destroy(&Actions);
  posix_spawnattr_destroy(&Attr);
  if (Options.Output)
    close(Pipe[1]);
  if (Spawned != 0) {
    if (Options.Output)
      close(Pipe[0]);
    return makeError("cannot run '" + Name + "': " + std::strerror(Spawned));
  }

  bool HasDeadline = Options.TimeoutSeconds > 0;
  Clock::time_point Deadline =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(
                         std::chrono::duration<double>(
                             HasDeadline ? Options.TimeoutSeconds : 0));
  bool TimedOut = false;
  // Its output first, until it closes it (it has ended, or nearly).
  for (int Fd = Options.Output ? Pipe[0] : -1; Fd >= 0;) {
    pollfd P = {Fd, POLLIN, 0};
    int Ready = poll(&P, 1, millisecondsLeft(HasDeadline, Deadline));
    if (Ready < 0 && errno == EINTR)
      continue;
    if (Ready == 0) {
      TimedOut = true;
      break;
    }
    char Buf[4096];
    ssize_t N = Ready > 0 ? read(Fd, Buf, sizeof Buf) : -1;
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      break;
    Options.Output->append(Buf, size_t(N));
  }
  if (Options.Output)
    close(Pipe[0]);
  int Status = 0;
  for (;;) {
    pid_t Done = waitpid(Pid, &Status, HasDeadline ? WNOHANG : 0);
    if (Done == Pid)
      break;
    if (Done < 0 && errno != EINTR)
      return makeError(std::string("waitpid: ") + std::strerror(errno));
    if (TimedOut || (HasDeadline && Clock::now() >= Deadline)) {
      TimedOut = true;
      kill(-Pid, SIGKILL);
      while (waitpid(Pid, &Status, 0) < 0 && errno == EINTR) {
      }
      break;
    }
    if (Done == 0)
      poll(nullptr, 0, 20);
  }
  if (TimedOut)
    return makeError("'" + Name + "' took more than " +
                     std::to_string(static_cast<int>(Options.TimeoutSeconds)) +
                     " s; stopped");
  if (WIFSIGNALED(Status))
    return makeError("'" + Name + "' was killed by signal " +
                     std::to_string(WTERMSIG(Status)));
  return WEXITSTATUS(Status);
}

} // namespace ddtc

//===- tools/ddtc/Subprocess.cpp - Programs ddtc runs and reads -----------===//
#include "Subprocess.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace ddtc {

Expected<int> runAndRead(const std::string &Program,
                         const std::vector<std::string> &Args,
                         std::string &Output, bool DiscardStderr) {
  int Pipe[2];
  if (pipe(Pipe) != 0)
    return makeError(std::string("pipe: ") + std::strerror(errno));
  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  posix_spawn_file_actions_adddup2(&Actions, Pipe[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&Actions, Pipe[0]);
  posix_spawn_file_actions_addclose(&Actions, Pipe[1]);
  if (DiscardStderr)
    posix_spawn_file_actions_addopen(&Actions, STDERR_FILENO, "/dev/null",
                                     O_WRONLY, 0);
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

} // namespace ddtc

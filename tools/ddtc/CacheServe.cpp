//===- tools/ddtc/CacheServe.cpp - `ddtc cache serve` ---------------------===//
//
// The runtime's compile server (docs/runtime.md, "Kernels compiled on first
// use"). The runtime starts one per rank before MPI_Init -- an MPI process
// must not fork once its network is up -- with a socket on its standard
// input and output, and sends it one line per hot type: an id and the path
// of a description file holding the type. The server compiles the type's
// kernel into the kernel cache as `ddtc cache build` does, at the lowest
// CPU priority, and answers `ID ok` or `ID failed`. It ends when the
// runtime closes the socket (the rank ended, however), once it has
// compiled what was asked before: those kernels are for the next run. A
// server killed meanwhile (a batch system ending the job) leaves no entry
// in part: each is renamed into place whole.
//
// With --after (a node whose ranks keep every core busy) it only collects
// the requests while the rank runs, and compiles them once it has ended.
//
// One compile at a time per node: the servers of a node take a lock file in
// the node's temporary directory around each compile, and whoever comes
// second finds the entry there and compiles nothing, so no two ranks of a
// node compile the same key.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

namespace ddtc {

namespace {

/// The node's compile lock, held while it lives; unlocked (with a note in
/// the log) where it cannot be had: a compile more at once is better than
/// none.
class NodeLock {
public:
  NodeLock() {
    const char *Tmp = std::getenv("TMPDIR");
    std::string Path = std::string(Tmp && *Tmp ? Tmp : "/tmp") +
                       "/ddtc-compile-" + std::to_string(geteuid()) + ".lock";
    Fd = open(Path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (Fd < 0 || flock(Fd, LOCK_EX) != 0)
      std::fprintf(stderr, "ddtc cache serve: cannot lock %s; compiling "
                           "without it\n",
                   Path.c_str());
  }
  ~NodeLock() {
    if (Fd >= 0)
      close(Fd); // releases the lock
  }
  NodeLock(const NodeLock &) = delete;
  NodeLock &operator=(const NodeLock &) = delete;

private:
  int Fd = -1;
};

bool writeAll(int Fd, const std::string &Text) {
  size_t Done = 0;
  while (Done < Text.size()) {
    ssize_t N = write(Fd, Text.data() + Done, Text.size() - Done);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return false;
    Done += static_cast<size_t>(N);
  }
  return true;
}

} // namespace

int runCacheServe(const CacheBuildOptions &Options) {
  // Compiles run beside the program on its own cores: they must take
  // only what the program leaves idle.
  if (nice(19) < 0)
    std::perror("ddtc cache serve: nice");
  // An answer to a rank that has ended is not an error.
  signal(SIGPIPE, SIG_IGN);
  bool Answering = true;
  // --after: the requests are compiled once the rank has ended.
  std::vector<std::string> Later;
  std::string Line;
  char C;
  for (;;) {
    Line.clear();
    ssize_t N;
    while ((N = read(0, &C, 1)) == 1 && C != '\n')
      Line += C;
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0 && Later.empty())
      return ExitSuccess; // the rank is gone
    if (N > 0 && Options.After) {
      Later.push_back(Line);
      continue;
    }
    if (N <= 0) {
      Line = Later.front();
      Later.erase(Later.begin());
    }
    std::istringstream In(Line);
    std::string Id, Path;
    if (!(In >> Id >> Path))
      continue;
    int Status;
    {
      NodeLock Lock;
      CacheBuildOptions Build = Options;
      Build.Inputs = {Path};
      Status = runCacheBuild(Build);
    }
    std::fflush(stderr);
    unlink(Path.c_str());
    if (Answering)
      Answering =
          writeAll(1, Id + (Status == ExitSuccess ? " ok\n" : " failed\n"));
  }
}

} // namespace ddtc

//===- lib/Runtime/RuntimeSupport.cpp - Helpers of the runtime libraries --===//
//
// Plain POSIX and standard C++: these functions run inside MPI programs
// that never asked for ddtc, at MPI_Finalize, so they report problems as
// values and never throw, abort or print.
//
//===----------------------------------------------------------------------===//
#include "ddtc/Runtime/RuntimeSupport.h"

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <fcntl.h>
#include <unistd.h>

namespace ddtc {

std::string expandPattern(std::string_view Pattern, int Rank, long Pid) {
  std::string Out;
  Out.reserve(Pattern.size() + 8);
  for (size_t I = 0; I < Pattern.size(); ++I) {
    char C = Pattern[I];
    if (C != '%' || I + 1 == Pattern.size()) {
      Out += C;
      continue;
    }
    switch (Pattern[I + 1]) {
    case 'r':
      Out += std::to_string(Rank);
      ++I;
      break;
    case 'p':
      Out += std::to_string(Pid);
      ++I;
      break;
    case '%':
      Out += '%';
      ++I;
      break;
    default:
      // Kept verbatim: a path may contain a literal '%'.
      Out += C;
      break;
    }
  }
  return Out;
}

std::string getEnvOr(const char *Name, std::string_view Default) {
  const char *V = std::getenv(Name);
  if (!V || !*V)
    return std::string(Default);
  return V;
}

bool writeFileAtomically(const std::string &Path, const std::string &Text,
                         std::string &Err, unsigned Mode) {
  auto fail = [&](const std::string &File, int Errno) {
    Err = "cannot write '" + File + "': " + std::strerror(Errno);
    return false;
  };
  // The temporary file is in Path's directory, so that rename() stays within
  // one file system and is atomic. Its name is unique among the threads and
  // processes (ranks may share a directory and even a pattern); O_EXCL makes
  // sure nothing else is overwritten.
  static std::atomic<unsigned> Counter{0};
  std::string Temp;
  int Fd = -1;
  for (int Attempt = 0; Attempt < 100 && Fd < 0; ++Attempt) {
    Temp = Path + ".tmp-" + std::to_string(static_cast<long>(getpid())) + "-" +
           std::to_string(Counter++);
    Fd = open(Temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
              static_cast<mode_t>(Mode));
    if (Fd < 0 && errno != EEXIST)
      return fail(Path, errno);
  }
  if (Fd < 0)
    return fail(Path, EEXIST);

  const char *P = Text.data();
  size_t Left = Text.size();
  while (Left > 0) {
    ssize_t N = write(Fd, P, Left);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0) {
      int E = N < 0 ? errno : EIO;
      close(Fd);
      unlink(Temp.c_str());
      return fail(Temp, E);
    }
    P += N;
    Left -= static_cast<size_t>(N);
  }
  if (close(Fd) != 0) {
    int E = errno;
    unlink(Temp.c_str());
    return fail(Temp, E);
  }
  if (rename(Temp.c_str(), Path.c_str()) != 0) {
    int E = errno;
    unlink(Temp.c_str());
    return fail(Path, E);
  }
  return true;
}

} // namespace ddtc

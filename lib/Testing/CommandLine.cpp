//===- lib/Testing/CommandLine.cpp - Arguments of the test programs -------===//
#include "ddtc/Testing/CommandLine.h"

#include <cerrno>
#include <cstdlib>

namespace ddtc {

bool parseUnsigned(const char *S, uint64_t &V) {
  if (!*S)
    return false;
  char *End = nullptr;
  errno = 0;
  unsigned long long X = std::strtoull(S, &End, 10);
  if (*End || errno || *S == '-')
    return false;
  V = X;
  return true;
}

} // namespace ddtc

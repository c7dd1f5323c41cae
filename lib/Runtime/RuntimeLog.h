//===- lib/Runtime/RuntimeLog.h - Warnings of the runtime -------*- C++ -*-===//
//
// The runtime never stops a program; what goes wrong is one line on stderr,
// `ddtc-rt: [rank R] warning: ...`, and the program runs on unchanged.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_LIB_RUNTIME_RUNTIMELOG_H
#define DDTC_LIB_RUNTIME_RUNTIMELOG_H

#include <cstdio>
#include <string>

namespace ddtc {

inline void warn(int Rank, const std::string &Message) {
  if (Rank >= 0)
    std::fprintf(stderr, "ddtc-rt: [rank %d] warning: %s\n", Rank,
                 Message.c_str());
  else
    std::fprintf(stderr, "ddtc-rt: warning: %s\n", Message.c_str());
}

} // namespace ddtc

#endif // DDTC_LIB_RUNTIME_RUNTIMELOG_H

//===- ddtc/Testing/CommandLine.h - Arguments of the test programs -*- C++ -*-===//
//
// What the test programs (ddtc-oracle, ddtc-random-corpus) share in reading
// their command lines.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_TESTING_COMMANDLINE_H
#define DDTC_TESTING_COMMANDLINE_H

#include <cstdint>

namespace ddtc {

/// Reads S, all of it, as a decimal unsigned 64-bit integer into V.
/// strtoull alone would take "", "12x", "-1" (as 2^64 - 1) and values
/// beyond 64 bits (as the largest): a count or a seed given wrongly must be
/// a usage error, not a different run.
bool parseUnsigned(const char *S, uint64_t &V);

} // namespace ddtc

#endif // DDTC_TESTING_COMMANDLINE_H

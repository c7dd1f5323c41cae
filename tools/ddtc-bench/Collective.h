//===- tools/ddtc-bench/Collective.h - Agreeing over the ranks --*- C++ -*-===//
//
// Every failure of ddtc-bench must end the run on every rank with the same
// message and status, never with a hang: a rank that fails says so through
// these before anyone leaves.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_BENCH_COLLECTIVE_H
#define DDTC_BENCH_COLLECTIVE_H

#include <mpi.h>

#include <string>

namespace ddtc::bench {

/// Root's S on every rank of Comm.
std::string broadcastString(std::string S, int Root, MPI_Comm Comm);

/// The Err of the lowest rank of MPI_COMM_WORLD whose Err is not empty
/// (prefixed with that rank unless it is rank 0), on every rank; empty if
/// every rank succeeded.
std::string agree(const std::string &Err);

} // namespace ddtc::bench

#endif // DDTC_BENCH_COLLECTIVE_H

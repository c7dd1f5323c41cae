//===- bench/runtime/RtOperations.h - Timed MPI operations ------*- C++ -*-===//
//
// The MPI operations ddtc-rt-pingpong times on a committed type (--op):
// ping-pong with MPI_Send/MPI_Recv or with persistent requests, and the
// collectives MPI_Alltoall, MPI_Alltoallw, MPI_Gather, MPI_Scatter and
// MPI_Neighbor_alltoallw. Each moves one instance of the type per peer per
// call, and has a reference: the same bytes as MPI_BYTE through the same
// operation. Before it is timed, each is checked against what the senders
// sent, computed on the receiving rank from the senders' fill pattern: the
// program must not depend on the runtime to know what it should receive.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_BENCH_RTOPERATIONS_H
#define DDTC_BENCH_RTOPERATIONS_H

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace ddtc {
class Type;
} // namespace ddtc

namespace ddtc::bench {

/// Whether A and B agree at every byte of one instance of T that carries a
/// value (MPI_LONG_DOUBLE's padding bytes are left out: no MPI promises
/// what lands there); A and B point at byte 0 of the typemap.
bool sameData(const Type *T, const uint8_t *A, const uint8_t *B);
/// Zeroes the bytes of one instance of T at Buf, so that a transfer that
/// does not arrive is noticed.
void clearData(const Type *T, uint8_t *Buf);
/// Count elements of T from rank 0 to rank 1 (MPI_Send, MPI_Recv) and
/// back: rank 1 returns them from Recv, where they arrived.
void pingPongOnce(const void *Send, void *Recv, int Count, MPI_Datatype T);

enum class OpKind {
  PingPong,
  PingPongPersistent,
  Alltoall,
  Alltoallw,
  Gather,
  Scatter,
  NeighborAlltoallw,
};

/// The --op names, in the order of OpKind, separated by ", " (for --help).
std::string opNames();
std::optional<OpKind> parseOp(std::string_view Name);
const char *opName(OpKind K);
/// Whether the operation needs exactly two ranks (the ping-pongs).
bool needsTwoRanks(OpKind K);

/// One operation on one type with its buffers, on MPI_COMM_WORLD.
class Operation {
public:
  virtual ~Operation() = default;
  /// One call on the type (Typed) or on the reference, after an
  /// MPI_Barrier of all ranks; this rank's elapsed time in seconds.
  double time(bool Typed);
  /// Clears this rank's receive buffers, calls the typed operation and the
  /// reference once each, and checks what arrived at every typemap
  /// position (of the reference: every byte); empty if all is right, else
  /// what is wrong on this rank.
  std::string check();

protected:
  virtual void call(bool Typed) = 0;
  virtual void clearReceived() = 0;
  virtual std::string verify() = 0;
};

/// The operation K on one instance of T per peer, committed as H; empty
/// with Why set where T cannot take part in K (several instances of T
/// spaced by its extent would overlap in a receive buffer).
std::unique_ptr<Operation> makeOperation(OpKind K, const Type *T,
                                         MPI_Datatype H, std::string &Why);

} // namespace ddtc::bench

#endif // DDTC_BENCH_RTOPERATIONS_H

//===- tools/ddtc-bench/Exchange.h - One operation, every variant -*- C++ -*-===//
//
// The buffers of one (type, count, operation) and the five ways of doing
// the operation with them (docs/cli.md, ddtc-bench):
//
//   reference       the same number of bytes, contiguous, as MPI_BYTE;
//   mpi             the type as the file describes it, built with MPI calls;
//   mpi-normalized  the type ddtc_NAME_build makes (ddtc's normal form);
//   mpi-pack        MPI_Pack / MPI_Unpack with the described type around
//                   contiguous MPI_PACKED communication;
//   ddtc            the emitted kernels around contiguous communication
//                   (a type whose instances are one block, contiguous, is
//                   sent from the typed buffer, as the runtime does);
//                   a message longer than the pipeline's piece (--chunk)
//                   goes as consecutive pieces, each packed with
//                   pack_range just before it is sent and unpacked with
//                   unpack_range as soon as it arrives, so that the
//                   sender's packing, the transfer and the receiver's
//                   unpacking overlap (ping-pong and MPI_Bcast; in
//                   MPI_Allgather, where every rank both packs and
//                   unpacks, the stream is packed and unpacked whole and
//                   only moved in pieces, under the eager limit).
//
// Operations: ping-pong between ranks 0 and 1 (rank 1 returns what it
// received, from its receive buffer; other ranks wait), MPI_Bcast from
// rank 0, MPI_Allgather (every rank contributes `count` instances; the
// receive buffer holds size x count instances, as MPI places them).
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_BENCH_EXCHANGE_H
#define DDTC_BENCH_EXCHANGE_H

#include "BenchOptions.h"
#include "Buffer.h"

#include "ddtc/IR/Type.h"
#include "ddtc/Runtime/KernelABI.h"

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ddtc::bench {

/// A type ready to be measured: its MPI handles (committed) and kernel.
struct TypeUnderTest {
  std::string Name;
  const Type *T = nullptr;
  MPI_Datatype Mpi = MPI_DATATYPE_NULL;
  MPI_Datatype Normalized = MPI_DATATYPE_NULL; ///< null: no build function
  const ddtc_kernel *Kernel = nullptr;         ///< null: no kernel
};

class Exchange {
public:
  /// Why the case cannot be measured (too large for int counts or for
  /// --max-buffer), or nothing. Every rank computes the same verdict.
  static std::optional<std::string> whyNot(const TypeUnderTest &U, Op O,
                                           int64_t Count, int Size,
                                           uint64_t MaxBuffer);

  /// Chunk: the pipeline's piece in bytes (0: one message).
  Exchange(const TypeUnderTest &U, Op O, int64_t Count, int Rank, int Size,
           uint64_t Chunk);

  /// The bytes of one rank's message: count x MPI_Type_size.
  int64_t messageBytes() const { return Bytes; }
  /// Whether V can run for this type (a kernel, a build function).
  bool has(Variant V) const;
  /// Does the operation once with V (collective over MPI_COMM_WORLD).
  void run(Variant V);
  /// The time the ddtc variant spends in its kernels on the operation's
  /// critical path, in microseconds (local; medians of Nrep calls each):
  /// ping-pong 2 x (pack + unpack), MPI_Bcast pack + unpack, MPI_Allgather
  /// pack + unpack of every rank's instances; 0 for a dense type. For
  /// Collective over MPI_COMM_WORLD when kernelsOnEveryRank(); otherwise
  /// rank 0 calls it alone.
  double kernelMicroseconds(int Nrep);
  /// In MPI_Allgather every rank packs and unpacks at the same time, sharing
  /// the last-level cache and the memory with the others: its kernels are
  /// timed so, every rank in step. Elsewhere one rank's kernels run while
  /// the other waits, and rank 0 times them alone.
  bool kernelsOnEveryRank() const { return O == Op::Allgather; }

  /// Correctness, once before timing (local; the caller agrees over the
  /// ranks). resetReceive() refills every receive buffer with its pattern;
  /// after the mpi variant ran, keepOracle() keeps its typed receive
  /// buffer; matchesOracle() compares the typed receive buffer with it,
  /// and referenceArrived() checks the reference variant's bytes.
  void resetReceive();
  void keepOracle();
  bool matchesOracle(std::string &Where) const;
  bool referenceArrived(std::string &Where) const;

private:
  void pingPong(Variant V);
  void sendPacked(uint8_t *Packed, int Peer);
  /// The ddtc variant's pipeline: whether this message goes in pieces,
  /// and piece I's bytes [Lo, Hi) of the packed stream.
  bool pipelined() const {
    return !dense() && Chunk != 0 && uint64_t(Bytes) > Chunk;
  }
  bool dense() const { return U.T->getLayout().isDense(); }
  /// This rank's block of the gathered packed stream (MPI_Allgather).
  uint8_t *ownPackedBlock() { return PackRecv.base() + int64_t(Rank) * Bytes; }
  int pieces() const { return static_cast<int>((Bytes + Chunk - 1) / Chunk); }
  int64_t pieceLo(int I) const { return int64_t(I) * int64_t(Chunk); }
  int64_t pieceHi(int I) const {
    return std::min<int64_t>(Bytes, pieceLo(I) + int64_t(Chunk));
  }
  void sendPieces(const uint8_t *Typed, int Peer);
  void postPieces(int Peer);
  void unpackPieces(uint8_t *Typed);
  void bcast(Variant V);
  void allgather(Variant V);
  MPI_Datatype typeOf(Variant V) const {
    return V == Variant::MpiNormalized ? U.Normalized : U.Mpi;
  }
  int mpiPack(const uint8_t *Typed, uint8_t *Out) const;
  void mpiUnpack(const uint8_t *In, int InBytes, uint8_t *Typed,
                 int Instances) const;

  const TypeUnderTest &U;
  Op O;
  int64_t Count;
  int Rank, Size;
  int64_t Bytes;        ///< Count x size
  uint64_t Chunk;       ///< the pipeline's piece (at most 65,536); 0: none
  int64_t RecvCount;    ///< instances in the typed receive buffer
  int PackCapacity = 0; ///< MPI_Pack_size of Count instances
  int PackedBytes = 0;  ///< what MPI_Pack writes for Count instances
  Buffer TypedSend, TypedRecv, PackSend, PackRecv, RefSend, RefRecv;
  std::vector<uint8_t> Oracle;
  std::vector<MPI_Request> Sends, Recvs; ///< the pipeline's, one per piece
  std::vector<int> GatherCounts, GatherDispls; ///< its MPI_Allgatherv's
};

} // namespace ddtc::bench

#endif // DDTC_BENCH_EXCHANGE_H

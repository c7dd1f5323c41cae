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
// And the others, each a block of `count` instances per peer, the blocks
// of one buffer placed as MPI places them (block i at i x count x extent):
//
//   pingpong-persistent  the ping-pong through MPI_Send_init/MPI_Recv_init,
//                        made once per variant, MPI_Start + MPI_Wait each
//                        time (mpi-pack and ddtc pack and unpack around
//                        requests on their packed buffers);
//   alltoall             MPI_Alltoall, a block to and from every rank;
//   alltoallw            MPI_Alltoallw with the same blocks, byte
//                        displacements and the type for every peer (ddtc
//                        and mpi-pack: MPI_PACKED per peer);
//   gather, scatter      MPI_Gather to and MPI_Scatter from rank 0;
//   neighbor-alltoallw   MPI_Neighbor_alltoallw on the periodic 2-D
//                        Cartesian communicator MPI_Dims_create shapes
//                        (four neighbors, on 2 ranks 2 x 1).
//
// In these the ddtc variant packs every block it sends with one call of
// the kernel (the blocks of a buffer are consecutive instances, so their
// packed streams follow one another) and unpacks every block it receives
// with one, around one contiguous call, as the runtime does
// (lib/Runtime/Collectives*.cpp). They are not pipelined: --chunk applies
// to ping-pong, MPI_Bcast and MPI_Allgather only.
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
#include <iterator>
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
  /// Frees the persistent requests and the Cartesian communicator
  /// (collective, as the constructor is).
  ~Exchange();
  Exchange(const Exchange &) = delete;
  Exchange &operator=(const Exchange &) = delete;

  /// The bytes of one rank's message: count x MPI_Type_size.
  int64_t messageBytes() const { return Bytes; }
  /// Whether V can run for this type (a kernel, a build function).
  bool has(Variant V) const;
  /// Does the operation once with V (collective over MPI_COMM_WORLD).
  void run(Variant V);
  /// The time the ddtc variant spends in its kernels on the operation's
  /// critical path, in microseconds (local; medians of Nrep calls each):
  /// the pack of what rank 0 sends and the unpack of what it receives,
  /// twice in the ping-pongs (ping-pong: 2 x (pack + unpack); MPI_Bcast:
  /// pack + unpack of count; MPI_Allgather, MPI_Gather: pack of count and
  /// unpack of every rank's; MPI_Scatter the reverse; MPI_Alltoall(w) and
  /// MPI_Neighbor_alltoallw: pack and unpack of every block); 0 for a
  /// dense type. Collective over MPI_COMM_WORLD when kernelsOnEveryRank();
  /// otherwise rank 0 calls it alone.
  double kernelMicroseconds(int Nrep);
  /// In MPI_Allgather, MPI_Alltoall(w) and MPI_Neighbor_alltoallw every
  /// rank packs and unpacks at the same time, sharing the last-level cache
  /// and the memory with the others: their kernels are timed so, every
  /// rank in step. Elsewhere one rank's kernels run while the others wait
  /// (or, in MPI_Gather and MPI_Scatter, are as long as the root's or
  /// shorter), and rank 0 times them alone.
  bool kernelsOnEveryRank() const {
    return O == Op::Allgather || O == Op::Alltoall || O == Op::Alltoallw ||
           O == Op::NeighborAlltoallw;
  }

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
  void pingPongPersistent(Variant V);
  void alltoall(Variant V);
  void alltoallw(Variant V);
  void gather(Variant V);
  void scatter(Variant V);
  void neighborAlltoallw(Variant V);
  /// The blocks of this rank's send and receive buffers: count instances
  /// each (alltoall: one per rank; neighbor-alltoallw: one per neighbor).
  int sendBlocks() const { return static_cast<int>(SendCount / Count); }
  int recvBlocks() const { return static_cast<int>(RecvCount / Count); }
  /// The per-peer arguments of MPI_Alltoallw and MPI_Neighbor_alltoallw:
  /// Blocks blocks of Items of D, block i at i x Stride bytes.
  void setBlocks(int Blocks, int Items, MPI_Datatype D, int64_t Stride);
  /// mpi-pack: packs (unpacks) the blocks of the typed buffer one after
  /// another, block i at i x PackedBytes of the packed buffer.
  void mpiPackBlocks(const uint8_t *Typed, int Blocks, Buffer &Out) const;
  void mpiUnpackBlocks(const Buffer &In, int Blocks, uint8_t *Typed) const;
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
  int64_t SendCount;    ///< instances in the typed send buffer
  int64_t RecvCount;    ///< instances in the typed receive buffer
  int PackCapacity = 0; ///< MPI_Pack_size of Count instances
  int PackedBytes = 0;  ///< what MPI_Pack writes for Count instances
  Buffer TypedSend, TypedRecv, PackSend, PackRecv, RefSend, RefRecv;
  std::vector<uint8_t> Oracle;
  std::vector<MPI_Request> Sends, Recvs; ///< the pipeline's, one per piece
  std::vector<int> GatherCounts, GatherDispls; ///< its MPI_Allgatherv's
  /// pingpong-persistent: each variant's send and receive requests, made
  /// by its first run.
  struct Persistent {
    MPI_Request Send = MPI_REQUEST_NULL, Recv = MPI_REQUEST_NULL;
    /// The ddtc variant's send goes in two blocks (ddtc/MPI/SplitSend.h):
    /// each start copies the tail past the gap again after packing.
    bool Split = false;
  };
  Persistent Requests[std::size(AllVariants)];
  /// neighbor-alltoallw: the torus.
  MPI_Comm Cart = MPI_COMM_NULL;
  /// MPI_Alltoallw's and MPI_Neighbor_alltoallw's arguments, the same for
  /// sending and receiving.
  std::vector<int> WCounts, WDispls;
  std::vector<MPI_Aint> WAddrs;
  std::vector<MPI_Datatype> WTypes;
  /// Where each block of the reference receive buffer comes from: a rank
  /// and a block of its reference send buffer; with a second block that
  /// is as good where the sender is this rank's neighbor on both sides (a
  /// dimension of 1 or 2 ranks: libraries differ on which of the two
  /// messages lands in which block).
  struct Source {
    int Rank, Block, OrBlock;
  };
  std::vector<Source> RefSources;
};

} // namespace ddtc::bench

#endif // DDTC_BENCH_EXCHANGE_H

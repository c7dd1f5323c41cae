//===- tools/ddtc-bench/Exchange.cpp - One operation, every variant -------===//

#include "Exchange.h"

#include "ddtc/IR/Predefined.h"
#include "ddtc/IR/TypemapWalker.h"
#include "ddtc/MPI/MPISupport.h"
#include "ddtc/MPI/SplitSend.h"

#include <algorithm>
#include <climits>
#include <cstring>

namespace ddtc::bench {

namespace {

constexpr int Tag = 7;

/// The salts of the buffers' patterns: different per buffer and per rank,
/// so that a block that lands in the wrong place is noticed.
uint64_t typedSendSalt(int Rank) { return 1000 + Rank; }
uint64_t typedRecvSalt(int Rank) { return 2000 + Rank; }
uint64_t refSendSalt(int Rank) { return 3000 + Rank; }
uint64_t refRecvSalt(int Rank) { return 4000 + Rank; }

/// The bytes N instances of T touch, relative to the pointer given to MPI:
/// instance i is i x extent further (the extent may be negative).
struct Span {
  __int128 Lo, Hi;
};
Span spanOf(const Type *T, int64_t N) {
  __int128 Last = static_cast<__int128>(N - 1) * T->extent();
  __int128 Lo = T->trueLb() + std::min<__int128>(0, Last);
  __int128 Hi = T->trueLb() + T->trueExtent() + std::max<__int128>(0, Last);
  return {Lo, Hi};
}

/// The neighbors of a rank on the 2-D torus of neighbor-alltoallw.
constexpr int Neighbors = 4;

/// The blocks of count instances a rank sends from (receives into).
int sendBlocksOf(Op O, int Size) {
  switch (O) {
  case Op::PingPong:
  case Op::PingPongPersistent:
  case Op::Bcast:
  case Op::Allgather:
  case Op::Gather:
    return 1;
  case Op::Alltoall:
  case Op::Alltoallw:
  case Op::Scatter:
    return Size;
  case Op::NeighborAlltoallw:
    return Neighbors;
  }
  return 1;
}

int recvBlocksOf(Op O, int Size) {
  switch (O) {
  case Op::PingPong:
  case Op::PingPongPersistent:
  case Op::Bcast:
  case Op::Scatter:
    return 1;
  case Op::Allgather:
  case Op::Alltoall:
  case Op::Alltoallw:
  case Op::Gather:
    return Size;
  case Op::NeighborAlltoallw:
    return Neighbors;
  }
  return 1;
}

int64_t recvInstances(Op O, int64_t Count, int Size) {
  return Count * recvBlocksOf(O, Size);
}

/// Overwrites with 0 the bytes of N instances of T at Base that carry no
/// value (MPI_LONG_DOUBLE's padding: MPICH's pack leaves them unwritten
/// at times, ddtc's kernels copy them; no MPI promises what lands there).
void clearPadding(const Type *T, int64_t N, uint8_t *Base) {
  forEachPaddingByte(T, static_cast<uint64_t>(N),
                     [&](int64_t Typed, int64_t) { Base[Typed] = 0; });
}

/// Whether the typemap of N instances of T, placed as MPI places them,
/// covers some byte twice. MPI allows such a type for sending only: a
/// receive into it is erroneous and its result up to the library (e.g.
/// MPI_Allgather of a type whose extent is smaller than its data). One bit
/// per byte of the span, set run by run, a word at a time.
bool receiveOverlaps(const Type *T, int64_t N) {
  Span S = spanOf(T, N);
  std::vector<uint64_t> Seen(static_cast<size_t>((S.Hi - S.Lo + 63) / 64));
  TypemapWalker W(T, static_cast<uint64_t>(N), WalkMode::Bytes);
  TypemapRun Run;
  while (W.next(Run)) {
    uint64_t First = static_cast<uint64_t>(Run.Offset - S.Lo);
    uint64_t Last = First + static_cast<uint64_t>(Run.Length); // exclusive
    while (First < Last) {
      uint64_t Bit = First % 64;
      uint64_t Bits = std::min<uint64_t>(64 - Bit, Last - First);
      uint64_t Mask = (Bits == 64 ? ~0ull : ((1ull << Bits) - 1)) << Bit;
      uint64_t &Word = Seen[First / 64];
      if (Word & Mask)
        return true;
      Word |= Mask;
      First += Bits;
    }
  }
  return false;
}

std::string firstDifference(const uint8_t *A, const uint8_t *B, size_t N,
                            int64_t Origin) {
  size_t I = 0;
  while (I < N && A[I] == B[I])
    ++I;
  return "first difference at byte " + std::to_string(Origin + int64_t(I)) +
         " of the receive buffer";
}

} // namespace

//===----------------------------------------------------------------------===//
// Exchange
//===----------------------------------------------------------------------===//

std::optional<std::string> Exchange::whyNot(const TypeUnderTest &U, Op O,
                                            int64_t Count, int Size,
                                            uint64_t MaxBuffer) {
  const Type *T = U.T;
  __int128 Bytes = static_cast<__int128>(Count) * T->size();
  int SendBlocks = sendBlocksOf(O, Size), RecvBlocks = recvBlocksOf(O, Size);
  int Blocks = std::max(SendBlocks, RecvBlocks);
  // Counts and displacements of whole buffers are ints: MPI_Allgatherv's
  // byte displacements of the pipeline, MPI_Alltoallw's of the blocks.
  __int128 Reach = static_cast<__int128>(Count) * Blocks *
                   std::max<int64_t>(T->extent(), -T->extent());
  if (Count > INT_MAX || Bytes * Blocks > INT_MAX ||
      (O == Op::Alltoallw && Reach > INT_MAX))
    return std::string("more than INT_MAX elements or bytes in one call");
  Span Send = spanOf(T, Count * SendBlocks);
  Span Recv = spanOf(T, recvInstances(O, Count, Size));
  __int128 Total = (Send.Hi - Send.Lo) + (Recv.Hi - Recv.Lo) +
                   2 * Bytes * (SendBlocks + RecvBlocks);
  if (Total > static_cast<__int128>(MaxBuffer))
    return "its buffers would take " +
           std::to_string(
               static_cast<long long>(std::min<__int128>(Total, LLONG_MAX))) +
           " bytes, more than --max-buffer " + std::to_string(MaxBuffer);
  if (receiveOverlaps(T, recvInstances(O, Count, Size)))
    return std::string("the receive buffer's typemap (") +
           std::to_string(recvInstances(O, Count, Size)) +
           " instances) covers some bytes twice: MPI allows such a type "
           "for sending only";
  return std::nullopt;
}

/// The pipeline's piece for a message of Bytes: Chunk, or larger where
/// Chunk would make more than MaxPieces pieces (a request each).
static uint64_t pieceBytes(int64_t Bytes, uint64_t Chunk) {
  constexpr uint64_t MaxPieces = 65536;
  if (Chunk == 0)
    return 0;
  return std::max(Chunk, (uint64_t(Bytes) + MaxPieces - 1) / MaxPieces);
}

Exchange::Exchange(const TypeUnderTest &U, Op O, int64_t Count, int Rank,
                   int Size, uint64_t Chunk)
    : U(U), O(O), Count(Count), Rank(Rank), Size(Size),
      Bytes(Count * U.T->size()), Chunk(pieceBytes(Bytes, Chunk)),
      SendCount(Count * sendBlocksOf(O, Size)),
      RecvCount(recvInstances(O, Count, Size)) {
  Span Send = spanOf(U.T, SendCount), Recv = spanOf(U.T, RecvCount);
  TypedSend = Buffer(int64_t(Send.Lo), int64_t(Send.Hi), Buffer::TypedSend);
  TypedRecv = Buffer(int64_t(Recv.Lo), int64_t(Recv.Hi), Buffer::TypedRecv);
  TypedSend.fill(typedSendSalt(Rank));

  MPI_Pack_size(static_cast<int>(Count), U.Mpi, MPI_COMM_WORLD, &PackCapacity);
  int64_t PackBytes = std::max<int64_t>(PackCapacity, Bytes);
  // Room for the ddtc variant's split sends (SplitSend.h) as well.
  PackSend = Buffer(0,
                    PackBytes * sendBlocks() +
                        static_cast<int64_t>(SplitSends::Gap),
                    Buffer::PackedSend);
  PackRecv = Buffer(0, PackBytes * recvBlocks(), Buffer::PackedRecv);
  RefSend = Buffer(0, Bytes * sendBlocks(), Buffer::RefSend);
  RefRecv = Buffer(0, Bytes * recvBlocks(), Buffer::RefRecv);
  RefSend.fill(refSendSalt(Rank));
  // What MPI_Pack writes for Count instances: the length every variant
  // that sends MPI_PACKED sends and unpacks.
  PackedBytes = mpiPack(TypedSend.base(), PackSend.base());
  if (pipelined()) {
    Sends.resize(size_t(pieces()));
    Recvs.resize(size_t(pieces()));
    GatherCounts.resize(size_t(Size));
    GatherDispls.resize(size_t(Size));
  }
  if (O == Op::NeighborAlltoallw) {
    int Dims[2] = {0, 0}, Periods[2] = {1, 1};
    MPI_Dims_create(Size, 2, Dims);
    // Not reordered: a rank of the torus is its rank in MPI_COMM_WORLD,
    // the one whose buffers' salts it has.
    MPI_Cart_create(MPI_COMM_WORLD, 2, Dims, Periods, 0, &Cart);
  }
  if (O == Op::Alltoallw || O == Op::NeighborAlltoallw) {
    size_t Blocks = size_t(sendBlocks());
    WCounts.resize(Blocks);
    WDispls.resize(Blocks);
    WAddrs.resize(Blocks);
    WTypes.resize(Blocks);
  }
  // The reference receive buffer's blocks and where they come from.
  switch (O) {
  case Op::PingPong:
  case Op::PingPongPersistent:
    if (Rank <= 1)
      RefSources = {{0, 0, -1}};
    break;
  case Op::Bcast:
    if (Rank != 0)
      RefSources = {{0, 0, -1}};
    break;
  case Op::Allgather:
    for (int R = 0; R < Size; ++R)
      RefSources.push_back({R, 0, -1});
    break;
  case Op::Gather:
    if (Rank == 0)
      for (int R = 0; R < Size; ++R)
        RefSources.push_back({R, 0, -1});
    break;
  case Op::Scatter:
    RefSources = {{0, Rank, -1}};
    break;
  case Op::Alltoall:
  case Op::Alltoallw:
    for (int R = 0; R < Size; ++R)
      RefSources.push_back({R, Rank, -1});
    break;
  case Op::NeighborAlltoallw:
    // In dimension D, block 2D goes to the lower neighbor and 2D + 1 to
    // the upper one; block 2D receives what the lower neighbor sent
    // upwards, and the reverse (MPI 4.0, 8.6).
    for (int D = 0; D < 2; ++D) {
      int Lower, Upper;
      MPI_Cart_shift(Cart, D, 1, &Lower, &Upper);
      bool Same = Lower == Upper;
      RefSources.push_back({Lower, 2 * D + 1, Same ? 2 * D : -1});
      RefSources.push_back({Upper, 2 * D, Same ? 2 * D + 1 : -1});
    }
    break;
  }
  resetReceive();
}

Exchange::~Exchange() {
  for (Persistent &P : Requests) {
    if (P.Send != MPI_REQUEST_NULL)
      MPI_Request_free(&P.Send);
    if (P.Recv != MPI_REQUEST_NULL)
      MPI_Request_free(&P.Recv);
  }
  if (Cart != MPI_COMM_NULL)
    MPI_Comm_free(&Cart);
}

bool Exchange::has(Variant V) const {
  switch (V) {
  case Variant::MpiNormalized:
    return U.Normalized != MPI_DATATYPE_NULL;
  case Variant::Ddtc:
    return U.Kernel != nullptr;
  default:
    return true;
  }
}

int Exchange::mpiPack(const uint8_t *Typed, uint8_t *Out) const {
  int Position = 0;
  MPI_Pack(Typed, static_cast<int>(Count), U.Mpi, Out, PackCapacity, &Position,
           MPI_COMM_WORLD);
  return Position;
}

void Exchange::mpiUnpack(const uint8_t *In, int InBytes, uint8_t *Typed,
                         int Instances) const {
  int Position = 0;
  MPI_Unpack(In, InBytes, &Position, Typed, Instances, U.Mpi, MPI_COMM_WORLD);
}

void Exchange::run(Variant V) {
  switch (O) {
  case Op::PingPong:
    return pingPong(V);
  case Op::Bcast:
    return bcast(V);
  case Op::Allgather:
    return allgather(V);
  case Op::PingPongPersistent:
    return pingPongPersistent(V);
  case Op::Alltoall:
    return alltoall(V);
  case Op::Alltoallw:
    return alltoallw(V);
  case Op::Gather:
    return gather(V);
  case Op::Scatter:
    return scatter(V);
  case Op::NeighborAlltoallw:
    return neighborAlltoallw(V);
  }
}

void Exchange::pingPong(Variant V) {
  if (Rank > 1)
    return;
  const int Peer = 1 - Rank;
  const int N = static_cast<int>(Count), B = static_cast<int>(Bytes);
  MPI_Comm W = MPI_COMM_WORLD;
  MPI_Status *Ignore = MPI_STATUS_IGNORE;
  // Rank 0 sends its data and receives them back; rank 1 receives and
  // returns what it received, from its receive buffer.
  // Sends and returns (Items, D) from the buffers Send and Recv at Lb.
  auto Bounce = [&](Buffer &Send, Buffer &Recv, int Items, MPI_Datatype D,
                    int64_t Lb) {
    uint8_t *In = Recv.base() + Lb;
    if (Rank == 0) {
      MPI_Send(Send.base() + Lb, Items, D, Peer, Tag, W);
      MPI_Recv(In, Items, D, Peer, Tag, W, Ignore);
    } else {
      MPI_Recv(In, Items, D, Peer, Tag, W, Ignore);
      MPI_Send(In, Items, D, Peer, Tag, W);
    }
  };
  switch (V) {
  case Variant::Reference:
    return Bounce(RefSend, RefRecv, B, MPI_BYTE, 0);
  case Variant::Mpi:
  case Variant::MpiNormalized:
    return Bounce(TypedSend, TypedRecv, N, typeOf(V), 0);
  case Variant::MpiPack:
    if (Rank == 0) {
      int Len = mpiPack(TypedSend.base(), PackSend.base());
      MPI_Send(PackSend.base(), Len, MPI_PACKED, Peer, Tag, W);
      MPI_Recv(PackRecv.base(), PackedBytes, MPI_PACKED, Peer, Tag, W, Ignore);
      mpiUnpack(PackRecv.base(), PackedBytes, TypedRecv.base(), N);
    } else {
      MPI_Recv(PackRecv.base(), PackedBytes, MPI_PACKED, Peer, Tag, W, Ignore);
      mpiUnpack(PackRecv.base(), PackedBytes, TypedRecv.base(), N);
      int Len = mpiPack(TypedRecv.base(), PackSend.base());
      MPI_Send(PackSend.base(), Len, MPI_PACKED, Peer, Tag, W);
    }
    return;
  case Variant::Ddtc: {
    if (dense()) // the instances are one block: sent from where they are
      return Bounce(TypedSend, TypedRecv, B, MPI_BYTE, U.T->trueLb());
    if (pipelined()) {
      // The receiver posts its receives first, so that no piece waits in
      // MPI's unexpected queue; rank 0 posts its own after its sends, which
      // complete (under the eager limit) before rank 1 returns anything.
      if (Rank == 0) {
        sendPieces(TypedSend.base(), Peer);
        postPieces(Peer);
        unpackPieces(TypedRecv.base());
      } else {
        postPieces(Peer);
        unpackPieces(TypedRecv.base());
        sendPieces(TypedRecv.base(), Peer);
      }
      return;
    }
    const ddtc_kernel &K = *U.Kernel;
    size_t C = static_cast<size_t>(Count);
    if (Rank == 0) {
      K.pack(TypedSend.base(), C, PackSend.base());
      sendPacked(PackSend.base(), Peer);
      MPI_Recv(PackRecv.base(), B, MPI_PACKED, Peer, Tag, W, Ignore);
      K.unpack(PackRecv.base(), C, TypedRecv.base());
    } else {
      MPI_Recv(PackRecv.base(), B, MPI_PACKED, Peer, Tag, W, Ignore);
      K.unpack(PackRecv.base(), C, TypedRecv.base());
      K.pack(TypedRecv.base(), C, PackSend.base());
      sendPacked(PackSend.base(), Peer);
    }
    return;
  }
  }
}

/// The ddtc variant's send of its packed bytes at Packed: as the runtime
/// sends them, in two blocks where MPICH would otherwise wait for a
/// rendezvous (ddtc/MPI/SplitSend.h), else contiguous.
void Exchange::sendPacked(uint8_t *Packed, int Peer) {
  auto [N, Ty] = SplitSends::get().wire(reinterpret_cast<char *>(Packed),
                                        static_cast<uint64_t>(Bytes));
  DDTC_MPI_COUNT_FN(MPI_Send)(Packed, countArg(N), Ty, Peer, Tag,
                              MPI_COMM_WORLD);
}

/// The pipeline (Exchange.h): piece I is packed just before it is sent,
/// while the pieces before it are on their way or being unpacked. The
/// pieces are sent non-blocking from their own places in the send buffer,
/// so that none waits for the receiver; under the eager limit a send
/// completes as soon as MPI has copied it.
void Exchange::sendPieces(const uint8_t *Typed, int Peer) {
  const ddtc_kernel &K = *U.Kernel;
  size_t C = static_cast<size_t>(Count);
  for (int I = 0; I < pieces(); ++I) {
    int64_t Lo = pieceLo(I), Hi = pieceHi(I);
    K.pack_range(Typed, C, size_t(Lo), size_t(Hi), PackSend.base() + Lo);
    MPI_Isend(PackSend.base() + Lo, int(Hi - Lo), MPI_PACKED, Peer, Tag,
              MPI_COMM_WORLD, &Sends[size_t(I)]);
  }
  MPI_Waitall(pieces(), Sends.data(), MPI_STATUSES_IGNORE);
}

void Exchange::postPieces(int Peer) {
  for (int I = 0; I < pieces(); ++I) {
    int64_t Lo = pieceLo(I), Hi = pieceHi(I);
    MPI_Irecv(PackRecv.base() + Lo, int(Hi - Lo), MPI_PACKED, Peer, Tag,
              MPI_COMM_WORLD, &Recvs[size_t(I)]);
  }
}

/// Unpacks each piece as soon as it has arrived (in order: MPI does not
/// let messages of one sender and tag overtake each other).
void Exchange::unpackPieces(uint8_t *Typed) {
  const ddtc_kernel &K = *U.Kernel;
  size_t C = static_cast<size_t>(Count);
  for (int I = 0; I < pieces(); ++I) {
    int64_t Lo = pieceLo(I), Hi = pieceHi(I);
    MPI_Wait(&Recvs[size_t(I)], MPI_STATUS_IGNORE);
    K.unpack_range(PackRecv.base() + Lo, C, size_t(Lo), size_t(Hi), Typed);
  }
}

void Exchange::bcast(Variant V) {
  const int N = static_cast<int>(Count), B = static_cast<int>(Bytes);
  const bool Root = Rank == 0;
  MPI_Comm W = MPI_COMM_WORLD;
  switch (V) {
  case Variant::Reference:
    MPI_Bcast(Root ? RefSend.base() : RefRecv.base(), B, MPI_BYTE, 0, W);
    return;
  case Variant::Mpi:
  case Variant::MpiNormalized:
    MPI_Bcast(Root ? TypedSend.base() : TypedRecv.base(), N, typeOf(V), 0, W);
    return;
  case Variant::MpiPack:
    if (Root) {
      int Len = mpiPack(TypedSend.base(), PackSend.base());
      MPI_Bcast(PackSend.base(), Len, MPI_PACKED, 0, W);
    } else {
      MPI_Bcast(PackRecv.base(), PackedBytes, MPI_PACKED, 0, W);
      mpiUnpack(PackRecv.base(), PackedBytes, TypedRecv.base(), N);
    }
    return;
  case Variant::Ddtc:
    if (dense()) {
      uint8_t *Typed = (Root ? TypedSend : TypedRecv).base() + U.T->trueLb();
      MPI_Bcast(Typed, B, MPI_BYTE, 0, W);
      return;
    }
    if (pipelined()) {
      // Piece by piece: the root packs the next piece while the others
      // unpack the last one.
      size_t C = size_t(Count);
      for (int I = 0; I < pieces(); ++I) {
        int64_t Lo = pieceLo(I), Hi = pieceHi(I);
        uint8_t *Piece = (Root ? PackSend : PackRecv).base() + Lo;
        if (Root)
          U.Kernel->pack_range(TypedSend.base(), C, size_t(Lo), size_t(Hi),
                               Piece);
        MPI_Bcast(Piece, int(Hi - Lo), MPI_BYTE, 0, W);
        if (!Root)
          U.Kernel->unpack_range(Piece, C, size_t(Lo), size_t(Hi),
                                 TypedRecv.base());
      }
      return;
    }
    if (Root) {
      U.Kernel->pack(TypedSend.base(), size_t(Count), PackSend.base());
      MPI_Bcast(PackSend.base(), B, MPI_BYTE, 0, W);
    } else {
      MPI_Bcast(PackRecv.base(), B, MPI_BYTE, 0, W);
      U.Kernel->unpack(PackRecv.base(), size_t(Count), TypedRecv.base());
    }
    return;
  }
}

/// The most pieces MPI_Allgather is split into (Exchange::allgather).
constexpr int MaxGatherPieces = 4;

void Exchange::allgather(Variant V) {
  const int N = static_cast<int>(Count), B = static_cast<int>(Bytes);
  MPI_Comm W = MPI_COMM_WORLD;
  switch (V) {
  case Variant::Reference:
    MPI_Allgather(RefSend.base(), B, MPI_BYTE, RefRecv.base(), B, MPI_BYTE, W);
    return;
  case Variant::Mpi:
  case Variant::MpiNormalized: {
    MPI_Datatype D = typeOf(V);
    MPI_Allgather(TypedSend.base(), N, D, TypedRecv.base(), N, D, W);
    return;
  }
  case Variant::MpiPack: {
    int Len = mpiPack(TypedSend.base(), PackSend.base());
    MPI_Allgather(PackSend.base(), Len, MPI_PACKED, PackRecv.base(), Len,
                  MPI_PACKED, W);
    // Each rank's packed block unpacked where MPI_Allgather would have
    // placed that rank's instances, continuing through one buffer.
    int Position = 0;
    for (int R = 0; R < Size; ++R)
      MPI_Unpack(PackRecv.base(), Len * Size, &Position,
                 TypedRecv.base() + int64_t(R) * Count * U.T->extent(), N,
                 U.Mpi, W);
    return;
  }
  case Variant::Ddtc:
    if (dense()) {
      // Rank r's instances start r x count x extent = r x B bytes further.
      MPI_Allgather(TypedSend.base() + U.T->trueLb(), B, MPI_BYTE,
                    TypedRecv.base() + U.T->trueLb(), B, MPI_BYTE, W);
      return;
    }
    if (pipelined() && pieces() <= MaxGatherPieces) {
      // Every rank packs and unpacks, so nothing overlaps: the stream is
      // packed whole and unpacked whole by the fast kernels (the range
      // functions walk tables without prefetching), and only moved in
      // pieces, each rank's piece I where it lies in the gathered stream,
      // so that no piece waits for a rendezvous. Only a few pieces: each
      // MPI_Allgatherv costs a call, and beyond four the corpus types (55
      // to 300 KB) lost more in calls than the rendezvous costs
      // (docs/performance.md).
      // Each rank packs into its own place in the gathered stream and
      // gathers in place, as the runtime does (lib/Runtime/Collectives.cpp):
      // MPI then has no block of its own to copy.
      std::vector<int> &Counts = GatherCounts, &Displs = GatherDispls;
      U.Kernel->pack(TypedSend.base(), size_t(Count), ownPackedBlock());
      for (int I = 0; I < pieces(); ++I) {
        int64_t Lo = pieceLo(I), Hi = pieceHi(I);
        for (int R = 0; R < Size; ++R) {
          Counts[size_t(R)] = int(Hi - Lo);
          Displs[size_t(R)] = int(int64_t(R) * Bytes + Lo);
        }
        MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, PackRecv.base(),
                       Counts.data(), Displs.data(), MPI_BYTE, W);
      }
      U.Kernel->unpack(PackRecv.base(), size_t(RecvCount), TypedRecv.base());
      return;
    }
    // The ranks' packed blocks, one after another, are the packed stream
    // of size x count instances: one unpack places them all.
    U.Kernel->pack(TypedSend.base(), size_t(Count), ownPackedBlock());
    MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, PackRecv.base(), B,
                  MPI_BYTE, W);
    U.Kernel->unpack(PackRecv.base(), size_t(RecvCount), TypedRecv.base());
    return;
  }
}

//===----------------------------------------------------------------------===//
// The operations beyond seed 000's: no pipeline (Exchange.h)
//===----------------------------------------------------------------------===//

void Exchange::mpiPackBlocks(const uint8_t *Typed, int Blocks,
                             Buffer &Out) const {
  // Position runs on through the buffer: block i lands at i x PackedBytes.
  int Position = 0;
  int Room = static_cast<int>(std::min<size_t>(Out.bytes(), INT_MAX));
  for (int I = 0; I < Blocks; ++I)
    MPI_Pack(Typed + int64_t(I) * Count * U.T->extent(),
             static_cast<int>(Count), U.Mpi, Out.base(), Room, &Position,
             MPI_COMM_WORLD);
}

void Exchange::mpiUnpackBlocks(const Buffer &In, int Blocks,
                               uint8_t *Typed) const {
  int Position = 0;
  for (int I = 0; I < Blocks; ++I)
    MPI_Unpack(In.base(), PackedBytes * Blocks, &Position,
               Typed + int64_t(I) * Count * U.T->extent(),
               static_cast<int>(Count), U.Mpi, MPI_COMM_WORLD);
}

void Exchange::setBlocks(int Blocks, int Items, MPI_Datatype D,
                         int64_t Stride) {
  for (int I = 0; I < Blocks; ++I) {
    WCounts[size_t(I)] = Items;
    // whyNot refused a reach beyond INT_MAX for MPI_Alltoallw's ints.
    WDispls[size_t(I)] = static_cast<int>(I * Stride);
    WAddrs[size_t(I)] = static_cast<MPI_Aint>(I * Stride);
    WTypes[size_t(I)] = D;
  }
}

void Exchange::pingPongPersistent(Variant V) {
  if (Rank > 1)
    return;
  const int Peer = 1 - Rank;
  const int N = static_cast<int>(Count), B = static_cast<int>(Bytes);
  MPI_Comm W = MPI_COMM_WORLD;
  Persistent &P = Requests[size_t(V)];
  const bool Packs = V == Variant::MpiPack || (V == Variant::Ddtc && !dense());
  if (P.Send == MPI_REQUEST_NULL) {
    // As in the ping-pong, rank 1 returns what it received from its
    // receive buffer.
    auto Make = [&](Buffer &Send, Buffer &Recv, int Items, MPI_Datatype D,
                    int64_t Lb) {
      uint8_t *In = Recv.base() + Lb;
      MPI_Send_init(Rank == 0 ? Send.base() + Lb : In, Items, D, Peer, Tag, W,
                    &P.Send);
      MPI_Recv_init(In, Items, D, Peer, Tag, W, &P.Recv);
    };
    switch (V) {
    case Variant::Reference:
      Make(RefSend, RefRecv, B, MPI_BYTE, 0);
      break;
    case Variant::Mpi:
    case Variant::MpiNormalized:
      Make(TypedSend, TypedRecv, N, typeOf(V), 0);
      break;
    case Variant::MpiPack:
    case Variant::Ddtc:
      if (!Packs) { // dense: from where the instances are
        Make(TypedSend, TypedRecv, B, MPI_BYTE, U.T->trueLb());
        break;
      }
      // Both sides pack into their packed send buffer, whichever rank;
      // ddtc's send goes as the runtime's persistent sends do, in two
      // blocks in the split window.
      int Len = V == Variant::MpiPack ? PackedBytes : B;
      SplitSends::Wire Wire{Len, MPI_PACKED};
      if (V == Variant::Ddtc)
        Wire = SplitSends::get().wire(reinterpret_cast<char *>(PackSend.base()),
                                      static_cast<uint64_t>(Bytes));
      P.Split = Wire.Type != MPI_PACKED;
      DDTC_MPI_COUNT_FN(MPI_Send_init)(PackSend.base(), countArg(Wire.Count),
                                       Wire.Type, Peer, Tag, W, &P.Send);
      MPI_Recv_init(PackRecv.base(), Len, MPI_PACKED, Peer, Tag, W, &P.Recv);
      break;
    }
  }
  auto Complete = [](MPI_Request &R) {
    MPI_Start(&R);
    MPI_Wait(&R, MPI_STATUS_IGNORE);
  };
  auto Pack = [&](const uint8_t *Typed) {
    if (V == Variant::MpiPack) {
      mpiPack(Typed, PackSend.base());
      return;
    }
    U.Kernel->pack(Typed, size_t(Count), PackSend.base());
    if (P.Split)
      SplitSends::get().copyTail(reinterpret_cast<char *>(PackSend.base()),
                                 static_cast<uint64_t>(Bytes));
  };
  auto Unpack = [&] {
    if (V == Variant::MpiPack)
      mpiUnpack(PackRecv.base(), PackedBytes, TypedRecv.base(), N);
    else
      U.Kernel->unpack(PackRecv.base(), size_t(Count), TypedRecv.base());
  };
  if (Rank == 0) {
    if (Packs)
      Pack(TypedSend.base());
    Complete(P.Send);
    Complete(P.Recv);
    if (Packs)
      Unpack();
  } else {
    Complete(P.Recv);
    if (Packs) {
      Unpack();
      Pack(TypedRecv.base());
    }
    Complete(P.Send);
  }
}

void Exchange::alltoall(Variant V) {
  const int N = static_cast<int>(Count), B = static_cast<int>(Bytes);
  MPI_Comm W = MPI_COMM_WORLD;
  switch (V) {
  case Variant::Reference:
    MPI_Alltoall(RefSend.base(), B, MPI_BYTE, RefRecv.base(), B, MPI_BYTE, W);
    return;
  case Variant::Mpi:
  case Variant::MpiNormalized: {
    MPI_Datatype D = typeOf(V);
    MPI_Alltoall(TypedSend.base(), N, D, TypedRecv.base(), N, D, W);
    return;
  }
  case Variant::MpiPack:
    mpiPackBlocks(TypedSend.base(), Size, PackSend);
    MPI_Alltoall(PackSend.base(), PackedBytes, MPI_PACKED, PackRecv.base(),
                 PackedBytes, MPI_PACKED, W);
    mpiUnpackBlocks(PackRecv, Size, TypedRecv.base());
    return;
  case Variant::Ddtc:
    if (dense()) {
      // Block r starts r x count x extent = r x B bytes further.
      MPI_Alltoall(TypedSend.base() + U.T->trueLb(), B, MPI_BYTE,
                   TypedRecv.base() + U.T->trueLb(), B, MPI_BYTE, W);
      return;
    }
    U.Kernel->pack(TypedSend.base(), size_t(SendCount), PackSend.base());
    MPI_Alltoall(PackSend.base(), B, MPI_BYTE, PackRecv.base(), B, MPI_BYTE, W);
    U.Kernel->unpack(PackRecv.base(), size_t(RecvCount), TypedRecv.base());
    return;
  }
}

void Exchange::alltoallw(Variant V) {
  const int N = static_cast<int>(Count), B = static_cast<int>(Bytes);
  MPI_Comm W = MPI_COMM_WORLD;
  auto Call = [&](const uint8_t *Send, uint8_t *Recv) {
    MPI_Alltoallw(Send, WCounts.data(), WDispls.data(), WTypes.data(), Recv,
                  WCounts.data(), WDispls.data(), WTypes.data(), W);
  };
  switch (V) {
  case Variant::Reference:
    setBlocks(Size, B, MPI_BYTE, Bytes);
    return Call(RefSend.base(), RefRecv.base());
  case Variant::Mpi:
  case Variant::MpiNormalized:
    setBlocks(Size, N, typeOf(V), Count * U.T->extent());
    return Call(TypedSend.base(), TypedRecv.base());
  case Variant::MpiPack:
    mpiPackBlocks(TypedSend.base(), Size, PackSend);
    setBlocks(Size, PackedBytes, MPI_PACKED, PackedBytes);
    Call(PackSend.base(), PackRecv.base());
    mpiUnpackBlocks(PackRecv, Size, TypedRecv.base());
    return;
  case Variant::Ddtc:
    if (dense()) {
      setBlocks(Size, B, MPI_BYTE, Bytes);
      return Call(TypedSend.base() + U.T->trueLb(),
                  TypedRecv.base() + U.T->trueLb());
    }
    U.Kernel->pack(TypedSend.base(), size_t(SendCount), PackSend.base());
    setBlocks(Size, B, MPI_PACKED, Bytes);
    Call(PackSend.base(), PackRecv.base());
    U.Kernel->unpack(PackRecv.base(), size_t(RecvCount), TypedRecv.base());
    return;
  }
}

void Exchange::gather(Variant V) {
  const int N = static_cast<int>(Count), B = static_cast<int>(Bytes);
  const bool Root = Rank == 0;
  MPI_Comm W = MPI_COMM_WORLD;
  switch (V) {
  case Variant::Reference:
    MPI_Gather(RefSend.base(), B, MPI_BYTE, RefRecv.base(), B, MPI_BYTE, 0, W);
    return;
  case Variant::Mpi:
  case Variant::MpiNormalized: {
    MPI_Datatype D = typeOf(V);
    MPI_Gather(TypedSend.base(), N, D, TypedRecv.base(), N, D, 0, W);
    return;
  }
  case Variant::MpiPack: {
    int Len = mpiPack(TypedSend.base(), PackSend.base());
    MPI_Gather(PackSend.base(), Len, MPI_PACKED, PackRecv.base(), Len,
               MPI_PACKED, 0, W);
    if (Root)
      mpiUnpackBlocks(PackRecv, Size, TypedRecv.base());
    return;
  }
  case Variant::Ddtc:
    if (dense()) {
      MPI_Gather(TypedSend.base() + U.T->trueLb(), B, MPI_BYTE,
                 TypedRecv.base() + U.T->trueLb(), B, MPI_BYTE, 0, W);
      return;
    }
    if (!Root) {
      U.Kernel->pack(TypedSend.base(), size_t(Count), PackSend.base());
      MPI_Gather(PackSend.base(), B, MPI_BYTE, PackRecv.base(), B, MPI_BYTE, 0,
                 W);
      return;
    }
    // The root packs into its own block of the gathered stream and
    // gathers in place, as the runtime does: MPI has no block of its own
    // to copy, and one unpack places every rank's instances.
    U.Kernel->pack(TypedSend.base(), size_t(Count), PackRecv.base());
    MPI_Gather(MPI_IN_PLACE, 0, MPI_BYTE, PackRecv.base(), B, MPI_BYTE, 0, W);
    U.Kernel->unpack(PackRecv.base(), size_t(RecvCount), TypedRecv.base());
    return;
  }
}

void Exchange::scatter(Variant V) {
  const int N = static_cast<int>(Count), B = static_cast<int>(Bytes);
  const bool Root = Rank == 0;
  MPI_Comm W = MPI_COMM_WORLD;
  switch (V) {
  case Variant::Reference:
    MPI_Scatter(RefSend.base(), B, MPI_BYTE, RefRecv.base(), B, MPI_BYTE, 0, W);
    return;
  case Variant::Mpi:
  case Variant::MpiNormalized: {
    MPI_Datatype D = typeOf(V);
    MPI_Scatter(TypedSend.base(), N, D, TypedRecv.base(), N, D, 0, W);
    return;
  }
  case Variant::MpiPack:
    if (Root)
      mpiPackBlocks(TypedSend.base(), Size, PackSend);
    MPI_Scatter(PackSend.base(), PackedBytes, MPI_PACKED, PackRecv.base(),
                PackedBytes, MPI_PACKED, 0, W);
    mpiUnpack(PackRecv.base(), PackedBytes, TypedRecv.base(), N);
    return;
  case Variant::Ddtc:
    if (dense()) {
      MPI_Scatter(TypedSend.base() + U.T->trueLb(), B, MPI_BYTE,
                  TypedRecv.base() + U.T->trueLb(), B, MPI_BYTE, 0, W);
      return;
    }
    if (!Root) {
      MPI_Scatter(PackSend.base(), B, MPI_BYTE, PackRecv.base(), B, MPI_BYTE,
                  0, W);
      U.Kernel->unpack(PackRecv.base(), size_t(Count), TypedRecv.base());
      return;
    }
    // One pack of every block; the root's own block stays where it was
    // packed (in place) and is unpacked from there.
    U.Kernel->pack(TypedSend.base(), size_t(SendCount), PackSend.base());
    MPI_Scatter(PackSend.base(), B, MPI_BYTE, MPI_IN_PLACE, B, MPI_BYTE, 0, W);
    U.Kernel->unpack(PackSend.base(), size_t(Count), TypedRecv.base());
    return;
  }
}

void Exchange::neighborAlltoallw(Variant V) {
  const int N = static_cast<int>(Count), B = static_cast<int>(Bytes);
  auto Call = [&](const uint8_t *Send, uint8_t *Recv) {
    MPI_Neighbor_alltoallw(Send, WCounts.data(), WAddrs.data(), WTypes.data(),
                           Recv, WCounts.data(), WAddrs.data(), WTypes.data(),
                           Cart);
  };
  switch (V) {
  case Variant::Reference:
    setBlocks(Neighbors, B, MPI_BYTE, Bytes);
    return Call(RefSend.base(), RefRecv.base());
  case Variant::Mpi:
  case Variant::MpiNormalized:
    setBlocks(Neighbors, N, typeOf(V), Count * U.T->extent());
    return Call(TypedSend.base(), TypedRecv.base());
  case Variant::MpiPack:
    mpiPackBlocks(TypedSend.base(), Neighbors, PackSend);
    setBlocks(Neighbors, PackedBytes, MPI_PACKED, PackedBytes);
    Call(PackSend.base(), PackRecv.base());
    mpiUnpackBlocks(PackRecv, Neighbors, TypedRecv.base());
    return;
  case Variant::Ddtc:
    if (dense()) {
      setBlocks(Neighbors, B, MPI_BYTE, Bytes);
      return Call(TypedSend.base() + U.T->trueLb(),
                  TypedRecv.base() + U.T->trueLb());
    }
    U.Kernel->pack(TypedSend.base(), size_t(SendCount), PackSend.base());
    setBlocks(Neighbors, B, MPI_PACKED, Bytes);
    Call(PackSend.base(), PackRecv.base());
    U.Kernel->unpack(PackRecv.base(), size_t(RecvCount), TypedRecv.base());
    return;
  }
}

double Exchange::kernelMicroseconds(int Nrep) {
  if (dense()) // no kernel on the path
    return 0;
  std::vector<double> Pack(Nrep), Unpack(Nrep);
  for (int I = 0; I < Nrep; ++I) {
    if (kernelsOnEveryRank()) // in step, as the operation runs them
      MPI_Barrier(MPI_COMM_WORLD);
    double Start = MPI_Wtime();
    U.Kernel->pack(TypedSend.base(), size_t(SendCount), PackSend.base());
    double Middle = MPI_Wtime();
    U.Kernel->unpack(PackRecv.base(), size_t(RecvCount), TypedRecv.base());
    Pack[I] = Middle - Start;
    Unpack[I] = MPI_Wtime() - Middle;
  }
  auto median = [](std::vector<double> V) {
    std::sort(V.begin(), V.end());
    return V[V.size() / 2];
  };
  double Both = (median(Pack) + median(Unpack)) * 1e6;
  return O == Op::PingPong || O == Op::PingPongPersistent ? 2 * Both : Both;
}

//===----------------------------------------------------------------------===//
// Correctness
//===----------------------------------------------------------------------===//

void Exchange::resetReceive() {
  TypedRecv.fill(typedRecvSalt(Rank));
  RefRecv.fill(refRecvSalt(Rank));
}

void Exchange::keepOracle() {
  Oracle.assign(TypedRecv.begin(), TypedRecv.begin() + TypedRecv.bytes());
}

bool Exchange::matchesOracle(std::string &Where) const {
  size_t N = TypedRecv.bytes();
  if (std::memcmp(TypedRecv.begin(), Oracle.data(), N) == 0)
    return true;
  // Equal but for the padding of long doubles is equal.
  std::vector<uint8_t> Mine(TypedRecv.begin(), TypedRecv.begin() + N);
  std::vector<uint8_t> Theirs = Oracle;
  ptrdiff_t Shift = TypedRecv.base() - TypedRecv.begin();
  clearPadding(U.T, RecvCount, Mine.data() + Shift);
  clearPadding(U.T, RecvCount, Theirs.data() + Shift);
  if (Mine == Theirs)
    return true;
  Where = firstDifference(Mine.data(), Theirs.data(), N, -Shift);
  return false;
}

bool Exchange::referenceArrived(std::string &Where) const {
  auto expected = [&](int From) {
    Buffer B(0, Bytes * sendBlocks(), Buffer::RefSend);
    B.fill(refSendSalt(From));
    return B;
  };
  for (size_t Block = 0; Block < RefSources.size(); ++Block) {
    const Source &S = RefSources[Block];
    Buffer Sent = expected(S.Rank);
    const uint8_t *Got = RefRecv.base() + int64_t(Block) * Bytes;
    const uint8_t *Want = Sent.base() + int64_t(S.Block) * Bytes;
    if (std::memcmp(Got, Want, size_t(Bytes)) == 0)
      continue;
    if (S.OrBlock >= 0 &&
        std::memcmp(Got, Sent.base() + int64_t(S.OrBlock) * Bytes,
                    size_t(Bytes)) == 0)
      continue;
    Where = firstDifference(Got, Want, size_t(Bytes), int64_t(Block) * Bytes);
    return false;
  }
  return true;
}

} // namespace ddtc::bench

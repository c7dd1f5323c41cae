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

int64_t recvInstances(Op O, int64_t Count, int Size) {
  return O == Op::Allgather ? Count * Size : Count;
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
  __int128 Gathered = O == Op::Allgather ? Bytes * Size : Bytes;
  if (Count > INT_MAX || Gathered > INT_MAX)
    return std::string("more than INT_MAX elements or bytes in one call");
  Span Send = spanOf(T, Count);
  Span Recv = spanOf(T, recvInstances(O, Count, Size));
  __int128 Total =
      (Send.Hi - Send.Lo) + (Recv.Hi - Recv.Lo) + 2 * (Bytes + Gathered);
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
      RecvCount(recvInstances(O, Count, Size)) {
  Span Send = spanOf(U.T, Count), Recv = spanOf(U.T, RecvCount);
  TypedSend = Buffer(int64_t(Send.Lo), int64_t(Send.Hi), Buffer::TypedSend);
  TypedRecv = Buffer(int64_t(Recv.Lo), int64_t(Recv.Hi), Buffer::TypedRecv);
  TypedSend.fill(typedSendSalt(Rank));

  MPI_Pack_size(static_cast<int>(Count), U.Mpi, MPI_COMM_WORLD, &PackCapacity);
  int64_t Gather = O == Op::Allgather ? Size : 1;
  int64_t PackBytes = std::max<int64_t>(PackCapacity, Bytes);
  // Room for the ddtc variant's split sends (SplitSend.h) as well.
  PackSend = Buffer(0, PackBytes + static_cast<int64_t>(SplitSends::Gap),
                    Buffer::PackedSend);
  PackRecv = Buffer(0, PackBytes * Gather, Buffer::PackedRecv);
  RefSend = Buffer(0, Bytes, Buffer::RefSend);
  RefRecv = Buffer(0, Bytes * Gather, Buffer::RefRecv);
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
  resetReceive();
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

double Exchange::kernelMicroseconds(int Nrep) {
  if (dense()) // no kernel on the path
    return 0;
  std::vector<double> Pack(Nrep), Unpack(Nrep);
  for (int I = 0; I < Nrep; ++I) {
    if (kernelsOnEveryRank()) // in step, as the operation runs them
      MPI_Barrier(MPI_COMM_WORLD);
    double Start = MPI_Wtime();
    U.Kernel->pack(TypedSend.base(), size_t(Count), PackSend.base());
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
  return O == Op::PingPong ? 2 * Both : Both;
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
  // Which rank's RefSend each block of RefRecv must hold, if any.
  std::vector<int> From;
  if (O == Op::PingPong && Rank <= 1)
    From = {0};
  else if (O == Op::Bcast && Rank != 0)
    From = {0};
  else if (O == Op::Allgather)
    for (int R = 0; R < Size; ++R)
      From.push_back(R);
  for (size_t Block = 0; Block < From.size(); ++Block) {
    Buffer Expected(0, Bytes, Buffer::RefSend);
    Expected.fill(refSendSalt(From[Block]));
    const uint8_t *Got = RefRecv.base() + Block * Bytes;
    if (std::memcmp(Got, Expected.base(), size_t(Bytes)) != 0) {
      Where = firstDifference(Got, Expected.base(), size_t(Bytes),
                              int64_t(Block) * Bytes);
      return false;
    }
  }
  return true;
}

} // namespace ddtc::bench

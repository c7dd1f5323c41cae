//===- lib/Runtime/Collectives.cpp - Substituted MPI_Bcast and MPI_Allgather ===//
//
// A collective must move the same representation on every rank: one rank
// sending MPI_PACKED bytes while another receives with its derived type is
// outside what MPI defines for collectives. Asking the other ranks whether
// they have a kernel would cost a collective per call, so instead, while
// substitution is on (the same on every rank: RuntimeState.h), every rank
// always moves packed bytes: with its kernel when it has one, without a
// copy when its type is contiguous, and otherwise with MPI's own
// MPI_Pack/MPI_Unpack -- what MPICH does inside the collective anyway for a
// non-contiguous type. Intercommunicators pass through on every rank.
//
//===----------------------------------------------------------------------===//
#include "BufferPool.h"
#include "Packing.h"
#include "RuntimeState.h"

#include "ddtc/MPI/MPISupport.h"

#define DDTC_EXPORT extern "C" __attribute__((visibility("default")))

using namespace ddtc;

namespace {

bool substitutesCollective(MPI_Comm Comm) {
  if (!runtime().Active.load(std::memory_order_relaxed))
    return false;
  int Inter = 0;
  PMPI_Comm_test_inter(Comm, &Inter);
  return !Inter;
}

/// Counts a derived type's use in a collective, substituted or not.
void noteUse(const BindingRef &B, uint64_t Bytes) {
  if (!B)
    return;
  if (B->isBound())
    runtime().noteSubstituted(*B, Bytes);
  else
    runtime().notePassed(*B);
}

char *at(void *Buf, int64_t Offset) {
  return static_cast<char *>(Buf) + Offset;
}

/// MPI_Allgather of Block packed bytes per rank into Out, from Mine or
/// MPI_IN_PLACE; Block is at most MaxMPICount.
int allgatherPacked(const void *Mine, char *Out, MPI_Count Block,
                    MPI_Comm Comm) {
  bool InPlace = Mine == MPI_IN_PLACE;
  return DDTC_MPI_COUNT_FN(PMPI_Allgather)(
      Mine, InPlace ? 0 : countArg(Block),
      InPlace ? MPI_DATATYPE_NULL : MPI_PACKED, Out, countArg(Block),
      MPI_PACKED, Comm);
}

} // namespace

DDTC_EXPORT int MPI_Bcast(void *buffer, int count, MPI_Datatype datatype,
                          int root, MPI_Comm comm) {
  CallScope Scope(SubstitutedCall::Bcast);
  if (!substitutesCollective(comm))
    return PMPI_Bcast(buffer, count, datatype, root, comm);
  BindingRef B = runtime().Bindings.lookup(datatype);
  PackedLayout L = getPackedLayout(B.get(), datatype);
  MPI_Count Bytes = static_cast<MPI_Count>(count * L.Size);
  noteUse(B, static_cast<uint64_t>(Bytes));
  // More bytes than the library's count type holds (an MPI 3.1 library):
  // MPI's own path, on every rank alike, since Bytes is the same on all.
  if (Bytes > MaxMPICount)
    return PMPI_Bcast(buffer, count, datatype, root, comm);
  if (L.Contiguous || Bytes == 0)
    return DDTC_MPI_COUNT_FN(PMPI_Bcast)(at(buffer, L.Lb), countArg(Bytes),
                                         MPI_PACKED, root, comm);
  // Too large to stage: MPI's own path, on every rank alike (the byte
  // count is the same everywhere, the signatures matching).
  if (static_cast<size_t>(Bytes) > BufferPool::get().maxBytes()) {
    if (B)
      runtime().notePassed(*B);
    return PMPI_Bcast(buffer, count, datatype, root, comm);
  }
  int Rank = 0;
  PMPI_Comm_rank(comm, &Rank);
  PooledBuffer Packed(static_cast<size_t>(Bytes));
  if (!Packed.data())
    return MPI_ERR_NO_MEM;
  if (Rank == root)
    if (int Rc = packAny(B.get(), datatype, buffer, count, Packed.data(), comm))
      return Rc;
  int Rc = DDTC_MPI_COUNT_FN(PMPI_Bcast)(Packed.data(), countArg(Bytes),
                                         MPI_PACKED, root, comm);
  if (Rc == MPI_SUCCESS && Rank != root)
    Rc =
        unpackAny(B.get(), datatype, Packed.data(), Bytes, buffer, count, comm);
  return Rc;
}

DDTC_EXPORT int MPI_Allgather(const void *sendbuf, int sendcount,
                              MPI_Datatype sendtype, void *recvbuf,
                              int recvcount, MPI_Datatype recvtype,
                              MPI_Comm comm) {
  CallScope Scope(SubstitutedCall::Allgather);
  if (!substitutesCollective(comm))
    return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                          recvtype, comm);
  int Rank = 0, Size = 0;
  PMPI_Comm_rank(comm, &Rank);
  PMPI_Comm_size(comm, &Size);
  BindingRef RB = runtime().Bindings.lookup(recvtype);
  PackedLayout RL = getPackedLayout(RB.get(), recvtype);
  // Every rank's block, packed: the signatures match, so this is also the
  // size of what each rank sends.
  MPI_Count Block = static_cast<MPI_Count>(recvcount * RL.Size);
  int64_t BlockStride = recvcount * RL.Extent;
  bool InPlace = sendbuf == MPI_IN_PLACE;
  noteUse(RB, static_cast<uint64_t>(Block) * Size);
  if (Block > MaxMPICount)
    return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                          recvtype, comm);

  // Where this rank's block comes from: its send buffer, or its block of
  // the receive buffer in place.
  BindingRef SB = InPlace ? RB : runtime().Bindings.lookup(sendtype);
  if (!InPlace)
    noteUse(SB, static_cast<uint64_t>(Block));
  const void *Mine = InPlace ? at(recvbuf, Rank * BlockStride) : sendbuf;
  MPI_Datatype MineType = InPlace ? recvtype : sendtype;
  MPI_Count MineCount = InPlace ? recvcount : sendcount;
  PackedLayout SL = getPackedLayout(SB.get(), MineType);

  // A contiguous receive type: blocks land in place, packed bytes being
  // the memory; only this rank's own block may need packing.
  if (RL.Contiguous && RL.Extent == static_cast<int64_t>(RL.Size)) {
    char *Base = at(recvbuf, RL.Lb);
    if (InPlace)
      return allgatherPacked(MPI_IN_PLACE, Base, Block, comm);
    if (SL.Contiguous)
      return allgatherPacked(at(const_cast<void *>(sendbuf), SL.Lb), Base,
                             Block, comm);
    if (int Rc = packAny(SB.get(), sendtype, sendbuf, sendcount,
                         Base + Rank * Block, comm))
      return Rc;
    return allgatherPacked(MPI_IN_PLACE, Base, Block, comm);
  }

  if (static_cast<size_t>(Block) * Size > BufferPool::get().maxBytes()) {
    if (RB)
      runtime().notePassed(*RB);
    return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                          recvtype, comm);
  }
  PooledBuffer Packed(static_cast<size_t>(Block) * Size);
  if (!Packed.data())
    return MPI_ERR_NO_MEM;
  char *MineOut = Packed.data() + Rank * Block;
  if (int Rc = packAny(SB.get(), MineType, Mine, MineCount, MineOut, comm))
    return Rc;
  int Rc = allgatherPacked(MPI_IN_PLACE, Packed.data(), Block, comm);
  for (int I = 0; I < Size && Rc == MPI_SUCCESS; ++I)
    if (I != Rank || !InPlace)
      Rc = unpackAny(RB.get(), recvtype, Packed.data() + I * Block, Block,
                     at(recvbuf, I * BlockStride), recvcount, comm);
  return Rc;
}

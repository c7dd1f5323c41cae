//===- lib/Runtime/Collectives.cpp - Substituted collectives of equal blocks ===//
//
// The ranks of a collective must hand MPI matching type signatures:
// collective algorithms forward, split and combine blocks by the type each
// rank gives, and MPI_PACKED's licence to match any signature is point to
// point's only. Where a type's signature is of one predefined type
// (CollectiveType::OneElement), packed data are that many elements of it,
// so each rank decides alone whether to pack a call: it makes the call as
// written where all its sides are best left to MPI (leavesAsWritten), and
// otherwise packs and hands MPI the elements. Where a signature mixes
// predefined types, every rank moves MPI_PACKED bytes while substitution
// is on (the same on every rank: RuntimeState.h): with its kernel when it
// has one, without a copy when its type is dense, and otherwise with MPI's
// own MPI_Pack/MPI_Unpack -- what MPICH does inside the collective anyway
// for a non-contiguous type. Asking the other ranks whether they have a
// kernel would cost a collective per call. Intercommunicators pass through
// on every rank.
//
// The collectives here move blocks of one size on every rank (Bcast,
// Gather, Scatter, Allgather, Alltoall), so the decision to leave a call to
// MPI for its size -- a block beyond the library's count type, or staging
// beyond the pool's bound -- is the same on every rank too. The v- and
// w-forms are in CollectivesV.cpp, the neighborhood collectives in
// NeighborCollectives.cpp.
//
//===----------------------------------------------------------------------===//
#include "CollectiveStage.h"

#include "BufferPool.h"
#include "PersistentCollectives.h"
#include "RuntimeState.h"

#define DDTC_EXPORT extern "C" __attribute__((visibility("default")))

using namespace ddtc;

namespace {

char *at(const void *Buf, int64_t Offset) {
  return const_cast<char *>(static_cast<const char *>(Buf)) + Offset;
}

/// Whether a collective of Blocks blocks of Block packed bytes per rank is
/// left to MPI: a block beyond the library's count type (an MPI 3.1
/// library), or staging (a send and a receive side at most) beyond the
/// pool's bound. Every rank computes the same answer.
bool leftToMPI(uint64_t Block, int Blocks) {
  if (Block > static_cast<uint64_t>(MaxMPICount))
    return true;
  uint64_t Max = BufferPool::get().maxBytes();
  return Block != 0 && static_cast<uint64_t>(Blocks) * 2 > Max / Block;
}

/// One side of a collective of equal blocks: N blocks of Count instances of
/// C, block I at Buf + I * Count * extent.
struct Blocks {
  const CollectiveType &C;
  void *Buf;
  MPI_Count Count;
  int N;

  char *block(int I) const { return at(Buf, I * Count * C.L.Extent); }
  /// The side's blocks as packed bytes in the program's buffer.
  char *asPacked() const { return at(Buf, C.L.Lb); }
};

/// Packs the blocks of Side but block Skip to the stage at Offset.
int packBlocks(CollectiveStage &S, const Blocks &Side, uint64_t Block,
               size_t Offset, int Skip = -1) {
  for (int I = 0; I < Side.N; ++I)
    if (I != Skip)
      if (int Rc =
              S.pack(Side.C, Side.block(I), Side.Count, Offset + I * Block))
        return Rc;
  return MPI_SUCCESS;
}

void unpackBlocksLater(CollectiveStage &S, const Blocks &Side, uint64_t Block,
                       size_t Offset, int Skip = -1) {
  for (int I = 0; I < Side.N; ++I)
    if (I != Skip)
      S.unpackLater(Side.C, Side.block(I), Side.Count, Offset + I * Block);
}

/// The packed buffer MPI sends Side's blocks from: the program's buffer
/// if dense, else the stage at Offset, packed now (but block Skip).
char *sendSide(CollectiveStage &S, const Blocks &Side, uint64_t Block,
               size_t Offset, int &Rc, int Skip = -1) {
  if (Side.C.dense())
    return Side.asPacked();
  Rc = packBlocks(S, Side, Block, Offset, Skip);
  return S.data() + Offset;
}

/// The packed buffer MPI receives Side's blocks into: the program's
/// buffer if dense, else the stage at Offset, unpacked at completion (but
/// block Skip).
char *receiveSide(CollectiveStage &S, const Blocks &Side, uint64_t Block,
                  size_t Offset, int Skip = -1) {
  if (Side.C.dense())
    return Side.asPacked();
  unpackBlocksLater(S, Side, Block, Offset, Skip);
  return S.data() + Offset;
}

/// Staging for a side, none if it is dense.
size_t sideBytes(uint64_t Block, const Blocks &Side) {
  return Side.C.dense() ? 0 : static_cast<size_t>(Block) * Side.N;
}

/// Staging for a send and a receive side, the receive side's from
/// ReceiveOffset.
size_t stagedBytes(uint64_t Block, const Blocks &Send, const Blocks &Receive,
                   size_t &ReceiveOffset) {
  ReceiveOffset = receiveStart(sideBytes(Block, Send));
  size_t Received = sideBytes(Block, Receive);
  return Received ? ReceiveOffset + Received : sideBytes(Block, Send);
}

template <typename CountT>
int bcast(void *Buf, CountT Count, MPI_Datatype T, int Root, MPI_Comm Comm,
          const CollectiveCall &How) {
  auto Plain = [&] {
    return callCollective(
        How, DDTC_COLLECTIVE_FNS_OF(CountT, PMPI_Bcast, PMPI_Ibcast), Buf,
        Count, T, Root, Comm);
  };
  if (!substitutesCollective(Comm))
    return Plain();
  CollectiveType C = describeCollectiveType(T);
  uint64_t Block = C.bytes(Count);
  bool Left = leavesAsWritten(C, Count) || leftToMPI(Block, 1);
  noteCollectiveUse(How, C, Block, Left);
  if (Left)
    return Plain();
  int Rank = 0;
  PMPI_Comm_rank(Comm, &Rank);
  Blocks Side{C, Buf, Count, 1};
  auto S = std::make_unique<CollectiveStage>(Comm, How.persistent());
  if (!S->reserve(sideBytes(Block, Side)))
    return MPI_ERR_NO_MEM;
  int Rc = MPI_SUCCESS;
  char *Packed = Rank == Root ? sendSide(*S, Side, Block, 0, Rc)
                              : receiveSide(*S, Side, Block, 0);
  if (Rc != MPI_SUCCESS)
    return Rc;
  MPICount N = C.elements(Block);
  return runStaged(std::move(S), How, [&] {
    return callCollective(How,
                          DDTC_PACKED_COLLECTIVE_FNS(PMPI_Bcast, PMPI_Ibcast),
                          Packed, N, C.Element, Root, Comm);
  });
}

template <typename CountT>
int gather(const void *SBuf, CountT SCount, MPI_Datatype ST, void *RBuf,
           CountT RCount, MPI_Datatype RT, int Root, MPI_Comm Comm,
           const CollectiveCall &How) {
  auto Plain = [&] {
    return callCollective(
        How, DDTC_COLLECTIVE_FNS_OF(CountT, PMPI_Gather, PMPI_Igather), SBuf,
        SCount, ST, RBuf, RCount, RT, Root, Comm);
  };
  if (!substitutesCollective(Comm))
    return Plain();
  int Rank = 0, Size = 0;
  PMPI_Comm_rank(Comm, &Rank);
  bool IsRoot = Rank == Root;
  bool InPlace = IsRoot && SBuf == MPI_IN_PLACE;
  // The receive arguments count at the root only, the send ones on every
  // rank but an in-place root; both give the same block size.
  CollectiveType SC, RC;
  if (!InPlace)
    SC = describeCollectiveType(ST);
  if (IsRoot)
    RC = describeCollectiveType(RT);
  uint64_t Block = IsRoot ? RC.bytes(RCount) : SC.bytes(SCount);
  bool Left = (InPlace || leavesAsWritten(SC, SCount)) &&
              (!IsRoot || leavesAsWritten(RC, RCount));
  // The size only where the types leave it in doubt.
  if (!Left) {
    PMPI_Comm_size(Comm, &Size);
    Left = leftToMPI(Block, Size);
  }
  if (!InPlace)
    noteCollectiveUse(How, SC, Block, Left);
  if (IsRoot)
    noteCollectiveUse(How, RC, Block * Size, Left);
  if (Left)
    return Plain();

  Blocks Mine{SC, const_cast<void *>(SBuf), SCount, InPlace ? 0 : 1};
  Blocks All{RC, RBuf, RCount, IsRoot ? Size : 0};
  auto S = std::make_unique<CollectiveStage>(Comm, How.persistent());
  size_t RecvOffset = 0;
  if (!S->reserve(stagedBytes(Block, Mine, All, RecvOffset)))
    return MPI_ERR_NO_MEM;
  int Rc = MPI_SUCCESS;
  const void *SPacked = MPI_IN_PLACE;
  if (!InPlace)
    SPacked = sendSide(*S, Mine, Block, 0, Rc);
  char *RPacked = nullptr;
  if (IsRoot) {
    // In place, the root's block is where the program put it.
    RPacked = receiveSide(*S, All, Block, RecvOffset, InPlace ? Root : -1);
  }
  if (Rc != MPI_SUCCESS)
    return Rc;
  return runStaged(std::move(S), How, [&] {
    return callCollective(How,
                          DDTC_PACKED_COLLECTIVE_FNS(PMPI_Gather, PMPI_Igather),
                          SPacked, InPlace ? 0 : SC.elements(Block), SC.Element,
                          RPacked, RC.elements(Block), RC.Element, Root, Comm);
  });
}

template <typename CountT>
int scatter(const void *SBuf, CountT SCount, MPI_Datatype ST, void *RBuf,
            CountT RCount, MPI_Datatype RT, int Root, MPI_Comm Comm,
            const CollectiveCall &How) {
  auto Plain = [&] {
    return callCollective(
        How, DDTC_COLLECTIVE_FNS_OF(CountT, PMPI_Scatter, PMPI_Iscatter), SBuf,
        SCount, ST, RBuf, RCount, RT, Root, Comm);
  };
  if (!substitutesCollective(Comm))
    return Plain();
  int Rank = 0, Size = 0;
  PMPI_Comm_rank(Comm, &Rank);
  bool IsRoot = Rank == Root;
  bool InPlace = IsRoot && RBuf == MPI_IN_PLACE;
  CollectiveType SC, RC;
  if (IsRoot)
    SC = describeCollectiveType(ST);
  if (!InPlace)
    RC = describeCollectiveType(RT);
  uint64_t Block = IsRoot ? SC.bytes(SCount) : RC.bytes(RCount);
  bool Left = (!IsRoot || leavesAsWritten(SC, SCount)) &&
              (InPlace || leavesAsWritten(RC, RCount));
  if (!Left) {
    PMPI_Comm_size(Comm, &Size);
    Left = leftToMPI(Block, Size);
  }
  if (IsRoot)
    noteCollectiveUse(How, SC, Block * Size, Left);
  if (!InPlace)
    noteCollectiveUse(How, RC, Block, Left);
  if (Left)
    return Plain();

  Blocks All{SC, const_cast<void *>(SBuf), SCount, IsRoot ? Size : 0};
  Blocks Mine{RC, RBuf, RCount, InPlace ? 0 : 1};
  auto S = std::make_unique<CollectiveStage>(Comm, How.persistent());
  size_t RecvOffset = 0;
  if (!S->reserve(stagedBytes(Block, All, Mine, RecvOffset)))
    return MPI_ERR_NO_MEM;
  int Rc = MPI_SUCCESS;
  const char *SPacked = nullptr;
  // In place, the root's block stays where it is.
  if (IsRoot)
    SPacked = sendSide(*S, All, Block, 0, Rc, InPlace ? Root : -1);
  void *RPacked = MPI_IN_PLACE;
  if (!InPlace)
    RPacked = receiveSide(*S, Mine, Block, RecvOffset);
  if (Rc != MPI_SUCCESS)
    return Rc;
  return runStaged(std::move(S), How, [&] {
    return callCollective(
        How, DDTC_PACKED_COLLECTIVE_FNS(PMPI_Scatter, PMPI_Iscatter), SPacked,
        SC.elements(Block), SC.Element, RPacked,
        InPlace ? 0 : RC.elements(Block), RC.Element, Root, Comm);
  });
}

/// Allgather and Alltoall: every rank receives Size blocks, and sends one
/// block (Allgather) or Size (Alltoall); in place, a rank's send blocks
/// are in its receive buffer (Allgather: its own block of it).
template <typename CountT, typename PlainFns, typename PackedFns>
int everyToEvery(const void *SBuf, CountT SCount, MPI_Datatype ST, void *RBuf,
                 CountT RCount, MPI_Datatype RT, MPI_Comm Comm,
                 const CollectiveCall &How, bool ToEvery, PlainFns Fns,
                 PackedFns Packed) {
  auto Plain = [&] {
    return callCollective(How, Fns, SBuf, SCount, ST, RBuf, RCount, RT, Comm);
  };
  // Every argument counts on every rank, on an intercommunicator too: the
  // types are described before asking MPI anything, and a call whose types
  // are best left to MPI (most calls) is made without a query of MPI.
  if (!collectivesActive())
    return Plain();
  bool InPlace = SBuf == MPI_IN_PLACE;
  CollectiveType RC = describeCollectiveType(RT);
  CollectiveType SC = InPlace ? RC : describeCollectiveType(ST);
  // The signatures match: a block has the same packed size on every rank.
  uint64_t Block = RC.bytes(RCount);
  if (leavesAsWritten(RC, RCount) && (InPlace || leavesAsWritten(SC, SCount))) {
    noteCollectiveUse(How, RC, Block, /*Left=*/true);
    if (!InPlace)
      noteCollectiveUse(How, SC, Block, /*Left=*/true);
    return Plain();
  }
  if (isIntercommunicator(Comm))
    return Plain();
  int Rank = 0, Size = 0;
  PMPI_Comm_rank(Comm, &Rank);
  PMPI_Comm_size(Comm, &Size);
  int SendBlocks = ToEvery ? Size : 1;
  bool Left = leftToMPI(Block, Size);
  noteCollectiveUse(How, RC, Block * Size, Left);
  if (!InPlace)
    noteCollectiveUse(How, SC, Block * SendBlocks, Left);
  if (Left)
    return Plain();

  Blocks Received{RC, RBuf, RCount, Size};
  auto S = std::make_unique<CollectiveStage>(Comm, How.persistent());
  int Rc = MPI_SUCCESS;
  const void *SPacked = MPI_IN_PLACE;
  char *RPacked = nullptr;
  if (InPlace) {
    // MPI takes the send blocks from the receive buffer: packed there
    // first, where that is not the program's buffer. Allgather's only
    // send block is the rank's own, which MPI leaves in place.
    if (!S->reserve(sideBytes(Block, Received)))
      return MPI_ERR_NO_MEM;
    RPacked = receiveSide(*S, Received, Block, 0, ToEvery ? -1 : Rank);
    if (!RC.dense())
      Rc = ToEvery ? packBlocks(*S, Received, Block, 0)
                   : S->pack(RC, Received.block(Rank), RCount, Rank * Block);
  } else {
    Blocks Sent{SC, const_cast<void *>(SBuf), SCount, SendBlocks};
    size_t RecvOffset = 0;
    if (!S->reserve(stagedBytes(Block, Sent, Received, RecvOffset)))
      return MPI_ERR_NO_MEM;
    SPacked = sendSide(*S, Sent, Block, 0, Rc);
    RPacked = receiveSide(*S, Received, Block, RecvOffset);
  }
  if (Rc != MPI_SUCCESS)
    return Rc;
  MPICount SN = InPlace ? 0 : SC.elements(Block);
  MPI_Datatype SType = InPlace ? MPI_DATATYPE_NULL : SC.Element;
  return runStaged(std::move(S), How, [&] {
    return callCollective(How, Packed, SPacked, SN, SType, RPacked,
                          RC.elements(Block), RC.Element, Comm);
  });
}

template <typename CountT>
int allgather(const void *SBuf, CountT SCount, MPI_Datatype ST, void *RBuf,
              CountT RCount, MPI_Datatype RT, MPI_Comm Comm,
              const CollectiveCall &How) {
  return everyToEvery(
      SBuf, SCount, ST, RBuf, RCount, RT, Comm, How, /*ToEvery=*/false,
      DDTC_COLLECTIVE_FNS_OF(CountT, PMPI_Allgather, PMPI_Iallgather),
      DDTC_PACKED_COLLECTIVE_FNS(PMPI_Allgather, PMPI_Iallgather));
}

template <typename CountT>
int alltoall(const void *SBuf, CountT SCount, MPI_Datatype ST, void *RBuf,
             CountT RCount, MPI_Datatype RT, MPI_Comm Comm,
             const CollectiveCall &How) {
  return everyToEvery(
      SBuf, SCount, ST, RBuf, RCount, RT, Comm, How, /*ToEvery=*/true,
      DDTC_COLLECTIVE_FNS_OF(CountT, PMPI_Alltoall, PMPI_Ialltoall),
      DDTC_PACKED_COLLECTIVE_FNS(PMPI_Alltoall, PMPI_Ialltoall));
}

} // namespace

DDTC_EXPORT int MPI_Bcast(void *buffer, int count, MPI_Datatype datatype,
                          int root, MPI_Comm comm) {
  CallScope Scope(SubstitutedCall::Bcast);
  return bcast(buffer, count, datatype, root, comm, {});
}

DDTC_EXPORT int MPI_Ibcast(void *buffer, int count, MPI_Datatype datatype,
                           int root, MPI_Comm comm, MPI_Request *request) {
  CallScope Scope(SubstitutedCall::Ibcast);
  return bcast(buffer, count, datatype, root, comm, {request});
}

DDTC_EXPORT int MPI_Gather(const void *sendbuf, int sendcount,
                           MPI_Datatype sendtype, void *recvbuf, int recvcount,
                           MPI_Datatype recvtype, int root, MPI_Comm comm) {
  CallScope Scope(SubstitutedCall::Gather);
  return gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                root, comm, {});
}

DDTC_EXPORT int MPI_Igather(const void *sendbuf, int sendcount,
                            MPI_Datatype sendtype, void *recvbuf, int recvcount,
                            MPI_Datatype recvtype, int root, MPI_Comm comm,
                            MPI_Request *request) {
  CallScope Scope(SubstitutedCall::Igather);
  return gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                root, comm, {request});
}

DDTC_EXPORT int MPI_Scatter(const void *sendbuf, int sendcount,
                            MPI_Datatype sendtype, void *recvbuf, int recvcount,
                            MPI_Datatype recvtype, int root, MPI_Comm comm) {
  CallScope Scope(SubstitutedCall::Scatter);
  return scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                 root, comm, {});
}

DDTC_EXPORT int MPI_Iscatter(const void *sendbuf, int sendcount,
                             MPI_Datatype sendtype, void *recvbuf,
                             int recvcount, MPI_Datatype recvtype, int root,
                             MPI_Comm comm, MPI_Request *request) {
  CallScope Scope(SubstitutedCall::Iscatter);
  return scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                 root, comm, {request});
}

DDTC_EXPORT int MPI_Allgather(const void *sendbuf, int sendcount,
                              MPI_Datatype sendtype, void *recvbuf,
                              int recvcount, MPI_Datatype recvtype,
                              MPI_Comm comm) {
  CallScope Scope(SubstitutedCall::Allgather);
  return allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                   comm, {});
}

DDTC_EXPORT int MPI_Iallgather(const void *sendbuf, int sendcount,
                               MPI_Datatype sendtype, void *recvbuf,
                               int recvcount, MPI_Datatype recvtype,
                               MPI_Comm comm, MPI_Request *request) {
  CallScope Scope(SubstitutedCall::Iallgather);
  return allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                   comm, {request});
}

DDTC_EXPORT int MPI_Alltoall(const void *sendbuf, int sendcount,
                             MPI_Datatype sendtype, void *recvbuf,
                             int recvcount, MPI_Datatype recvtype,
                             MPI_Comm comm) {
  CallScope Scope(SubstitutedCall::Alltoall);
  return alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                  comm, {});
}

DDTC_EXPORT int MPI_Ialltoall(const void *sendbuf, int sendcount,
                              MPI_Datatype sendtype, void *recvbuf,
                              int recvcount, MPI_Datatype recvtype,
                              MPI_Comm comm, MPI_Request *request) {
  CallScope Scope(SubstitutedCall::Ialltoall);
  return alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                  comm, {request});
}

#if DDTC_MPI_4_CALLS
DDTC_EXPORT int MPI_Bcast_init(void *buffer, int count, MPI_Datatype datatype,
                               int root, MPI_Comm comm, MPI_Info info,
                               MPI_Request *request) {
  CallScope Scope(SubstitutedCall::BcastInit);
  return initPersistentCollective(
      info, request, [&](const CollectiveCall &How) {
        return bcast(buffer, count, datatype, root, comm, How);
      });
}

DDTC_EXPORT int MPI_Gather_init(const void *sendbuf, int sendcount,
                                MPI_Datatype sendtype, void *recvbuf,
                                int recvcount, MPI_Datatype recvtype, int root,
                                MPI_Comm comm, MPI_Info info,
                                MPI_Request *request) {
  CallScope Scope(SubstitutedCall::GatherInit);
  return initPersistentCollective(
      info, request, [&](const CollectiveCall &How) {
        return gather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                      recvtype, root, comm, How);
      });
}

DDTC_EXPORT int MPI_Scatter_init(const void *sendbuf, int sendcount,
                                 MPI_Datatype sendtype, void *recvbuf,
                                 int recvcount, MPI_Datatype recvtype, int root,
                                 MPI_Comm comm, MPI_Info info,
                                 MPI_Request *request) {
  CallScope Scope(SubstitutedCall::ScatterInit);
  return initPersistentCollective(
      info, request, [&](const CollectiveCall &How) {
        return scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                       recvtype, root, comm, How);
      });
}

DDTC_EXPORT int MPI_Allgather_init(const void *sendbuf, int sendcount,
                                   MPI_Datatype sendtype, void *recvbuf,
                                   int recvcount, MPI_Datatype recvtype,
                                   MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request) {
  CallScope Scope(SubstitutedCall::AllgatherInit);
  return initPersistentCollective(
      info, request, [&](const CollectiveCall &How) {
        return allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                         recvtype, comm, How);
      });
}

DDTC_EXPORT int MPI_Alltoall_init(const void *sendbuf, int sendcount,
                                  MPI_Datatype sendtype, void *recvbuf,
                                  int recvcount, MPI_Datatype recvtype,
                                  MPI_Comm comm, MPI_Info info,
                                  MPI_Request *request) {
  CallScope Scope(SubstitutedCall::AlltoallInit);
  return initPersistentCollective(
      info, request, [&](const CollectiveCall &How) {
        return alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                        recvtype, comm, How);
      });
}
#endif

#if DDTC_MPI_LARGE_COUNT
DDTC_EXPORT int MPI_Bcast_c(void *buffer, MPI_Count count,
                            MPI_Datatype datatype, int root, MPI_Comm comm) {
  CallScope Scope(SubstitutedCall::Bcast);
  return bcast(buffer, count, datatype, root, comm, {});
}

DDTC_EXPORT int MPI_Ibcast_c(void *buffer, MPI_Count count,
                             MPI_Datatype datatype, int root, MPI_Comm comm,
                             MPI_Request *request) {
  CallScope Scope(SubstitutedCall::Ibcast);
  return bcast(buffer, count, datatype, root, comm, {request});
}

DDTC_EXPORT int MPI_Gather_c(const void *sendbuf, MPI_Count sendcount,
                             MPI_Datatype sendtype, void *recvbuf,
                             MPI_Count recvcount, MPI_Datatype recvtype,
                             int root, MPI_Comm comm) {
  CallScope Scope(SubstitutedCall::Gather);
  return gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                root, comm, {});
}

DDTC_EXPORT int MPI_Igather_c(const void *sendbuf, MPI_Count sendcount,
                              MPI_Datatype sendtype, void *recvbuf,
                              MPI_Count recvcount, MPI_Datatype recvtype,
                              int root, MPI_Comm comm, MPI_Request *request) {
  CallScope Scope(SubstitutedCall::Igather);
  return gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                root, comm, {request});
}

DDTC_EXPORT int MPI_Scatter_c(const void *sendbuf, MPI_Count sendcount,
                              MPI_Datatype sendtype, void *recvbuf,
                              MPI_Count recvcount, MPI_Datatype recvtype,
                              int root, MPI_Comm comm) {
  CallScope Scope(SubstitutedCall::Scatter);
  return scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                 root, comm, {});
}

DDTC_EXPORT int MPI_Iscatter_c(const void *sendbuf, MPI_Count sendcount,
                               MPI_Datatype sendtype, void *recvbuf,
                               MPI_Count recvcount, MPI_Datatype recvtype,
                               int root, MPI_Comm comm, MPI_Request *request) {
  CallScope Scope(SubstitutedCall::Iscatter);
  return scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                 root, comm, {request});
}

DDTC_EXPORT int MPI_Allgather_c(const void *sendbuf, MPI_Count sendcount,
                                MPI_Datatype sendtype, void *recvbuf,
                                MPI_Count recvcount, MPI_Datatype recvtype,
                                MPI_Comm comm) {
  CallScope Scope(SubstitutedCall::Allgather);
  return allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                   comm, {});
}

DDTC_EXPORT int MPI_Iallgather_c(const void *sendbuf, MPI_Count sendcount,
                                 MPI_Datatype sendtype, void *recvbuf,
                                 MPI_Count recvcount, MPI_Datatype recvtype,
                                 MPI_Comm comm, MPI_Request *request) {
  CallScope Scope(SubstitutedCall::Iallgather);
  return allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                   comm, {request});
}

DDTC_EXPORT int MPI_Alltoall_c(const void *sendbuf, MPI_Count sendcount,
                               MPI_Datatype sendtype, void *recvbuf,
                               MPI_Count recvcount, MPI_Datatype recvtype,
                               MPI_Comm comm) {
  CallScope Scope(SubstitutedCall::Alltoall);
  return alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                  comm, {});
}

DDTC_EXPORT int MPI_Ialltoall_c(const void *sendbuf, MPI_Count sendcount,
                                MPI_Datatype sendtype, void *recvbuf,
                                MPI_Count recvcount, MPI_Datatype recvtype,
                                MPI_Comm comm, MPI_Request *request) {
  CallScope Scope(SubstitutedCall::Ialltoall);
  return alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                  comm, {request});
}
#endif

#if DDTC_MPI_LARGE_COUNT && DDTC_MPI_4_CALLS
DDTC_EXPORT int MPI_Bcast_init_c(void *buffer, MPI_Count count,
                                 MPI_Datatype datatype, int root, MPI_Comm comm,
                                 MPI_Info info, MPI_Request *request) {
  CallScope Scope(SubstitutedCall::BcastInit);
  return initPersistentCollective(
      info, request, [&](const CollectiveCall &How) {
        return bcast(buffer, count, datatype, root, comm, How);
      });
}

DDTC_EXPORT int MPI_Gather_init_c(const void *sendbuf, MPI_Count sendcount,
                                  MPI_Datatype sendtype, void *recvbuf,
                                  MPI_Count recvcount, MPI_Datatype recvtype,
                                  int root, MPI_Comm comm, MPI_Info info,
                                  MPI_Request *request) {
  CallScope Scope(SubstitutedCall::GatherInit);
  return initPersistentCollective(
      info, request, [&](const CollectiveCall &How) {
        return gather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                      recvtype, root, comm, How);
      });
}

DDTC_EXPORT int MPI_Scatter_init_c(const void *sendbuf, MPI_Count sendcount,
                                   MPI_Datatype sendtype, void *recvbuf,
                                   MPI_Count recvcount, MPI_Datatype recvtype,
                                   int root, MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request) {
  CallScope Scope(SubstitutedCall::ScatterInit);
  return initPersistentCollective(
      info, request, [&](const CollectiveCall &How) {
        return scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                       recvtype, root, comm, How);
      });
}

DDTC_EXPORT int MPI_Allgather_init_c(const void *sendbuf, MPI_Count sendcount,
                                     MPI_Datatype sendtype, void *recvbuf,
                                     MPI_Count recvcount, MPI_Datatype recvtype,
                                     MPI_Comm comm, MPI_Info info,
                                     MPI_Request *request) {
  CallScope Scope(SubstitutedCall::AllgatherInit);
  return initPersistentCollective(
      info, request, [&](const CollectiveCall &How) {
        return allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                         recvtype, comm, How);
      });
}

DDTC_EXPORT int MPI_Alltoall_init_c(const void *sendbuf, MPI_Count sendcount,
                                    MPI_Datatype sendtype, void *recvbuf,
                                    MPI_Count recvcount, MPI_Datatype recvtype,
                                    MPI_Comm comm, MPI_Info info,
                                    MPI_Request *request) {
  CallScope Scope(SubstitutedCall::AlltoallInit);
  return initPersistentCollective(
      info, request, [&](const CollectiveCall &How) {
        return alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                        recvtype, comm, How);
      });
}
#endif

//===- lib/Runtime/CollectivesV.cpp - Substituted v- and w-collectives -----===//
//
// MPI_Gatherv, MPI_Scatterv, MPI_Allgatherv, MPI_Alltoallv, MPI_Alltoallw
// and their non-blocking forms, packed as the other collectives
// (Collectives.cpp), one piece per peer (CollectivePieces.h).
//
//===----------------------------------------------------------------------===//
#include "CollectivePieces.h"
#include "PersistentCollectives.h"
#include "RuntimeState.h"

#define DDTC_EXPORT extern "C" __attribute__((visibility("default")))

using namespace ddtc;

namespace {

template <typename CountT>
int gatherv(const void *SBuf, CountT SCount, MPI_Datatype ST, void *RBuf,
            const CountT *RCounts, const DisplOf<CountT> *Displs,
            MPI_Datatype RT, int Root, MPI_Comm Comm,
            const CollectiveCall &How) {
  auto Plain = [&] {
    return callCollective(
        How, DDTC_COLLECTIVE_FNS_OF(CountT, PMPI_Gatherv, PMPI_Igatherv), SBuf,
        SCount, ST, RBuf, RCounts, Displs, RT, Root, Comm);
  };
  if (!substitutesCollective(Comm))
    return Plain();
  int Rank = 0, Size = 0;
  PMPI_Comm_rank(Comm, &Rank);
  PMPI_Comm_size(Comm, &Size);
  bool IsRoot = Rank == Root;
  bool InPlace = IsRoot && SBuf == MPI_IN_PLACE;
  CollectiveSide Mine(SBuf), All(RBuf);
  if (!InPlace)
    Mine.addRun(1, SCount, ST);
  if (IsRoot)
    All.addVector(Size, RCounts, Displs, RT);
  return runPieces(
      Comm, InPlace ? nullptr : &Mine, IsRoot ? &All : nullptr, How, Plain,
      [&](const PackedBuffers &B, CollectiveStage &S) {
        const void *SB = InPlace ? MPI_IN_PLACE : firstPiece(B.Send, S, 0);
        MPICount SN = InPlace ? 0 : pieceCount(S, SendSide);
        const MPICount *RN = IsRoot ? S.Counts[1].data() : nullptr;
        const MPIDispl *RD = IsRoot ? S.Displs[1].data() : nullptr;
        return callCollective(
            How, DDTC_PACKED_COLLECTIVE_FNS(PMPI_Gatherv, PMPI_Igatherv), SB,
            SN, S.Element[SendSide], B.Receive, RN, RD, S.Element[ReceiveSide],
            Root, Comm);
      },
      NoPiece, InPlace ? Root : NoPiece);
}

template <typename CountT>
int scatterv(const void *SBuf, const CountT *SCounts,
             const DisplOf<CountT> *Displs, MPI_Datatype ST, void *RBuf,
             CountT RCount, MPI_Datatype RT, int Root, MPI_Comm Comm,
             const CollectiveCall &How) {
  auto Plain = [&] {
    return callCollective(
        How, DDTC_COLLECTIVE_FNS_OF(CountT, PMPI_Scatterv, PMPI_Iscatterv),
        SBuf, SCounts, Displs, ST, RBuf, RCount, RT, Root, Comm);
  };
  if (!substitutesCollective(Comm))
    return Plain();
  int Rank = 0, Size = 0;
  PMPI_Comm_rank(Comm, &Rank);
  PMPI_Comm_size(Comm, &Size);
  bool IsRoot = Rank == Root;
  bool InPlace = IsRoot && RBuf == MPI_IN_PLACE;
  CollectiveSide All(SBuf), Mine(RBuf);
  if (IsRoot)
    All.addVector(Size, SCounts, Displs, ST);
  if (!InPlace)
    Mine.addRun(1, RCount, RT);
  return runPieces(
      Comm, IsRoot ? &All : nullptr, InPlace ? nullptr : &Mine, How, Plain,
      [&](const PackedBuffers &B, CollectiveStage &S) {
        const MPICount *SN = IsRoot ? S.Counts[0].data() : nullptr;
        const MPIDispl *SD = IsRoot ? S.Displs[0].data() : nullptr;
        void *RB = InPlace ? MPI_IN_PLACE
                           : const_cast<char *>(firstPiece(B.Receive, S, 1));
        MPICount RN = InPlace ? 0 : pieceCount(S, ReceiveSide);
        const void *SB = IsRoot ? B.Send : nullptr;
        return callCollective(
            How, DDTC_PACKED_COLLECTIVE_FNS(PMPI_Scatterv, PMPI_Iscatterv), SB,
            SN, SD, S.Element[SendSide], RB, RN, S.Element[ReceiveSide], Root,
            Comm);
      },
      InPlace ? Root : NoPiece);
}

template <typename CountT>
int allgatherv(const void *SBuf, CountT SCount, MPI_Datatype ST, void *RBuf,
               const CountT *RCounts, const DisplOf<CountT> *Displs,
               MPI_Datatype RT, MPI_Comm Comm, const CollectiveCall &How) {
  auto Plain = [&] {
    return callCollective(
        How, DDTC_COLLECTIVE_FNS_OF(CountT, PMPI_Allgatherv, PMPI_Iallgatherv),
        SBuf, SCount, ST, RBuf, RCounts, Displs, RT, Comm);
  };
  if (!substitutesCollective(Comm))
    return Plain();
  int Rank = 0, Size = 0;
  PMPI_Comm_rank(Comm, &Rank);
  PMPI_Comm_size(Comm, &Size);
  bool InPlace = SBuf == MPI_IN_PLACE;
  CollectiveSide Mine(SBuf), All(RBuf);
  if (!InPlace)
    Mine.addRun(1, SCount, ST);
  All.addVector(Size, RCounts, Displs, RT);
  // In place, MPI sends this rank's piece from its place among the
  // received ones and leaves it there.
  return runPieces(
      Comm, InPlace ? nullptr : &Mine, &All, How, Plain,
      [&](const PackedBuffers &B, CollectiveStage &S) {
        const void *SB = InPlace ? MPI_IN_PLACE : firstPiece(B.Send, S, 0);
        MPICount SN = InPlace ? 0 : pieceCount(S, SendSide);
        return callCollective(
            How, DDTC_PACKED_COLLECTIVE_FNS(PMPI_Allgatherv, PMPI_Iallgatherv),
            SB, SN, S.Element[SendSide], B.Receive, S.Counts[1].data(),
            S.Displs[1].data(), S.Element[ReceiveSide], Comm);
      },
      NoPiece, InPlace ? Rank : NoPiece, InPlace ? Rank : NoPiece);
}

template <typename CountT>
int alltoallv(const void *SBuf, const CountT *SCounts,
              const DisplOf<CountT> *SDispls, MPI_Datatype ST, void *RBuf,
              const CountT *RCounts, const DisplOf<CountT> *RDispls,
              MPI_Datatype RT, MPI_Comm Comm, const CollectiveCall &How) {
  auto Plain = [&] {
    return callCollective(
        How, DDTC_COLLECTIVE_FNS_OF(CountT, PMPI_Alltoallv, PMPI_Ialltoallv),
        SBuf, SCounts, SDispls, ST, RBuf, RCounts, RDispls, RT, Comm);
  };
  if (!substitutesCollective(Comm))
    return Plain();
  int Size = 0;
  PMPI_Comm_size(Comm, &Size);
  bool InPlace = SBuf == MPI_IN_PLACE;
  CollectiveSide Sent(SBuf), Received(RBuf);
  if (!InPlace)
    Sent.addVector(Size, SCounts, SDispls, ST);
  Received.addVector(Size, RCounts, RDispls, RT);
  return runPieces(
      Comm, InPlace ? nullptr : &Sent, &Received, How, Plain,
      [&](const PackedBuffers &B, CollectiveStage &S) {
        const MPICount *SN = InPlace ? nullptr : S.Counts[0].data();
        const MPIDispl *SD = InPlace ? nullptr : S.Displs[0].data();
        MPI_Datatype SType = InPlace ? MPI_DATATYPE_NULL : S.Element[SendSide];
        return callCollective(
            How, DDTC_PACKED_COLLECTIVE_FNS(PMPI_Alltoallv, PMPI_Ialltoallv),
            B.Send, SN, SD, SType, B.Receive, S.Counts[1].data(),
            S.Displs[1].data(), S.Element[ReceiveSide], Comm);
      },
      NoPiece, NoPiece, InPlace ? EveryPiece : NoPiece);
}

template <typename CountT>
int alltoallw(const void *SBuf, const CountT *SCounts,
              const DisplOf<CountT> *SDispls, const MPI_Datatype *STypes,
              void *RBuf, const CountT *RCounts, const DisplOf<CountT> *RDispls,
              const MPI_Datatype *RTypes, MPI_Comm Comm,
              const CollectiveCall &How) {
  auto Plain = [&] {
    return callCollective(
        How, DDTC_COLLECTIVE_FNS_OF(CountT, PMPI_Alltoallw, PMPI_Ialltoallw),
        SBuf, SCounts, SDispls, STypes, RBuf, RCounts, RDispls, RTypes, Comm);
  };
  if (!substitutesCollective(Comm))
    return Plain();
  int Size = 0;
  PMPI_Comm_size(Comm, &Size);
  bool InPlace = SBuf == MPI_IN_PLACE;
  if (leftAsWrittenW(How, InPlace ? 0 : Size, SCounts, STypes, Size, RCounts,
                     RTypes))
    return Plain();
  CollectiveSide Sent(SBuf), Received(RBuf);
  if (!InPlace)
    Sent.addW(Size, SCounts, SDispls, STypes);
  Received.addW(Size, RCounts, RDispls, RTypes);
  return runPieces(
      Comm, InPlace ? nullptr : &Sent, &Received, How, Plain,
      [&](const PackedBuffers &B, CollectiveStage &S) {
        const MPICount *SN = InPlace ? nullptr : S.Counts[0].data();
        const MPIDispl *SD = InPlace ? nullptr : S.Displs[0].data();
        const MPI_Datatype *STy = InPlace ? nullptr : S.Types[0].data();
        return callCollective(
            How, DDTC_PACKED_COLLECTIVE_FNS(PMPI_Alltoallw, PMPI_Ialltoallw),
            B.Send, SN, SD, STy, B.Receive, S.Counts[1].data(),
            S.Displs[1].data(), S.Types[1].data(), Comm);
      },
      NoPiece, NoPiece, InPlace ? EveryPiece : NoPiece);
}

} // namespace

DDTC_EXPORT int MPI_Gatherv(const void *sendbuf, int sendcount,
                            MPI_Datatype sendtype, void *recvbuf,
                            const int recvcounts[], const int displs[],
                            MPI_Datatype recvtype, int root, MPI_Comm comm) {
  CallScope Scope(SubstitutedCall::Gatherv);
  return gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                 recvtype, root, comm, {});
}

DDTC_EXPORT int MPI_Igatherv(const void *sendbuf, int sendcount,
                             MPI_Datatype sendtype, void *recvbuf,
                             const int recvcounts[], const int displs[],
                             MPI_Datatype recvtype, int root, MPI_Comm comm,
                             MPI_Request *request) {
  CallScope Scope(SubstitutedCall::Igatherv);
  return gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                 recvtype, root, comm, {request});
}

DDTC_EXPORT int MPI_Scatterv(const void *sendbuf, const int sendcounts[],
                             const int displs[], MPI_Datatype sendtype,
                             void *recvbuf, int recvcount,
                             MPI_Datatype recvtype, int root, MPI_Comm comm) {
  CallScope Scope(SubstitutedCall::Scatterv);
  return scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                  recvtype, root, comm, {});
}

DDTC_EXPORT int MPI_Iscatterv(const void *sendbuf, const int sendcounts[],
                              const int displs[], MPI_Datatype sendtype,
                              void *recvbuf, int recvcount,
                              MPI_Datatype recvtype, int root, MPI_Comm comm,
                              MPI_Request *request) {
  CallScope Scope(SubstitutedCall::Iscatterv);
  return scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                  recvtype, root, comm, {request});
}

DDTC_EXPORT int MPI_Allgatherv(const void *sendbuf, int sendcount,
                               MPI_Datatype sendtype, void *recvbuf,
                               const int recvcounts[], const int displs[],
                               MPI_Datatype recvtype, MPI_Comm comm) {
  CallScope Scope(SubstitutedCall::Allgatherv);
  return allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                    recvtype, comm, {});
}

DDTC_EXPORT int MPI_Iallgatherv(const void *sendbuf, int sendcount,
                                MPI_Datatype sendtype, void *recvbuf,
                                const int recvcounts[], const int displs[],
                                MPI_Datatype recvtype, MPI_Comm comm,
                                MPI_Request *request) {
  CallScope Scope(SubstitutedCall::Iallgatherv);
  return allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                    recvtype, comm, {request});
}

DDTC_EXPORT int MPI_Alltoallv(const void *sendbuf, const int sendcounts[],
                              const int sdispls[], MPI_Datatype sendtype,
                              void *recvbuf, const int recvcounts[],
                              const int rdispls[], MPI_Datatype recvtype,
                              MPI_Comm comm) {
  CallScope Scope(SubstitutedCall::Alltoallv);
  return alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                   rdispls, recvtype, comm, {});
}

DDTC_EXPORT int MPI_Ialltoallv(const void *sendbuf, const int sendcounts[],
                               const int sdispls[], MPI_Datatype sendtype,
                               void *recvbuf, const int recvcounts[],
                               const int rdispls[], MPI_Datatype recvtype,
                               MPI_Comm comm, MPI_Request *request) {
  CallScope Scope(SubstitutedCall::Ialltoallv);
  return alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                   rdispls, recvtype, comm, {request});
}

DDTC_EXPORT int MPI_Alltoallw(const void *sendbuf, const int sendcounts[],
                              const int sdispls[],
                              const MPI_Datatype sendtypes[], void *recvbuf,
                              const int recvcounts[], const int rdispls[],
                              const MPI_Datatype recvtypes[], MPI_Comm comm) {
  CallScope Scope(SubstitutedCall::Alltoallw);
  return alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                   rdispls, recvtypes, comm, {});
}

DDTC_EXPORT int MPI_Ialltoallw(const void *sendbuf, const int sendcounts[],
                               const int sdispls[],
                               const MPI_Datatype sendtypes[], void *recvbuf,
                               const int recvcounts[], const int rdispls[],
                               const MPI_Datatype recvtypes[], MPI_Comm comm,
                               MPI_Request *request) {
  CallScope Scope(SubstitutedCall::Ialltoallw);
  return alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                   rdispls, recvtypes, comm, {request});
}

#if DDTC_MPI_4_CALLS
DDTC_EXPORT int MPI_Gatherv_init(const void *sendbuf, int sendcount,
                                 MPI_Datatype sendtype, void *recvbuf,
                                 const int recvcounts[], const int displs[],
                                 MPI_Datatype recvtype, int root, MPI_Comm comm,
                                 MPI_Info info, MPI_Request *request) {
  CallScope Scope(SubstitutedCall::GathervInit);
  return initPersistentCollective(
      info, request, [&](const CollectiveCall &How) {
        return gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                       displs, recvtype, root, comm, How);
      });
}

DDTC_EXPORT int MPI_Scatterv_init(const void *sendbuf, const int sendcounts[],
                                  const int displs[], MPI_Datatype sendtype,
                                  void *recvbuf, int recvcount,
                                  MPI_Datatype recvtype, int root,
                                  MPI_Comm comm, MPI_Info info,
                                  MPI_Request *request) {
  CallScope Scope(SubstitutedCall::ScattervInit);
  return initPersistentCollective(
      info, request, [&](const CollectiveCall &How) {
        return scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf,
                        recvcount, recvtype, root, comm, How);
      });
}

DDTC_EXPORT int MPI_Allgatherv_init(const void *sendbuf, int sendcount,
                                    MPI_Datatype sendtype, void *recvbuf,
                                    const int recvcounts[], const int displs[],
                                    MPI_Datatype recvtype, MPI_Comm comm,
                                    MPI_Info info, MPI_Request *request) {
  CallScope Scope(SubstitutedCall::AllgathervInit);
  return initPersistentCollective(
      info, request, [&](const CollectiveCall &How) {
        return allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                          displs, recvtype, comm, How);
      });
}

DDTC_EXPORT int MPI_Alltoallv_init(const void *sendbuf, const int sendcounts[],
                                   const int sdispls[], MPI_Datatype sendtype,
                                   void *recvbuf, const int recvcounts[],
                                   const int rdispls[], MPI_Datatype recvtype,
                                   MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request) {
  CallScope Scope(SubstitutedCall::AlltoallvInit);
  return initPersistentCollective(
      info, request, [&](const CollectiveCall &How) {
        return alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                         recvcounts, rdispls, recvtype, comm, How);
      });
}

DDTC_EXPORT int
MPI_Alltoallw_init(const void *sendbuf, const int sendcounts[],
                   const int sdispls[], const MPI_Datatype sendtypes[],
                   void *recvbuf, const int recvcounts[], const int rdispls[],
                   const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                   MPI_Request *request) {
  CallScope Scope(SubstitutedCall::AlltoallwInit);
  return initPersistentCollective(
      info, request, [&](const CollectiveCall &How) {
        return alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                         recvcounts, rdispls, recvtypes, comm, How);
      });
}
#endif

#if DDTC_MPI_LARGE_COUNT
DDTC_EXPORT int MPI_Gatherv_c(const void *sendbuf, MPI_Count sendcount,
                              MPI_Datatype sendtype, void *recvbuf,
                              const MPI_Count recvcounts[],
                              const MPI_Aint displs[], MPI_Datatype recvtype,
                              int root, MPI_Comm comm) {
  CallScope Scope(SubstitutedCall::Gatherv);
  return gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                 recvtype, root, comm, {});
}

DDTC_EXPORT int MPI_Igatherv_c(const void *sendbuf, MPI_Count sendcount,
                               MPI_Datatype sendtype, void *recvbuf,
                               const MPI_Count recvcounts[],
                               const MPI_Aint displs[], MPI_Datatype recvtype,
                               int root, MPI_Comm comm, MPI_Request *request) {
  CallScope Scope(SubstitutedCall::Igatherv);
  return gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                 recvtype, root, comm, {request});
}

DDTC_EXPORT int MPI_Scatterv_c(const void *sendbuf,
                               const MPI_Count sendcounts[],
                               const MPI_Aint displs[], MPI_Datatype sendtype,
                               void *recvbuf, MPI_Count recvcount,
                               MPI_Datatype recvtype, int root, MPI_Comm comm) {
  CallScope Scope(SubstitutedCall::Scatterv);
  return scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                  recvtype, root, comm, {});
}

DDTC_EXPORT int MPI_Iscatterv_c(const void *sendbuf,
                                const MPI_Count sendcounts[],
                                const MPI_Aint displs[], MPI_Datatype sendtype,
                                void *recvbuf, MPI_Count recvcount,
                                MPI_Datatype recvtype, int root, MPI_Comm comm,
                                MPI_Request *request) {
  CallScope Scope(SubstitutedCall::Iscatterv);
  return scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                  recvtype, root, comm, {request});
}

DDTC_EXPORT int MPI_Allgatherv_c(const void *sendbuf, MPI_Count sendcount,
                                 MPI_Datatype sendtype, void *recvbuf,
                                 const MPI_Count recvcounts[],
                                 const MPI_Aint displs[], MPI_Datatype recvtype,
                                 MPI_Comm comm) {
  CallScope Scope(SubstitutedCall::Allgatherv);
  return allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                    recvtype, comm, {});
}

DDTC_EXPORT int MPI_Iallgatherv_c(const void *sendbuf, MPI_Count sendcount,
                                  MPI_Datatype sendtype, void *recvbuf,
                                  const MPI_Count recvcounts[],
                                  const MPI_Aint displs[],
                                  MPI_Datatype recvtype, MPI_Comm comm,
                                  MPI_Request *request) {
  CallScope Scope(SubstitutedCall::Iallgatherv);
  return allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                    recvtype, comm, {request});
}

DDTC_EXPORT int MPI_Alltoallv_c(const void *sendbuf,
                                const MPI_Count sendcounts[],
                                const MPI_Aint sdispls[], MPI_Datatype sendtype,
                                void *recvbuf, const MPI_Count recvcounts[],
                                const MPI_Aint rdispls[], MPI_Datatype recvtype,
                                MPI_Comm comm) {
  CallScope Scope(SubstitutedCall::Alltoallv);
  return alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                   rdispls, recvtype, comm, {});
}

DDTC_EXPORT int
MPI_Ialltoallv_c(const void *sendbuf, const MPI_Count sendcounts[],
                 const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                 const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                 MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request) {
  CallScope Scope(SubstitutedCall::Ialltoallv);
  return alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                   rdispls, recvtype, comm, {request});
}

DDTC_EXPORT int MPI_Alltoallw_c(
    const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
    const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
    const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
  CallScope Scope(SubstitutedCall::Alltoallw);
  return alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                   rdispls, recvtypes, comm, {});
}

DDTC_EXPORT int
MPI_Ialltoallw_c(const void *sendbuf, const MPI_Count sendcounts[],
                 const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                 void *recvbuf, const MPI_Count recvcounts[],
                 const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                 MPI_Comm comm, MPI_Request *request) {
  CallScope Scope(SubstitutedCall::Ialltoallw);
  return alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                   rdispls, recvtypes, comm, {request});
}
#endif

#if DDTC_MPI_LARGE_COUNT && DDTC_MPI_4_CALLS
DDTC_EXPORT int MPI_Gatherv_init_c(const void *sendbuf, MPI_Count sendcount,
                                   MPI_Datatype sendtype, void *recvbuf,
                                   const MPI_Count recvcounts[],
                                   const MPI_Aint displs[],
                                   MPI_Datatype recvtype, int root,
                                   MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request) {
  CallScope Scope(SubstitutedCall::GathervInit);
  return initPersistentCollective(
      info, request, [&](const CollectiveCall &How) {
        return gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                       displs, recvtype, root, comm, How);
      });
}

DDTC_EXPORT int MPI_Scatterv_init_c(const void *sendbuf,
                                    const MPI_Count sendcounts[],
                                    const MPI_Aint displs[],
                                    MPI_Datatype sendtype, void *recvbuf,
                                    MPI_Count recvcount, MPI_Datatype recvtype,
                                    int root, MPI_Comm comm, MPI_Info info,
                                    MPI_Request *request) {
  CallScope Scope(SubstitutedCall::ScattervInit);
  return initPersistentCollective(
      info, request, [&](const CollectiveCall &How) {
        return scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf,
                        recvcount, recvtype, root, comm, How);
      });
}

DDTC_EXPORT int MPI_Allgatherv_init_c(const void *sendbuf, MPI_Count sendcount,
                                      MPI_Datatype sendtype, void *recvbuf,
                                      const MPI_Count recvcounts[],
                                      const MPI_Aint displs[],
                                      MPI_Datatype recvtype, MPI_Comm comm,
                                      MPI_Info info, MPI_Request *request) {
  CallScope Scope(SubstitutedCall::AllgathervInit);
  return initPersistentCollective(
      info, request, [&](const CollectiveCall &How) {
        return allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                          displs, recvtype, comm, How);
      });
}

DDTC_EXPORT int
MPI_Alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                     const MPI_Aint sdispls[], MPI_Datatype sendtype,
                     void *recvbuf, const MPI_Count recvcounts[],
                     const MPI_Aint rdispls[], MPI_Datatype recvtype,
                     MPI_Comm comm, MPI_Info info, MPI_Request *request) {
  CallScope Scope(SubstitutedCall::AlltoallvInit);
  return initPersistentCollective(
      info, request, [&](const CollectiveCall &How) {
        return alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                         recvcounts, rdispls, recvtype, comm, How);
      });
}
DDTC_EXPORT int
MPI_Alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                     const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                     void *recvbuf, const MPI_Count recvcounts[],
                     const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                     MPI_Comm comm, MPI_Info info, MPI_Request *request) {
  CallScope Scope(SubstitutedCall::AlltoallwInit);
  return initPersistentCollective(
      info, request, [&](const CollectiveCall &How) {
        return alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                         recvcounts, rdispls, recvtypes, comm, How);
      });
}
#endif

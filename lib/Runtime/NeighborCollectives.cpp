//===- lib/Runtime/NeighborCollectives.cpp - Substituted neighborhood collectives ===//
//
// MPI_Neighbor_allgather(v) and MPI_Neighbor_alltoall(v, w), blocking and
// non-blocking, on Cartesian, graph and distributed-graph communicators:
// packed as the other collectives (Collectives.cpp), one piece per
// neighbor (CollectivePieces.h). A communicator without a
// topology is the program's error: passed through, for MPI's own.
//
//===----------------------------------------------------------------------===//
#include "CollectivePieces.h"
#include "PersistentCollectives.h"
#include "RuntimeState.h"

#define DDTC_EXPORT extern "C" __attribute__((visibility("default")))

using namespace ddtc;

namespace {

/// This rank's numbers of in- and out-neighbors in Comm's topology
/// (MPI-4 §8.6: a Cartesian one has two of each per dimension, PROC_NULL
/// ones included); false without a topology.
bool countNeighbors(MPI_Comm Comm, int &In, int &Out) {
  int Topology = MPI_UNDEFINED;
  PMPI_Topo_test(Comm, &Topology);
  if (Topology == MPI_CART) {
    int Dims = 0;
    PMPI_Cartdim_get(Comm, &Dims);
    In = Out = 2 * Dims;
    return true;
  }
  if (Topology == MPI_GRAPH) {
    int Rank = 0;
    PMPI_Comm_rank(Comm, &Rank);
    PMPI_Graph_neighbors_count(Comm, Rank, &In);
    Out = In;
    return true;
  }
  if (Topology == MPI_DIST_GRAPH) {
    int Weighted = 0;
    PMPI_Dist_graph_neighbors_count(Comm, &In, &Out, &Weighted);
    return true;
  }
  return false;
}

/// Substitutes a neighborhood collective: Fill adds the pieces of its two
/// sides given the numbers of neighbors, Call makes the packed call.
/// AsWritten(In, Out) says, where it can from the types alone, that the
/// call is left to MPI as written (leftAsWrittenW).
template <typename PlainFn, typename FillFn, typename CallFn,
          typename AsWrittenFn>
int neighborhood(MPI_Comm Comm, const void *SBuf, void *RBuf,
                 const CollectiveCall &How, PlainFn Plain, FillFn Fill,
                 CallFn Call, AsWrittenFn AsWritten) {
  int In = 0, Out = 0;
  if (!substitutesCollective(Comm) || !countNeighbors(Comm, In, Out) ||
      AsWritten(In, Out))
    return Plain();
  CollectiveSide Sent(SBuf), Received(RBuf);
  Fill(Sent, Received, In, Out);
  return runPieces(Comm, &Sent, &Received, How, Plain,
                   [&](const PackedBuffers &B, CollectiveStage &S) {
                     return Call(static_cast<const char *>(B.Send), B.Receive,
                                 S);
                   });
}

/// neighborhood() of a call whose sides are always built.
template <typename PlainFn, typename FillFn, typename CallFn>
int neighborhood(MPI_Comm Comm, const void *SBuf, void *RBuf,
                 const CollectiveCall &How, PlainFn Plain, FillFn Fill,
                 CallFn Call) {
  return neighborhood(Comm, SBuf, RBuf, How, Plain, Fill, Call,
                      [](int, int) { return false; });
}

template <typename CountT>
int neighborAllgather(const void *SBuf, CountT SCount, MPI_Datatype ST,
                      void *RBuf, CountT RCount, MPI_Datatype RT, MPI_Comm Comm,
                      const CollectiveCall &How) {
  auto Plain = [&] {
    return callCollective(How,
                          DDTC_COLLECTIVE_FNS_OF(CountT,
                                                 PMPI_Neighbor_allgather,
                                                 PMPI_Ineighbor_allgather),
                          SBuf, SCount, ST, RBuf, RCount, RT, Comm);
  };
  auto Fill = [&](CollectiveSide &Sent, CollectiveSide &Received, int In, int) {
    Sent.addRun(1, SCount, ST);
    Received.addRun(In, RCount, RT);
  };
  return neighborhood(Comm, SBuf, RBuf, How, Plain, Fill,
                      [&](const char *SP, char *RP, CollectiveStage &S) {
                        const char *SB = firstPiece(SP, S, 0);
                        char *RB = const_cast<char *>(firstPiece(RP, S, 1));
                        MPICount SN = pieceCount(S, 0), RN = pieceCount(S, 1);
                        return callCollective(How,
                                              DDTC_PACKED_COLLECTIVE_FNS(
                                                  PMPI_Neighbor_allgather,
                                                  PMPI_Ineighbor_allgather),
                                              SB, SN, S.Element[0], RB, RN,
                                              S.Element[1], Comm);
                      });
}

template <typename CountT>
int neighborAllgatherv(const void *SBuf, CountT SCount, MPI_Datatype ST,
                       void *RBuf, const CountT *RCounts,
                       const DisplOf<CountT> *Displs, MPI_Datatype RT,
                       MPI_Comm Comm, const CollectiveCall &How) {
  auto Plain = [&] {
    return callCollective(How,
                          DDTC_COLLECTIVE_FNS_OF(CountT,
                                                 PMPI_Neighbor_allgatherv,
                                                 PMPI_Ineighbor_allgatherv),
                          SBuf, SCount, ST, RBuf, RCounts, Displs, RT, Comm);
  };
  auto Fill = [&](CollectiveSide &Sent, CollectiveSide &Received, int In, int) {
    Sent.addRun(1, SCount, ST);
    Received.addVector(In, RCounts, Displs, RT);
  };
  return neighborhood(
      Comm, SBuf, RBuf, How, Plain, Fill,
      [&](const char *SP, char *RP, CollectiveStage &S) {
        const char *SB = firstPiece(SP, S, 0);
        MPICount SN = pieceCount(S, 0);
        return callCollective(
            How,
            DDTC_PACKED_COLLECTIVE_FNS(PMPI_Neighbor_allgatherv,
                                       PMPI_Ineighbor_allgatherv),
            SB, SN, S.Element[0], RP, S.Counts[1].data(), S.Displs[1].data(),
            S.Element[1], Comm);
      });
}

template <typename CountT>
int neighborAlltoall(const void *SBuf, CountT SCount, MPI_Datatype ST,
                     void *RBuf, CountT RCount, MPI_Datatype RT, MPI_Comm Comm,
                     const CollectiveCall &How) {
  auto Plain = [&] {
    return callCollective(How,
                          DDTC_COLLECTIVE_FNS_OF(CountT, PMPI_Neighbor_alltoall,
                                                 PMPI_Ineighbor_alltoall),
                          SBuf, SCount, ST, RBuf, RCount, RT, Comm);
  };
  auto Fill = [&](CollectiveSide &Sent, CollectiveSide &Received, int In,
                  int Out) {
    Sent.addRun(Out, SCount, ST);
    Received.addRun(In, RCount, RT);
  };
  return neighborhood(Comm, SBuf, RBuf, How, Plain, Fill,
                      [&](const char *SP, char *RP, CollectiveStage &S) {
                        const char *SB = firstPiece(SP, S, 0);
                        char *RB = const_cast<char *>(firstPiece(RP, S, 1));
                        MPICount SN = pieceCount(S, 0), RN = pieceCount(S, 1);
                        return callCollective(
                            How,
                            DDTC_PACKED_COLLECTIVE_FNS(PMPI_Neighbor_alltoall,
                                                       PMPI_Ineighbor_alltoall),
                            SB, SN, S.Element[0], RB, RN, S.Element[1], Comm);
                      });
}

template <typename CountT>
int neighborAlltoallv(const void *SBuf, const CountT *SCounts,
                      const DisplOf<CountT> *SDispls, MPI_Datatype ST,
                      void *RBuf, const CountT *RCounts,
                      const DisplOf<CountT> *RDispls, MPI_Datatype RT,
                      MPI_Comm Comm, const CollectiveCall &How) {
  auto Plain = [&] {
    return callCollective(
        How,
        DDTC_COLLECTIVE_FNS_OF(CountT, PMPI_Neighbor_alltoallv,
                               PMPI_Ineighbor_alltoallv),
        SBuf, SCounts, SDispls, ST, RBuf, RCounts, RDispls, RT, Comm);
  };
  auto Fill = [&](CollectiveSide &Sent, CollectiveSide &Received, int In,
                  int Out) {
    Sent.addVector(Out, SCounts, SDispls, ST);
    Received.addVector(In, RCounts, RDispls, RT);
  };
  return neighborhood(
      Comm, SBuf, RBuf, How, Plain, Fill,
      [&](const char *SP, char *RP, CollectiveStage &S) {
        return callCollective(
            How,
            DDTC_PACKED_COLLECTIVE_FNS(PMPI_Neighbor_alltoallv,
                                       PMPI_Ineighbor_alltoallv),
            SP, S.Counts[0].data(), S.Displs[0].data(), S.Element[0], RP,
            S.Counts[1].data(), S.Displs[1].data(), S.Element[1], Comm);
      });
}

template <typename CountT>
int neighborAlltoallw(const void *SBuf, const CountT *SCounts,
                      const MPI_Aint *SDispls, const MPI_Datatype *STypes,
                      void *RBuf, const CountT *RCounts,
                      const MPI_Aint *RDispls, const MPI_Datatype *RTypes,
                      MPI_Comm Comm, const CollectiveCall &How) {
  auto Plain = [&] {
    return callCollective(
        How,
        DDTC_COLLECTIVE_FNS_OF(CountT, PMPI_Neighbor_alltoallw,
                               PMPI_Ineighbor_alltoallw),
        SBuf, SCounts, SDispls, STypes, RBuf, RCounts, RDispls, RTypes, Comm);
  };
  auto Fill = [&](CollectiveSide &Sent, CollectiveSide &Received, int In,
                  int Out) {
    Sent.addW(Out, SCounts, SDispls, STypes);
    Received.addW(In, RCounts, RDispls, RTypes);
  };
  return neighborhood(
      Comm, SBuf, RBuf, How, Plain, Fill,
      [&](const char *SP, char *RP, CollectiveStage &S) {
        const MPI_Aint *SD = aintDispls(S, 0), *RD = aintDispls(S, 1);
        return callCollective(
            How,
            DDTC_PACKED_COLLECTIVE_FNS(PMPI_Neighbor_alltoallw,
                                       PMPI_Ineighbor_alltoallw),
            SP, S.Counts[0].data(), SD, S.Types[0].data(), RP,
            S.Counts[1].data(), RD, S.Types[1].data(), Comm);
      },
      [&](int In, int Out) {
        return leftAsWrittenW(How, Out, SCounts, STypes, In, RCounts, RTypes);
      });
}

} // namespace

DDTC_EXPORT int MPI_Neighbor_allgather(const void *sendbuf, int sendcount,
                                       MPI_Datatype sendtype, void *recvbuf,
                                       int recvcount, MPI_Datatype recvtype,
                                       MPI_Comm comm) {
  CallScope Scope(SubstitutedCall::NeighborAllgather);
  return neighborAllgather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                           recvtype, comm, {});
}

DDTC_EXPORT int MPI_Ineighbor_allgather(const void *sendbuf, int sendcount,
                                        MPI_Datatype sendtype, void *recvbuf,
                                        int recvcount, MPI_Datatype recvtype,
                                        MPI_Comm comm, MPI_Request *request) {
  CallScope Scope(SubstitutedCall::IneighborAllgather);
  return neighborAllgather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                           recvtype, comm, {request});
}

DDTC_EXPORT int MPI_Neighbor_allgatherv(const void *sendbuf, int sendcount,
                                        MPI_Datatype sendtype, void *recvbuf,
                                        const int recvcounts[],
                                        const int displs[],
                                        MPI_Datatype recvtype, MPI_Comm comm) {
  CallScope Scope(SubstitutedCall::NeighborAllgatherv);
  return neighborAllgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                            displs, recvtype, comm, {});
}

DDTC_EXPORT int MPI_Ineighbor_allgatherv(const void *sendbuf, int sendcount,
                                         MPI_Datatype sendtype, void *recvbuf,
                                         const int recvcounts[],
                                         const int displs[],
                                         MPI_Datatype recvtype, MPI_Comm comm,
                                         MPI_Request *request) {
  CallScope Scope(SubstitutedCall::IneighborAllgatherv);
  return neighborAllgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                            displs, recvtype, comm, {request});
}

DDTC_EXPORT int MPI_Neighbor_alltoall(const void *sendbuf, int sendcount,
                                      MPI_Datatype sendtype, void *recvbuf,
                                      int recvcount, MPI_Datatype recvtype,
                                      MPI_Comm comm) {
  CallScope Scope(SubstitutedCall::NeighborAlltoall);
  return neighborAlltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                          recvtype, comm, {});
}

DDTC_EXPORT int MPI_Ineighbor_alltoall(const void *sendbuf, int sendcount,
                                       MPI_Datatype sendtype, void *recvbuf,
                                       int recvcount, MPI_Datatype recvtype,
                                       MPI_Comm comm, MPI_Request *request) {
  CallScope Scope(SubstitutedCall::IneighborAlltoall);
  return neighborAlltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                          recvtype, comm, {request});
}

DDTC_EXPORT int MPI_Neighbor_alltoallv(
    const void *sendbuf, const int sendcounts[], const int sdispls[],
    MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
    const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  CallScope Scope(SubstitutedCall::NeighborAlltoallv);
  return neighborAlltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                           recvcounts, rdispls, recvtype, comm, {});
}

DDTC_EXPORT int
MPI_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[],
                        const int sdispls[], MPI_Datatype sendtype,
                        void *recvbuf, const int recvcounts[],
                        const int rdispls[], MPI_Datatype recvtype,
                        MPI_Comm comm, MPI_Request *request) {
  CallScope Scope(SubstitutedCall::IneighborAlltoallv);
  return neighborAlltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                           recvcounts, rdispls, recvtype, comm, {request});
}

DDTC_EXPORT int MPI_Neighbor_alltoallw(
    const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
    const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
    const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
  CallScope Scope(SubstitutedCall::NeighborAlltoallw);
  return neighborAlltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                           recvcounts, rdispls, recvtypes, comm, {});
}

DDTC_EXPORT int MPI_Ineighbor_alltoallw(
    const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
    const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
    const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
    MPI_Request *request) {
  CallScope Scope(SubstitutedCall::IneighborAlltoallw);
  return neighborAlltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                           recvcounts, rdispls, recvtypes, comm, {request});
}

#if DDTC_MPI_4_CALLS
DDTC_EXPORT int MPI_Neighbor_allgather_init(const void *sendbuf, int sendcount,
                                            MPI_Datatype sendtype,
                                            void *recvbuf, int recvcount,
                                            MPI_Datatype recvtype,
                                            MPI_Comm comm, MPI_Info info,
                                            MPI_Request *request) {
  CallScope Scope(SubstitutedCall::NeighborAllgatherInit);
  return initPersistentCollective(
      info, request, [&](const CollectiveCall &How) {
        return neighborAllgather(sendbuf, sendcount, sendtype, recvbuf,
                                 recvcount, recvtype, comm, How);
      });
}

DDTC_EXPORT int MPI_Neighbor_allgatherv_init(
    const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
    const int recvcounts[], const int displs[], MPI_Datatype recvtype,
    MPI_Comm comm, MPI_Info info, MPI_Request *request) {
  CallScope Scope(SubstitutedCall::NeighborAllgathervInit);
  return initPersistentCollective(
      info, request, [&](const CollectiveCall &How) {
        return neighborAllgatherv(sendbuf, sendcount, sendtype, recvbuf,
                                  recvcounts, displs, recvtype, comm, How);
      });
}

DDTC_EXPORT int MPI_Neighbor_alltoall_init(const void *sendbuf, int sendcount,
                                           MPI_Datatype sendtype, void *recvbuf,
                                           int recvcount, MPI_Datatype recvtype,
                                           MPI_Comm comm, MPI_Info info,
                                           MPI_Request *request) {
  CallScope Scope(SubstitutedCall::NeighborAlltoallInit);
  return initPersistentCollective(
      info, request, [&](const CollectiveCall &How) {
        return neighborAlltoall(sendbuf, sendcount, sendtype, recvbuf,
                                recvcount, recvtype, comm, How);
      });
}

DDTC_EXPORT int MPI_Neighbor_alltoallv_init(
    const void *sendbuf, const int sendcounts[], const int sdispls[],
    MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
    const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
    MPI_Request *request) {
  CallScope Scope(SubstitutedCall::NeighborAlltoallvInit);
  return initPersistentCollective(
      info, request, [&](const CollectiveCall &How) {
        return neighborAlltoallv(sendbuf, sendcounts, sdispls, sendtype,
                                 recvbuf, recvcounts, rdispls, recvtype, comm,
                                 How);
      });
}

DDTC_EXPORT int MPI_Neighbor_alltoallw_init(
    const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
    const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
    const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
    MPI_Info info, MPI_Request *request) {
  CallScope Scope(SubstitutedCall::NeighborAlltoallwInit);
  return initPersistentCollective(
      info, request, [&](const CollectiveCall &How) {
        return neighborAlltoallw(sendbuf, sendcounts, sdispls, sendtypes,
                                 recvbuf, recvcounts, rdispls, recvtypes, comm,
                                 How);
      });
}
#endif

#if DDTC_MPI_LARGE_COUNT
DDTC_EXPORT int MPI_Neighbor_allgather_c(const void *sendbuf,
                                         MPI_Count sendcount,
                                         MPI_Datatype sendtype, void *recvbuf,
                                         MPI_Count recvcount,
                                         MPI_Datatype recvtype, MPI_Comm comm) {
  CallScope Scope(SubstitutedCall::NeighborAllgather);
  return neighborAllgather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                           recvtype, comm, {});
}

DDTC_EXPORT int MPI_Ineighbor_allgather_c(const void *sendbuf,
                                          MPI_Count sendcount,
                                          MPI_Datatype sendtype, void *recvbuf,
                                          MPI_Count recvcount,
                                          MPI_Datatype recvtype, MPI_Comm comm,
                                          MPI_Request *request) {
  CallScope Scope(SubstitutedCall::IneighborAllgather);
  return neighborAllgather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                           recvtype, comm, {request});
}

DDTC_EXPORT int
MPI_Neighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount,
                          MPI_Datatype sendtype, void *recvbuf,
                          const MPI_Count recvcounts[], const MPI_Aint displs[],
                          MPI_Datatype recvtype, MPI_Comm comm) {
  CallScope Scope(SubstitutedCall::NeighborAllgatherv);
  return neighborAllgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                            displs, recvtype, comm, {});
}

DDTC_EXPORT int MPI_Ineighbor_allgatherv_c(
    const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
    void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
    MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request) {
  CallScope Scope(SubstitutedCall::IneighborAllgatherv);
  return neighborAllgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                            displs, recvtype, comm, {request});
}

DDTC_EXPORT int MPI_Neighbor_alltoall_c(const void *sendbuf,
                                        MPI_Count sendcount,
                                        MPI_Datatype sendtype, void *recvbuf,
                                        MPI_Count recvcount,
                                        MPI_Datatype recvtype, MPI_Comm comm) {
  CallScope Scope(SubstitutedCall::NeighborAlltoall);
  return neighborAlltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                          recvtype, comm, {});
}

DDTC_EXPORT int MPI_Ineighbor_alltoall_c(const void *sendbuf,
                                         MPI_Count sendcount,
                                         MPI_Datatype sendtype, void *recvbuf,
                                         MPI_Count recvcount,
                                         MPI_Datatype recvtype, MPI_Comm comm,
                                         MPI_Request *request) {
  CallScope Scope(SubstitutedCall::IneighborAlltoall);
  return neighborAlltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                          recvtype, comm, {request});
}

DDTC_EXPORT int MPI_Neighbor_alltoallv_c(
    const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
    MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
    const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  CallScope Scope(SubstitutedCall::NeighborAlltoallv);
  return neighborAlltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                           recvcounts, rdispls, recvtype, comm, {});
}

DDTC_EXPORT int
MPI_Ineighbor_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[],
                          const MPI_Aint sdispls[], MPI_Datatype sendtype,
                          void *recvbuf, const MPI_Count recvcounts[],
                          const MPI_Aint rdispls[], MPI_Datatype recvtype,
                          MPI_Comm comm, MPI_Request *request) {
  CallScope Scope(SubstitutedCall::IneighborAlltoallv);
  return neighborAlltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                           recvcounts, rdispls, recvtype, comm, {request});
}

DDTC_EXPORT int MPI_Neighbor_alltoallw_c(
    const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
    const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
    const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
  CallScope Scope(SubstitutedCall::NeighborAlltoallw);
  return neighborAlltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                           recvcounts, rdispls, recvtypes, comm, {});
}

DDTC_EXPORT int MPI_Ineighbor_alltoallw_c(
    const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
    const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
    const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
    MPI_Request *request) {
  CallScope Scope(SubstitutedCall::IneighborAlltoallw);
  return neighborAlltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                           recvcounts, rdispls, recvtypes, comm, {request});
}
#endif

#if DDTC_MPI_LARGE_COUNT && DDTC_MPI_4_CALLS
DDTC_EXPORT int MPI_Neighbor_allgather_init_c(
    const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
    void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
    MPI_Info info, MPI_Request *request) {
  CallScope Scope(SubstitutedCall::NeighborAllgatherInit);
  return initPersistentCollective(
      info, request, [&](const CollectiveCall &How) {
        return neighborAllgather(sendbuf, sendcount, sendtype, recvbuf,
                                 recvcount, recvtype, comm, How);
      });
}

DDTC_EXPORT int MPI_Neighbor_allgatherv_init_c(
    const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
    void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
    MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request) {
  CallScope Scope(SubstitutedCall::NeighborAllgathervInit);
  return initPersistentCollective(
      info, request, [&](const CollectiveCall &How) {
        return neighborAllgatherv(sendbuf, sendcount, sendtype, recvbuf,
                                  recvcounts, displs, recvtype, comm, How);
      });
}

DDTC_EXPORT int MPI_Neighbor_alltoall_init_c(
    const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
    void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
    MPI_Info info, MPI_Request *request) {
  CallScope Scope(SubstitutedCall::NeighborAlltoallInit);
  return initPersistentCollective(
      info, request, [&](const CollectiveCall &How) {
        return neighborAlltoall(sendbuf, sendcount, sendtype, recvbuf,
                                recvcount, recvtype, comm, How);
      });
}

DDTC_EXPORT int MPI_Neighbor_alltoallv_init_c(
    const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
    MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
    const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
    MPI_Info info, MPI_Request *request) {
  CallScope Scope(SubstitutedCall::NeighborAlltoallvInit);
  return initPersistentCollective(
      info, request, [&](const CollectiveCall &How) {
        return neighborAlltoallv(sendbuf, sendcounts, sdispls, sendtype,
                                 recvbuf, recvcounts, rdispls, recvtype, comm,
                                 How);
      });
}

DDTC_EXPORT int MPI_Neighbor_alltoallw_init_c(
    const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
    const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
    const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
    MPI_Info info, MPI_Request *request) {
  CallScope Scope(SubstitutedCall::NeighborAlltoallwInit);
  return initPersistentCollective(
      info, request, [&](const CollectiveCall &How) {
        return neighborAlltoallw(sendbuf, sendcounts, sdispls, sendtypes,
                                 recvbuf, recvcounts, rdispls, recvtypes, comm,
                                 How);
      });
}
#endif

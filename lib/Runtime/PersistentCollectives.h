//===- lib/Runtime/PersistentCollectives.h - MPI 4's persistent collectives -*- C++ -*-===//
//
// MPI_Bcast_init, MPI_Alltoallw_init and the other persistent collectives
// of MPI 4 are substituted as their blocking and non-blocking forms are
// (Collectives.cpp, CollectivesV.cpp, NeighborCollectives.cpp): MPI creates
// the request on the packed bytes of a stage that lives as long as the
// request. Each MPI_Start or MPI_Startall packs the program's send blocks
// into the stage first and counts the call's uses of types in the report;
// each completion, by any Wait or Test, unpacks the received blocks. A
// collective the runtime leaves to MPI is created as the program wrote it,
// and only counted at each start.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_LIB_RUNTIME_PERSISTENTCOLLECTIVES_H
#define DDTC_LIB_RUNTIME_PERSISTENTCOLLECTIVES_H

#include "CollectiveStage.h"

#include <mpi.h>

#include <memory>

namespace ddtc {

/// Keeps the persistent collective P created in R.
void addPersistentCollective(MPI_Request R, PersistentCollective P);

/// Creates a persistent collective: Init(How) substitutes the collective
/// in its persistent form, recording its stage and uses in How.Init.
template <typename InitFn>
int initPersistentCollective(MPI_Info Info, MPI_Request *Request, InitFn Init) {
  PersistentCollective P;
  P.Call = CurrentCall;
  int Rc = Init(CollectiveCall{Request, Info, &P});
  if (Rc == MPI_SUCCESS && (P.Stage || !P.Uses.empty()))
    addPersistentCollective(*Request, std::move(P));
  return Rc;
}

/// Whether the runtime keeps any (one atomic load).
bool hasPersistentCollectives();
/// The persistent collective the runtime keeps for R, or null.
std::shared_ptr<const PersistentCollective>
findPersistentCollective(MPI_Request R);

/// Before MPI starts P: packs its send blocks.
int beforeCollectiveStart(const PersistentCollective &P);
/// After MPI started P in R: counts its uses; the start is pending until a
/// completion call unpacks it.
void afterCollectiveStart(MPI_Request R, const PersistentCollective &P);

/// MPI_Request_free of *Request if it is a persistent collective the
/// runtime keeps: true, with MPI's return code in Rc.
bool freePersistentCollective(MPI_Request *Request, int &Rc);

} // namespace ddtc

#endif // DDTC_LIB_RUNTIME_PERSISTENTCOLLECTIVES_H

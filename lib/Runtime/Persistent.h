//===- lib/Runtime/Persistent.h - Persistent point-to-point requests -*- C++ -*-===//
//
// The persistent requests the runtime created on packed buffers
// (Persistent.cpp), for MPI_Request_free (Completion.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_LIB_RUNTIME_PERSISTENT_H
#define DDTC_LIB_RUNTIME_PERSISTENT_H

#include <mpi.h>

namespace ddtc {

/// MPI_Request_free of *Request if it is a substituted persistent request:
/// true, with MPI's return code in Rc. An inactive request is freed with its
/// buffer at once; an active one is kept until its start completes.
bool freePersistentRequest(MPI_Request *Request, int &Rc);

} // namespace ddtc

#endif // DDTC_LIB_RUNTIME_PERSISTENT_H

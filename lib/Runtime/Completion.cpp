//===- lib/Runtime/Completion.cpp - MPI_Wait*, MPI_Test*, MPI_Request_free ===//
//
// Every way a request can complete finishes the substituted ones: the
// packed buffer of a send goes back to the pool, a receive is unpacked into
// the program's buffer first. The requests are looked up before MPI is
// called, because MPI sets a completed request to MPI_REQUEST_NULL. When
// the program ignores statuses, the wrappers still ask MPI for them: a
// receive needs its byte count.
//
//===----------------------------------------------------------------------===//
#include "Persistent.h"
#include "PersistentCollectives.h"
#include "RuntimeState.h"

#include <vector>

#define DDTC_EXPORT extern "C" __attribute__((visibility("default")))

using namespace ddtc;

namespace {

/// The substituted requests among Requests[0, N), by index, claimed for
/// this call; the claims of those the call does not complete are given
/// back at the end of it.
struct Snapshot {
  std::vector<MPI_Request> Handles;
  std::vector<std::optional<Pending>> States;
  bool Any = false;

  Snapshot(int N, const MPI_Request *Requests) {
    PendingRequests &P = runtime().Requests;
    if (P.empty() || N <= 0)
      return;
    Handles.assign(Requests, Requests + N);
    States.resize(N);
    for (int I = 0; I < N; ++I) {
      States[I] = P.claim(Requests[I]);
      Any |= States[I].has_value();
    }
  }
  Snapshot(const Snapshot &) = delete;
  Snapshot &operator=(const Snapshot &) = delete;
  ~Snapshot() {
    for (size_t I = 0; I < States.size(); ++I)
      if (States[I])
        runtime().Requests.unclaim(Handles[I], States[I]->Serial);
  }

  /// Finishes request I if it is substituted; Rc is its error. A request
  /// MPI reports as still pending (MPI_ERR_PENDING: MPI_Waitall or
  /// MPI_Testall stopped at another request's error) stays claimable.
  void finish(int I, const MPI_Status &Status, int Rc) {
    if (I < 0 || I >= static_cast<int>(States.size()) || !States[I] ||
        Rc == MPI_ERR_PENDING)
      return;
    runtime().Requests.finish(Handles[I], *States[I], Status, Rc);
    States[I].reset();
  }
};

/// A status to give MPI when the program passed MPI_STATUS(ES)_IGNORE.
std::vector<MPI_Status> statusesFor(int N) {
  std::vector<MPI_Status> S(N > 0 ? N : 0);
  for (MPI_Status &X : S)
    X.MPI_ERROR = MPI_SUCCESS;
  return S;
}

/// The error of request I after a call that returned Rc.
int errorOf(int Rc, const MPI_Status &S) {
  return Rc == MPI_ERR_IN_STATUS ? S.MPI_ERROR : Rc;
}

} // namespace

DDTC_EXPORT int MPI_Wait(MPI_Request *request, MPI_Status *status) {
  Snapshot S(1, request);
  if (!S.Any)
    return PMPI_Wait(request, status);
  MPI_Status Local = statusesFor(1)[0];
  int Rc = PMPI_Wait(request, &Local);
  S.finish(0, Local, Rc);
  if (status != MPI_STATUS_IGNORE)
    *status = Local;
  return Rc;
}

DDTC_EXPORT int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status) {
  Snapshot S(1, request);
  if (!S.Any)
    return PMPI_Test(request, flag, status);
  MPI_Status Local = statusesFor(1)[0];
  int Rc = PMPI_Test(request, flag, &Local);
  if (*flag)
    S.finish(0, Local, Rc);
  if (status != MPI_STATUS_IGNORE)
    *status = Local;
  return Rc;
}

DDTC_EXPORT int MPI_Waitall(int count, MPI_Request array_of_requests[],
                            MPI_Status array_of_statuses[]) {
  Snapshot S(count, array_of_requests);
  if (!S.Any)
    return PMPI_Waitall(count, array_of_requests, array_of_statuses);
  std::vector<MPI_Status> Local = statusesFor(count);
  int Rc = PMPI_Waitall(count, array_of_requests, Local.data());
  for (int I = 0; I < count; ++I)
    S.finish(I, Local[I], errorOf(Rc, Local[I]));
  if (array_of_statuses != MPI_STATUSES_IGNORE)
    std::copy(Local.begin(), Local.end(), array_of_statuses);
  return Rc;
}

DDTC_EXPORT int MPI_Testall(int count, MPI_Request array_of_requests[],
                            int *flag, MPI_Status array_of_statuses[]) {
  Snapshot S(count, array_of_requests);
  if (!S.Any)
    return PMPI_Testall(count, array_of_requests, flag, array_of_statuses);
  std::vector<MPI_Status> Local = statusesFor(count);
  int Rc = PMPI_Testall(count, array_of_requests, flag, Local.data());
  if (*flag)
    for (int I = 0; I < count; ++I)
      S.finish(I, Local[I], errorOf(Rc, Local[I]));
  if (array_of_statuses != MPI_STATUSES_IGNORE)
    std::copy(Local.begin(), Local.end(), array_of_statuses);
  return Rc;
}

DDTC_EXPORT int MPI_Waitany(int count, MPI_Request array_of_requests[],
                            int *indx, MPI_Status *status) {
  Snapshot S(count, array_of_requests);
  if (!S.Any)
    return PMPI_Waitany(count, array_of_requests, indx, status);
  MPI_Status Local = statusesFor(1)[0];
  int Rc = PMPI_Waitany(count, array_of_requests, indx, &Local);
  if (*indx != MPI_UNDEFINED)
    S.finish(*indx, Local, Rc);
  if (status != MPI_STATUS_IGNORE)
    *status = Local;
  return Rc;
}

DDTC_EXPORT int MPI_Testany(int count, MPI_Request array_of_requests[],
                            int *indx, int *flag, MPI_Status *status) {
  Snapshot S(count, array_of_requests);
  if (!S.Any)
    return PMPI_Testany(count, array_of_requests, indx, flag, status);
  MPI_Status Local = statusesFor(1)[0];
  int Rc = PMPI_Testany(count, array_of_requests, indx, flag, &Local);
  if (*flag && *indx != MPI_UNDEFINED)
    S.finish(*indx, Local, Rc);
  if (status != MPI_STATUS_IGNORE)
    *status = Local;
  return Rc;
}

namespace {

/// MPI_Waitsome and MPI_Testsome: Call is the PMPI function.
template <typename CallFn>
int someCompleted(int incount, MPI_Request array_of_requests[], int *outcount,
                  int array_of_indices[], MPI_Status array_of_statuses[],
                  CallFn Call) {
  Snapshot S(incount, array_of_requests);
  if (!S.Any)
    return Call(array_of_statuses);
  std::vector<MPI_Status> Local = statusesFor(incount);
  int Rc = Call(Local.data());
  if (*outcount != MPI_UNDEFINED)
    for (int K = 0; K < *outcount; ++K)
      S.finish(array_of_indices[K], Local[K], errorOf(Rc, Local[K]));
  if (array_of_statuses != MPI_STATUSES_IGNORE && *outcount != MPI_UNDEFINED)
    std::copy(Local.begin(), Local.begin() + *outcount, array_of_statuses);
  return Rc;
}

} // namespace

DDTC_EXPORT int MPI_Waitsome(int incount, MPI_Request array_of_requests[],
                             int *outcount, int array_of_indices[],
                             MPI_Status array_of_statuses[]) {
  return someCompleted(incount, array_of_requests, outcount, array_of_indices,
                       array_of_statuses, [&](MPI_Status *St) {
                         return PMPI_Waitsome(incount, array_of_requests,
                                              outcount, array_of_indices, St);
                       });
}

DDTC_EXPORT int MPI_Testsome(int incount, MPI_Request array_of_requests[],
                             int *outcount, int array_of_indices[],
                             MPI_Status array_of_statuses[]) {
  return someCompleted(incount, array_of_requests, outcount, array_of_indices,
                       array_of_statuses, [&](MPI_Status *St) {
                         return PMPI_Testsome(incount, array_of_requests,
                                              outcount, array_of_indices, St);
                       });
}

DDTC_EXPORT int MPI_Request_free(MPI_Request *request) {
  if (int Rc; freePersistentRequest(request, Rc) ||
              freePersistentCollective(request, Rc))
    return Rc;
  PendingRequests &P = runtime().Requests;
  std::optional<Pending> State = P.claim(*request);
  if (!State)
    return PMPI_Request_free(request);
  // MPI keeps the operation going; the runtime keeps the request, to free
  // (or unpack into) the buffer when it completes.
  P.orphan(*request, std::move(*State));
  *request = MPI_REQUEST_NULL;
  return MPI_SUCCESS;
}

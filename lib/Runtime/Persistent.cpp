//===- lib/Runtime/Persistent.cpp - Persistent point-to-point requests ----===//
//
// MPI_Send_init, MPI_Ssend_init, MPI_Rsend_init and MPI_Recv_init on a
// bound type create the persistent request on a packed buffer of its own,
// which lives as long as the request. Each MPI_Start or MPI_Startall of a
// send packs the program's buffer into it first; each start is pending
// (PendingRequests) until a Wait* or Test* completes it, which unpacks a
// receive into the program's buffer. MPI_Request_free of an inactive
// request frees its buffer with it; of an active one, the runtime keeps the
// request until that start completes and frees both then.
//
// Whether a request is substituted is decided once, at its creation: a
// persistent request is one message, of one size, for every start. The
// report counts each start, as substituted or, for a request on a derived
// type left to MPI, as passed through (the table keeps those requests too,
// with what to count). A send in the split-send window is created on the
// split's type of two blocks (SplitSend.h), and each start copies the
// tail past the gap again after packing. MPI_Bsend_init passes through: a
// buffered send's copy is counted against the buffer the program attached,
// by MPI's own rules for the program's type.
//
//===----------------------------------------------------------------------===//
#include "Persistent.h"

#include "BufferPool.h"
#include "PersistentCollectives.h"
#include "RuntimeState.h"

#include "ddtc/MPI/MPISupport.h"
#include "ddtc/MPI/SplitSend.h"

#include <atomic>
#include <mutex>
#include <unordered_map>
#include <vector>

#define DDTC_EXPORT extern "C" __attribute__((visibility("default")))

using namespace ddtc;

namespace {

struct PersistentRequest {
  /// Null for a request left to MPI, whose starts count Passed.
  BindingRef B;
  char *Packed = nullptr; ///< the pooled buffer, of Allocated
  size_t Bytes = 0;       ///< the packed bytes of one start
  size_t Allocated = 0;
  /// A send in the split window: each start copies the tail again.
  bool Split = false;
  void *UserBuffer = nullptr;
  MPI_Count Count = 0;
  bool IsReceive = false;
  SubstitutedCall Call = SubstitutedCall::SendInit;
  RuntimeState::PassedCall Passed;
};

/// The substituted persistent requests by MPI handle. A handle names one
/// request from its creation to MPI_Request_free.
class PersistentTable {
public:
  static PersistentTable &get() {
    static PersistentTable *T = new PersistentTable();
    return *T;
  }
  bool empty() const { return Size.load(std::memory_order_relaxed) == 0; }
  void add(MPI_Request R, PersistentRequest P) {
    std::lock_guard<std::mutex> G(Lock);
    Table[R] = std::move(P);
    Size.store(Table.size(), std::memory_order_relaxed);
  }
  std::optional<PersistentRequest> find(MPI_Request R) const {
    if (empty())
      return std::nullopt;
    std::lock_guard<std::mutex> G(Lock);
    const PersistentRequest *P = peek(R);
    return P ? std::optional<PersistentRequest>(*P) : std::nullopt;
  }
  /// find() without the lock and the copy (a mutex and up to two
  /// references: as much as the rest of a start left to MPI costs), for a
  /// program below MPI_THREAD_MULTIPLE, whose calls never overlap: valid
  /// until R is freed.
  const PersistentRequest *peek(MPI_Request R) const {
    if (empty())
      return nullptr;
    auto It = Table.find(R);
    return It == Table.end() ? nullptr : &It->second;
  }
  std::optional<PersistentRequest> take(MPI_Request R) {
    if (empty())
      return std::nullopt;
    std::lock_guard<std::mutex> G(Lock);
    auto It = Table.find(R);
    if (It == Table.end())
      return std::nullopt;
    PersistentRequest P = std::move(It->second);
    Table.erase(It);
    Size.store(Table.size(), std::memory_order_relaxed);
    return P;
  }

private:
  mutable std::mutex Lock;
  std::unordered_map<MPI_Request, PersistentRequest> Table;
  std::atomic<size_t> Size{0};
};

/// Records a request on a derived type that MPI creates as the program
/// wrote it, so that each of its starts counts as passed through.
int initPassed(int Rc, MPI_Request *Request, SubstitutedCall Call,
               RuntimeState::PassedCall Passed) {
  if (Rc == MPI_SUCCESS && Passed.B) {
    PersistentRequest P;
    P.Call = Call;
    P.Passed = std::move(Passed);
    PersistentTable::get().add(*Request, std::move(P));
  }
  return Rc;
}

/// Creates a persistent send or receive of Count instances of T with rank
/// Peer of Comm: on a packed buffer if T is substituted, else as the
/// program wrote it. Init(Buf, N, Type) creates the MPI request.
template <typename InitFn>
int initPacked(const void *Buf, MPI_Count Count, MPI_Datatype T, int Peer,
               MPI_Comm Comm, bool IsReceive, SubstitutedCall Call,
               MPI_Request *Request, InitFn Init) {
  RuntimeState &R = runtime();
  MPI_Datatype Passed;
  bool Remote = false;
  RuntimeState::PassedCall Pass;
  BindingRef B = R.decideMessage(T, Count, Comm, Peer, Remote, Passed, Pass);
  if (!B)
    return initPassed(Init(Buf, Count, Passed), Request, Call, std::move(Pass));
  uint64_t Bytes = static_cast<uint64_t>(Count) * B->Size;
  SplitSends &Splits = SplitSends::get();
  uint64_t Allocated = IsReceive ? Bytes : Splits.bufferBytes(Bytes, Remote);
  char *Packed = static_cast<char *>(BufferPool::get().acquire(Allocated));
  if (!Packed)
    return initPassed(Init(Buf, Count, T), Request, Call, {std::move(B)});
  SplitSends::Wire Wire{static_cast<MPI_Count>(Bytes), MPI_PACKED};
  if (!IsReceive)
    Wire = Splits.wire(Packed, Bytes, Remote);
  int Rc = Init(Packed, Wire.Count, Wire.Type);
  if (Rc != MPI_SUCCESS) {
    BufferPool::get().release(Packed, Allocated);
    return Rc;
  }
  PersistentRequest P{std::move(B),
                      Packed,
                      Bytes,
                      Allocated,
                      Wire.Type != MPI_PACKED,
                      const_cast<void *>(Buf),
                      Count,
                      IsReceive,
                      Call,
                      {}};
  PersistentTable::get().add(*Request, std::move(P));
  return Rc;
}

/// The MPI function of a persistent send (PMPI_Send_init, PMPI_Ssend_init,
/// PMPI_Rsend_init), in the count type of the family's packed calls.
using SendInitFn = decltype(&DDTC_MPI_COUNT_FN(PMPI_Send_init));

int sendInit(SubstitutedCall Call, SendInitFn Fn, const void *buf,
             MPI_Count count, MPI_Datatype datatype, int dest, int tag,
             MPI_Comm comm, MPI_Request *request) {
  CallScope Scope(Call);
  return initPacked(buf, count, datatype, dest, comm, /*IsReceive=*/false, Call,
                    request, [&](const void *B, MPI_Count N, MPI_Datatype T) {
                      return Fn(B, countArg(N), T, dest, tag, comm, request);
                    });
}

int recvInit(void *buf, MPI_Count count, MPI_Datatype datatype, int source,
             int tag, MPI_Comm comm, MPI_Request *request) {
  CallScope Scope(SubstitutedCall::RecvInit);
  return initPacked(buf, count, datatype, source, comm, /*IsReceive=*/true,
                    SubstitutedCall::RecvInit, request,
                    [&](const void *B, MPI_Count N, MPI_Datatype T) {
                      return DDTC_MPI_COUNT_FN(PMPI_Recv_init)(
                          const_cast<void *>(B), countArg(N), T, source, tag,
                          comm, request);
                    });
}

/// Before MPI starts R: packs a send.
void beforeStart(const PersistentRequest &P) {
  if (!P.B || P.IsReceive)
    return;
  P.B->pack(P.UserBuffer, P.Count, P.Packed);
  if (P.Split)
    SplitSends::get().copyTail(P.Packed, P.Bytes);
}

/// After MPI started R: a substituted start is pending until a completion
/// call finishes it.
void afterStart(MPI_Request R, const PersistentRequest &P) {
  RuntimeState &State = runtime();
  CallScope Scope(P.Call);
  if (!P.B) {
    State.notePassed(P.Passed);
    return;
  }
  State.noteSubstituted(*P.B, P.Bytes);
  Pending Start{P.IsReceive, P.Packed, P.Allocated, P.UserBuffer, P.Count, P.B};
  Start.OwnsBuffer = false;
  State.Requests.add(R, std::move(Start));
}

/// MPI_Start of *Request, a request of the table.
int start(MPI_Request *Request, const PersistentRequest &P) {
  beforeStart(P);
  int Rc = PMPI_Start(Request);
  if (Rc == MPI_SUCCESS)
    afterStart(*Request, P);
  return Rc;
}

} // namespace

namespace ddtc {

bool freePersistentRequest(MPI_Request *Request, int &Rc) {
  std::optional<PersistentRequest> P = PersistentTable::get().take(*Request);
  if (!P)
    return false;
  if (!P->B) {
    Rc = PMPI_Request_free(Request);
    return true;
  }
  PendingRequests &Pendings = runtime().Requests;
  if (std::optional<Pending> Active = Pendings.claim(*Request)) {
    // MPI keeps the start going; the runtime keeps the request, and frees
    // it and the buffer when the start completes.
    Active->OwnsBuffer = true;
    Active->FreesHandle = true;
    Pendings.orphan(*Request, std::move(*Active));
    *Request = MPI_REQUEST_NULL;
    Rc = MPI_SUCCESS;
    return true;
  }
  Rc = PMPI_Request_free(Request);
  BufferPool::get().release(P->Packed, P->Allocated);
  return true;
}

} // namespace ddtc

DDTC_EXPORT int MPI_Send_init(const void *buf, int count, MPI_Datatype datatype,
                              int dest, int tag, MPI_Comm comm,
                              MPI_Request *request) {
  return sendInit(SubstitutedCall::SendInit, DDTC_MPI_COUNT_FN(PMPI_Send_init),
                  buf, count, datatype, dest, tag, comm, request);
}

DDTC_EXPORT int MPI_Ssend_init(const void *buf, int count,
                               MPI_Datatype datatype, int dest, int tag,
                               MPI_Comm comm, MPI_Request *request) {
  return sendInit(SubstitutedCall::SsendInit,
                  DDTC_MPI_COUNT_FN(PMPI_Ssend_init), buf, count, datatype,
                  dest, tag, comm, request);
}

DDTC_EXPORT int MPI_Rsend_init(const void *buf, int count,
                               MPI_Datatype datatype, int dest, int tag,
                               MPI_Comm comm, MPI_Request *request) {
  return sendInit(SubstitutedCall::RsendInit,
                  DDTC_MPI_COUNT_FN(PMPI_Rsend_init), buf, count, datatype,
                  dest, tag, comm, request);
}

DDTC_EXPORT int MPI_Recv_init(void *buf, int count, MPI_Datatype datatype,
                              int source, int tag, MPI_Comm comm,
                              MPI_Request *request) {
  return recvInit(buf, count, datatype, source, tag, comm, request);
}

#if DDTC_MPI_LARGE_COUNT
DDTC_EXPORT int MPI_Send_init_c(const void *buf, MPI_Count count,
                                MPI_Datatype datatype, int dest, int tag,
                                MPI_Comm comm, MPI_Request *request) {
  return sendInit(SubstitutedCall::SendInit, PMPI_Send_init_c, buf, count,
                  datatype, dest, tag, comm, request);
}

DDTC_EXPORT int MPI_Ssend_init_c(const void *buf, MPI_Count count,
                                 MPI_Datatype datatype, int dest, int tag,
                                 MPI_Comm comm, MPI_Request *request) {
  return sendInit(SubstitutedCall::SsendInit, PMPI_Ssend_init_c, buf, count,
                  datatype, dest, tag, comm, request);
}

DDTC_EXPORT int MPI_Rsend_init_c(const void *buf, MPI_Count count,
                                 MPI_Datatype datatype, int dest, int tag,
                                 MPI_Comm comm, MPI_Request *request) {
  return sendInit(SubstitutedCall::RsendInit, PMPI_Rsend_init_c, buf, count,
                  datatype, dest, tag, comm, request);
}

DDTC_EXPORT int MPI_Recv_init_c(void *buf, MPI_Count count,
                                MPI_Datatype datatype, int source, int tag,
                                MPI_Comm comm, MPI_Request *request) {
  return recvInit(buf, count, datatype, source, tag, comm, request);
}
#endif

DDTC_EXPORT int MPI_Start(MPI_Request *request) {
  if (std::shared_ptr<const PersistentCollective> C =
          findPersistentCollective(*request)) {
    if (int Rc = beforeCollectiveStart(*C))
      return Rc;
    int Rc = PMPI_Start(request);
    if (Rc == MPI_SUCCESS)
      afterCollectiveStart(*request, *C);
    return Rc;
  }
  PersistentTable &Table = PersistentTable::get();
  if (!runtime().ConcurrentCalls) {
    const PersistentRequest *P = Table.peek(*request);
    return P ? start(request, *P) : PMPI_Start(request);
  }
  std::optional<PersistentRequest> P = Table.find(*request);
  return P ? start(request, *P) : PMPI_Start(request);
}

DDTC_EXPORT int MPI_Startall(int count, MPI_Request array_of_requests[]) {
  PersistentTable &Table = PersistentTable::get();
  if ((Table.empty() && !hasPersistentCollectives()) || count <= 0)
    return PMPI_Startall(count, array_of_requests);
  size_t N = static_cast<size_t>(count);
  std::vector<std::optional<PersistentRequest>> Ps(N);
  std::vector<std::shared_ptr<const PersistentCollective>> Cs(N);
  for (size_t I = 0; I < N; ++I) {
    if ((Cs[I] = findPersistentCollective(array_of_requests[I]))) {
      if (int Rc = beforeCollectiveStart(*Cs[I]))
        return Rc;
    } else if ((Ps[I] = Table.find(array_of_requests[I]))) {
      beforeStart(*Ps[I]);
    }
  }
  int Rc = PMPI_Startall(count, array_of_requests);
  // MPI_Startall starts every request or reports an error; on an error
  // nothing is known to be started, and none is made pending.
  if (Rc == MPI_SUCCESS)
    for (size_t I = 0; I < N; ++I) {
      if (Cs[I])
        afterCollectiveStart(array_of_requests[I], *Cs[I]);
      else if (Ps[I])
        afterStart(array_of_requests[I], *Ps[I]);
    }
  return Rc;
}

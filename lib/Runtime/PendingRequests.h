//===- lib/Runtime/PendingRequests.h - Non-blocking calls in flight -*- C++ -*-===//
//
// A substituted MPI_Isend owns its packed buffer until the send completes;
// a substituted MPI_Irecv receives into a packed buffer and unpacks it into
// the program's buffer at completion. The table maps the MPI request to
// that state; every MPI_Wait*/MPI_Test* looks its requests up here (a
// single atomic load when nothing is pending). A request the program frees
// with MPI_Request_free becomes an orphan: the runtime keeps the MPI
// request, tests it on later calls and waits for it at MPI_Finalize, so
// that the packed buffer is neither leaked nor freed under a send in
// progress, and a receive still lands in the program's buffer.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_LIB_RUNTIME_PENDINGREQUESTS_H
#define DDTC_LIB_RUNTIME_PENDINGREQUESTS_H

#include "TypeBinding.h"

#include <mpi.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

namespace ddtc {

/// Work that completes with a request. Reached through its vtable, so that
/// the pending requests depend on none of the kinds of work.
class RequestCompletion {
public:
  virtual ~RequestCompletion() = default;
  /// The request completed; Succeeded: without an error.
  virtual void complete(bool Succeeded) = 0;
};

struct Pending {
  bool IsReceive = false;
  char *Packed = nullptr; ///< the pooled buffer
  size_t Bytes = 0;       ///< its size
  void *UserBuffer = nullptr;
  MPI_Count Count = 0;
  BindingRef B;
  /// Set by add(). A handle does not name one call: MPI reuses the handle
  /// of a completed request at once, possibly for another thread's call,
  /// and MPICH returns one shared handle for every send that completed at
  /// once (its "lightweight" requests). Entries are told apart by serial,
  /// and each is completed exactly once, by the call that claimed it.
  uint64_t Serial = 0;
  /// Whether completion returns the buffer to the pool: not for a start of
  /// a persistent request, whose buffer lives as long as the request
  /// (Persistent.cpp).
  bool OwnsBuffer = true;
  /// Whether the MPI request is freed once it completes: an active
  /// persistent request the program freed, which completion only makes
  /// inactive.
  bool FreesHandle = false;
  /// What else completes with the request, in place of a receive's unpack
  /// (the fields above are then unused): a non-blocking collective's packed
  /// blocks (CollectiveStage.h), a one-sided request form's operation
  /// (OneSided.h).
  std::shared_ptr<RequestCompletion> Then = nullptr;
};

class PendingRequests {
public:
  void add(MPI_Request R, Pending P);
  /// Claims R for the calling thread's completion call: the state of R (a
  /// copy; the entry stays in the table until finish()) if it is a
  /// substituted request not claimed by another call. The claim is what
  /// makes a handle name one call: a thread that completed a request in
  /// MPI but has not finished it yet still holds the entry while MPI gives
  /// the handle to another thread's new request; and of the entries of an
  /// MPICH shared handle, each caller gets one of its own.
  std::optional<Pending> claim(MPI_Request R);
  /// Gives back the claim of an entry whose request did not complete
  /// (MPI_Test* with flag false, the requests MPI_Waitany did not pick).
  void unclaim(MPI_Request R, uint64_t Serial);
  /// Completes a claimed request whose MPI request finished with Status
  /// (Rc its return code): unpacks a receive, frees the buffer, and drops
  /// the entry.
  void finish(MPI_Request R, const Pending &P, const MPI_Status &Status,
              int Rc);
  /// Nothing pending at all: the completion wrappers go straight to MPI.
  bool empty() const { return Size.load(std::memory_order_relaxed) == 0; }
  /// Substituted requests not completed yet (the report's check that none
  /// is lost).
  size_t size() const { return Size.load(std::memory_order_relaxed); }

  /// MPI_Request_free of a claimed request.
  void orphan(MPI_Request R, Pending P);
  /// Tests the orphans and finishes those that completed (Wait: waits for
  /// every one, at MPI_Finalize).
  void settleOrphans(bool Wait);
  /// Read without the lock, as empty(): every non-blocking call asks, and
  /// an orphan seen one call late is settled at the next.
  bool hasOrphans() const {
    return OrphanCount.load(std::memory_order_relaxed) != 0;
  }

private:
  static void complete(const Pending &P, const MPI_Status &Status, int Rc);
  struct Entry {
    Pending P;
    bool Claimed = false;
  };
  /// The entry of R with Serial, or null. Lock held.
  Entry *lookup(MPI_Request R, uint64_t Serial);
  /// Removes the entry of R with Serial; false if it is gone. Lock held.
  bool take(MPI_Request R, uint64_t Serial);
  /// Publishes the sizes the lock-free checks read. Lock held.
  void noteSizes() {
    Size.store(Table.size() + Orphans.size(), std::memory_order_relaxed);
    OrphanCount.store(Orphans.size(), std::memory_order_relaxed);
  }

  mutable std::mutex Lock;
  std::unordered_multimap<MPI_Request, Entry> Table;
  std::vector<std::pair<MPI_Request, Pending>> Orphans;
  std::atomic<size_t> Size{0};
  std::atomic<size_t> OrphanCount{0};
  uint64_t NextSerial = 1;
};

} // namespace ddtc

#endif // DDTC_LIB_RUNTIME_PENDINGREQUESTS_H

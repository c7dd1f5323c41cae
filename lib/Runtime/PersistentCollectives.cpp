//===- lib/Runtime/PersistentCollectives.cpp - MPI 4's persistent collectives ===//
#include "PersistentCollectives.h"

#include "RuntimeState.h"

#include <atomic>
#include <mutex>
#include <unordered_map>

namespace ddtc {

namespace {

/// The persistent collectives by MPI handle, from their creation to
/// MPI_Request_free. Entries are shared: a start in flight keeps its stage
/// even if the program frees the request.
class PersistentCollectives {
public:
  static PersistentCollectives &get() {
    static PersistentCollectives *T = new PersistentCollectives();
    return *T;
  }
  void add(MPI_Request R, std::shared_ptr<const PersistentCollective> P) {
    std::lock_guard<std::mutex> G(Lock);
    Table[R] = std::move(P);
    Size.store(Table.size(), std::memory_order_relaxed);
  }
  /// Every MPI_Start asks: one atomic load when there is none.
  bool empty() const { return Size.load(std::memory_order_relaxed) == 0; }
  std::shared_ptr<const PersistentCollective> find(MPI_Request R) const {
    if (empty())
      return nullptr;
    std::lock_guard<std::mutex> G(Lock);
    auto It = Table.find(R);
    return It == Table.end() ? nullptr : It->second;
  }
  std::shared_ptr<const PersistentCollective> take(MPI_Request R) {
    if (empty())
      return nullptr;
    std::lock_guard<std::mutex> G(Lock);
    auto It = Table.find(R);
    if (It == Table.end())
      return nullptr;
    std::shared_ptr<const PersistentCollective> P = std::move(It->second);
    Table.erase(It);
    Size.store(Table.size(), std::memory_order_relaxed);
    return P;
  }

private:
  mutable std::mutex Lock;
  std::unordered_map<MPI_Request, std::shared_ptr<const PersistentCollective>>
      Table;
  std::atomic<size_t> Size{0};
};

} // namespace

void addPersistentCollective(MPI_Request R, PersistentCollective P) {
  PersistentCollectives::get().add(
      R, std::make_shared<const PersistentCollective>(std::move(P)));
}

bool hasPersistentCollectives() {
  return !PersistentCollectives::get().empty();
}

std::shared_ptr<const PersistentCollective>
findPersistentCollective(MPI_Request R) {
  return PersistentCollectives::get().find(R);
}

int beforeCollectiveStart(const PersistentCollective &P) {
  return P.Stage ? P.Stage->packRecorded() : MPI_SUCCESS;
}

void afterCollectiveStart(MPI_Request R, const PersistentCollective &P) {
  CallScope Scope(P.Call);
  for (const CollectiveUse &U : P.Uses)
    countCollectiveUse(*U.B, U.Bytes, U.Left, U.LongBlocks, U.AsFast);
  if (P.Stage && P.Stage->needsCompletion())
    addPendingStage(R, P.Stage);
}

bool freePersistentCollective(MPI_Request *Request, int &Rc) {
  std::shared_ptr<const PersistentCollective> P =
      PersistentCollectives::get().take(*Request);
  if (!P)
    return false;
  PendingRequests &Pendings = runtime().Requests;
  if (std::optional<Pending> Active = Pendings.claim(*Request)) {
    // A start in flight: MPI completes it, and the pending entry, which
    // holds the stage, unpacks and frees the request then.
    Active->FreesHandle = true;
    Pendings.orphan(*Request, std::move(*Active));
    *Request = MPI_REQUEST_NULL;
    Rc = MPI_SUCCESS;
    return true;
  }
  Rc = PMPI_Request_free(Request);
  return true;
}

} // namespace ddtc

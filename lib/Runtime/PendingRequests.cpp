//===- lib/Runtime/PendingRequests.cpp - Non-blocking calls in flight -----===//
#include "PendingRequests.h"

#include "BufferPool.h"
#include "Packing.h"

#include "ddtc/MPI/MPISupport.h"

namespace ddtc {

void PendingRequests::add(MPI_Request R, Pending P) {
  std::lock_guard<std::mutex> G(Lock);
  P.Serial = NextSerial++;
  Table.emplace(R, Entry{std::move(P)});
  noteSizes();
}

std::optional<Pending> PendingRequests::claim(MPI_Request R) {
  if (empty() || R == MPI_REQUEST_NULL)
    return std::nullopt;
  std::lock_guard<std::mutex> G(Lock);
  auto [First, Last] = Table.equal_range(R);
  for (auto It = First; It != Last; ++It)
    if (!It->second.Claimed) {
      It->second.Claimed = true;
      return It->second.P;
    }
  return std::nullopt;
}

PendingRequests::Entry *PendingRequests::lookup(MPI_Request R,
                                                uint64_t Serial) {
  auto [First, Last] = Table.equal_range(R);
  for (auto It = First; It != Last; ++It)
    if (It->second.P.Serial == Serial)
      return &It->second;
  return nullptr;
}

void PendingRequests::unclaim(MPI_Request R, uint64_t Serial) {
  std::lock_guard<std::mutex> G(Lock);
  if (Entry *E = lookup(R, Serial))
    E->Claimed = false;
}

void PendingRequests::complete(const Pending &P, const MPI_Status &Status,
                               int Rc) {
  if (P.Then) {
    P.Then->complete(Rc == MPI_SUCCESS && Status.MPI_ERROR == MPI_SUCCESS);
    return;
  }
  if (P.IsReceive && Rc == MPI_SUCCESS && Status.MPI_ERROR == MPI_SUCCESS) {
    int Cancelled = 0;
    PMPI_Test_cancelled(&Status, &Cancelled);
    MPICount Bytes = 0;
    DDTC_MPI_COUNT_FN(PMPI_Get_count)(&Status, MPI_PACKED, &Bytes);
    // Only bound types are pending, so the kernel (or the IR, for a
    // message that ends inside an instance) does the unpacking.
    if (!Cancelled && Bytes != MPI_UNDEFINED)
      unpackAny(P.B.get(), MPI_DATATYPE_NULL, P.Packed, Bytes, P.UserBuffer,
                P.Count, MPI_COMM_SELF);
  }
  if (P.OwnsBuffer)
    BufferPool::get().release(P.Packed, P.Bytes);
}

bool PendingRequests::take(MPI_Request R, uint64_t Serial) {
  auto [First, Last] = Table.equal_range(R);
  for (auto It = First; It != Last; ++It)
    if (It->second.P.Serial == Serial) {
      Table.erase(It);
      noteSizes();
      return true;
    }
  return false;
}

void PendingRequests::finish(MPI_Request R, const Pending &P,
                             const MPI_Status &Status, int Rc) {
  {
    std::lock_guard<std::mutex> G(Lock);
    if (!take(R, P.Serial))
      return;
  }
  complete(P, Status, Rc);
}

void PendingRequests::orphan(MPI_Request R, Pending P) {
  std::lock_guard<std::mutex> G(Lock);
  if (!take(R, P.Serial))
    return;
  Orphans.emplace_back(R, std::move(P));
  noteSizes();
}

void PendingRequests::settleOrphans(bool Wait) {
  std::vector<std::pair<Pending, MPI_Status>> Done;
  {
    std::lock_guard<std::mutex> G(Lock);
    for (size_t I = 0; I < Orphans.size();) {
      int Flag = 1;
      MPI_Status Status;
      Status.MPI_ERROR = MPI_SUCCESS;
      if (Wait)
        PMPI_Wait(&Orphans[I].first, &Status);
      else
        PMPI_Test(&Orphans[I].first, &Flag, &Status);
      if (!Flag) {
        ++I;
        continue;
      }
      if (Orphans[I].second.FreesHandle)
        PMPI_Request_free(&Orphans[I].first);
      Done.emplace_back(std::move(Orphans[I].second), Status);
      Orphans[I] = std::move(Orphans.back());
      Orphans.pop_back();
    }
    noteSizes();
  }
  for (const auto &[P, Status] : Done)
    complete(P, Status, MPI_SUCCESS);
}

} // namespace ddtc

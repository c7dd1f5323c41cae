//===- lib/Runtime/OneSided.cpp - Substituted one-sided origins -----------===//
//
// MPI_Put, MPI_Get, MPI_Accumulate, MPI_Get_accumulate and their request
// forms, on an origin (or result) type with a kernel whose typemap holds
// one basic predefined type: the origin is packed with the kernel and
// handed to MPI as Size / ElementSize elements of that type. That is the
// same type signature, so the target type, which is passed unchanged,
// still matches it, and an accumulate operation combines the same elements
// in the same order. A type of several predefined types has no such
// stand-in (MPI_PACKED matches no target type in one-sided calls, and
// accumulate operations need the elements' types), so it passes through.
//
// The packed buffers live until the operation completes at the origin
// (OneSided.h): the windows' tables below hold them until the
// synchronization that ends or flushes their epoch, and the request forms'
// entries in PendingRequests until their request completes.
//
//===----------------------------------------------------------------------===//
#include "OneSided.h"

#include "BufferPool.h"
#include "RuntimeState.h"

#include "ddtc/MPI/MPISupport.h"

#include <algorithm>
#include <mutex>
#include <unordered_map>
#include <vector>

#define DDTC_EXPORT extern "C" __attribute__((visibility("default")))

using namespace ddtc;

namespace {

/// Synchronizations that complete the operations to every target.
constexpr int AllTargets = -1;

/// The substituted operations of each window not yet completed at the
/// origin, by target rank. Programs may issue operations and synchronize
/// from several threads, so one lock guards the table; it is never held
/// across an MPI call.
class WindowOps {
public:
  struct Entry {
    int Target;
    std::shared_ptr<WindowOp> Op;
  };

  void add(MPI_Win W, int Target, std::shared_ptr<WindowOp> Op) {
    std::lock_guard<std::mutex> G(Lock);
    Window &L = Windows[W];
    // A passive-target epoch may complete all its operations by their
    // requests and never flush: those already finished are dropped here,
    // so that the list stays as long as the operations in flight.
    if (L.Ops.size() >= L.PurgeAt) {
      std::erase_if(L.Ops, [](const Entry &E) { return E.Op->finished(); });
      L.PurgeAt = std::max<size_t>(MinPurge, 2 * L.Ops.size());
    }
    L.Ops.push_back({Target, std::move(Op)});
    Count.fetch_add(1, std::memory_order_relaxed);
  }

  /// Takes out W's operations to Target (or to all: AllTargets).
  std::vector<Entry> take(MPI_Win W, int Target) {
    std::vector<Entry> Taken;
    if (empty())
      return Taken;
    std::lock_guard<std::mutex> G(Lock);
    auto It = Windows.find(W);
    if (It == Windows.end())
      return Taken;
    std::vector<Entry> &Ops = It->second.Ops;
    if (Target == AllTargets) {
      Taken.swap(Ops);
    } else {
      auto Kept =
          std::stable_partition(Ops.begin(), Ops.end(), [&](const Entry &E) {
            return E.Target != Target;
          });
      Taken.assign(std::make_move_iterator(Kept),
                   std::make_move_iterator(Ops.end()));
      Ops.erase(Kept, Ops.end());
    }
    if (Ops.empty())
      Windows.erase(It);
    Count.fetch_sub(Taken.size(), std::memory_order_relaxed);
    return Taken;
  }

  /// Puts back what take() took, after a synchronization that failed.
  void giveBack(MPI_Win W, std::vector<Entry> Ops) {
    for (Entry &E : Ops)
      add(W, E.Target, std::move(E.Op));
  }

  /// Nothing in flight in any window: the synchronizations go straight to
  /// MPI without the lock.
  bool empty() const { return Count.load(std::memory_order_relaxed) == 0; }

private:
  static constexpr size_t MinPurge = 64;
  struct Window {
    std::vector<Entry> Ops;
    size_t PurgeAt = MinPurge;
  };
  std::mutex Lock;
  std::unordered_map<MPI_Win, Window> Windows;
  std::atomic<size_t> Count{0};
};

WindowOps &windowOps() {
  // Never destroyed: a program may synchronize from an atexit handler.
  static WindowOps *Ops = new WindowOps;
  return *Ops;
}

/// A synchronization call on W that completes at the origin the operations
/// to Target (AllTargets: all of W's); Sync makes the MPI call. The
/// operations are taken out before it, so that those another thread issues
/// meanwhile wait for a later synchronization.
template <typename SyncFn> int synchronize(MPI_Win W, int Target, SyncFn Sync) {
  WindowOps &Ops = windowOps();
  if (Ops.empty())
    return Sync();
  std::vector<WindowOps::Entry> Taken = Ops.take(W, Target);
  int Rc = Sync();
  if (Rc != MPI_SUCCESS) {
    Ops.giveBack(W, std::move(Taken));
    return Rc;
  }
  for (WindowOps::Entry &E : Taken)
    E.Op->finish(/*Arrived=*/true);
  return Rc;
}

/// One buffer side of a one-sided call (origin or result): what to hand
/// MPI, and the pooled buffer if the side is substituted.
struct Side {
  const void *Buf;
  MPI_Count Count;
  MPI_Datatype Type;
  WindowOp::Buffer Staged;
  BindingRef B; ///< set when substituted
};

/// Stages one side: substituted when its type has a kernel and a single
/// predefined type (Binding::SinglePredefined) and the pool has a buffer;
/// Pack packs the program's data into it (an origin), else it is to be
/// unpacked at completion (a result).
Side stage(const void *Buf, int Count, MPI_Datatype T, bool Pack) {
  Side S{Buf, Count, T, {}, nullptr};
  RuntimeState &R = runtime();
  BindingRef B = R.substitutable(T, Count);
  if (!B)
    return S;
  uint64_t Bytes = static_cast<uint64_t>(Count) * B->Size;
  char *Packed = B->SinglePredefined == MPI_DATATYPE_NULL
                     ? nullptr
                     : static_cast<char *>(BufferPool::get().acquire(Bytes));
  if (!Packed) {
    R.notePassed(*B);
    return S;
  }
  if (Pack)
    B->pack(Buf, Count, Packed);
  S.Buf = Packed;
  S.Count = static_cast<MPI_Count>(Bytes / B->ElementSize);
  S.Type = B->SinglePredefined;
  S.Staged = {Packed, Bytes, Pack ? nullptr : B, const_cast<void *>(Buf),
              Count};
  S.B = std::move(B);
  return S;
}

/// Ends a one-sided call whose origin and result sides were staged and
/// which MPI returned Rc for: counts the substituted sides and records the
/// operation with window W (and Request, for a request form), or frees its
/// buffers if MPI refused the call.
int record(Side &Origin, Side &Result, int Rc, MPI_Win W, int Target,
           MPI_Request *Request) {
  if (!Origin.B && !Result.B)
    return Rc;
  auto Op = std::make_shared<WindowOp>(std::move(Origin.Staged),
                                       std::move(Result.Staged));
  if (Rc != MPI_SUCCESS) {
    Op->finish(/*Arrived=*/false);
    return Rc;
  }
  RuntimeState &R = runtime();
  for (Side *X : {&Origin, &Result})
    if (X->B)
      R.noteSubstituted(*X->B,
                        static_cast<uint64_t>(X->Count) * X->B->ElementSize);
  if (Request) {
    Pending P;
    P.OwnsBuffer = false;
    P.Then = Op;
    R.Requests.add(*Request, std::move(P));
  }
  windowOps().add(W, Target, std::move(Op));
  return Rc;
}

/// A side that is not there (MPI_Put's result; an origin MPI ignores).
Side absent(const void *Buf, int Count, MPI_Datatype T) {
  return Side{Buf, Count, T, {}, nullptr};
}

/// An orphaned request form (MPI_Request_free) is completed by a later
/// non-blocking call, as point-to-point ones are.
void settleOrphans() {
  PendingRequests &P = runtime().Requests;
  if (P.hasOrphans())
    P.settleOrphans(/*Wait=*/false);
}

} // namespace

//===----------------------------------------------------------------------===//
// Operations
//===----------------------------------------------------------------------===//

DDTC_EXPORT int MPI_Put(const void *origin_addr, int origin_count,
                        MPI_Datatype origin_datatype, int target_rank,
                        MPI_Aint target_disp, int target_count,
                        MPI_Datatype target_datatype, MPI_Win win) {
  CallScope Scope(SubstitutedCall::Put);
  Side O = stage(origin_addr, origin_count, origin_datatype, /*Pack=*/true);
  Side None = absent(nullptr, 0, MPI_DATATYPE_NULL);
  int Rc = DDTC_MPI_COUNT_FN(PMPI_Put)(O.Buf, countArg(O.Count), O.Type,
                                       target_rank, target_disp, target_count,
                                       target_datatype, win);
  return record(O, None, Rc, win, target_rank, nullptr);
}

DDTC_EXPORT int MPI_Get(void *origin_addr, int origin_count,
                        MPI_Datatype origin_datatype, int target_rank,
                        MPI_Aint target_disp, int target_count,
                        MPI_Datatype target_datatype, MPI_Win win) {
  CallScope Scope(SubstitutedCall::Get);
  Side None = absent(nullptr, 0, MPI_DATATYPE_NULL);
  Side Res = stage(origin_addr, origin_count, origin_datatype, /*Pack=*/false);
  int Rc = DDTC_MPI_COUNT_FN(PMPI_Get)(
      const_cast<void *>(Res.Buf), countArg(Res.Count), Res.Type, target_rank,
      target_disp, target_count, target_datatype, win);
  return record(None, Res, Rc, win, target_rank, nullptr);
}

DDTC_EXPORT int MPI_Accumulate(const void *origin_addr, int origin_count,
                               MPI_Datatype origin_datatype, int target_rank,
                               MPI_Aint target_disp, int target_count,
                               MPI_Datatype target_datatype, MPI_Op op,
                               MPI_Win win) {
  CallScope Scope(SubstitutedCall::Accumulate);
  Side O = stage(origin_addr, origin_count, origin_datatype, /*Pack=*/true);
  Side None = absent(nullptr, 0, MPI_DATATYPE_NULL);
  int Rc = DDTC_MPI_COUNT_FN(PMPI_Accumulate)(
      O.Buf, countArg(O.Count), O.Type, target_rank, target_disp, target_count,
      target_datatype, op, win);
  return record(O, None, Rc, win, target_rank, nullptr);
}

namespace {

/// The origin of MPI_Get_accumulate: with MPI_NO_OP MPI ignores origin_addr,
/// origin_count and origin_datatype (MPI-4 §12.3.4), which need not
/// describe any memory, so that origin is never packed.
Side stageFetchOrigin(const void *Buf, int Count, MPI_Datatype T, MPI_Op Op) {
  if (Op == MPI_NO_OP)
    return absent(Buf, Count, T);
  return stage(Buf, Count, T, /*Pack=*/true);
}

} // namespace

DDTC_EXPORT int
MPI_Get_accumulate(const void *origin_addr, int origin_count,
                   MPI_Datatype origin_datatype, void *result_addr,
                   int result_count, MPI_Datatype result_datatype,
                   int target_rank, MPI_Aint target_disp, int target_count,
                   MPI_Datatype target_datatype, MPI_Op op, MPI_Win win) {
  CallScope Scope(SubstitutedCall::GetAccumulate);
  Side O = stageFetchOrigin(origin_addr, origin_count, origin_datatype, op);
  Side Res = stage(result_addr, result_count, result_datatype, /*Pack=*/false);
  int Rc = DDTC_MPI_COUNT_FN(PMPI_Get_accumulate)(
      O.Buf, countArg(O.Count), O.Type, const_cast<void *>(Res.Buf),
      countArg(Res.Count), Res.Type, target_rank, target_disp, target_count,
      target_datatype, op, win);
  return record(O, Res, Rc, win, target_rank, nullptr);
}

DDTC_EXPORT int MPI_Rput(const void *origin_addr, int origin_count,
                         MPI_Datatype origin_datatype, int target_rank,
                         MPI_Aint target_disp, int target_count,
                         MPI_Datatype target_datatype, MPI_Win win,
                         MPI_Request *request) {
  CallScope Scope(SubstitutedCall::Rput);
  settleOrphans();
  Side O = stage(origin_addr, origin_count, origin_datatype, /*Pack=*/true);
  Side None = absent(nullptr, 0, MPI_DATATYPE_NULL);
  int Rc = DDTC_MPI_COUNT_FN(PMPI_Rput)(O.Buf, countArg(O.Count), O.Type,
                                        target_rank, target_disp, target_count,
                                        target_datatype, win, request);
  return record(O, None, Rc, win, target_rank, request);
}

DDTC_EXPORT int MPI_Rget(void *origin_addr, int origin_count,
                         MPI_Datatype origin_datatype, int target_rank,
                         MPI_Aint target_disp, int target_count,
                         MPI_Datatype target_datatype, MPI_Win win,
                         MPI_Request *request) {
  CallScope Scope(SubstitutedCall::Rget);
  settleOrphans();
  Side None = absent(nullptr, 0, MPI_DATATYPE_NULL);
  Side Res = stage(origin_addr, origin_count, origin_datatype, /*Pack=*/false);
  int Rc = DDTC_MPI_COUNT_FN(PMPI_Rget)(
      const_cast<void *>(Res.Buf), countArg(Res.Count), Res.Type, target_rank,
      target_disp, target_count, target_datatype, win, request);
  return record(None, Res, Rc, win, target_rank, request);
}

DDTC_EXPORT int MPI_Raccumulate(const void *origin_addr, int origin_count,
                                MPI_Datatype origin_datatype, int target_rank,
                                MPI_Aint target_disp, int target_count,
                                MPI_Datatype target_datatype, MPI_Op op,
                                MPI_Win win, MPI_Request *request) {
  CallScope Scope(SubstitutedCall::Raccumulate);
  settleOrphans();
  Side O = stage(origin_addr, origin_count, origin_datatype, /*Pack=*/true);
  Side None = absent(nullptr, 0, MPI_DATATYPE_NULL);
  int Rc = DDTC_MPI_COUNT_FN(PMPI_Raccumulate)(
      O.Buf, countArg(O.Count), O.Type, target_rank, target_disp, target_count,
      target_datatype, op, win, request);
  return record(O, None, Rc, win, target_rank, request);
}

DDTC_EXPORT int MPI_Rget_accumulate(const void *origin_addr, int origin_count,
                                    MPI_Datatype origin_datatype,
                                    void *result_addr, int result_count,
                                    MPI_Datatype result_datatype,
                                    int target_rank, MPI_Aint target_disp,
                                    int target_count,
                                    MPI_Datatype target_datatype, MPI_Op op,
                                    MPI_Win win, MPI_Request *request) {
  CallScope Scope(SubstitutedCall::RgetAccumulate);
  settleOrphans();
  Side O = stageFetchOrigin(origin_addr, origin_count, origin_datatype, op);
  Side Res = stage(result_addr, result_count, result_datatype, /*Pack=*/false);
  int Rc = DDTC_MPI_COUNT_FN(PMPI_Rget_accumulate)(
      O.Buf, countArg(O.Count), O.Type, const_cast<void *>(Res.Buf),
      countArg(Res.Count), Res.Type, target_rank, target_disp, target_count,
      target_datatype, op, win, request);
  return record(O, Res, Rc, win, target_rank, request);
}

//===----------------------------------------------------------------------===//
// Synchronizations
//===----------------------------------------------------------------------===//

DDTC_EXPORT int MPI_Win_fence(int assertion, MPI_Win win) {
  return synchronize(win, AllTargets,
                     [&] { return PMPI_Win_fence(assertion, win); });
}

DDTC_EXPORT int MPI_Win_complete(MPI_Win win) {
  return synchronize(win, AllTargets, [&] { return PMPI_Win_complete(win); });
}

DDTC_EXPORT int MPI_Win_unlock(int rank, MPI_Win win) {
  return synchronize(win, rank, [&] { return PMPI_Win_unlock(rank, win); });
}

DDTC_EXPORT int MPI_Win_unlock_all(MPI_Win win) {
  return synchronize(win, AllTargets, [&] { return PMPI_Win_unlock_all(win); });
}

DDTC_EXPORT int MPI_Win_flush(int rank, MPI_Win win) {
  return synchronize(win, rank, [&] { return PMPI_Win_flush(rank, win); });
}

DDTC_EXPORT int MPI_Win_flush_all(MPI_Win win) {
  return synchronize(win, AllTargets, [&] { return PMPI_Win_flush_all(win); });
}

// Local completion is all the origin needs: a put's buffer may be reused,
// and a get's data has arrived in it.
DDTC_EXPORT int MPI_Win_flush_local(int rank, MPI_Win win) {
  return synchronize(win, rank,
                     [&] { return PMPI_Win_flush_local(rank, win); });
}

DDTC_EXPORT int MPI_Win_flush_local_all(MPI_Win win) {
  return synchronize(win, AllTargets,
                     [&] { return PMPI_Win_flush_local_all(win); });
}

DDTC_EXPORT int MPI_Win_free(MPI_Win *win) {
  // MPI sets *win to MPI_WIN_NULL: the operations are known by the handle
  // the program gave.
  MPI_Win W = *win;
  return synchronize(W, AllTargets, [&] { return PMPI_Win_free(win); });
}

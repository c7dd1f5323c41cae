//===- lib/Runtime/OneSided.h - One-sided operations in flight -*- C++ -*-===//
//
// A substituted MPI_Put or MPI_Accumulate hands MPI a packed copy of its
// origin, which must live until the operation completes at the origin; a
// substituted MPI_Get (or the result of MPI_Get_accumulate) lands in a
// packed buffer that is unpacked into the program's buffer then. An
// operation completes at the origin at the synchronization call that ends
// or flushes its epoch (MPI_Win_fence, MPI_Win_complete, MPI_Win_unlock,
// MPI_Win_flush, ..., and MPI_Win_free) and, for the request forms, also
// at the completion of its request, whichever comes first: a program may
// read a MPI_Rget's buffer after MPI_Win_unlock and complete the request
// later. So each operation is one WindowOp, finished exactly once, held by
// the window's list and, for a request form, by the request's entry in
// PendingRequests.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_LIB_RUNTIME_ONESIDED_H
#define DDTC_LIB_RUNTIME_ONESIDED_H

#include "BufferPool.h"
#include "PendingRequests.h"
#include "TypeBinding.h"

#include <mpi.h>

#include <atomic>
#include <memory>

namespace ddtc {

class WindowOp : public RequestCompletion {
public:
  /// A pooled buffer of the operation, and for a result, where and as what
  /// it is unpacked (B null: a packed origin, only released).
  struct Buffer {
    char *Packed = nullptr;
    size_t Bytes = 0;
    BindingRef B;
    void *UserBuffer = nullptr;
    MPI_Count Count = 0;
  };
  WindowOp(Buffer Origin, Buffer Result)
      : Origin(std::move(Origin)), Result(std::move(Result)) {}
  WindowOp(const WindowOp &) = delete;
  WindowOp &operator=(const WindowOp &) = delete;

  /// Completes the operation at the origin: unpacks the result (if
  /// Arrived: not after a failed call) and returns the buffers to the
  /// pool. Only the first call does anything.
  void finish(bool Arrived) {
    if (Done.exchange(true, std::memory_order_acq_rel))
      return;
    if (Result.Packed && Arrived)
      Result.B->unpack(Result.Packed, static_cast<size_t>(Result.Count),
                       Result.UserBuffer);
    for (Buffer *X : {&Origin, &Result})
      if (X->Packed)
        BufferPool::get().release(X->Packed, X->Bytes);
  }
  bool finished() const { return Done.load(std::memory_order_acquire); }
  /// A request form's request completed.
  void complete(bool Succeeded) override { finish(Succeeded); }

private:
  std::atomic<bool> Done{false};
  Buffer Origin, Result;
};

} // namespace ddtc

#endif // DDTC_LIB_RUNTIME_ONESIDED_H

//===- lib/Runtime/BufferPool.cpp - Pack buffers without malloc per message ===//
#include "BufferPool.h"

#include <bit>
#include <cstdlib>

namespace ddtc {

BufferPool &BufferPool::get() {
  // Never destroyed: buffers may be released after static destruction
  // begins (a request completed at MPI_Finalize from an atexit handler).
  static BufferPool *P = new BufferPool();
  return *P;
}

unsigned BufferPool::classOf(size_t Bytes) {
  // Class C holds buffers of 2^(C + 6) bytes: 64 bytes up.
  size_t Rounded = std::bit_ceil(Bytes < 64 ? size_t(64) : Bytes);
  return static_cast<unsigned>(std::countr_zero(Rounded)) - 6;
}

void *BufferPool::acquire(size_t Bytes) {
  if (Bytes > maxBytes())
    return nullptr;
  Outstanding.fetch_add(1, std::memory_order_relaxed);
  unsigned C = classOf(Bytes);
  if (C < NumClasses) {
    std::lock_guard<std::mutex> G(Lock);
    if (!Free[C].empty()) {
      void *P = Free[C].back();
      Free[C].pop_back();
      return P;
    }
  }
  size_t Size = C < NumClasses ? size_t(64) << C : Bytes;
  void *P = std::aligned_alloc(64, (Size + 63) / 64 * 64);
  if (!P)
    Outstanding.fetch_sub(1, std::memory_order_relaxed);
  return P;
}

void BufferPool::release(void *P, size_t Bytes) {
  Outstanding.fetch_sub(1, std::memory_order_relaxed);
  unsigned C = classOf(Bytes);
  if (C < NumClasses) {
    std::lock_guard<std::mutex> G(Lock);
    if (Free[C].size() < MaxCachedPerClass) {
      Free[C].push_back(P);
      return;
    }
  }
  std::free(P);
}

} // namespace ddtc

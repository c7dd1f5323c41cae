//===- lib/Runtime/BufferPool.h - Pack buffers without malloc per message -*- C++ -*-===//
//
// Substituted calls pack into a temporary buffer. Taking it from malloc on
// every message costs a system call and page faults for large messages
// (glibc maps them fresh each time); the pool keeps freed buffers in
// power-of-two size classes and hands them out again. It keeps at most
// MaxCachedPerClass buffers per class, so a burst of non-blocking calls
// does not pin its peak memory for the rest of the run.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_LIB_RUNTIME_BUFFERPOOL_H
#define DDTC_LIB_RUNTIME_BUFFERPOOL_H

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

namespace ddtc {

class BufferPool {
public:
  static BufferPool &get();

  /// A buffer of at least Bytes bytes, aligned for any basic type; null if
  /// memory is exhausted (the caller then lets MPI do the work).
  void *acquire(size_t Bytes);
  /// Returns a buffer acquire gave for Bytes.
  void release(void *P, size_t Bytes);
  /// Buffers acquired and not released (the report's check that none is
  /// lost or released twice).
  int64_t outstanding() const { return Outstanding.load(); }

private:
  static constexpr unsigned NumClasses = 48;
  static constexpr size_t MaxCachedPerClass = 8;
  static unsigned classOf(size_t Bytes);

  std::mutex Lock;
  std::vector<void *> Free[NumClasses];
  std::atomic<int64_t> Outstanding{0};
};

/// A pooled buffer owned by a scope (blocking calls).
class PooledBuffer {
public:
  explicit PooledBuffer(size_t Bytes)
      : Bytes(Bytes), P(BufferPool::get().acquire(Bytes)) {}
  ~PooledBuffer() {
    if (P)
      BufferPool::get().release(P, Bytes);
  }
  PooledBuffer(const PooledBuffer &) = delete;
  PooledBuffer &operator=(const PooledBuffer &) = delete;
  char *data() const { return static_cast<char *>(P); }

private:
  size_t Bytes;
  void *P;
};

} // namespace ddtc

#endif // DDTC_LIB_RUNTIME_BUFFERPOOL_H

//===- lib/Runtime/BufferPool.h - Pack buffers without malloc per message -*- C++ -*-===//
//
// Substituted calls pack into a temporary buffer. Taking it from malloc on
// every message costs a system call and page faults for large messages
// (glibc maps them fresh each time); the pool keeps freed buffers in
// power-of-two size classes and hands them out again. It keeps at most
// MaxCachedPerClass buffers per class, so a burst of non-blocking calls
// does not pin its peak memory for the rest of the run. No buffer is larger
// than maxBytes() (DDTC_RT_MAX_BUFFER): a message above it goes to MPI as
// it is, so that the runtime never doubles the memory of a program whose
// messages fill the node (MPICH's test large_type_sendrec sends 8 GiB
// between two ranks; with an 8 GiB pack buffer per rank more, the kernel
// killed it).
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
  /// Bytes is above maxBytes() or memory is exhausted (the caller then lets
  /// MPI do the work).
  void *acquire(size_t Bytes);
  /// The largest buffer acquire gives: 256 MiB unless set.
  size_t maxBytes() const { return MaxBytes.load(std::memory_order_relaxed); }
  void setMaxBytes(size_t Bytes) { MaxBytes.store(Bytes); }
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
  std::atomic<size_t> MaxBytes{size_t(256) << 20};
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

//===- tools/ddtc-bench/Buffer.h - A benchmark's buffer, placed -*- C++ -*-===//
//
// The memory a communication benchmark (ddtc-bench, ddtc-rt-pingpong) sends
// from or receives into: a typed buffer around the pointer given to MPI, or
// a contiguous one, each at an offset within its page chosen by its role, so
// that no figure depends on what the heap happened to hold before
// (docs/performance.md, "Placement, and the floor of packing schemes").
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_BENCH_BUFFER_H
#define DDTC_BENCH_BUFFER_H

#include <cstddef>
#include <cstdint>
#include <memory>

namespace ddtc::bench {

/// Bytes [Lo, Hi) around a base pointer, filled with a pattern chosen by a
/// salt. The first byte (Lo rounded down to 64, so that the base is 64-byte
/// aligned as an application's array would be) lies at a fixed offset in a
/// page of its own: where a buffer falls within its page changes the speed
/// of the copies between two buffers (4 KiB aliasing of loads and stores;
/// the cache sets they share), so it is chosen here, one offset per role,
/// instead of left to the heap and whatever was allocated before.
class Buffer {
public:
  /// The offsets within a page, by role: the pairs copied into each other
  /// (typed and packed, sent and received) never share one, whatever the
  /// sizes.
  enum PageOffset : size_t {
    TypedSend = 0,
    RefSend = 512,
    TypedRecv = 1024,
    PackedSend = 2048,
    RefRecv = 2560,
    PackedRecv = 3072,
  };

  Buffer() = default;
  /// PageOffset: where begin() lies within its page, a multiple of 64
  /// below 4096.
  Buffer(int64_t Lo, int64_t Hi, size_t PageOffset);
  /// The pointer given to MPI: byte 0 of the typemap's coordinates.
  uint8_t *base() const { return Base; }
  /// The first of the buffer's bytes(): at PageOffset within its page.
  uint8_t *begin() const { return Begin; }
  size_t bytes() const { return Bytes; }
  void fill(uint64_t Salt);

private:
  struct FreeDeleter {
    void operator()(void *P) const;
  };
  std::unique_ptr<uint8_t[], FreeDeleter> Mem; ///< the allocation
  uint8_t *Begin = nullptr;
  uint8_t *Base = nullptr;
  size_t Bytes = 0;
};

} // namespace ddtc::bench

#endif // DDTC_BENCH_BUFFER_H

//===- tools/ddtc-bench/Buffer.cpp - A benchmark's buffer, placed ---------===//

#include "Buffer.h"

#include "ddtc/Support/Address.h"

#include <algorithm>
#include <cassert>
#include <cstdlib>
#include <cstring>
#include <new>

namespace ddtc::bench {

void Buffer::FreeDeleter::operator()(void *P) const { std::free(P); }

Buffer::Buffer(int64_t Lo, int64_t Hi, size_t PageOffset) {
  constexpr size_t Page = 4096;
  // Lo rounded down to 64, so that the base pointer is aligned.
  int64_t Start = Lo >= 0 ? Lo / 64 * 64 : -((-Lo + 63) / 64 * 64);
  Bytes = static_cast<size_t>((std::max(Hi, Start) - Start + 63) / 64 * 64);
  assert(PageOffset < Page && PageOffset % 64 == 0 &&
         "a 64-byte aligned offset within a page");
  size_t Whole =
      (PageOffset + std::max<size_t>(Bytes, 64) + Page - 1) / Page * Page;
  Mem.reset(static_cast<uint8_t *>(std::aligned_alloc(Page, Whole)));
  if (!Mem)
    throw std::bad_alloc();
  Begin = Mem.get() + PageOffset;
  // The base may lie outside the allocation (a type whose data starts far
  // from byte 0); MPI and the kernels only add the typemap's offsets to it.
  Base = displaceAddress(Begin, -Start);
}

void Buffer::fill(uint64_t Salt) {
  uint64_t X = Salt * 0x9E3779B97F4A7C15ull + 1;
  size_t I = 0;
  for (; I + 8 <= Bytes; I += 8) {
    X ^= X << 13;
    X ^= X >> 7;
    X ^= X << 17;
    std::memcpy(Begin + I, &X, 8);
  }
  for (; I < Bytes; ++I)
    Begin[I] = static_cast<uint8_t>(X >> (8 * (I % 8)));
}

} // namespace ddtc::bench

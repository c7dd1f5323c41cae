//===- unittests/Bench/BufferTest.cpp - ddtc-bench's placed buffers -------===//
//
// The invariants ddtc-bench's variants rest on: begin() at the asked offset
// within its page, the typemap's bytes [Lo, Hi) around base() inside
// [begin(), begin() + bytes()), base() 64-byte aligned, and a pattern that
// depends on the salt only (the correctness check compares two fills).
//
//===----------------------------------------------------------------------===//

#include "Buffer.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

using ddtc::bench::Buffer;

namespace {

uintptr_t addr(const void *P) { return reinterpret_cast<uintptr_t>(P); }

/// [Lo, Hi) around base() lies within the buffer.
void expectCovers(const Buffer &B, int64_t Lo, int64_t Hi) {
  intptr_t First = static_cast<intptr_t>(addr(B.base())) + Lo;
  intptr_t Last = static_cast<intptr_t>(addr(B.base())) + Hi;
  EXPECT_GE(First, static_cast<intptr_t>(addr(B.begin())));
  EXPECT_LE(Last, static_cast<intptr_t>(addr(B.begin()) + B.bytes()));
}

TEST(BenchBuffer, BeginAtItsPageOffset) {
  for (size_t Offset :
       {size_t(0), size_t(512), size_t(1024), size_t(3072), size_t(4032)}) {
    Buffer B(0, 100000, Offset);
    EXPECT_EQ(addr(B.begin()) % 4096, Offset) << "offset " << Offset;
    EXPECT_EQ(B.base(), B.begin());
    expectCovers(B, 0, 100000);
  }
}

TEST(BenchBuffer, TypemapAroundTheBase) {
  // A type whose bytes start before byte 0 (negative lb), after it, and
  // far after it (its base lies outside the allocation).
  struct Case {
    int64_t Lo, Hi;
  } Cases[] = {
      {-100, 300}, {-64, 64}, {8, 24}, {70, 1000}, {1 << 20, (1 << 20) + 8}};
  for (const Case &C : Cases) {
    Buffer B(C.Lo, C.Hi, 2048);
    EXPECT_EQ(addr(B.begin()) % 4096, 2048u) << C.Lo;
    EXPECT_EQ(addr(B.base()) % 64, 0u) << C.Lo;
    expectCovers(B, C.Lo, C.Hi);
    // Not more than the 64-byte rounding at either end.
    EXPECT_LT(B.bytes(), static_cast<size_t>(C.Hi - C.Lo) + 128) << C.Lo;
  }
}

TEST(BenchBuffer, PatternDependsOnTheSaltOnly) {
  Buffer A(-40, 1000, 0), B(-40, 1000, 3072), C(-40, 1000, 0);
  A.fill(7);
  B.fill(7);
  C.fill(8);
  ASSERT_EQ(A.bytes(), B.bytes());
  EXPECT_EQ(std::memcmp(A.begin(), B.begin(), A.bytes()), 0);
  EXPECT_NE(std::memcmp(A.begin(), C.begin(), A.bytes()), 0);
}

} // namespace

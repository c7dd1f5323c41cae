//===- unittests/Runtime/BufferPoolTest.cpp - The runtime's pack buffers ---===//
#include "BufferPool.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

using namespace ddtc;

namespace {

bool aligned(void *P) { return reinterpret_cast<uintptr_t>(P) % 64 == 0; }

} // namespace

TEST(BufferPoolTest, BuffersAreAlignedWritableAndCounted) {
  BufferPool &Pool = BufferPool::get();
  int64_t Before = Pool.outstanding();
  for (size_t Bytes : {size_t(1), size_t(63), size_t(64), size_t(65),
                       size_t(4096), size_t(100000)}) {
    void *P = Pool.acquire(Bytes);
    ASSERT_NE(P, nullptr) << Bytes;
    EXPECT_TRUE(aligned(P)) << Bytes;
    std::memset(P, 0xab, Bytes); // all of it is the caller's
    EXPECT_EQ(Pool.outstanding(), Before + 1);
    Pool.release(P, Bytes);
    EXPECT_EQ(Pool.outstanding(), Before);
  }
}

TEST(BufferPoolTest, AReleasedBufferServesItsSizeClassAgain) {
  BufferPool &Pool = BufferPool::get();
  void *P = Pool.acquire(3000); // the class of 4 KiB
  Pool.release(P, 3000);
  void *Q = Pool.acquire(4096);
  EXPECT_EQ(Q, P);
  Pool.release(Q, 4096);
  // Another class does not take it.
  void *R = Pool.acquire(5000);
  EXPECT_NE(R, P);
  Pool.release(R, 5000);
}

TEST(BufferPoolTest, KeepsAtMostEightPerClass) {
  BufferPool &Pool = BufferPool::get();
  constexpr size_t Bytes = 1 << 20;
  std::vector<void *> Held;
  for (int I = 0; I < 12; ++I)
    Held.push_back(Pool.acquire(Bytes));
  for (void *P : Held)
    Pool.release(P, Bytes);
  // The first eight released were kept, the other four went back to
  // malloc: the next twelve are those eight, most recent first, and four
  // fresh ones.
  std::vector<void *> Again;
  for (int I = 0; I < 12; ++I)
    Again.push_back(Pool.acquire(Bytes));
  for (int I = 0; I < 8; ++I)
    EXPECT_EQ(Again[static_cast<size_t>(I)], Held[static_cast<size_t>(7 - I)]);
  for (void *P : Again)
    Pool.release(P, Bytes);
}

TEST(BufferPoolTest, NothingAboveTheBound) {
  BufferPool &Pool = BufferPool::get();
  size_t Old = Pool.maxBytes();
  EXPECT_EQ(Old, size_t(256) << 20); // the default, docs/runtime.md
  int64_t Before = Pool.outstanding();
  Pool.setMaxBytes(1000);
  EXPECT_EQ(Pool.acquire(1001), nullptr);
  EXPECT_EQ(Pool.outstanding(), Before); // a refusal holds nothing
  void *P = Pool.acquire(1000);
  EXPECT_NE(P, nullptr);
  Pool.release(P, 1000);
  Pool.setMaxBytes(Old);
}

TEST(BufferPoolTest, PooledBufferReturnsItsBufferAtScopeEnd) {
  BufferPool &Pool = BufferPool::get();
  int64_t Before = Pool.outstanding();
  {
    PooledBuffer B(777);
    ASSERT_NE(B.data(), nullptr);
    EXPECT_EQ(Pool.outstanding(), Before + 1);
  }
  EXPECT_EQ(Pool.outstanding(), Before);
}

//===- unittests/CodeGen/TableCodeTest.cpp --------------------------------===//
//
// The table code round trip: lib/CodeGen/TableCode.cpp encodes, the
// emitted prelude's decodeTable (lib/CodeGen/EmittedPrelude.cpp, compiled
// here as every emitted file compiles it) decodes, and the values must come
// back exactly -- at the ends of the 64-bit range, across chunk boundaries
// and in runs of every length. The MPI tests check the same code through
// emitted kernels against MPICH, on tables MPI can describe.
//
//===----------------------------------------------------------------------===//
#include "ddtc/CodeGen/TableCode.h"

#include "EmittedPrelude.cpp"

#include <gtest/gtest.h>

#include <cctype>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

using namespace ddtc;

namespace {

/// The chunks as the emitted file lists them: pointers, one per chunk.
std::vector<int64_t> roundTrip(const std::vector<int64_t> &Values,
                               size_t MaxChunk = TableChunkChars) {
  std::vector<std::string> Chunks = encodeTable(Values, MaxChunk);
  for (const std::string &C : Chunks) {
    EXPECT_LE(C.size(), MaxChunk);
    for (char Ch : C)
      EXPECT_TRUE(std::isalnum(static_cast<unsigned char>(Ch)) || Ch == '.' ||
                  Ch == '/')
          << "character " << int(Ch);
  }
  std::vector<const char *> Pointers;
  for (const std::string &C : Chunks)
    Pointers.push_back(C.c_str());
  std::vector<int64_t> Out(Values.size(), 12345);
  decodeTable(Out.data(), Out.size(), Pointers.data());
  return Out;
}

TEST(TableCodeTest, Extremes) {
  const int64_t Min = std::numeric_limits<int64_t>::min();
  const int64_t Max = std::numeric_limits<int64_t>::max();
  std::vector<int64_t> V = {0,   Min, Max, Min, -1, 1,   Max, Max,
                            Max, 0,   0,   -1,  -1, Min, 7,   Min + 1};
  EXPECT_EQ(roundTrip(V), V);
}

TEST(TableCodeTest, Runs) {
  // Arithmetic runs of lengths 1 to 40 with changing steps, starting at 0
  // (where the first difference equals the initial step) and elsewhere.
  std::vector<int64_t> V;
  int64_t X = 0;
  for (int64_t Len = 1; Len <= 40; ++Len)
    for (int64_t I = 0; I < Len; ++I) {
      V.push_back(X);
      X += Len % 3 == 0 ? 0 : (Len % 2 ? 8 : -24);
    }
  EXPECT_EQ(roundTrip(V), V);
  // A long run is a couple of numbers, not one per entry.
  std::vector<int64_t> Long;
  for (int64_t I = 0; I < 1000000; ++I)
    Long.push_back(64 + 16 * I);
  std::vector<std::string> Chunks = encodeTable(Long);
  ASSERT_EQ(Chunks.size(), 1u);
  EXPECT_LE(Chunks[0].size(), 10u);
  EXPECT_EQ(roundTrip(Long), Long);
}

TEST(TableCodeTest, ChunkBoundaries) {
  std::mt19937_64 Rng(5);
  std::vector<int64_t> V;
  for (int I = 0; I < 5000; ++I)
    V.push_back(I % 7 == 0 ? static_cast<int64_t>(Rng())
                           : static_cast<int64_t>(Rng() % 100000) - 50000);
  // Chunks as small as the longest number, and a few sizes around it.
  for (size_t MaxChunk : {13, 14, 17, 100, 4096}) {
    EXPECT_EQ(roundTrip(V, MaxChunk), V) << "chunks of " << MaxChunk;
    EXPECT_GT(encodeTable(V, MaxChunk).size(), 1u);
  }
}

TEST(TableCodeTest, Unsigned) {
  // Packed starts are size_t: the same bits.
  std::vector<int64_t> V = {0, 4, 12, 24, 40, 60, 84};
  std::vector<std::string> Chunks = encodeTable(V);
  const char *P = Chunks[0].c_str();
  std::vector<std::size_t> Out(V.size());
  decodeTable(Out.data(), Out.size(), &P);
  for (size_t I = 0; I < V.size(); ++I)
    EXPECT_EQ(Out[I], static_cast<std::size_t>(V[I]));
}

} // namespace

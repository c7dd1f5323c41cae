//===- bench/pack/HandLoops.cpp - Hand-written pack loops -----------------===//
//
// What an application programmer writes instead of a datatype: nested
// element loops over the layout, parameters in variables (not compile-time
// constants). For the DDTBench corpus there is one generic loop over the
// flattened block list instead of DDTBench's per-application loops: one
// memcpy of a run-time length per contiguous block. Compiled with -O2 (see
// CMakeLists.txt), like the emitted code.
//
//===----------------------------------------------------------------------===//
#include "HandLoops.h"

#include <algorithm>
#include <cstring>

namespace ddtc::bench {

void packBlocks(const Block *Blocks, size_t NumBlocks, int64_t Extent,
                const char *In, size_t Count, char *Out) {
  for (size_t I = 0; I < Count; ++I) {
    const char *Base = In + static_cast<int64_t>(I) * Extent;
    for (size_t B = 0; B < NumBlocks; ++B) {
      std::memcpy(Out, Base + Blocks[B].Offset, Blocks[B].Length);
      Out += Blocks[B].Length;
    }
  }
}

void unpackBlocks(const Block *Blocks, size_t NumBlocks, int64_t Extent,
                  const char *In, size_t Count, char *Out) {
  for (size_t I = 0; I < Count; ++I) {
    char *Base = Out + static_cast<int64_t>(I) * Extent;
    for (size_t B = 0; B < NumBlocks; ++B) {
      std::memcpy(Base + Blocks[B].Offset, In, Blocks[B].Length);
      In += Blocks[B].Length;
    }
  }
}

bool parseSeed000Name(const std::string &Name, Seed000Layout &L, int &A) {
  size_t Pos = Name.rfind("_A");
  if (Pos == std::string::npos || Pos + 2 >= Name.size())
    return false;
  std::string Group = Name.substr(0, Pos), Digits = Name.substr(Pos + 2);
  if (!std::all_of(Digits.begin(), Digits.end(),
                   [](char C) { return C >= '0' && C <= '9'; }))
    return false;
  A = std::stoi(Digits);
  if (Group == "tiled")
    L = Seed000Layout::Tiled;
  else if (Group == "block")
    L = Seed000Layout::Block;
  else if (Group == "alternating")
    L = Seed000Layout::Alternating;
  else if (Group == "altrep")
    L = Seed000Layout::AltRep;
  else if (Group == "rowcol")
    L = Seed000Layout::RowCol;
  else
    return false;
  return A >= 1;
}

// The layouts of seed000.py, one function per direction: Typed is the
// application's int array, Packed the message. The unit of each layout
// repeats every Extent ints.
template <bool Pack>
static void copySeed000(Seed000Layout L, int A, int *Typed, size_t Count,
                        int *Packed) {
  auto Move = [](int *T, int *P) {
    if (Pack)
      *P = *T;
    else
      *T = *P;
  };
  size_t K = 0;
  switch (L) {
  case Seed000Layout::Tiled: { // A elements every B = A + 2
    int B = A + 2;
    for (size_t I = 0; I < Count; ++I)
      for (int J = 0; J < A; ++J)
        Move(&Typed[I * B + J], &Packed[K++]);
    return;
  }
  case Seed000Layout::Block: { // A at 0, A at B1; unit B1 + B2
    int B1 = A + 1, B2 = A + 3;
    for (size_t I = 0; I < Count; ++I) {
      int *U = Typed + I * (B1 + B2);
      for (int J = 0; J < A; ++J)
        Move(&U[J], &Packed[K++]);
      for (int J = 0; J < A; ++J)
        Move(&U[B1 + J], &Packed[K++]);
    }
    return;
  }
  case Seed000Layout::Alternating: // A - 1 at 0, A + 1 at B1; unit B1 + B2
  case Seed000Layout::AltRep: {    // A - 1 at 0, A + 1 at R1; unit R1 + R2
    int A1 = A - 1, A2 = A + 1;
    int D = A + 1;
    int E = L == Seed000Layout::Alternating ? (A + 1) + (A + 3) : (A + 1) + A2;
    for (size_t I = 0; I < Count; ++I) {
      int *U = Typed + I * E;
      for (int J = 0; J < A1; ++J)
        Move(&U[J], &Packed[K++]);
      for (int J = 0; J < A2; ++J)
        Move(&U[D + J], &Packed[K++]);
    }
    return;
  }
  case Seed000Layout::RowCol: { // first row (A) and rest of column 0
    int N = std::max(4 * A, 100), Rows = N - A;
    size_t E = static_cast<size_t>(A) * Rows + 1;
    for (size_t I = 0; I < Count; ++I) {
      int *M = Typed + I * E;
      for (int J = 0; J < A; ++J)
        Move(&M[J], &Packed[K++]);
      for (int R = 1; R <= Rows; ++R)
        Move(&M[static_cast<size_t>(A) * R], &Packed[K++]);
    }
    return;
  }
  }
}

void packSeed000(Seed000Layout L, int A, const int *In, size_t Count,
                 int *Out) {
  copySeed000<true>(L, A, const_cast<int *>(In), Count, Out);
}

void unpackSeed000(Seed000Layout L, int A, const int *In, size_t Count,
                   int *Out) {
  copySeed000<false>(L, A, Out, Count, const_cast<int *>(In));
}

} // namespace ddtc::bench

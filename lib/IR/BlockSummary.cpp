//===- lib/IR/BlockSummary.cpp - Composing block summaries ----------------===//
//
// A summary is read as a short sequence of pieces -- first block, the
// statistics of the middle blocks, last block -- so concatenation is: lay
// the pieces of both operands end to end, merge the two blocks that meet if
// they touch, and fold everything between the new first and last block into
// the new middle statistics. Repetition is concatenation by doubling.
//
// Offsets are computed modulo 2^64: the layout rules have already checked
// that the type's bounds fit, and offsets of real blocks lie within them.
//
//===----------------------------------------------------------------------===//
#include "ddtc/IR/BlockSummary.h"

#include "ddtc/Support/CheckedInt.h"

#include <algorithm>
#include <cassert>

namespace ddtc {

namespace {

/// One piece of a summary: a single block, or statistics of several.
struct Piece {
  bool IsBlock;
  ByteBlock Block;  // IsBlock
  uint64_t Count;   // !IsBlock: number of blocks summarized
  int64_t Min, Max; // !IsBlock
};

unsigned appendPieces(const BlockSummary &S, Piece *Out) {
  if (S.Count == 0)
    return 0;
  unsigned N = 0;
  Out[N++] = {true, S.First, 1, 0, 0};
  if (S.Count >= 3)
    Out[N++] = {false, {}, S.Count - 2, S.MiddleMin, S.MiddleMax};
  if (S.Count >= 2)
    Out[N++] = {true, S.Last, 1, 0, 0};
  return N;
}

} // namespace

BlockSummary concatBlocks(const BlockSummary &A, const BlockSummary &B) {
  if (A.Count == 0)
    return B;
  if (B.Count == 0)
    return A;

  Piece Pieces[6];
  unsigned NA = appendPieces(A, Pieces);
  unsigned N = NA + appendPieces(B, Pieces + NA);
  uint64_t Count = A.Count + B.Count;

  // Merge the blocks that meet at the seam.
  ByteBlock &Left = Pieces[NA - 1].Block;
  const ByteBlock &Right = Pieces[NA].Block;
  if (Left.end() == Right.Offset) {
    Left.Length += Right.Length;
    std::copy(Pieces + NA + 1, Pieces + N, Pieces + NA);
    --N;
    --Count;
  }

  BlockSummary R;
  R.Count = Count;
  R.First = Pieces[0].Block;
  R.Last = Pieces[N - 1].Block;
  bool HaveMiddle = false;
  for (unsigned I = 1; I + 1 < N; ++I) {
    const Piece &P = Pieces[I];
    int64_t Min = P.IsBlock ? P.Block.Length : P.Min;
    int64_t Max = P.IsBlock ? P.Block.Length : P.Max;
    R.MiddleMin = HaveMiddle ? std::min(R.MiddleMin, Min) : Min;
    R.MiddleMax = HaveMiddle ? std::max(R.MiddleMax, Max) : Max;
    HaveMiddle = true;
  }
  assert(HaveMiddle == (R.Count >= 3) && "middle statistics out of sync");
  return R;
}

BlockSummary shiftBlocks(const BlockSummary &A, int64_t Delta) {
  if (A.Count == 0)
    return A; // unused fields stay zero, so that summaries compare by value
  BlockSummary R = A;
  R.First.Offset = wrappingAdd(R.First.Offset, Delta);
  R.Last.Offset = wrappingAdd(R.Last.Offset, Delta);
  return R;
}

BlockSummary repeatBlocks(const BlockSummary &A, uint64_t Count,
                          int64_t Stride) {
  BlockSummary Result;
  BlockSummary Power = A;     // 2^k copies
  int64_t PowerSpan = Stride; // displacement of the copy after Power
  int64_t Offset = 0;
  while (Count) {
    if (Count & 1) {
      Result = concatBlocks(Result, shiftBlocks(Power, Offset));
      Offset = wrappingAdd(Offset, PowerSpan);
    }
    Count >>= 1;
    if (Count) {
      Power = concatBlocks(Power, shiftBlocks(Power, PowerSpan));
      PowerSpan = wrappingAdd(PowerSpan, PowerSpan);
    }
  }
  return Result;
}

} // namespace ddtc

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

/// A followed by one more block: what an index list adds per entry, so
/// worth doing without the pieces (a commit of 13,000 displacements spent
/// half its time in the general path).
static BlockSummary appendBlock(const BlockSummary &A, const ByteBlock &B) {
  BlockSummary R = A;
  if (A.Last.end() == B.Offset) {
    R.Last.Length += B.Length;
    if (A.Count == 1)
      R.First = R.Last;
    return R;
  }
  // The old last block, if it was not also the first, joins the middle.
  if (A.Count >= 3) {
    R.MiddleMin = std::min(A.MiddleMin, A.Last.Length);
    R.MiddleMax = std::max(A.MiddleMax, A.Last.Length);
  } else if (A.Count == 2) {
    R.MiddleMin = R.MiddleMax = A.Last.Length;
  }
  R.Last = B;
  ++R.Count;
  return R;
}

BlockSummary concatBlocks(const BlockSummary &A, const BlockSummary &B) {
  if (A.Count == 0)
    return B;
  if (B.Count == 0)
    return A;
  if (B.Count == 1)
    return appendBlock(A, B.First);

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
  if (A.Count == 1 && Count >= 1) {
    // Copies of one block: the blocks of a vector or of one index list
    // entry, in closed form. They merge into one when each copy ends where
    // the next begins, and otherwise stay Count blocks of one length.
    BlockSummary R = A;
    if (A.First.Length == Stride) {
      R.First.Length = R.Last.Length =
          wrappingMul(A.First.Length, static_cast<int64_t>(Count));
      return R;
    }
    R.Count = Count;
    R.Last.Offset = wrappingAdd(
        A.First.Offset, wrappingMul(Stride, static_cast<int64_t>(Count - 1)));
    if (Count >= 3)
      R.MiddleMin = R.MiddleMax = A.First.Length;
    return R;
  }
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

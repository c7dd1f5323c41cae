//===- ddtc/IR/BlockSummary.h - Contiguous blocks of a typemap --*- C++ -*-===//
//
// The number and lengths of the contiguous byte blocks of a typemap, kept
// symbolically so that they compose per constructor in O(1) (repetition in
// O(log count)) instead of walking the typemap.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_IR_BLOCKSUMMARY_H
#define DDTC_IR_BLOCKSUMMARY_H

#include <cstdint>

namespace ddtc {

/// A contiguous run of bytes in a typemap.
struct ByteBlock {
  int64_t Offset = 0;
  int64_t Length = 0;
  int64_t end() const { return Offset + Length; }
  bool operator==(const ByteBlock &) const = default;
};

/// The contiguous blocks of a typemap, in typemap order, after merging each
/// block with the next when it starts where the previous one ends. Kept
/// symbolically -- first block, last block and statistics of the ones in
/// between -- so that it composes in O(1) per constructor argument and a
/// type with 10^12 entries is measured without walking it.
struct BlockSummary {
  uint64_t Count = 0;    ///< number of blocks
  ByteBlock First;       ///< valid if Count >= 1
  ByteBlock Last;        ///< valid if Count >= 1 (== First if Count == 1)
  int64_t MiddleMin = 0; ///< shortest block strictly between; Count >= 3
  int64_t MiddleMax = 0; ///< longest block strictly between; Count >= 3

  int64_t minLength() const;
  int64_t maxLength() const;
  bool operator==(const BlockSummary &) const = default;
};

/// The blocks of A followed by those of B; the last block of A and the
/// first of B merge when they touch.
BlockSummary concatBlocks(const BlockSummary &A, const BlockSummary &B);

/// A with every offset moved by Delta bytes.
BlockSummary shiftBlocks(const BlockSummary &A, int64_t Delta);

/// Count copies of A, copy i displaced by i * Stride bytes.
BlockSummary repeatBlocks(const BlockSummary &A, uint64_t Count,
                          int64_t Stride);

} // namespace ddtc

#endif // DDTC_IR_BLOCKSUMMARY_H

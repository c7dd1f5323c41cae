//===- ddtc/IR/TypemapWalker.h - Streaming typemap traversal ----*- C++ -*-===//
//
// Walks the typemap of `count` consecutive instances of a type in typemap
// order -- the order in which MPI_Pack lays out the bytes -- yielding runs
// (offset, length, basic type) and merging each run with the previous one
// when they touch. The typemap is never materialized: the walker keeps one
// frame per level of the type tree, and emits a whole block of a dense
// oldtype (one that tiles memory) as a single run.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_IR_TYPEMAPWALKER_H
#define DDTC_IR_TYPEMAPWALKER_H

#include "ddtc/IR/Predefined.h"
#include "ddtc/IR/Type.h"

#include <cstdint>
#include <vector>

namespace ddtc {

enum class WalkMode {
  Bytes, ///< runs are maximal byte ranges; Basic is meaningless
  Typed, ///< runs hold one basic type; adjacent runs of different types
         ///< stay apart (the type signature is the sequence of runs)
};

struct TypemapRun {
  int64_t Offset = 0; ///< bytes from the buffer start
  int64_t Length = 0; ///< bytes, > 0
  PredefinedId Basic = PredefinedId::Byte;
  int64_t end() const { return Offset + Length; }
  bool operator==(const TypemapRun &) const = default;
};

class TypemapWalker {
public:
  TypemapWalker(const Type *T, uint64_t Count, WalkMode Mode);

  /// Produces the next merged run; false at the end of the typemap.
  bool next(TypemapRun &Run);

private:
  struct Frame {
    const Type *T; ///< null for the root frame (Count instances of Root)
    int64_t Base;
    uint64_t Piece;
    uint64_t NumPieces;
    int64_t Rep;
  };

  bool step(TypemapRun &Run);
  void push(const Type *T, int64_t Base);

  const Type *Root;
  uint64_t Count;
  WalkMode Mode;
  std::vector<Frame> Stack;
  TypemapRun Pending;
  bool HavePending = false;
};

/// Copies the bytes of `Count` instances of T from InBuf (the buffer pointer
/// one would give MPI) to OutBuf in typemap order, like MPI_Pack; returns
/// the number of bytes written. A reference implementation for tests.
int64_t packTypemap(const Type *T, uint64_t Count, const void *InBuf,
                    void *OutBuf);

/// Whether a basic type with padding (PredefinedInfo::PadMask) occurs in
/// T, each node looked at once: most types have none, and then
/// forEachPaddingByte does not walk their typemap.
bool hasPaddingBytes(const Type *T);

/// Calls F(Typed, Packed) for every byte of `Count` instances of T that
/// carries no value: the padding of a basic type (PredefinedInfo::PadMask,
/// MPI_LONG_DOUBLE's 6 bytes), at offset Typed in the typed buffer and at
/// position Packed in the packed stream. No MPI promises what lands there
/// (MPICH's pack leaves them unwritten at times), so every comparison of
/// buffers with MPI's skips them.
template <class Fn>
void forEachPaddingByte(const Type *T, uint64_t Count, Fn F) {
  if (!hasPaddingBytes(T))
    return;
  TypemapWalker W(T, Count, WalkMode::Typed);
  int64_t Packed = 0;
  for (TypemapRun R; W.next(R); Packed += R.Length) {
    const PredefinedInfo &Info = getPredefinedInfo(R.Basic);
    if (Info.PadMask == 0 || !Info.isBasic())
      continue;
    for (int64_t B = 0; B < R.Length; ++B)
      if (Info.PadMask >> (B % Info.Size) & 1u)
        F(R.Offset + B, Packed + B);
  }
}

} // namespace ddtc

#endif // DDTC_IR_TYPEMAPWALKER_H

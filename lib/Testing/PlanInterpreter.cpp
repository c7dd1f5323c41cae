//===- lib/Testing/PlanInterpreter.cpp - Bytes a pack plan copies ---------===//
//
// Addresses are computed with wrapping arithmetic, not signed overflow:
// the fuzzer's types may place blocks anywhere in the 64-bit range, and the
// walker's offsets wrap the same way.
//
//===----------------------------------------------------------------------===//
#include "ddtc/Testing/PlanInterpreter.h"

#include "ddtc/IR/TypemapWalker.h"
#include "ddtc/Support/CheckedInt.h"

#include <map>

namespace ddtc {

namespace {

/// Appends what copying one instance at Base moves, in packed order, with
/// adjacent ranges merged.
void append(std::vector<ByteBlock> &Out, int64_t Offset, int64_t Length) {
  if (Length == 0)
    return;
  if (!Out.empty() &&
      wrappingAdd(Out.back().Offset, Out.back().Length) == Offset)
    Out.back().Length += Length;
  else
    Out.push_back({Offset, Length});
}

void interpret(const Kernel &K, int64_t Base, std::vector<ByteBlock> &Out) {
  switch (K.Shape) {
  case KernelShape::Empty:
    return;
  case KernelShape::Block:
  case KernelShape::Runs:
    for (const ByteBlock &R : K.Runs)
      append(Out, wrappingAdd(Base, R.Offset), R.Length);
    return;
  case KernelShape::Loops:
    break;
  }
  if (K.tiled()) {
    // Block (c, r) lands at packed position c * Rows + r.
    const Tiling &T = K.Tile;
    std::map<uint64_t, int64_t> ByPosition;
    for (uint64_t C = 0; C < T.Columns; ++C)
      for (uint64_t R = 0; R < T.Rows; ++R)
        ByPosition[C * T.Rows + R] = wrappingAdd(
            wrappingAdd(Base, wrappingMul(int64_t(C), T.ColumnStride)),
            wrappingAdd(wrappingMul(int64_t(R), T.RowStride), T.Offset));
    for (const auto &[Position, Offset] : ByPosition)
      append(Out, Offset, T.BlockBytes);
    return;
  }
  for (const Segment &S : K.Segments)
    for (uint64_t I = 0; I < S.Count; ++I) {
      int64_t At = wrappingAdd(Base, S.dispAt(I));
      int64_t Reps = S.repsAt(I);
      if (S.DenseChild) {
        append(Out, wrappingAdd(At, S.Child->lb()), Reps * S.Child->size());
        continue;
      }
      for (int64_t R = 0; R < Reps; ++R)
        interpret(*S.ChildKernel,
                  wrappingAdd(At, wrappingMul(R, S.Child->extent())), Out);
    }
}

} // namespace

std::vector<ByteBlock> interpretPlan(const Kernel &K, int64_t Extent,
                                     uint64_t Count) {
  std::vector<ByteBlock> Out;
  for (uint64_t I = 0; I < Count; ++I)
    interpret(K, wrappingMul(int64_t(I), Extent), Out);
  return Out;
}

std::vector<ByteBlock> typemapBytes(const Type *T, uint64_t Count) {
  std::vector<ByteBlock> Out;
  TypemapWalker Walker(T, Count, WalkMode::Bytes);
  for (TypemapRun Run; Walker.next(Run);)
    append(Out, Run.Offset, Run.Length);
  return Out;
}

} // namespace ddtc

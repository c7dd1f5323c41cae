//===- test/Fuzz/FuzzPackPlan.cpp - Fuzzing the code generator's plan -----===//
//
// The pack plan (lib/CodeGen/PackPlan.cpp) of a valid type decoded from
// the bytes, and of its normal form, is interpreted in-process the way
// PackEmitter.cpp prints it -- runs, segments with their strided or tabled
// elements and repetitions, dense children, tiled transposes -- into the
// byte ranges pack copies, in packed order; for two instances, they must be
// the typemap's byte runs (TypemapWalker), byte for byte. Every plan shape
// the emitter can produce is reached by some type: small tiling and
// unrolling thresholds make the decoded types exercise them.
//
//===----------------------------------------------------------------------===//
#include "FuzzInput.h"

#include "ddtc/CodeGen/PackPlan.h"
#include "ddtc/IR/TextForm.h"
#include "ddtc/IR/TypemapWalker.h"
#include "ddtc/Passes/Normalizer.h"
#include "ddtc/Support/CheckedInt.h"

#include <cstdio>
#include <cstdlib>
#include <map>

using namespace ddtc;

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

void check(const Type *T, const Type *Shown) {
  constexpr uint64_t Instances = 2;
  PlanOptions Options;
  Options.TileMinPages = 1; // tile every transpose the planner finds
  Options.PageBytes = 64;
  Options.TileColumns = 3;
  Options.TileRows = 2;
  PackPlan Plan(Options);
  const Kernel &K = Plan.getKernel(T);
  std::vector<ByteBlock> Planned;
  for (uint64_t I = 0; I < Instances; ++I)
    interpret(K, wrappingMul(int64_t(I), T->extent()), Planned);
  std::vector<ByteBlock> Walked;
  TypemapWalker Walker(T, Instances, WalkMode::Bytes);
  for (TypemapRun Run; Walker.next(Run);)
    append(Walked, Run.Offset, Run.Length);
  if (Planned != Walked) {
    size_t I = 0;
    while (I < Planned.size() && I < Walked.size() && Planned[I] == Walked[I])
      ++I;
    auto Show = [](const std::vector<ByteBlock> &V, size_t I) {
      return I < V.size() ? std::to_string(V[I].Offset) + "+" +
                                std::to_string(V[I].Length)
                          : std::string("end");
    };
    std::fprintf(stderr,
                 "fuzz-pack-plan: the plan packs other bytes than the typemap\n"
                 "  type: %s\n  range %zu: plan %s, typemap %s\n",
                 printType(Shown).c_str(), I, Show(Planned, I).c_str(),
                 Show(Walked, I).c_str());
    std::abort();
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  TypeContext Ctx;
  fuzz::ByteReader In(Data, Size);
  const Type *T = fuzz::decodeType(Ctx, In, /*Depth=*/4);
  // Kept to what one input can walk in well under a millisecond.
  if (T->getLayout().Blocks.Count > 4096 || T->size() > (int64_t(1) << 20))
    return 0;
  check(T, T);
  Normalizer Norm(Ctx);
  const Type *N = Norm.normalize(T);
  if (N->getLayout().Blocks.Count <= 4096)
    check(N, T);
  return 0;
}

//===- lib/Passes/PlanBuilder.h - IR trees from block plans -----*- C++ -*-===//
//
// The builder turns a Plan (BlockPlan.h) over a sequence of blocks into IR
// nodes; buildBest builds each candidate plan and keeps the cheapest tree.
// The reconstruction pass (Reconstruct.cpp) prepares the sequences and asks
// the planners for plans; only this builder creates nodes from them.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_LIB_PASSES_PLANBUILDER_H
#define DDTC_LIB_PASSES_PLANBUILDER_H

#include "BlockPlan.h"
#include "ddtc/IR/TypeContext.h"

#include <cstdint>
#include <span>
#include <vector>

namespace ddtc {
class Canonicalizer;
} // namespace ddtc

namespace ddtc::recon {

/// Builds the trees of plans over the blocks B.
class PlanBuilder {
public:
  /// Opaque: the type of OpaqueElement blocks (copies of a derived type).
  PlanBuilder(TypeContext &Ctx, std::span<const Block> B,
              const Type *Opaque = nullptr)
      : Ctx(Ctx), B(B), Opaque(Opaque) {}

  /// The type of plan P with its first block at byte Shift.
  Expected<const Type *> build(const Plan &P, int64_t Shift);
  /// A Repeat plan as contiguous(r, resized(Lb, stride, chunk)): cheaper
  /// than resizing the whole when the type's extent is r strides.
  Expected<const Type *> buildTiled(const Plan &P, int64_t Shift, int64_t Lb);

private:
  const Type *basic(size_t T) const {
    return B[T].Basic == recon::OpaqueElement ? Opaque
                                              : Ctx.getPredefined(B[T].Basic);
  }
  int64_t elementSize(size_t T) const {
    return recon::elementSize(B[T].Basic, Opaque ? Opaque->extent() : 0);
  }
  /// Displacements of blocks [From, To) when block Origin is at Shift.
  Expected<std::vector<int64_t>> displacements(size_t Origin, size_t From,
                                               size_t To, int64_t Shift) const;
  Expected<const Type *> place(Expected<const Type *> T, int64_t Shift);
  /// C, the type of plan Chunk, with the extent the planners give copies
  /// of a chunk that sit back to back: the span of its blocks, or Step
  /// where a longer step leaves a gap after each copy. A pair type rebuilt
  /// as a struct pads its extent to its alignment (MPI_DOUBLE_INT: 12
  /// bytes of data, extent 16), which would space the copies apart.
  Expected<const Type *> withSpanExtent(Expected<const Type *> C,
                                        const Plan &Chunk, int64_t Step = 0);
  Expected<const Type *> repeat(uint64_t Reps, uint64_t BlockLen,
                                int64_t Stride, const Type *Child);

  TypeContext &Ctx;
  std::span<const Block> B;
  const Type *Opaque;
};

/// Builds each of Plans over Seq (Opaque: the type of its OpaqueElement
/// blocks), at T's bounds if KeepBounds, canonicalizes it, and keeps in
/// Best the first in the total order. Judged canonical, because that is
/// what the caller returns: a placed contiguous(r, C) loses to a tree two
/// integers smaller as built, and becomes hindexed_block(r, [d], C), one
/// smaller, once canonical.
void buildBest(TypeContext &Ctx, Canonicalizer &Canon,
               std::span<const Block> Seq, const Type *Opaque,
               const std::vector<Plan> &Plans, const Type *T, bool KeepBounds,
               const Type *&Best);

} // namespace ddtc::recon

#endif // DDTC_LIB_PASSES_PLANBUILDER_H

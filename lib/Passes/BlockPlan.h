//===- lib/Passes/BlockPlan.h - Plans for rebuilding a typemap --*- C++ -*-===//
//
// Reconstruction works on a typemap flattened into maximal blocks: runs of
// consecutive elements of one basic type. A Plan says how a consecutive
// segment of those blocks is described with MPI constructors; planners
// choose plans by predicted description cost, the builder (PlanBuilder.cpp)
// turns a plan into IR. Keeping plans apart from IR lets the planners
// compare many candidates without creating nodes.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_LIB_PASSES_BLOCKPLAN_H
#define DDTC_LIB_PASSES_BLOCKPLAN_H

#include "ddtc/IR/Predefined.h"
#include "ddtc/IR/Type.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace ddtc::recon {

/// Count consecutive elements of one basic type (or, after regrouping,
/// one pair type) starting at Offset bytes.
struct Block {
  int64_t Offset = 0;
  int64_t Count = 0;
  PredefinedId Basic = PredefinedId::Byte;

  bool sameShape(const Block &O) const {
    return Count == O.Count && Basic == O.Basic;
  }
  bool operator==(const Block &) const = default;
};

/// Bytes an element occupies: the extent of a basic type (its size) or of
/// a pair type (its components and the padding after them).
int64_t elementSize(PredefinedId Basic);

/// The element of a sequence of copies of one derived type E
/// (ElementSequence.h): not a predefined type; the planners take its
/// extent from PlannerLimits::OpaqueExtent, the builder its type from the
/// caller.
inline constexpr PredefinedId OpaqueElement = static_cast<PredefinedId>(255);
static_assert(NumPredefined < 255, "OpaqueElement must name no predefined");

/// Bytes an element of Basic occupies: OpaqueExtent for OpaqueElement.
inline int64_t elementSize(PredefinedId Basic, int64_t OpaqueExtent) {
  return Basic == OpaqueElement ? OpaqueExtent : elementSize(Basic);
}

enum class PlanKind : uint8_t {
  Single,     ///< one block: the basic type, or contiguous(count, basic)
  Arith,      ///< equal blocks at a constant stride: vector(m, count, stride)
  Repeat,     ///< r translated copies of a chunk: hvector(r, 1, stride, chunk)
  Contig,     ///< r copies of a chunk at its own extent: contiguous(r, chunk)
  VectorBl,   ///< r copies of b back-to-back sub-chunks: vector(r, b, stride,
              ///< sub)
  IndexChunk, ///< r copies of a chunk anywhere: hindexed_block(b, displs, sub)
  IndexedChunk, ///< runs of back-to-back copies of a chunk anywhere:
                ///< hindexed(run lengths, displacements, chunk)
  IndexBlock,   ///< equal blocks: hindexed_block(count, displacements)
  Indexed,      ///< blocks of one basic type: hindexed(counts, displacements)
  Struct,       ///< consecutive pieces: struct of the pieces' types
};

/// How blocks [Begin, End) are described. Strides are in bytes; the builder
/// picks element units (vector, indexed) when they divide evenly.
struct Plan {
  PlanKind Kind = PlanKind::Single;
  size_t Begin = 0, End = 0;
  uint64_t Reps = 0;     ///< Repeat, Contig, VectorBl: copies of the child
  uint64_t BlockLen = 0; ///< VectorBl, IndexChunk: sub-chunks per copy
  size_t ChunkLen = 0;   ///< IndexChunk, IndexedChunk: blocks per copy
  int64_t Stride = 0;    ///< Arith, Repeat, VectorBl
  /// VectorBl, IndexChunk of sub-chunks: bytes from one sub-chunk to the
  /// next in a block, their span or more (0: their span).
  int64_t SubStride = 0;
  uint64_t Cost = 0;     ///< predicted description cost (docs/normalization.md)
  std::vector<Plan> Children; ///< the chunk, or the pieces of a struct

  static Plan make(PlanKind K, size_t Begin, size_t End, uint64_t Cost = 0) {
    Plan P;
    P.Kind = K;
    P.Begin = Begin;
    P.End = End;
    P.Cost = Cost;
    return P;
  }

  size_t size() const { return End - Begin; }
  /// A leaf or struct takes any displacement for free, and so does a
  /// repetition of such a chunk; other roots need a placing hindexed_block.
  bool isShiftable() const;
};

/// Own costs of the nodes plans create, by the cost model of the IR
/// (getConstructorCost), so that predicted and built costs agree: a vector
/// or hvector, a contiguous, a struct without entries and one entry of a
/// struct (blocklength, displacement, type), an indexed_block and an
/// indexed of M entries (M < 2^16 in the dynamic program).
inline const uint32_t VectorCost =
    uint32_t(getConstructorCost(TypeKind::Vector, 0));
inline const uint32_t ContiguousCost =
    uint32_t(getConstructorCost(TypeKind::Contiguous, 0));
inline const uint32_t ResizedCost =
    uint32_t(getConstructorCost(TypeKind::Resized, 0));
inline const uint32_t StructBaseCost =
    uint32_t(getConstructorCost(TypeKind::Struct, 0));
inline const uint32_t StructEntryCost =
    uint32_t(getConstructorCost(TypeKind::Struct, 1)) - StructBaseCost;
inline uint64_t indexBlockCost(size_t M) {
  return getConstructorCost(TypeKind::IndexedBlock, M);
}
inline uint64_t indexedCost(size_t M) {
  return getConstructorCost(TypeKind::Indexed, M);
}

/// Cost of the hindexed_block(1, [d], T) that places a non-shiftable tree.
inline const uint64_t PlacementCost =
    getConstructorCost(TypeKind::HIndexedBlock, 1);

struct PlannerLimits {
  /// Segments up to this many blocks get the full dynamic program.
  size_t DPBlocks = 2048;
  /// Struct nodes inside the DP span at most this many blocks (the top
  /// level is unrestricted); keeps the DP at O(n^2 * window).
  size_t StructWindow = 32;
  /// The extent of OpaqueElement, in a sequence of copies of a derived
  /// type (at most DPBlocks blocks: only the dynamic program sees them;
  /// ReconstructOptions::ElementBlocks).
  int64_t OpaqueExtent = 0;

  int64_t sizeOf(PredefinedId Basic) const {
    return elementSize(Basic, OpaqueExtent);
  }
};

/// The cheapest plans the dynamic program finds for all of Blocks, cheapest
/// predicted first (block indices relative to Blocks; 1 <= Blocks.size()
/// <= 65535). NeedsPlacement: the first block must land at its own Offset,
/// so a root that cannot absorb an offset costs PlacementCost more.
std::vector<Plan> planSegmentDP(std::span<const Block> Blocks,
                                const PlannerLimits &L, bool NeedsPlacement);

/// A lower bound on the predicted cost of every plan planSegmentDP returns
/// for Blocks (2 <= Blocks.size() <= 65535) without placement, from the
/// repetition in the list alone: O(n^2 / 2) comparisons, no table. The
/// argument is at the definition (SegmentDP.cpp); a new candidate in the
/// dynamic program must keep it true.
uint64_t segmentDPLowerBound(std::span<const Block> Blocks);

/// Candidate plans for any number of blocks, cheapest predicted first:
/// sequences up to L.DPBlocks get the DP; longer ones Kalany-Traeff
/// repetition by divisors, else lattice pieces.
///
/// Budget: plans predicted to cost more than this are of no use to the
/// caller (the given description is cheaper). When a lower bound on the
/// lattice pieces at the top of a long sequence already exceeds it, they
/// are not planned, and the single index list stands in for them; if that
/// list exceeds the budget too, there is no candidate (an empty result).
std::vector<Plan> planBlocks(std::span<const Block> Blocks,
                             const PlannerLimits &L,
                             uint64_t Budget = UINT64_MAX);

} // namespace ddtc::recon

#endif // DDTC_LIB_PASSES_BLOCKPLAN_H

//===- lib/IR/LayoutRules.cpp - MPICH's rules for type properties ---------===//
//
// Size, bounds and alignment follow MPICH 4.0.2 as Debian builds it, whose
// type engine is Yaksa (the revision MPICH 4.0.2 bundles), because MPICH is
// ddtc's oracle and where the MPI standard leaves corner cases open,
// MPICH's answer is what users see. The rules, each checked against MPICH
// by test/MPI:
//
//  - Zero-length type (MPII_Type_zerolen / YAKSA_TYPE__NULL): size, bounds
//    and true bounds 0, alignment 1. Produced by count 0 or a zero-size
//    oldtype in every constructor but resized, by indexed and struct with
//    only zero blocklengths, and by a struct of total size 0.
//  - A block of n >= 0 oldtypes at byte displacement d spans
//    [d + lb, d + ub + extent * (n - 1)] (mirrored for extent <= 0). The
//    formula is applied as is for n = 0 where MPICH applies it: vector and
//    indexed_block with blocklength 0 keep such "negative" bounds, while
//    indexed and struct skip zero-blocklength entries.
//  - vector/hvector: lb = old.lb + min(0, stride * (count - 1)) + (extent
//    < 0 ? extent * (blocklength - 1) : 0), ub symmetric.
//  - True bounds keep their distance to the bounds: true_lb = lb +
//    (old.true_lb - old.lb).
//  - struct: the largest alignment of the non-skipped entries pads the
//    extent to a multiple of it -- unless the library builds it as an
//    hindexed of its first entry type (MPICH: every entry is the same
//    object to Yaksa), which adds no padding.
//  - resized sets lb and extent and keeps true bounds and alignment.
//  - subarray and darray are whatever their expansion (built the way MPICH
//    builds them, see ArrayExpansion.cpp) is.
//
// Where MPI libraries differ -- which object the library represents a
// type by, and so which structs it pads -- the TypeContext's LibraryRules
// decide (MPICH's: lib/Target/MPICHRules.cpp). The copy pieces of a node
// are PieceCount.cpp's.
//
//===----------------------------------------------------------------------===//
#include "LayoutRules.h"

#include "PieceCount.h"

#include "ddtc/Support/CheckedInt.h"

#include <algorithm>
#include <cassert>

namespace ddtc {

namespace {

/// Collects the first overflow of a layout computation with the field to
/// blame for it.
class OverflowGuard {
public:
  /// Returns V's value, remembering Field if it overflowed.
  int64_t take(CheckedInt V, const char *Field) {
    if (V.overflowed()) {
      if (!Blame)
        Blame = Field;
      return 0;
    }
    return V.value();
  }
  bool failed() const { return Blame != nullptr; }
  Error error() const {
    if (!Blame)
      return Error::success();
    return makeError(std::string("field '") + Blame +
                     "': the type's size or bounds overflow 64 bits");
  }

private:
  const char *Blame = nullptr;
};

/// Bounds of `N` consecutive copies of Old at byte displacement Disp
/// (Yaksa's formula for a block of an hindexed or a struct).
struct Bounds {
  int64_t Lb, Ub;
};
Bounds blockBounds(OverflowGuard &G, const TypeLayout &Old, int64_t N,
                   int64_t Disp, const char *Field) {
  CheckedInt Lb = CheckedInt(Old.Lb) + Disp;
  CheckedInt Ub = CheckedInt(Old.Ub) + Disp;
  // Applied for N = 0 too (a "span" of minus one extent), as Yaksa does.
  CheckedInt Span = CheckedInt(Old.extent()) * (N - 1);
  if (Old.extent() > 0)
    Ub = Ub + Span;
  else
    Lb = Lb + Span;
  return {G.take(Lb, Field), G.take(Ub, Field)};
}

/// True bounds keep their distance to the bounds.
void setTrueBounds(OverflowGuard &G, TypeLayout &L, const TypeLayout &Old) {
  L.TrueLb =
      G.take(CheckedInt(L.Lb) + (CheckedInt(Old.TrueLb) - Old.Lb), "oldtype");
  L.TrueUb =
      G.take(CheckedInt(L.Ub) + (CheckedInt(Old.TrueUb) - Old.Ub), "oldtype");
}

std::optional<PredefinedId> uniformOf(const TypeLayout &L) {
  return L.UniformBasic;
}

/// Combines the uniform basic types of the non-empty parts of a typemap.
struct UniformTracker {
  bool Any = false;
  bool Mixed = false;
  std::optional<PredefinedId> Basic;
  void add(const TypeLayout &Part) {
    if (Part.Size == 0)
      return;
    if (!Any) {
      Any = true;
      Basic = uniformOf(Part);
      Mixed = !Basic;
      return;
    }
    if (Mixed || Basic != uniformOf(Part)) {
      Mixed = true;
      Basic.reset();
    }
  }
};

uint64_t toCount(int64_t V) { return static_cast<uint64_t>(V); }

/// MPICH's zero-length type.
TypeLayout zeroLength(const LibraryRules &Rules) {
  TypeLayout L;
  L.Align = 1;
  L.Identity = Rules.getZeroLengthIdentity();
  return L;
}

TypeLayout predefinedLayout(const LibraryRules &Rules, PredefinedId Id) {
  const PredefinedInfo &Info = getPredefinedInfo(Id);
  TypeLayout L;
  L.Size = Info.Size;
  L.Lb = 0;
  L.Ub = Info.Extent;
  L.TrueLb = 0;
  L.Align = Info.Align;
  L.Elements = Info.NumComponents;
  std::optional<PredefinedId> Uniform;
  for (unsigned I = 0; I < Info.NumComponents; ++I) {
    const PredefinedComponent &C = Info.Components[I];
    int64_t CSize = getPredefinedInfo(C.Basic).Size;
    L.TrueUb = std::max(L.TrueUb, C.Offset + CSize);
    BlockSummary One;
    One.Count = 1;
    One.First = One.Last = {C.Offset, CSize};
    L.Blocks = concatBlocks(L.Blocks, One);
    if (I == 0)
      Uniform = C.Basic;
    else if (Uniform != C.Basic)
      Uniform.reset();
  }
  L.UniformBasic = Uniform;
  L.Identity = Rules.getPredefinedIdentity(Id);
  return L;
}

/// Sum of Counts[i] * Old.Size (and of elements), checked.
void addData(OverflowGuard &G, TypeLayout &L, int64_t N, const TypeLayout &Old,
             const char *Field) {
  L.Size = G.take(CheckedInt(L.Size) + CheckedInt(N) * Old.Size, Field);
  // Elements never exceed bytes, so once Size is checked this cannot wrap.
  L.Elements += toCount(N) * Old.Elements;
}

Expected<TypeLayout> layoutContiguous(const LibraryRules &Rules, int64_t Count,
                                      const Type *Old) {
  const TypeLayout &O = Old->getLayout();
  TypeLayout L;
  if (Count == 0 || O.Size == 0)
    return zeroLength(Rules);
  OverflowGuard G;
  addData(G, L, Count, O, "count");
  Bounds B = blockBounds(G, O, Count, 0, "count");
  L.Lb = B.Lb;
  L.Ub = B.Ub;
  setTrueBounds(G, L, O);
  if (Error E = G.error())
    return E;
  L.Align = O.Align;
  L.Blocks = repeatBlocks(O.Blocks, toCount(Count), O.extent());
  L.UniformBasic = O.UniformBasic;
  return L;
}

/// vector and hvector (yaksi_type_create_hvector).
Expected<TypeLayout> layoutVector(const LibraryRules &Rules, int64_t Count,
                                  int64_t BlockLength, int64_t Stride,
                                  bool ByteStride, const Type *Old) {
  const TypeLayout &O = Old->getLayout();
  TypeLayout L;
  if (Count == 0 || O.Size == 0)
    return zeroLength(Rules);
  OverflowGuard G;
  // The stride only matters when there is a second block.
  int64_t EffStride = Count > 1
                          ? G.take(ByteStride ? CheckedInt(Stride)
                                              : CheckedInt(Stride) * O.extent(),
                                   "stride")
                          : 0;
  addData(G, L, G.take(CheckedInt(Count) * BlockLength, "blocklength"), O,
          "blocklength");
  CheckedInt StrideSpan = CheckedInt(EffStride) * (Count - 1);
  CheckedInt BlockSpan = CheckedInt(O.extent()) * (BlockLength - 1);
  CheckedInt Lb = O.Lb, Ub = O.Ub;
  if (EffStride < 0)
    Lb = Lb + StrideSpan;
  else
    Ub = Ub + StrideSpan;
  if (O.extent() < 0)
    Lb = Lb + BlockSpan;
  else
    Ub = Ub + BlockSpan;
  L.Lb = G.take(Lb, "stride");
  L.Ub = G.take(Ub, "stride");
  setTrueBounds(G, L, O);
  if (Error E = G.error())
    return E;
  L.Align = O.Align;
  L.Blocks =
      repeatBlocks(repeatBlocks(O.Blocks, toCount(BlockLength), O.extent()),
                   toCount(Count), EffStride);
  L.UniformBasic = O.UniformBasic;
  return L;
}

/// indexed, hindexed, indexed_block and hindexed_block. BlockLengths has one
/// entry per displacement. SkipZeroBlocks selects the (h)indexed behaviour:
/// zero blocklengths do not count for the bounds, and only zero blocklengths
/// give the zero-length type.
Expected<TypeLayout> layoutIndexed(const LibraryRules &Rules,
                                   std::span<const int64_t> BlockLengths,
                                   std::span<const int64_t> Displacements,
                                   bool ByteDisplacement, bool SkipZeroBlocks,
                                   const Type *Old) {
  const TypeLayout &O = Old->getLayout();
  TypeLayout L;
  size_t N = Displacements.size();
  if (N == 0 || O.Size == 0)
    return zeroLength(Rules);
  bool AnyData = std::any_of(BlockLengths.begin(), BlockLengths.end(),
                             [](int64_t B) { return B != 0; });
  if (SkipZeroBlocks && !AnyData)
    return zeroLength(Rules);

  OverflowGuard G;
  bool First = true;
  for (size_t I = 0; I < N; ++I) {
    int64_t Len = BlockLengths[I];
    if (SkipZeroBlocks && Len == 0)
      continue;
    int64_t Disp = ByteDisplacement
                       ? Displacements[I]
                       : G.take(CheckedInt(Displacements[I]) * O.extent(),
                                "displacements");
    addData(G, L, Len, O, "blocklengths");
    Bounds B = blockBounds(G, O, Len, Disp, "displacements");
    L.Lb = First ? B.Lb : std::min(L.Lb, B.Lb);
    L.Ub = First ? B.Ub : std::max(L.Ub, B.Ub);
    First = false;
    // Once a size or bound has overflowed, so may the blocks' lengths (the
    // type is rejected below; found by fuzz-pack-plan).
    if (Len != 0 && !G.failed())
      L.Blocks = concatBlocks(
          L.Blocks,
          shiftBlocks(repeatBlocks(O.Blocks, toCount(Len), O.extent()), Disp));
  }
  setTrueBounds(G, L, O);
  if (Error E = G.error())
    return E;
  L.Align = O.Align;
  L.UniformBasic = O.UniformBasic;
  return L;
}

/// struct (yaksi_type_create_struct).
Expected<TypeLayout> layoutStruct(const LibraryRules &Rules,
                                  std::span<const int64_t> BlockLengths,
                                  std::span<const int64_t> Displacements,
                                  std::span<const Type *const> Types) {
  size_t N = Types.size();
  // A struct the library makes an hindexed is not padded (MPICH: one of a
  // single object).
  if (Rules.isHIndexedStruct(Types)) {
    // Entries sharing an object have one layout, but not necessarily one
    // signature (MPI_OFFSET and MPI_LONG_LONG_INT): only the basic type
    // must be taken from the entries that hold data.
    Expected<TypeLayout> L = layoutIndexed(Rules, BlockLengths, Displacements,
                                           /*ByteDisplacement=*/true,
                                           /*SkipZeroBlocks=*/true, Types[0]);
    if (L) {
      UniformTracker Uniform;
      for (size_t I = 0; I < N; ++I)
        if (BlockLengths[I] != 0)
          Uniform.add(Types[I]->getLayout());
      L->UniformBasic = Uniform.Basic;
    }
    return L;
  }

  TypeLayout L;
  OverflowGuard G;
  for (size_t I = 0; I < N; ++I)
    addData(G, L, BlockLengths[I], Types[I]->getLayout(), "blocklengths");
  if (Error E = G.error())
    return E;
  if (L.Size == 0)
    return zeroLength(Rules);

  UniformTracker Uniform;
  bool First = true;
  for (size_t I = 0; I < N; ++I) {
    const TypeLayout &O = Types[I]->getLayout();
    int64_t Len = BlockLengths[I];
    if (Len == 0)
      continue;
    L.Align = std::max(L.Align, O.Align);
    int64_t Disp = Displacements[I];
    Bounds B = blockBounds(G, O, Len, Disp, "displacements");
    int64_t TrueLb = G.take(CheckedInt(B.Lb) + (CheckedInt(O.TrueLb) - O.Lb),
                            "displacements");
    int64_t TrueUb = G.take(CheckedInt(B.Ub) + (CheckedInt(O.TrueUb) - O.Ub),
                            "displacements");
    L.Lb = First ? B.Lb : std::min(L.Lb, B.Lb);
    L.Ub = First ? B.Ub : std::max(L.Ub, B.Ub);
    L.TrueLb = First ? TrueLb : std::min(L.TrueLb, TrueLb);
    L.TrueUb = First ? TrueUb : std::max(L.TrueUb, TrueUb);
    First = false;
    if (!G.failed())
      L.Blocks = concatBlocks(
          L.Blocks,
          shiftBlocks(repeatBlocks(O.Blocks, toCount(Len), O.extent()), Disp));
    Uniform.add(O);
  }
  // Pad the extent to the alignment; C's remainder, as in Yaksa.
  int64_t Extent = G.take(CheckedInt(L.Ub) - L.Lb, "displacements");
  int64_t Epsilon = L.Align > 0 ? Extent % L.Align : 0;
  if (Epsilon != 0)
    L.Ub = G.take(CheckedInt(L.Ub) + (L.Align - Epsilon), "displacements");
  G.take(CheckedInt(L.Ub) - L.Lb, "displacements");
  if (Error E = G.error())
    return E;
  L.UniformBasic = Uniform.Basic;
  return L;
}

Expected<TypeLayout> layoutResized(int64_t Lb, int64_t Extent,
                                   const Type *Old) {
  TypeLayout L = Old->getLayout();
  OverflowGuard G;
  // Yaksa makes a resize to the old bounds a dup; same layout either way.
  L.Identity = nullptr;
  L.Lb = Lb;
  L.Ub = G.take(CheckedInt(Lb) + Extent, "extent");
  if (Error E = G.error())
    return E;
  return L;
}

} // namespace

uint64_t getOwnCost(TypeKind K, size_t NumInts, size_t NumOperands) {
  // One unit per argument of the MPI call, lists counted per element: the
  // space a description takes, as in Traeff's and Ganian et al.'s models.
  if (K == TypeKind::Predefined)
    return 0;
  return 1 + NumInts + NumOperands;
}

uint64_t getConstructorCost(TypeKind K, size_t ListLength) {
  const KindSpec &S = getKindSpec(K);
  size_t Operands = K == TypeKind::Predefined ? 0
                    : K == TypeKind::Struct   ? ListLength
                                              : 1;
  return getOwnCost(K, S.NumScalars + S.NumLists * ListLength, Operands);
}

unsigned getKindRank(TypeKind K) {
  switch (K) {
  case TypeKind::Predefined:
    return 0;
  case TypeKind::Contiguous:
    return 1;
  case TypeKind::Vector:
    return 2;
  case TypeKind::HVector:
    return 3;
  case TypeKind::IndexedBlock:
    return 4;
  case TypeKind::HIndexedBlock:
    return 5;
  case TypeKind::Indexed:
    return 6;
  case TypeKind::HIndexed:
    return 7;
  case TypeKind::Struct:
    return 8;
  case TypeKind::Resized:
    return 9;
  case TypeKind::Subarray:
    return 10;
  case TypeKind::Darray:
    return 11;
  case TypeKind::Dup:
    return 12;
  }
  return 13;
}

Expected<TypeLayout> computeLayout(const LibraryRules &Rules, TypeKind K,
                                   std::span<const int64_t> Ints,
                                   std::span<const Type *const> Operands,
                                   const Type *Expansion) {
  const KindSpec &Spec = getKindSpec(K);
  size_t N =
      Spec.NumLists ? (Ints.size() - Spec.NumScalars) / Spec.NumLists : 0;
  auto List = [&](unsigned Index) {
    return Ints.subspan(Spec.NumScalars + Index * N, N);
  };

  Expected<TypeLayout> L = TypeLayout();
  switch (K) {
  case TypeKind::Predefined:
    L = predefinedLayout(Rules, static_cast<PredefinedId>(Ints[0]));
    break;
  case TypeKind::Contiguous:
    L = layoutContiguous(Rules, Ints[0], Operands[0]);
    break;
  case TypeKind::Vector:
  case TypeKind::HVector:
    L = layoutVector(Rules, Ints[0], Ints[1], Ints[2], K == TypeKind::HVector,
                     Operands[0]);
    break;
  case TypeKind::Indexed:
  case TypeKind::HIndexed:
    L = layoutIndexed(Rules, List(0), List(1), K == TypeKind::HIndexed,
                      /*SkipZeroBlocks=*/true, Operands[0]);
    break;
  case TypeKind::IndexedBlock:
  case TypeKind::HIndexedBlock: {
    std::vector<int64_t> Lengths(N, Ints[0]);
    L = layoutIndexed(Rules, Lengths, List(0), K == TypeKind::HIndexedBlock,
                      /*SkipZeroBlocks=*/false, Operands[0]);
    break;
  }
  case TypeKind::Struct:
    L = layoutStruct(Rules, List(0), List(1), Operands);
    break;
  case TypeKind::Resized:
    L = layoutResized(Ints[0], Ints[1], Operands[0]);
    break;
  case TypeKind::Subarray:
  case TypeKind::Darray:
    assert(Expansion && "subarray/darray without expansion");
    L = Expansion->getLayout(); // its identity too
    break;
  case TypeKind::Dup:
    L = Operands[0]->getLayout();
    break;
  }
  if (!L)
    return L;
  // MPI_Aint holds the extent and the true extent too, not only the bounds
  // (two displacements of opposite signs can be 2^63 apart).
  if ((CheckedInt(L->Ub) - L->Lb).overflowed() ||
      (CheckedInt(L->TrueUb) - L->TrueLb).overflowed())
    return makeError(std::string("field '") +
                     (K == TypeKind::Vector || K == TypeKind::HVector ? "stride"
                      : Spec.NumLists ? "displacements"
                                      : "count") +
                     "': the type's extent (ub - lb) overflows 64 bits");

  if (!L->Identity && K != TypeKind::Predefined)
    L->Identity = Rules.getReducedIdentity(
        K, Ints, Operands,
        K == TypeKind::IndexedBlock || K == TypeKind::HIndexedBlock
            ? std::span<const int64_t>(Ints.data(), 1)
            : (Spec.NumLists ? List(0) : std::span<const int64_t>()),
        Spec.NumLists ? List(Spec.NumLists - 1) : std::span<const int64_t>());

  // Depth and cost describe this node's own tree, not the expansion's.
  unsigned Depth = 0;
  uint64_t Cost = getOwnCost(K, Ints.size(), Operands.size());
  for (const Type *Op : Operands) {
    Depth = std::max(Depth, Op->getLayout().Depth + 1);
    Cost = saturatingAdd(Cost, Op->getLayout().Cost);
  }
  L->Depth = Depth;
  // A subarray or darray is as costly as the constructors MPI builds from
  // it: it is shorthand for them, and the engine processes those.
  L->Cost = Expansion ? Expansion->getLayout().Cost : Cost;
  // One instance of a dense type is one copy, however it is described.
  L->Pieces = L->isDense() ? 1 : countPieces(K, Ints, Operands, N, Expansion);
  return L;
}

} // namespace ddtc

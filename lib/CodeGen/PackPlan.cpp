//===- lib/CodeGen/PackPlan.cpp - Code shape of each type node ------------===//
//
// A node of the Loops shape is seen, like in the typemap walker, as a
// sequence of pieces (Reps copies of a child at a displacement). contiguous
// and vector nodes are one regular segment each, without listing their
// pieces. The index kinds and struct list theirs: pieces without data are
// dropped (as the walker skips them), consecutive pieces of the same child
// are grouped, and each group becomes a constant-stride segment when its
// displacements form an arithmetic progression with one block length, and
// an index table otherwise.
//
// A node whose one segment is a transpose -- copies of a strided child
// whose columns interleave, each spanning more pages than the TLB holds --
// also gets a Tiling (planTiling), for the cache-blocked copy of seed 001
// (docs/design.md#references).
//
//===----------------------------------------------------------------------===//
#include "ddtc/CodeGen/PackPlan.h"
#include "ddtc/IR/TypePieces.h"

#include "ddtc/IR/TypemapWalker.h"

#include <algorithm>
#include <cassert>

namespace ddtc {

const Type *lookThrough(const Type *T) {
  for (;;) {
    switch (T->getKind()) {
    case TypeKind::Resized:
    case TypeKind::Dup:
      T = T->getOldType();
      continue;
    case TypeKind::Subarray:
    case TypeKind::Darray:
      T = T->getExpansion();
      continue;
    case TypeKind::Predefined:
    case TypeKind::Contiguous:
    case TypeKind::Vector:
    case TypeKind::HVector:
    case TypeKind::Indexed:
    case TypeKind::HIndexed:
    case TypeKind::IndexedBlock:
    case TypeKind::HIndexedBlock:
    case TypeKind::Struct:
      return T;
    }
    assert(false && "unknown kind");
    return T;
  }
}

namespace {

using Piece = TypePiece;

/// The pieces of a node of a list kind, in typemap order.
std::vector<Piece> listPieces(const Type *T) {
  std::vector<Piece> Pieces;
  for (uint64_t K = 0, N = getNumPieces(T); K < N; ++K)
    Pieces.push_back(getPiece(T, K));
  return Pieces;
}

/// Turns a group of pieces of one child into a segment (packed position
/// and child kernel are filled in by the caller).
Segment makeSegment(std::span<const Piece> Group) {
  Segment S;
  S.Child = Group[0].Child;
  S.Count = Group.size();
  bool SameReps = true, Progression = true;
  int64_t Stride = Group.size() > 1 ? Group[1].Disp - Group[0].Disp : 0;
  for (size_t I = 1; I < Group.size(); ++I) {
    SameReps &= Group[I].Reps == Group[0].Reps;
    Progression &= Group[I].Disp - Group[I - 1].Disp == Stride;
  }
  if (SameReps)
    S.Reps = Group[0].Reps;
  else
    for (const Piece &P : Group)
      S.RepsList.push_back(P.Reps);
  S.Strided = Progression;
  if (Progression) {
    S.Disp0 = Group[0].Disp;
    S.Stride = Stride;
  } else {
    for (const Piece &P : Group)
      S.Disps.push_back(P.Disp);
  }
  return S;
}

/// A group whose block lengths vary, but in long stretches of one length
/// (a struct of index lists that normalization merged into one indexed,
/// as LAMMPS's), is split into those stretches: each is a segment with a
/// constant block length, so its copies have a constant size the compiler
/// expands inline, instead of a memcpy call of a length read from a table
/// per block. Shorter stretches keep the group whole (a table of lengths):
/// many small segments would cost more code than they save.
std::vector<std::span<const Piece>> splitByReps(std::span<const Piece> Group) {
  constexpr size_t MinStretch = 8;
  std::vector<std::span<const Piece>> Stretches;
  for (size_t Begin = 0; Begin < Group.size();) {
    size_t End = Begin + 1;
    while (End < Group.size() && Group[End].Reps == Group[Begin].Reps)
      ++End;
    if (End - Begin < MinStretch)
      return {Group};
    Stretches.push_back(Group.subspan(Begin, End - Begin));
    Begin = End;
  }
  return Stretches;
}

} // namespace

const Kernel &PackPlan::getKernel(const Type *T) {
  T = lookThrough(T);
  if (auto It = ByNode.find(T); It != ByNode.end())
    return *It->second;

  auto K = std::make_unique<Kernel>();
  K->T = T;
  const BlockSummary &Blocks = T->getLayout().Blocks;
  if (T->size() == 0) {
    K->Shape = KernelShape::Empty;
  } else if (Blocks.Count <= std::max(Options.MaxUnrolledRuns, 1u) ||
             isa<PredefinedType>(T)) {
    TypemapWalker W(T, 1, WalkMode::Bytes);
    TypemapRun R;
    while (W.next(R))
      K->Runs.push_back({R.Offset, R.Length});
    K->Shape = K->Runs.size() == 1 ? KernelShape::Block : KernelShape::Runs;
  } else {
    K->Shape = KernelShape::Loops;
    planLoops(*K); // creates the children's kernels first
  }
  K->Id = static_cast<unsigned>(Kernels.size());
  Kernels.push_back(std::move(K));
  ByNode.emplace(T, Kernels.back().get());
  return *Kernels.back();
}

void PackPlan::planLoops(Kernel &K) {
  const Type *T = K.T;
  std::vector<Segment> Segments;
  switch (T->getKind()) {
  case TypeKind::Contiguous: {
    Segment S;
    int64_t Count = cast<ContiguousType>(T)->getCount();
    const Type *Old = T->getOldType();
    if (isa<ResizedType>(Old) && Count > 1 &&
        Old->extent() != Old->getOldType()->extent()) {
      // contiguous(r, resized(lb, s, X)), the normal form of copies that
      // tile an extent: r copies of X, s bytes apart -- a strided loop
      // over X, as for vector(r, 1, s, X), so that X's density decides
      // the copy (a dense X: one move per copy, unrolled when small).
      S.Child = Old->getOldType();
      S.Count = static_cast<uint64_t>(Count);
      S.Stride = Old->extent();
      S.Reps = 1;
    } else {
      S.Child = Old;
      S.Count = 1;
      S.Reps = Count;
    }
    Segments.push_back(std::move(S));
    break;
  }
  case TypeKind::Vector:
  case TypeKind::HVector: {
    auto *V = cast<VectorType>(T);
    Segment S;
    S.Child = V->getOldType();
    S.Count = static_cast<uint64_t>(V->getCount());
    S.Stride = S.Count > 1 ? V->getByteStride() : 0;
    S.Reps = V->getBlockLength();
    Segments.push_back(std::move(S));
    break;
  }
  case TypeKind::Indexed:
  case TypeKind::HIndexed:
  case TypeKind::IndexedBlock:
  case TypeKind::HIndexedBlock:
  case TypeKind::Struct: {
    std::vector<Piece> Pieces;
    for (const Piece &P : listPieces(T))
      if (P.Reps != 0 && P.Child->size() != 0)
        Pieces.push_back(P);
    for (size_t Begin = 0; Begin < Pieces.size();) {
      size_t End = Begin + 1;
      while (End < Pieces.size() && Pieces[End].Child == Pieces[Begin].Child)
        ++End;
      for (std::span<const Piece> Group : splitByReps(
               std::span<const Piece>(Pieces).subspan(Begin, End - Begin)))
        Segments.push_back(makeSegment(Group));
      Begin = End;
    }
    break;
  }
  case TypeKind::Predefined:
  case TypeKind::Resized:
  case TypeKind::Dup:
  case TypeKind::Subarray:
  case TypeKind::Darray:
    assert(false && "planned as runs or looked through");
    break;
  }

  uint64_t Packed = 0;
  for (Segment &S : Segments) {
    if (S.Count == 0 || (S.Reps == 0 && S.RepsList.empty()) ||
        S.Child->size() == 0)
      continue;
    S.DenseChild = S.Child->getLayout().isDense();
    if (!S.DenseChild)
      S.ChildKernel = &getKernel(S.Child);
    uint64_t ChildSize = static_cast<uint64_t>(S.Child->size());
    S.PackedStart = Packed;
    if (S.uniformReps())
      S.PackedSize = S.Count * static_cast<uint64_t>(S.Reps) * ChildSize;
    else
      for (int64_t R : S.RepsList)
        S.PackedSize += static_cast<uint64_t>(R) * ChildSize;
    Packed += S.PackedSize;
    S.Prefetch = prefetchDistance(S);
    S.Unroll = unrollFactor(S);
    S.Scalar = keepScalar(S);
    K.Segments.push_back(std::move(S));
  }
  assert(Packed == static_cast<uint64_t>(T->size()) &&
         "segments must hold the node's data");
  planTiling(K);
}

uint64_t PackPlan::prefetchDistance(const Segment &S) const {
  // Only table walks: a constant stride is followed by the hardware's
  // stride prefetcher (prefetching NAS_MG_x's 1,040-byte stride 4 to 32
  // elements ahead changed nothing, docs/emit.md). Only loops that run
  // well past the distance, and elements small enough that the loop is
  // bound by their misses rather than by copying.
  uint64_t D = Options.PrefetchDistance;
  if (D == 0 || S.Strided || S.Count < 2 * D)
    return 0;
  int64_t ElementBytes = S.uniformReps() ? S.Reps * S.Child->size() : 0;
  if (!S.DenseChild || ElementBytes == 0 ||
      ElementBytes > Options.PrefetchMaxElementBytes)
    return 0;
  return D;
}

unsigned PackPlan::unrollFactor(const Segment &S) const {
  // Short moves at a short stride (PlanOptions::UnrollFactor): not table
  // walks, not strides of half a page or more, not loops the printer
  // unrolls whole.
  const PlanOptions &O = Options;
  if (O.UnrollFactor < 2 || !S.Strided || S.Prefetch || !S.DenseChild ||
      !S.uniformReps() || S.Count <= O.UnrollFactor ||
      S.Count <= O.MaxUnrolledLoop ||
      !shortMoves(S.Reps * S.Child->size(), S.Stride))
    return 0;
  return O.UnrollFactor;
}

bool PackPlan::shortMoves(int64_t MoveBytes, int64_t Stride) const {
  // PlanOptions::UnrollMaxElementBytes and UnrollMaxStride.
  const PlanOptions &O = Options;
  return MoveBytes <= O.UnrollMaxElementBytes && Stride > -O.UnrollMaxStride &&
         Stride < O.UnrollMaxStride;
}

unsigned PackPlan::rootUnrollFactor(const Type *T) {
  const PlanOptions &O = Options;
  if (O.UnrollFactor < 2 || T->getLayout().isDense())
    return 0;
  // An instance of a few short blocks: every block a short move, and at
  // most a line's worth of them per trip (seed 000's Block and Alternating
  // units at A = 2, two blocks of 16 bytes in all, gained as much as the
  // one-block Tiled unit; docs/emit.md).
  const Kernel &K = getKernel(T);
  if (K.Shape != KernelShape::Block && K.Shape != KernelShape::Runs)
    return 0;
  for (const ByteBlock &B : K.Runs)
    if (!shortMoves(B.Length, T->extent()))
      return 0;
  return T->size() <= 4 * O.UnrollMaxElementBytes ? O.UnrollFactor : 0;
}

bool PackPlan::keepScalar(const Segment &S) const {
  // Small moves a line or four moves or more apart, or from a table
  // (PlanOptions::ScalarMinStride): a vector load would carry at most a
  // quarter of useful bytes. Two moves apart g++ -O3 loads whole vectors
  // and shuffles them, which pays (rowcol_A2: 1.7x). Not the table walks
  // that prefetch: g++ does not vectorize those. Only loops the printer does
  // not unroll whole, whose moves are all of the same length.
  const PlanOptions &O = Options;
  if (O.ScalarMinStride <= 0 || S.Prefetch || !S.DenseChild ||
      !S.uniformReps() || S.Count <= O.MaxUnrolledLoop ||
      S.Reps * S.Child->size() > O.ScalarMaxElementBytes)
    return false;
  int64_t Apart = std::min(O.ScalarMinStride, 4 * S.Reps * S.Child->size());
  return !S.Strided || S.Stride <= -Apart || S.Stride >= Apart;
}

void PackPlan::planTiling(Kernel &K) {
  // The parent: Co copies of the child at a constant column stride So --
  // one per element (a vector or hvector with blocklength 1, an index list
  // in arithmetic progression), or the Reps copies of one element, one
  // child extent apart (a contiguous of a column resized to interleave, as
  // normalization writes such a vector). The layout decides, not the kind.
  if (K.Segments.size() != 1)
    return;
  const Segment &S = K.Segments[0];
  if (!S.Strided || !S.uniformReps() || S.DenseChild || !S.ChildKernel)
    return;
  uint64_t Co = 0;
  int64_t So = 0;
  if (S.Reps == 1 && S.Count >= 2) {
    Co = S.Count;
    So = S.Stride;
  } else if (S.Count == 1 && S.Reps >= 2) {
    Co = static_cast<uint64_t>(S.Reps);
    So = S.Child->extent();
  } else {
    return;
  }
  // The child: Ci blocks of a dense element at a constant row stride Si.
  const Kernel &CK = *S.ChildKernel;
  if (CK.Shape != KernelShape::Loops || CK.Segments.size() != 1)
    return;
  const Segment &IS = CK.Segments[0];
  if (!IS.Strided || !IS.uniformReps() || !IS.DenseChild || IS.Count < 2)
    return;
  int64_t Si = IS.Stride;
  int64_t BlockBytes = 0;
  if (So == INT64_MIN || Si == INT64_MIN ||
      __builtin_mul_overflow(IS.Reps, IS.Child->size(), &BlockBytes) ||
      BlockBytes <= 0)
    return;
  uint64_t AbsSo = static_cast<uint64_t>(So < 0 ? -So : So);
  uint64_t AbsSi = static_cast<uint64_t>(Si < 0 ? -Si : Si);
  uint64_t Bytes = static_cast<uint64_t>(BlockBytes);
  // The blocks must be pairwise disjoint, so that copying them out of
  // typemap order is invisible even to unpack (where a self-overlapping
  // typemap lets later entries win): columns of one row do not overlap
  // (|So| >= block) and a row's columns fit in one row stride
  // ((Co - 1) |So| + block <= |Si|). This also makes the columns
  // interleave: |So| < |Si| <= the true extent of one column.
  uint64_t RowSpan = 0;
  bool Transpose =
      !(AbsSo < Bytes || __builtin_mul_overflow(Co - 1, AbsSo, &RowSpan) ||
        __builtin_add_overflow(RowSpan, Bytes, &RowSpan) || RowSpan > AbsSi);
  bool Planes = !Transpose && planesInFlight(Co, AbsSo, IS.Count, AbsSi, Bytes);
  if (!Transpose && !Planes)
    return;
  if (Transpose) {
    // Pages one column touches: one per block when rows are a page or
    // more apart, else its span in pages. Below the threshold the column's
    // pages stay in the TLB across columns and typemap order is as good.
    uint64_t Page = static_cast<uint64_t>(Options.PageBytes);
    uint64_t Pages = IS.Count;
    if (AbsSi < Page) {
      uint64_t Span = 0;
      if (__builtin_mul_overflow(IS.Count - 1, AbsSi, &Span) ||
          __builtin_add_overflow(Span, Bytes, &Span))
        Pages = UINT64_MAX;
      else
        Pages = (Span + Page - 1) / Page;
    }
    if (Options.TileMinPages == 0 || Pages < Options.TileMinPages)
      return;
  }
  Tiling &Tl = K.Tile;
  Tl.Columns = Co;
  Tl.Rows = IS.Count;
  Tl.ColumnStride = So;
  Tl.RowStride = Si;
  Tl.Offset = S.Disp0 + IS.Disp0 + IS.Child->lb();
  Tl.BlockBytes = BlockBytes;
  if (Planes) {
    Tl.TileColumns = Options.PlanesInFlight;
    Tl.TileRows = 1;
    Tl.Planes = true;
    Tl.Scalar = Options.ScalarMinStride > 0 &&
                BlockBytes <= Options.ScalarMaxElementBytes;
    return;
  }
  Tl.TileColumns = std::min<uint64_t>(std::max(Options.TileColumns, 1u), Co);
  Tl.TileRows = std::min<uint64_t>(std::max(Options.TileRows, 1u), IS.Count);
  // A square of Lanes x Lanes blocks is one 16-byte row in the user's
  // buffer (adjacent columns) and one in the packed stream (adjacent rows
  // of a column); full tiles are whole squares.
  if (Options.UnpackTransposeInRegisters && (BlockBytes == 4 || BlockBytes == 8) &&
      So == BlockBytes) {
    unsigned Lanes = static_cast<unsigned>(16 / BlockBytes);
    if (Tl.TileColumns % Lanes == 0 && Tl.TileRows % Lanes == 0)
      Tl.Lanes = Lanes;
  }
}

bool PackPlan::planesInFlight(uint64_t Co, uint64_t AbsSo, uint64_t Ci,
                              uint64_t AbsSi, uint64_t Bytes) const {
  // The transpose's nest the other way round: Co planes |So| apart, each
  // Ci small blocks |Si| apart, the planes not interleaved. Copying
  // several planes row by row needs the blocks pairwise disjoint, as for a
  // transpose: within a plane |Si| >= block, and a plane ends before the
  // next begins ((Ci - 1) |Si| + block <= |So|).
  uint64_t J = Options.PlanesInFlight, Span = 0;
  return J >= 2 && Co >= 2 * J &&
         Bytes <= static_cast<uint64_t>(Options.PlanesMaxBlockBytes) &&
         AbsSi >= CacheLineBytes && Bytes <= AbsSi &&
         AbsSo >= static_cast<uint64_t>(Options.PageBytes) &&
         !__builtin_mul_overflow(Ci - 1, AbsSi, &Span) &&
         !__builtin_add_overflow(Span, Bytes, &Span) && Span <= AbsSo;
}

} // namespace ddtc

//===- lib/Passes/PlanBuilder.cpp - IR trees from block plans -------------===//
//
// Every plan is built relative to its first block; a leaf or struct absorbs
// an offset into its displacements, any other root is placed by
// hindexed_block(1, [offset], tree). The builder prefers element units
// (vector, indexed_block, indexed) whenever strides and displacements
// divide evenly, as canonicalization does; built trees are judged
// canonicalized. Apart from Reconstruct.cpp, which decides what to plan:
// this is the one place plans become IR.
//
//===----------------------------------------------------------------------===//
#include "PlanBuilder.h"

#include "ddtc/Passes/Canonicalize.h"

#include <algorithm>
#include <optional>

namespace ddtc::recon {

namespace {

Error overflow() { return makeError("displacement overflows 64 bits"); }

/// Element units when every displacement is a whole number of elements.
bool toElements(std::vector<int64_t> &D, int64_t Size) {
  // Over an element of extent 0 every element displacement is 0 bytes.
  if (Size == 0 || !std::all_of(D.begin(), D.end(),
                                [&](int64_t X) { return X % Size == 0; }))
    return false;
  for (int64_t &X : D)
    X /= Size;
  return true;
}

} // namespace

Expected<std::vector<int64_t>> PlanBuilder::displacements(size_t Origin,
                                                          size_t From,
                                                          size_t To,
                                                          int64_t Shift) const {
  std::vector<int64_t> D;
  D.reserve(To - From);
  for (size_t T = From; T < To; ++T) {
    int64_t Rel;
    if (__builtin_sub_overflow(B[T].Offset, B[Origin].Offset, &Rel) ||
        __builtin_add_overflow(Rel, Shift, &Rel))
      return overflow();
    D.push_back(Rel);
  }
  return D;
}

Expected<const Type *> PlanBuilder::place(Expected<const Type *> T,
                                          int64_t Shift) {
  if (!T || Shift == 0)
    return T;
  int64_t D[] = {Shift};
  return Ctx.getHIndexedBlock(1, D, *T);
}

Expected<const Type *> PlanBuilder::withSpanExtent(Expected<const Type *> C,
                                                   const Plan &Chunk,
                                                   int64_t Step) {
  if (!C)
    return C;
  int64_t Min = INT64_MAX, Max = INT64_MIN;
  for (size_t T = Chunk.Begin; T < Chunk.End; ++T) {
    int64_t End;
    if (__builtin_mul_overflow(B[T].Count, elementSize(T), &End) ||
        __builtin_add_overflow(End, B[T].Offset, &End))
      return overflow();
    Min = std::min(Min, B[T].Offset);
    Max = std::max(Max, End);
  }
  int64_t Span;
  if (__builtin_sub_overflow(Max, Min, &Span))
    return overflow();
  if (Step > Span)
    Span = Step; // copies with a gap after each (SegmentDP: SubStride)
  if ((*C)->extent() == Span)
    return C;
  return Ctx.getResized((*C)->lb(), Span, *C);
}

Expected<const Type *> PlanBuilder::repeat(uint64_t Reps, uint64_t BlockLen,
                                           int64_t Stride, const Type *Child) {
  int64_t Ext = Child->extent();
  if (Ext != 0 && Stride % Ext == 0)
    return Ctx.getVector(int64_t(Reps), int64_t(BlockLen), Stride / Ext, Child);
  return Ctx.getHVector(int64_t(Reps), int64_t(BlockLen), Stride, Child);
}

Expected<const Type *> PlanBuilder::build(const Plan &P, int64_t Shift) {
  const Block &First = B[P.Begin];
  int64_t Size = elementSize(P.Begin);
  switch (P.Kind) {
  case PlanKind::Single:
    if (Shift != 0) {
      int64_t D[] = {Shift};
      if (Size != 0 && Shift % Size == 0) {
        D[0] /= Size;
        return Ctx.getIndexedBlock(First.Count, D, basic(P.Begin));
      }
      return Ctx.getHIndexedBlock(First.Count, D, basic(P.Begin));
    }
    if (First.Count == 1)
      return basic(P.Begin);
    return Ctx.getContiguous(First.Count, basic(P.Begin));

  case PlanKind::Arith:
    return place(Size != 0 && P.Stride % Size == 0
                     ? Ctx.getVector(int64_t(P.Reps), First.Count,
                                     P.Stride / Size, basic(P.Begin))
                     : Ctx.getHVector(int64_t(P.Reps), First.Count, P.Stride,
                                      basic(P.Begin)),
                 Shift);

  case PlanKind::Repeat:
  case PlanKind::Contig:
  case PlanKind::VectorBl: {
    // A shiftable chunk takes the offset; otherwise the whole is placed.
    const Plan &Child = P.Children.front();
    bool Absorb = Child.isShiftable();
    Expected<const Type *> C = build(Child, Absorb ? Shift : 0);
    // Copies back to back (a blocklength, a contiguous run) are one span
    // apart.
    if (P.Kind != PlanKind::Repeat)
      C = withSpanExtent(std::move(C), Child,
                         P.Kind == PlanKind::VectorBl ? P.SubStride : 0);
    if (!C)
      return C;
    Expected<const Type *> R =
        P.Kind == PlanKind::Repeat ? repeat(P.Reps, 1, P.Stride, *C)
        : P.Kind == PlanKind::VectorBl
            ? repeat(P.Reps, P.BlockLen, P.Stride, *C)
        : (*C)->extent() == P.Stride ? Ctx.getContiguous(int64_t(P.Reps), *C)
                                     : repeat(P.Reps, 1, P.Stride, *C);
    return place(std::move(R), Absorb ? 0 : Shift);
  }

  case PlanKind::IndexChunk: {
    Expected<const Type *> C = build(P.Children.front(), 0);
    if (P.BlockLen > 1)
      C = withSpanExtent(std::move(C), P.Children.front(), P.SubStride);
    if (!C)
      return C;
    std::vector<int64_t> D;
    for (uint64_t K = 0; K < P.Reps; ++K) {
      Expected<std::vector<int64_t>> One =
          displacements(P.Begin, P.Begin + K * P.ChunkLen,
                        P.Begin + K * P.ChunkLen + 1, Shift);
      if (!One)
        return One.takeError();
      D.push_back(One->front());
    }
    int64_t Ext = (*C)->extent();
    if (Ext != 0 && toElements(D, Ext))
      return Ctx.getIndexedBlock(int64_t(P.BlockLen), D, *C);
    return Ctx.getHIndexedBlock(int64_t(P.BlockLen), D, *C);
  }

  case PlanKind::IndexedChunk: {
    // Group the copies into runs that sit back to back at the chunk's
    // extent: one entry (count, displacement) per run.
    Expected<const Type *> C =
        withSpanExtent(build(P.Children.front(), 0), P.Children.front());
    if (!C)
      return C;
    int64_t Ext = (*C)->extent();
    std::vector<int64_t> Counts, D;
    for (uint64_t K = 0; K < P.Reps; ++K) {
      size_t At = P.Begin + K * P.ChunkLen;
      Expected<std::vector<int64_t>> One =
          displacements(P.Begin, At, At + 1, Shift);
      if (!One)
        return One.takeError();
      if (K > 0 && One->front() == D.back() + Counts.back() * Ext) {
        ++Counts.back();
        continue;
      }
      Counts.push_back(1);
      D.push_back(One->front());
    }
    if (Ext != 0 && toElements(D, Ext))
      return Ctx.getIndexed(Counts, D, *C);
    return Ctx.getHIndexed(Counts, D, *C);
  }

  case PlanKind::IndexBlock:
  case PlanKind::Indexed: {
    Expected<std::vector<int64_t>> D =
        displacements(P.Begin, P.Begin, P.End, Shift);
    if (!D)
      return D.takeError();
    bool Elements = toElements(*D, Size);
    if (P.Kind == PlanKind::IndexBlock)
      return Elements ? Ctx.getIndexedBlock(First.Count, *D, basic(P.Begin))
                      : Ctx.getHIndexedBlock(First.Count, *D, basic(P.Begin));
    std::vector<int64_t> Counts;
    for (size_t T = P.Begin; T < P.End; ++T)
      Counts.push_back(B[T].Count);
    return Elements ? Ctx.getIndexed(Counts, *D, basic(P.Begin))
                    : Ctx.getHIndexed(Counts, *D, basic(P.Begin));
  }

  case PlanKind::Struct: {
    std::vector<int64_t> Lengths, Disps;
    std::vector<const Type *> Types;
    for (const Plan &Piece : P.Children) {
      Expected<std::vector<int64_t>> D =
          displacements(P.Begin, Piece.Begin, Piece.Begin + 1, Shift);
      if (!D)
        return D.takeError();
      Disps.push_back(D->front());
      if (Piece.size() == 1) {
        // The entry's blocklength counts the elements of the block.
        Lengths.push_back(B[Piece.Begin].Count);
        Types.push_back(basic(Piece.Begin));
        continue;
      }
      Expected<const Type *> T = build(Piece, 0);
      if (!T)
        return T;
      Lengths.push_back(1);
      Types.push_back(*T);
    }
    return Ctx.getStruct(Lengths, Disps, Types);
  }
  }
  return makeError("unknown plan");
}

Expected<const Type *> PlanBuilder::buildTiled(const Plan &P, int64_t Shift,
                                               int64_t Lb) {
  const Plan &Child = P.Children.front();
  bool Absorb = Child.isShiftable();
  Expected<const Type *> C =
      place(build(Child, Absorb ? Shift : 0), Absorb ? 0 : Shift);
  if (!C)
    return C;
  Expected<const Type *> Tile = Ctx.getResized(Lb, P.Stride, *C);
  if (!Tile)
    return Tile;
  return Ctx.getContiguous(int64_t(P.Reps), *Tile);
}

void buildBest(TypeContext &Ctx, Canonicalizer &Canon,
               std::span<const Block> Seq, const Type *Opaque,
               const std::vector<Plan> &Plans, const Type *T, bool KeepBounds,
               const Type *&Best) {
  PlanBuilder Builder(Ctx, Seq, Opaque);
  int64_t Shift = Seq.front().Offset;
  for (const Plan &P : Plans) {
    Expected<const Type *> X = Builder.build(P, Shift);
    if (X && KeepBounds && !(*X)->hasSameBounds(T)) {
      X = Ctx.getResized(T->lb(), T->extent(), *X);
      // Copies of a chunk that tile the extent (Tiled, Block, ... of
      // seed 000): the chunk resized to one stride, repeated
      // contiguously. Equal blocks at one stride are copies of a
      // one-block chunk too: contiguous(r, resized(MPI_INT)) costs 7 where
      // resized(vector(r, 1, s, MPI_INT)) costs 9. (A plan is a tree: the
      // one-block repetition is made only for an arithmetic plan.)
      std::optional<Plan> OneBlock;
      if (P.Kind == PlanKind::Arith) {
        OneBlock = Plan::make(PlanKind::Repeat, P.Begin, P.End);
        OneBlock->Reps = P.Reps;
        OneBlock->Stride = P.Stride;
        OneBlock->Children = {
            Plan::make(PlanKind::Single, P.Begin, P.Begin + 1)};
      }
      const Plan &Copies = OneBlock ? *OneBlock : P;
      int64_t Whole;
      if (X && Copies.Kind == PlanKind::Repeat && Copies.Stride > 0 &&
          !__builtin_mul_overflow(int64_t(Copies.Reps), Copies.Stride,
                                  &Whole) &&
          Whole == T->extent()) {
        Expected<const Type *> Tiled =
            Builder.buildTiled(Copies, Shift, T->lb());
        if (Tiled && (*Tiled)->hasSameBounds(T) && (*Tiled)->precedes(*X))
          X = Tiled;
        else if (!Tiled)
          (void)Tiled.takeError();
      }
    }
    if (!X) {
      (void)X.takeError(); // e.g. a displacement beyond 64 bits
      continue;
    }
    // Predicted costs ignore struct padding: judge the built types.
    const Type *C = Canon.canonicalize(*X);
    if (!Best || C->precedes(Best))
      Best = C;
  }
}

} // namespace ddtc::recon

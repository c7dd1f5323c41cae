//===- lib/Passes/Canonicalize.cpp - Local rewrites to a fixpoint ---------===//
//
// Each pattern is a small static function that looks at one node and
// builds its replacement through the context; it never mutates anything
// and returns null when it does not apply. Patterns may propose forms that
// change the bounds (MPICH's bounds rules are not compositional in every
// corner: zero blocklengths, struct padding); the driver rejects those.
//
//===----------------------------------------------------------------------===//
#include "ddtc/Passes/Canonicalize.h"

#include "ddtc/Passes/PassRegistry.h"
#include "ddtc/Support/CheckedInt.h"

#include <algorithm>
#include <numeric>
#include <optional>

namespace ddtc {

namespace {

const Type *value(Expected<const Type *> T) {
  if (!T) {
    (void)T.takeError(); // e.g. overflow of a merged count: no rewrite
    return nullptr;
  }
  return *T;
}

std::vector<int64_t> toVector(std::span<const int64_t> S) {
  return std::vector<int64_t>(S.begin(), S.end());
}

/// contiguous(1, T) -> T
const Type *trivialContiguous(TypeContext &, const Type *T) {
  auto *C = dyn_cast<ContiguousType>(T);
  return C && C->getCount() == 1 ? C->getOldType() : nullptr;
}

/// resized(T) to T's own bounds -> T
const Type *trivialResized(TypeContext &, const Type *T) {
  auto *R = dyn_cast<ResizedType>(T);
  if (!R)
    return nullptr;
  const Type *Old = R->getOldType();
  return Old->lb() == R->getNewLb() && Old->extent() == R->getNewExtent()
             ? Old
             : nullptr;
}

/// dup(T) -> T
const Type *removeDup(TypeContext &, const Type *T) {
  return isa<DupType>(T) ? T->getOldType() : nullptr;
}

/// Drops the entries with blocklength 0 of indexed, hindexed and struct.
const Type *dropZeroBlocks(TypeContext &Ctx, const Type *T) {
  if (!isa<IndexedType>(T) && !isa<StructType>(T))
    return nullptr;
  std::span<const int64_t> Bl = T->getList(0), Disp = T->getList(1);
  if (std::find(Bl.begin(), Bl.end(), 0) == Bl.end() ||
      std::all_of(Bl.begin(), Bl.end(), [](int64_t B) { return B == 0; }))
    return nullptr;
  std::vector<int64_t> NewBl, NewDisp;
  std::vector<const Type *> NewTypes;
  for (size_t I = 0; I < Bl.size(); ++I) {
    if (Bl[I] == 0)
      continue;
    NewBl.push_back(Bl[I]);
    NewDisp.push_back(Disp[I]);
    NewTypes.push_back(T->getOperands()[isa<StructType>(T) ? I : 0]);
  }
  std::vector<int64_t> Ints = NewBl;
  Ints.insert(Ints.end(), NewDisp.begin(), NewDisp.end());
  if (!isa<StructType>(T))
    NewTypes.resize(1);
  return value(Ctx.get(T->getKind(), std::move(Ints), std::move(NewTypes)));
}

/// vector/hvector with count 1, or whose blocks touch -> contiguous
const Type *vectorToContiguous(TypeContext &Ctx, const Type *T) {
  auto *V = dyn_cast<VectorType>(T);
  if (!V)
    return nullptr;
  const Type *Old = V->getOldType();
  if (V->getCount() == 1)
    return value(Ctx.getContiguous(V->getBlockLength(), Old));
  std::optional<int64_t> Dense = checkedMul(V->getBlockLength(), Old->extent());
  if (Dense && V->getByteStride() == *Dense) {
    std::optional<int64_t> N = checkedMul(V->getCount(), V->getBlockLength());
    return N ? value(Ctx.getContiguous(*N, Old)) : nullptr;
  }
  return nullptr;
}

/// contiguous(a, contiguous(b, T)) -> contiguous(a * b, T)
const Type *mergeContiguous(TypeContext &Ctx, const Type *T) {
  auto *Outer = dyn_cast<ContiguousType>(T);
  auto *Inner = Outer ? dyn_cast<ContiguousType>(Outer->getOldType()) : nullptr;
  if (!Inner)
    return nullptr;
  std::optional<int64_t> N = checkedMul(Outer->getCount(), Inner->getCount());
  return N ? value(Ctx.getContiguous(*N, Inner->getOldType())) : nullptr;
}

/// A struct entry, its block length and type.
struct Entry {
  int64_t Length;
  const Type *T;
};

/// S with each entry Rewrite gives a replacement for replaced (the same
/// copies at the same places, so the struct keeps its displacements); null
/// if Rewrite replaces none.
template <typename RewriteEntry>
const Type *rewriteEntries(TypeContext &Ctx, const StructType *S,
                           RewriteEntry Rewrite) {
  std::vector<int64_t> Lengths = toVector(S->getBlockLengths());
  std::vector<const Type *> Types(S->getTypes().begin(), S->getTypes().end());
  bool Changed = false;
  for (size_t I = 0; I < Types.size(); ++I)
    if (std::optional<Entry> E = Rewrite(Entry{Lengths[I], Types[I]})) {
      Lengths[I] = E->Length;
      Types[I] = E->T;
      Changed = true;
    }
  if (!Changed)
    return nullptr;
  return value(Ctx.getStruct(Lengths, toVector(S->getDisplacements()), Types));
}

/// Struct entries (b, contiguous(k, T)) of a dense contiguous ->
/// (b*k, T): the same copies at the same places, and MPI pads the struct's
/// extent by the alignment of the basic types, which are the same.
const Type *absorbContiguousEntries(TypeContext &Ctx, const StructType *S) {
  return rewriteEntries(Ctx, S, [](Entry E) -> std::optional<Entry> {
    auto *C = dyn_cast<ContiguousType>(E.T);
    if (!C)
      return std::nullopt;
    std::optional<int64_t> Span =
        checkedMul(C->getCount(), C->getOldType()->extent());
    std::optional<int64_t> Length = checkedMul(E.Length, C->getCount());
    if (!Span || *Span != C->extent() || !Length)
      return std::nullopt;
    return Entry{*Length, C->getOldType()};
  });
}

/// Struct entries (b, (h)indexed_block(k, [d], X)), b > 1 -> (1,
/// (h)indexed_block(b*k, [d], X)): a list of one block is k copies of X
/// placed at d, and b copies of it one extent apart are one block of b*k
/// copies at d. The same cost, and one spelling whichever count the
/// description put in the entry and which in the list (the planners
/// build either, by where they cut a struct's pieces).
const Type *entryCopiesInList(TypeContext &Ctx, const Type *T) {
  auto *S = dyn_cast<StructType>(T);
  if (!S)
    return nullptr;
  return rewriteEntries(Ctx, S, [&](Entry E) -> std::optional<Entry> {
    const Type *L = E.T;
    if (E.Length < 2 || !isa<IndexedBlockType>(L) || L->getListLength() != 1)
      return std::nullopt;
    const Type *X = L->getOldType();
    std::optional<int64_t> Copies = checkedMul(E.Length, L->getScalar(0));
    std::optional<int64_t> Span = checkedMul(L->getScalar(0), X->extent());
    if (!Copies || !Span || X->extent() <= 0 || *Span != L->extent())
      return std::nullopt;
    std::vector<int64_t> Ints = toVector(L->getInts());
    Ints[0] = *Copies; // the blocklength, the kind's one scalar
    const Type *Longer = value(Ctx.get(L->getKind(), std::move(Ints), {X}));
    if (!Longer)
      return std::nullopt;
    return Entry{1, Longer};
  });
}

/// A dense contiguous oldtype is absorbed into the block lengths:
/// vector(c, b, s, contiguous(k, T)) -> vector(c, b*k, s*k, T), and alike
/// for hvector, the indexed kinds (displacements in elements scale too)
/// and the entries of a struct.
const Type *absorbContiguousChild(TypeContext &Ctx, const Type *T) {
  if (auto *S = dyn_cast<StructType>(T))
    return absorbContiguousEntries(Ctx, S);
  if (!isa<VectorType>(T) && !isa<IndexedType>(T) && !isa<IndexedBlockType>(T))
    return nullptr;
  auto *Child = dyn_cast<ContiguousType>(T->getOldType());
  if (!Child)
    return nullptr;
  const Type *Elem = Child->getOldType();
  int64_t K = Child->getCount();
  std::optional<int64_t> Span = checkedMul(K, Elem->extent());
  if (!Span || *Span != Child->extent())
    return nullptr;
  std::vector<int64_t> Ints = toVector(T->getInts());
  const KindSpec &Spec = getKindSpec(T->getKind());
  bool ElementUnits = T->getKind() == TypeKind::Vector ||
                      T->getKind() == TypeKind::Indexed ||
                      T->getKind() == TypeKind::IndexedBlock;
  size_t N = T->getListLength();
  for (const FieldSpec &F : Spec.Fields) {
    bool Scale =
        F.Name == "blocklength" || F.Name == "blocklengths" ||
        (ElementUnits && (F.Name == "stride" || F.Name == "displacements"));
    if (!Scale)
      continue;
    size_t Begin =
        F.Shape == FieldShape::Scalar ? F.Index : Spec.NumScalars + F.Index * N;
    size_t End = F.Shape == FieldShape::Scalar ? Begin + 1 : Begin + N;
    for (size_t I = Begin; I < End; ++I) {
      std::optional<int64_t> V = checkedMul(Ints[I], K);
      if (!V)
        return nullptr;
      Ints[I] = *V;
    }
  }
  return value(Ctx.get(T->getKind(), std::move(Ints), {Elem}));
}

/// A list over one block of n copies of an element of extent 0 placed at
/// e -> the list over the element, blocks n times longer, displacements e
/// further: copies of an element of extent 0 are all at one place, so
/// each block of b copies of the child at d is b * n copies of the element
/// at d + e; and k copies of the child (a contiguous, or a vector, whose
/// strides are 0 bytes) one block of k * n at e. Where elements sit at
/// one place the planners, which read the typemap's runs, cannot rebuild
/// this; other children of one block are left to them (with copies that
/// tile, the typemap shows the blocks).
const Type *absorbPlacedCopies(TypeContext &Ctx, const Type *T) {
  if (!isa<IndexedType>(T) && !isa<IndexedBlockType>(T) &&
      !isa<ContiguousType>(T) && !isa<VectorType>(T))
    return nullptr;
  const Type *Child = T->getOldType();
  if ((!isa<IndexedType>(Child) && !isa<IndexedBlockType>(Child)) ||
      Child->getListLength() != 1 || Child->getOldType()->extent() != 0)
    return nullptr;
  bool ChildBlock = isa<IndexedBlockType>(Child);
  int64_t N = ChildBlock ? Child->getScalar(0) : Child->getList(0)[0];
  // Element displacements of an element of extent 0 are 0 bytes.
  int64_t E = Child->getKind() == TypeKind::HIndexed ||
                      Child->getKind() == TypeKind::HIndexedBlock
                  ? Child->getList(ChildBlock ? 0 : 1)[0]
                  : 0;
  if (N <= 0)
    return nullptr;
  const Type *X = Child->getOldType();
  // Copies of the child one after another (contiguous) or at any stride
  // (a vector: every stride is 0 bytes) are one block at e.
  if (isa<ContiguousType>(T) || isa<VectorType>(T)) {
    std::optional<int64_t> Copies =
        isa<ContiguousType>(T)
            ? std::optional<int64_t>(cast<ContiguousType>(T)->getCount())
            : checkedMul(cast<VectorType>(T)->getCount(),
                         cast<VectorType>(T)->getBlockLength());
    std::optional<int64_t> Length = Copies ? checkedMul(*Copies, N) : Copies;
    int64_t Disp[] = {E};
    return Length ? value(Ctx.getHIndexedBlock(*Length, Disp, X)) : nullptr;
  }
  bool Block = isa<IndexedBlockType>(T);
  bool Bytes = T->getKind() == TypeKind::HIndexed ||
               T->getKind() == TypeKind::HIndexedBlock;
  std::vector<int64_t> Disps;
  for (int64_t D : T->getList(Block ? 0 : 1)) {
    // In elements of the child (extent 0), every displacement is 0 bytes.
    std::optional<int64_t> At = checkedAdd(Bytes ? D : 0, E);
    if (!At)
      return nullptr;
    Disps.push_back(*At);
  }
  if (Block) {
    std::optional<int64_t> Length = checkedMul(T->getScalar(0), N);
    return Length ? value(Ctx.getHIndexedBlock(*Length, Disps, X)) : nullptr;
  }
  std::vector<int64_t> Lengths;
  for (int64_t B : T->getList(0)) {
    std::optional<int64_t> Length = checkedMul(B, N);
    if (!Length)
      return nullptr;
    Lengths.push_back(*Length);
  }
  return value(Ctx.getHIndexed(Lengths, Disps, X));
}

/// Consecutive blocks of (h)indexed, (h)indexed_block and struct that
/// touch become one; an indexed_block whose blocks merge becomes an
/// indexed (the driver keeps it only if that is cheaper or simpler).
const Type *mergeAdjacentBlocks(TypeContext &Ctx, const Type *T) {
  if (!isa<IndexedType>(T) && !isa<IndexedBlockType>(T) && !isa<StructType>(T))
    return nullptr;
  bool Struct = isa<StructType>(T);
  bool Block = isa<IndexedBlockType>(T);
  bool Bytes = T->getKind() != TypeKind::Indexed &&
               T->getKind() != TypeKind::IndexedBlock;
  std::span<const int64_t> Disp = T->getList(Block ? 0 : 1);
  auto Length = [&](size_t I) {
    return Block ? T->getScalar(0) : T->getList(0)[I];
  };
  auto TypeOf = [&](size_t I) { return T->getOperands()[Struct ? I : 0]; };
  // Whether a block of Len elements of Op at displacement From ends where
  // block I starts, in bytes (element displacements of an oldtype of
  // extent 0 all sit at 0).
  auto Touches = [&](int64_t From, int64_t Len, const Type *Op, size_t I) {
    int64_t Extent = Op->extent();
    if (TypeOf(I) != Op || Extent < 0 || Len <= 0 || Length(I) <= 0)
      return false;
    std::optional<int64_t> Start =
        Bytes ? std::optional<int64_t>(From) : checkedMul(From, Extent);
    std::optional<int64_t> Span = checkedMul(Len, Extent);
    std::optional<int64_t> End =
        Start && Span ? checkedAdd(*Start, *Span) : std::nullopt;
    std::optional<int64_t> Next =
        Bytes ? std::optional<int64_t>(Disp[I]) : checkedMul(Disp[I], Extent);
    return End && Next && *End == *Next;
  };
  // Most lists have no touching blocks: count them before building
  // anything (a block touching the one before it in the list merges, in
  // chains too).
  size_t Merges = 0;
  for (size_t I = 1; I < Disp.size(); ++I)
    Merges += Touches(Disp[I - 1], Length(I - 1), TypeOf(I - 1), I);
  if (Merges == 0)
    return nullptr;
  // An indexed_block of n blocks that becomes an indexed of m: the list
  // grows by 2m + 2 - (n + 3) and at most n - m copies are saved, so
  // unless a third of the blocks merge the result is costlier.
  size_t N = Disp.size(), M = N - Merges;
  if (Block && 3 * M > 2 * N + 1)
    return nullptr;
  std::vector<int64_t> NewBl, NewDisp;
  std::vector<const Type *> NewTypes;
  for (size_t I = 0; I < Disp.size(); ++I) {
    if (!NewBl.empty() &&
        Touches(NewDisp.back(), NewBl.back(), NewTypes.back(), I)) {
      NewBl.back() += Length(I);
      continue;
    }
    NewBl.push_back(Length(I));
    NewDisp.push_back(Disp[I]);
    NewTypes.push_back(TypeOf(I));
  }
  if (!Struct)
    NewTypes.resize(1);
  if (Block)
    return value(Bytes ? Ctx.getHIndexed(NewBl, NewDisp, NewTypes[0])
                       : Ctx.getIndexed(NewBl, NewDisp, NewTypes[0]));
  std::vector<int64_t> Ints = NewBl;
  Ints.insert(Ints.end(), NewDisp.begin(), NewDisp.end());
  return value(Ctx.get(T->getKind(), std::move(Ints), std::move(NewTypes)));
}

/// (h)indexed whose blocks all have one length -> (h)indexed_block
const Type *uniformBlockLength(TypeContext &Ctx, const Type *T) {
  auto *I = dyn_cast<IndexedType>(T);
  if (!I || I->getListLength() == 0)
    return nullptr;
  std::span<const int64_t> Bl = I->getBlockLengths();
  if (!std::all_of(Bl.begin(), Bl.end(), [&](int64_t B) { return B == Bl[0]; }))
    return nullptr;
  return value(
      I->isByteDisplacement()
          ? Ctx.getHIndexedBlock(Bl[0], I->getDisplacements(), I->getOldType())
          : Ctx.getIndexedBlock(Bl[0], I->getDisplacements(), I->getOldType()));
}

/// (h)indexed whose block lengths are all multiples of g > 1 -> an
/// (h)indexed_block of blocks of g, each block split into its g-element
/// parts: one displacement per part instead of a length and a
/// displacement per block, kept only where it makes no more copies (an
/// element is its own piece: pair types, strided oldtypes). The inverse of
/// merging touching blocks; the driver keeps whichever is cheaper, so the form
/// does not depend on whether a description merged them.
const Type *splitToUniformBlocks(TypeContext &Ctx, const Type *T) {
  auto *I = dyn_cast<IndexedType>(T);
  if (!I || I->getListLength() < 2)
    return nullptr;
  std::span<const int64_t> Bl = I->getBlockLengths(), D = I->getDisplacements();
  int64_t G = 0, Parts = 0;
  for (int64_t B : Bl)
    G = std::gcd(G, B);
  if (G <= 0)
    return nullptr;
  for (int64_t B : Bl)
    Parts += B / G;
  // Only where the list can get shorter in cost: one entry per part
  // against two per block.
  if (Parts >= 2 * int64_t(Bl.size()) ||
      std::all_of(Bl.begin(), Bl.end(), [&](int64_t B) { return B == G; }))
    return nullptr;
  int64_t Step = G;
  if (I->isByteDisplacement()) {
    std::optional<int64_t> S = checkedMul(G, I->getOldType()->extent());
    if (!S)
      return nullptr;
    Step = *S;
  }
  std::vector<int64_t> Split;
  for (size_t K = 0; K < Bl.size(); ++K)
    for (int64_t P = 0; P < Bl[K] / G; ++P) {
      std::optional<int64_t> Off = checkedMul(P, Step);
      std::optional<int64_t> At = Off ? checkedAdd(D[K], *Off) : std::nullopt;
      if (!At)
        return nullptr;
      Split.push_back(*At);
    }
  const Type *R = value(I->isByteDisplacement()
                            ? Ctx.getHIndexedBlock(G, Split, I->getOldType())
                            : Ctx.getIndexedBlock(G, Split, I->getOldType()));
  // A normal form copies each maximal run once: never split a run that
  // was one copy.
  return R && R->getLayout().Pieces <= T->getLayout().Pieces ? R : nullptr;
}

/// (h)indexed_block with displacements at a constant stride -> a vector,
/// placed by an hindexed_block of one block if it does not start at 0.
const Type *constantStride(TypeContext &Ctx, const Type *T) {
  auto *B = dyn_cast<IndexedBlockType>(T);
  if (!B || B->getListLength() == 0)
    return nullptr;
  std::span<const int64_t> D = B->getDisplacements();
  const Type *Old = B->getOldType();
  int64_t Stride = D.size() > 1 ? D[1] - D[0] : 0;
  for (size_t I = 1; I < D.size(); ++I)
    if (D[I] - D[I - 1] != Stride)
      return nullptr;
  const Type *V =
      value(B->isByteDisplacement()
                ? Ctx.getHVector(D.size(), B->getBlockLength(), Stride, Old)
                : Ctx.getVector(D.size(), B->getBlockLength(), Stride, Old));
  if (!V || D[0] == 0)
    return V;
  std::optional<int64_t> Offset = B->isByteDisplacement()
                                      ? std::optional<int64_t>(D[0])
                                      : checkedMul(D[0], Old->extent());
  if (!Offset)
    return nullptr;
  int64_t Disp[] = {*Offset};
  return value(Ctx.getHIndexedBlock(1, Disp, V));
}

/// A list whose entries are k copies of its first m, each copy moved by
/// the same t bytes -> hvector(k, 1, t, the first m): the repetition the
/// planners find in a typemap, found in the description, where copies
/// that overlap (a list that names some bytes twice) hide it from them.
/// The smallest such m >= 2; (h)indexed, (h)indexed_block and struct
/// (whose padding the driver checks through the bounds).
const Type *foldPeriodicList(TypeContext &Ctx, const Type *T) {
  if (!isa<IndexedType>(T) && !isa<IndexedBlockType>(T) && !isa<StructType>(T))
    return nullptr;
  bool Block = isa<IndexedBlockType>(T);
  bool Struct = isa<StructType>(T);
  bool Bytes = Struct || T->getKind() == TypeKind::HIndexed ||
               T->getKind() == TypeKind::HIndexedBlock;
  std::span<const int64_t> Disp = T->getList(Block ? 0 : 1);
  std::span<const int64_t> Lengths =
      Block ? std::span<const int64_t>() : T->getList(0);
  size_t N = Disp.size();
  auto Same = [&](size_t I, size_t J) {
    return (Block || Lengths[I] == Lengths[J]) &&
           (!Struct || T->getOperands()[I] == T->getOperands()[J]);
  };
  // One entry at a constant step is constant-stride's vector, placed
  // as the planners place it.
  for (size_t M = 2; 2 * M <= N; ++M) {
    if (N % M != 0)
      continue;
    // Differences of displacements near the int64 limits overflow: such a
    // list is not taken for periodic.
    int64_t Step;
    bool Periodic = !__builtin_sub_overflow(Disp[M], Disp[0], &Step);
    for (size_t I = M; I < N && Periodic; ++I) {
      int64_t D;
      Periodic = Same(I, I - M) &&
                 !__builtin_sub_overflow(Disp[I], Disp[I - M], &D) && D == Step;
    }
    if (!Periodic)
      continue;
    std::vector<int64_t> Ints(T->getInts().begin(),
                              T->getInts().begin() +
                                  getKindSpec(T->getKind()).NumScalars);
    if (!Block)
      Ints.insert(Ints.end(), Lengths.begin(), Lengths.begin() + M);
    Ints.insert(Ints.end(), Disp.begin(), Disp.begin() + M);
    std::vector<const Type *> Ops(T->getOperands().begin(),
                                  T->getOperands().begin() +
                                      (Struct ? M : 1));
    const Type *First = value(Ctx.get(T->getKind(), std::move(Ints), Ops));
    std::optional<int64_t> Stride =
        Bytes ? std::optional<int64_t>(Step)
              : checkedMul(Step, T->getOldType()->extent());
    if (!First || !Stride)
      return nullptr;
    return value(Ctx.getHVector(N / M, 1, *Stride, First));
  }
  return nullptr;
}

/// hvector whose byte stride is a whole number of oldtype extents -> vector
const Type *hvectorToVector(TypeContext &Ctx, const Type *T) {
  auto *V = dyn_cast<VectorType>(T);
  if (!V || !V->isByteStride())
    return nullptr;
  int64_t Extent = V->getOldType()->extent();
  if (Extent <= 0 || V->getStride() % Extent != 0)
    return nullptr;
  return value(Ctx.getVector(V->getCount(), V->getBlockLength(),
                             V->getStride() / Extent, V->getOldType()));
}

/// hindexed / hindexed_block whose byte displacements are all whole
/// numbers of oldtype extents -> indexed / indexed_block: the same cost,
/// a simpler kind, and so one spelling of the list whichever units the
/// description used. In elements of an oldtype of extent 0 -> all 0.
const Type *elementDisplacements(TypeContext &Ctx, const Type *T) {
  bool Indexed = isa<IndexedType>(T);
  if (!Indexed && !isa<IndexedBlockType>(T))
    return nullptr;
  int64_t Extent = T->getOldType()->extent();
  std::span<const int64_t> D = T->getList(Indexed ? 1 : 0);
  // In element units of an oldtype of extent 0 every displacement is 0
  // bytes: spell it so, which lets the copies merge.
  if (T->getKind() == TypeKind::Indexed ||
      T->getKind() == TypeKind::IndexedBlock) {
    if (Extent != 0 ||
        std::all_of(D.begin(), D.end(), [](int64_t X) { return X == 0; }))
      return nullptr;
    std::vector<int64_t> Zeros(D.size(), 0);
    return value(
        Indexed ? Ctx.getIndexed(T->getList(0), Zeros, T->getOldType())
                : Ctx.getIndexedBlock(T->getScalar(0), Zeros, T->getOldType()));
  }
  if (Extent <= 0 || !std::all_of(D.begin(), D.end(),
                                  [&](int64_t X) { return X % Extent == 0; }))
    return nullptr;
  std::vector<int64_t> Elements;
  for (int64_t X : D)
    Elements.push_back(X / Extent);
  return value(
      Indexed
          ? Ctx.getIndexed(T->getList(0), Elements, T->getOldType())
          : Ctx.getIndexedBlock(T->getScalar(0), Elements, T->getOldType()));
}

/// struct whose entries all have one type -> hindexed
const Type *structToHIndexed(TypeContext &Ctx, const Type *T) {
  auto *S = dyn_cast<StructType>(T);
  if (!S || S->getListLength() == 0)
    return nullptr;
  std::span<const Type *const> Types = S->getTypes();
  if (!std::all_of(Types.begin(), Types.end(),
                   [&](const Type *X) { return X == Types[0]; }))
    return nullptr;
  return value(
      Ctx.getHIndexed(S->getBlockLengths(), S->getDisplacements(), Types[0]));
}

/// A vector of vectors of single elements E bytes apart, the outer stride
/// a multiple s of E: the elements are copies of resized(lb, E, X), and
/// (h)vector(c, 1, s * E, (h)vector(b, 1, E, X)) -> vector(c, b, s,
/// resized(lb(X), E, X)), one node less. Its upper bound ends a whole E
/// after the last element, so the rewrite is mostly taken under a resized
/// that sets those bounds anyway (which it then replaces), or wrapped in
/// one when that is still cheaper.
const Type *resizedElement(TypeContext &Ctx, const Type *T) {
  const Type *Root = T;
  if (auto *R = dyn_cast<ResizedType>(T))
    Root = R->getOldType();
  auto *Outer = dyn_cast<VectorType>(Root);
  auto *Inner = Outer ? dyn_cast<VectorType>(Outer->getOldType()) : nullptr;
  if (!Inner || Outer->getBlockLength() != 1 || Inner->getBlockLength() != 1 ||
      Inner->getCount() < 2 || Outer->getCount() < 2)
    return nullptr;
  const Type *X = Inner->getOldType();
  int64_t E = Inner->getByteStride(), S = Outer->getByteStride();
  if (E <= 0 || E == X->extent() || S % E != 0)
    return nullptr;
  const Type *Element = value(Ctx.getResized(X->lb(), E, X));
  const Type *V = Element
                      ? value(Ctx.getVector(Outer->getCount(),
                                            Inner->getCount(), S / E, Element))
                      : nullptr;
  if (!V || V->hasSameBounds(T))
    return V;
  return value(Ctx.getResized(T->lb(), T->extent(), V));
}

/// resized(lb, r * s, (h)vector(r, 1, s, X)), s > 0 -> contiguous(r,
/// resized(lb, s, X)): copies that tile the extent, the resized moved onto
/// the element (cost 9 -> 7). The planners build this form from the
/// typemap (docs/normalization.md, Reconstruction); a description that
/// hides the element inside a larger node (the vector as the oldtype of
/// another) reaches it only through this rewrite.
///
/// With blocks of k > 1 the element is resized(lb, s, contiguous(k, X));
/// that is costlier at the node itself, so only absorbTiledCopies asks for
/// it, on behalf of a parent that takes the copies into its blocks.
const Type *tiledCopies(TypeContext &Ctx, const Type *T, bool AnyBlockLength) {
  auto *R = dyn_cast<ResizedType>(T);
  auto *V = R ? dyn_cast<VectorType>(R->getOldType()) : nullptr;
  if (!V || V->getCount() < 2 ||
      (V->getBlockLength() != 1 && !AnyBlockLength) || V->getBlockLength() < 1)
    return nullptr;
  int64_t S = V->getByteStride();
  std::optional<int64_t> Whole = checkedMul(S, V->getCount());
  if (S <= 0 || !Whole || *Whole != T->extent())
    return nullptr;
  const Type *Block = V->getOldType();
  if (V->getBlockLength() != 1 &&
      !(Block = value(Ctx.getContiguous(V->getBlockLength(), Block))))
    return nullptr;
  const Type *Element = value(Ctx.getResized(T->lb(), S, Block));
  return Element ? value(Ctx.getContiguous(V->getCount(), Element)) : nullptr;
}

const Type *tileCopies(TypeContext &Ctx, const Type *T) {
  return tiledCopies(Ctx, T, /*AnyBlockLength=*/false);
}

/// A node whose oldtype (or struct entry) is tiled copies (tile-copies, of
/// blocks of any length, or a list of copies of its first entries one
/// extent of them apart) takes them into its own blocks: hvector(c, b, S,
/// resized(lb, r * s, hvector(r, k, s, X))) -> hvector(c, b * r, S,
/// resized(lb, s, contiguous(k, X))), and alike for contiguous, vector,
/// the indexed kinds and struct entries (merge-contiguous and
/// absorb-contiguous-child do the taking). The oldtype alone is cheaper as
/// it was written, so judged one node at a time the element stays hidden
/// and the description that names it (a contiguous of the element) keeps
/// a different normal form.
const Type *absorbTiledCopies(TypeContext &Ctx, const Type *T) {
  if (!isa<ContiguousType>(T) && !isa<VectorType>(T) && !isa<IndexedType>(T) &&
      !isa<IndexedBlockType>(T) && !isa<StructType>(T))
    return nullptr;
  // Copies that tile the oldtype's extent: a resized vector of them, or a
  // periodic list whose copies sit one extent of its first entries apart
  // (fold-periodic-list's hvector at that stride is their contiguous).
  auto TiledCopies = [&](const Type *Op) -> const Type * {
    if (const Type *C = tiledCopies(Ctx, Op, /*AnyBlockLength=*/true))
      return C;
    const Type *Folded = foldPeriodicList(Ctx, Op);
    auto *F = Folded ? dyn_cast<VectorType>(Folded) : nullptr;
    if (!F || F->getBlockLength() != 1 || F->getByteStride() <= 0 ||
        F->getByteStride() != F->getOldType()->extent())
      return nullptr;
    const Type *C = value(Ctx.getContiguous(F->getCount(), F->getOldType()));
    return C && C->hasSameBounds(Op) ? C : nullptr;
  };
  bool Tiled = false;
  const Type *WithCopies = Ctx.mapOperands(T, [&](const Type *Op) {
    const Type *Copies = TiledCopies(Op);
    Tiled |= Copies != nullptr;
    return Copies ? Copies : Op;
  });
  if (!Tiled || !WithCopies)
    return nullptr;
  return isa<ContiguousType>(WithCopies)
             ? mergeContiguous(Ctx, WithCopies)
             : absorbContiguousChild(Ctx, WithCopies);
}

/// vector(c2, 1, S, vector(c1, b, s, T)) where the outer stride S is c1
/// inner strides -> vector(c1 * c2, b, s, T)
const Type *mergeNestedVectors(TypeContext &Ctx, const Type *T) {
  auto *Outer = dyn_cast<VectorType>(T);
  auto *Inner = Outer ? dyn_cast<VectorType>(Outer->getOldType()) : nullptr;
  if (!Inner || Outer->getBlockLength() != 1 || Inner->getCount() < 2)
    return nullptr;
  std::optional<int64_t> Step =
      checkedMul(Inner->getCount(), Inner->getByteStride());
  if (!Step || *Step != Outer->getByteStride())
    return nullptr;
  std::optional<int64_t> N = checkedMul(Outer->getCount(), Inner->getCount());
  if (!N)
    return nullptr;
  return value(Ctx.get(Inner->getKind(),
                       {*N, Inner->getBlockLength(), Inner->getStride()},
                       {Inner->getOldType()}));
}

/// subarray / darray -> the constructors MPI builds it from, which its
/// cost already counts: kept when their canonical form is cheaper (or of
/// equal cost and simpler), so that an array and the vectors that
/// describe the same layout meet.
const Type *expandArray(TypeContext &, const Type *T) {
  return T->getExpansion();
}

/// A type without data has only its bounds left to describe -> the
/// cheapest description of them. A struct of no entries has lb = extent =
/// 0 (cost 1); a block of length 0 places a bound and no
/// data, so indexed_block(0, [lb], MPI_BYTE) (cost 4) and
/// indexed_block(0, [lb, lb + extent], MPI_BYTE) (cost 5) give the others.
/// No description of a non-zero extent costs less than 5 (a resized costs
/// 4 before its oldtype), and one with extent 0 and lb != 0 less than 4.
/// A negative extent, which only resized makes, is resized(lb, extent,
/// struct()).
const Type *boundsOnly(TypeContext &Ctx, const Type *T) {
  if (T->size() != 0)
    return nullptr;
  int64_t Lb = T->lb(), Extent = T->extent();
  const Type *Empty = value(Ctx.getStruct({}, {}, {}));
  const Type *Byte = Ctx.getPredefined(PredefinedId::Byte);
  int64_t Ub;
  Expected<const Type *> R =
      Lb == 0 && Extent == 0 ? Empty
      : Extent == 0          ? Ctx.getIndexedBlock(0, std::vector{Lb}, Byte)
      : Extent > 0 && !__builtin_add_overflow(Lb, Extent, &Ub)
          ? Ctx.getIndexedBlock(0, std::vector{Lb, Ub}, Byte)
          : Ctx.getResized(Lb, Extent, Empty);
  return value(std::move(R));
}

constexpr RewritePattern Patterns[] = {
#define DDTC_PATTERN(Function, Name) {Name, Function},
#include "ddtc/Passes/CanonicalizePatterns.def"
};

/// Rewrites at one root are bounded by the strictly decreasing order
/// (Type::precedes); this cap only guards against a broken
/// pattern.
constexpr unsigned MaxRootRewrites = 64;

class CanonicalizePass : public Pass {
public:
  std::string_view getName() const override {
    return getPassInfo(PassId::Canonicalize).Name;
  }
  bool run(Module &M) override {
    Canonicalizer C(M.getContext());
    return rewriteTypes(M, [&](const Type *T) { return C.canonicalize(T); });
  }
};

} // namespace

std::span<const RewritePattern> getCanonicalizationPatterns() {
  return Patterns;
}

const Type *Canonicalizer::canonicalize(const Type *T) {
  if (isa<PredefinedType>(T))
    return T;
  if (auto It = Memo.find(T); It != Memo.end())
    return It->second;
  // A pattern that leads back to a node being canonicalized: stop there.
  if (!InProgress.insert(T).second)
    return T;

  // Operands first (the parent is kept if they move its bounds).
  const Type *Current =
      Ctx.mapOperands(T, [this](const Type *Op) { return canonicalize(Op); });
  // An operand that trades description for copies (merged blocks) can
  // make a parent costlier whose copies do not count: one without data.
  if (T->isCheaperThan(Current))
    Current = T;
  const Type *Result = rewriteRoot(Current);
  InProgress.erase(T);
  Memo[T] = Result;
  return Result;
}

const Type *Canonicalizer::rewriteRoot(const Type *T) {
  // A type without data has one canonical form: bounds-only gives the
  // cheapest description of its bounds, and it decides alone -- other
  // descriptions of the same cost exist (vector(2, 0, 12, MPI_BYTE) for
  // lb 0, extent 12), and letting them compete would make the result
  // depend on where the rewriting started.
  if (T->size() == 0) {
    const Type *B = boundsOnly(Ctx, T);
    if (B && B->hasSameBounds(T) && !T->isCheaperThan(B)) {
      if (B != T)
        ++Stats["bounds-only"];
      return B;
    }
  }
  for (unsigned Round = 0; Round < MaxRootRewrites; ++Round) {
    // Every pattern proposes; the first in the total order wins, so the
    // result does not depend on which rewrite a description allows first
    // (an index list of touching equal blocks can merge its blocks or
    // become an indexed_block: the better of the two, not the first).
    const Type *Next = nullptr;
    std::string_view NextPattern;
    for (const RewritePattern &P : Patterns) {
      const Type *Candidate = P.Rewrite(Ctx, T);
      if (!Candidate || Candidate == T || !Candidate->hasSameBounds(T))
        continue;
      // A candidate may be a step towards a simpler form through a costlier
      // one (hindexed_block(1, [0], T) -> hvector(1, ...) -> T): judge it by
      // its own canonical form.
      const Type *Final = canonicalize(Candidate);
      if (Final != Candidate && Final->hasSameBounds(T) &&
          Final->precedes(Candidate))
        Candidate = Final;
      if (!Candidate->precedes(T) || (Next && !Candidate->precedes(Next)))
        continue;
      Next = Candidate;
      NextPattern = P.Name;
    }
    if (!Next)
      return T;
    ++Stats[NextPattern];
    T = Next;
  }
  return T;
}

std::unique_ptr<Pass> createCanonicalizePass() {
  return std::make_unique<CanonicalizePass>();
}

} // namespace ddtc

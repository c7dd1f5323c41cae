//===- lib/Testing/Rewritings.cpp - Equivalent re-descriptions ------------===//
//
// Most rewritings go through one intermediate form: a node whose data is
// a list of blocks of one oldtype (contiguous, vectors, index lists, a
// struct of one type) as explicit (count, byte displacement) pairs -- the
// meaning MPI gives all of them. A rewriting reads a node as such a list
// and writes the list back with other constructors.
//
//===----------------------------------------------------------------------===//
#include "ddtc/Testing/Rewritings.h"

#include "ddtc/IR/TypePieces.h"
#include "ddtc/Support/Casting.h"
#include "ddtc/Support/CheckedInt.h"

#include <algorithm>
#include <optional>

namespace ddtc {

namespace {

/// Longest list a rewriting writes: random types stay small, and a listed
/// vector of a million blocks would only slow the tests down.
constexpr size_t MaxListLength = 4096;

/// Counts[i] copies of Old at byte displacement Disps[i].
struct BlockList {
  std::vector<int64_t> Counts, Disps;
  const Type *Old = nullptr;
};

/// T's data as blocks of one oldtype, if T is a list of one oldtype: its
/// pieces (ddtc/IR/TypePieces.h), when they all copy the same child.
std::optional<BlockList> asBlockList(const Type *T) {
  TypeKind K = T->getKind();
  if (K == TypeKind::Predefined || K == TypeKind::Resized ||
      K == TypeKind::Dup || T->getExpansion())
    return std::nullopt;
  uint64_t N = getNumPieces(T);
  if (N > MaxListLength || (N == 0 && K == TypeKind::Struct))
    return std::nullopt;
  BlockList L;
  // An empty list still has its oldtype (and bounds of none of its data).
  L.Old = N == 0 ? T->getOldType() : getPiece(T, 0).Child;
  for (uint64_t I = 0; I < N; ++I) {
    TypePiece P = getPiece(T, I);
    if (P.Child != L.Old)
      return std::nullopt;
    L.Counts.push_back(P.Reps);
    L.Disps.push_back(P.Disp);
  }
  return L;
}

/// New, resized to Old's bounds if it lost them.
const Type *withBoundsOf(TypeContext &Ctx, const Type *New, const Type *Old) {
  if (!New || New->hasSameBounds(Old))
    return New;
  Expected<const Type *> R = Ctx.getResized(Old->lb(), Old->extent(), New);
  if (!R) {
    (void)R.takeError();
    return nullptr;
  }
  return *R;
}

const Type *orNull(Expected<const Type *> T) {
  if (T)
    return *T;
  (void)T.takeError();
  return nullptr;
}

/// L as an indexed list, in elements when every displacement is a whole
/// number of the oldtype's extent.
const Type *writeIndexed(TypeContext &Ctx, const BlockList &L) {
  int64_t Ext = L.Old->extent();
  if (Ext != 0 && std::all_of(L.Disps.begin(), L.Disps.end(),
                              [&](int64_t D) { return D % Ext == 0; })) {
    std::vector<int64_t> D;
    for (int64_t X : L.Disps)
      D.push_back(X / Ext);
    return orNull(Ctx.getIndexed(L.Counts, D, L.Old));
  }
  return orNull(Ctx.getHIndexed(L.Counts, L.Disps, L.Old));
}

const Type *listedIndex(TypeContext &Ctx, const Type *T) {
  if (isa<IndexedType>(T) || isa<StructType>(T))
    return nullptr;
  std::optional<BlockList> L = asBlockList(T);
  return L ? writeIndexed(Ctx, *L) : nullptr;
}

const Type *oneTypeStruct(TypeContext &Ctx, const Type *T) {
  if (isa<StructType>(T))
    return nullptr;
  std::optional<BlockList> L = asBlockList(T);
  if (!L)
    return nullptr;
  std::vector<const Type *> Types(L->Counts.size(), L->Old);
  return orNull(Ctx.getStruct(L->Counts, L->Disps, Types));
}

const Type *nestedContiguous(TypeContext &Ctx, const Type *T) {
  if (auto *C = dyn_cast<ContiguousType>(T)) {
    int64_t N = C->getCount();
    for (int64_t A = 2; A * A <= N; ++A)
      if (N % A == 0) {
        const Type *Inner = orNull(Ctx.getContiguous(N / A, C->getOldType()));
        return Inner ? orNull(Ctx.getContiguous(A, Inner)) : nullptr;
      }
    return nullptr;
  }
  // Equal blocks of b > 1 elements as single copies of contiguous(b, old).
  int64_t B = 0;
  if (auto *V = dyn_cast<VectorType>(T))
    B = V->getBlockLength();
  else if (auto *X = dyn_cast<IndexedBlockType>(T))
    B = X->getBlockLength();
  if (B < 2)
    return nullptr;
  std::optional<BlockList> L = asBlockList(T);
  if (!L)
    return nullptr;
  const Type *Block = orNull(Ctx.getContiguous(B, L->Old));
  if (!Block)
    return nullptr;
  if (auto *V = dyn_cast<VectorType>(T)) {
    int64_t Stride = L->Disps.size() > 1 ? L->Disps[1] - L->Disps[0] : 0;
    return orNull(Ctx.getHVector(V->getCount(), 1, Stride, Block));
  }
  return orNull(Ctx.getHIndexedBlock(1, L->Disps, Block));
}

const Type *byteUnits(TypeContext &Ctx, const Type *T) {
  std::optional<BlockList> L;
  switch (T->getKind()) {
  case TypeKind::Vector: {
    auto *V = cast<VectorType>(T);
    std::optional<int64_t> S =
        checkedMul(V->getStride(), V->getOldType()->extent());
    return S ? orNull(Ctx.getHVector(V->getCount(), V->getBlockLength(), *S,
                                     V->getOldType()))
             : nullptr;
  }
  case TypeKind::Indexed:
    L = asBlockList(T);
    return L ? orNull(Ctx.getHIndexed(L->Counts, L->Disps, L->Old)) : nullptr;
  case TypeKind::IndexedBlock:
    L = asBlockList(T);
    return L ? orNull(Ctx.getHIndexedBlock(
                   cast<IndexedBlockType>(T)->getBlockLength(), L->Disps,
                   L->Old))
             : nullptr;
  default:
    return nullptr;
  }
}

/// T, a list of copies of a list Y of Z, as one list of Z: copy j of Y
/// sits j extents of Y after its block (bounds Y set itself are lost, and
/// restored by the caller's resized).
const Type *flattenLevel(TypeContext &Ctx, const Type *T) {
  std::optional<BlockList> Outer = asBlockList(T);
  if (!Outer)
    return nullptr;
  std::optional<BlockList> Inner = asBlockList(Outer->Old);
  if (!Inner)
    return nullptr;
  int64_t Ext = Outer->Old->extent();
  BlockList Flat;
  Flat.Old = Inner->Old;
  for (size_t I = 0; I < Outer->Counts.size(); ++I)
    for (int64_t J = 0; J < Outer->Counts[I]; ++J) {
      std::optional<int64_t> Copy = checkedMul(J, Ext);
      if (!Copy || !(Copy = checkedAdd(*Copy, Outer->Disps[I])))
        return nullptr;
      for (size_t K = 0; K < Inner->Counts.size(); ++K) {
        std::optional<int64_t> D = checkedAdd(*Copy, Inner->Disps[K]);
        if (!D || Flat.Counts.size() == MaxListLength)
          return nullptr;
        Flat.Counts.push_back(Inner->Counts[K]);
        Flat.Disps.push_back(*D);
      }
    }
  if (Flat.Counts.empty())
    return nullptr;
  return writeIndexed(Ctx, Flat);
}

const Type *splitStructEntries(TypeContext &Ctx, const Type *T) {
  auto *S = dyn_cast<StructType>(T);
  if (!S)
    return nullptr;
  std::vector<int64_t> Lengths, Disps, EmptyLengths, EmptyDisps;
  std::vector<const Type *> Types, EmptyTypes;
  bool Changed = false;
  for (size_t I = 0; I < S->getTypes().size(); ++I) {
    int64_t B = S->getBlockLengths()[I], D = S->getDisplacements()[I];
    const Type *X = S->getTypes()[I];
    if (B == 0) {
      EmptyLengths.push_back(B);
      EmptyDisps.push_back(D);
      EmptyTypes.push_back(X);
      Changed |= I + 1 < S->getTypes().size();
      continue;
    }
    std::optional<int64_t> Second = checkedMul(B / 2, X->extent());
    if (B >= 2 && Second && (Second = checkedAdd(*Second, D))) {
      Lengths.insert(Lengths.end(), {B / 2, B - B / 2});
      Disps.insert(Disps.end(), {D, *Second});
      Types.insert(Types.end(), {X, X});
      Changed = true;
      continue;
    }
    Lengths.push_back(B);
    Disps.push_back(D);
    Types.push_back(X);
  }
  if (!Changed)
    return nullptr;
  Lengths.insert(Lengths.end(), EmptyLengths.begin(), EmptyLengths.end());
  Disps.insert(Disps.end(), EmptyDisps.begin(), EmptyDisps.end());
  Types.insert(Types.end(), EmptyTypes.begin(), EmptyTypes.end());
  return orNull(Ctx.getStruct(Lengths, Disps, Types));
}

/// contiguous(r, X) as hvector(r, 1, extent(X), X), the definition of
/// contiguous; when X is resized(L, s, Y), as hvector(r, 1, s, Y) resized
/// by the caller to the old bounds. And resized(L, r * s, hvector(r, 1, s,
/// Y)) back as contiguous(r, resized(L, s, Y)), which has those bounds.
const Type *copiesAtExtent(TypeContext &Ctx, const Type *T) {
  if (auto *C = dyn_cast<ContiguousType>(T)) {
    const Type *X = C->getOldType();
    if (C->getCount() < 2)
      return nullptr;
    if (isa<ResizedType>(X) && X->extent() > 0)
      return orNull(Ctx.getHVector(C->getCount(), 1, X->extent(),
                                   X->getOldType()));
    return orNull(Ctx.getHVector(C->getCount(), 1, X->extent(), X));
  }
  auto *V = isa<ResizedType>(T) ? dyn_cast<VectorType>(T->getOldType())
                                : nullptr;
  if (!V || V->getBlockLength() != 1 || V->getCount() < 2)
    return nullptr;
  int64_t S = V->getByteStride();
  std::optional<int64_t> Whole = checkedMul(S, V->getCount());
  if (S <= 0 || !Whole || *Whole != T->extent())
    return nullptr;
  const Type *Element = orNull(Ctx.getResized(T->lb(), S, V->getOldType()));
  return Element ? orNull(Ctx.getContiguous(V->getCount(), Element)) : nullptr;
}

const Type *rewriteNode(TypeContext &Ctx, const Type *T, Rewriting R) {
  switch (R) {
  case Rewriting::ListedIndex:
    return listedIndex(Ctx, T);
  case Rewriting::OneTypeStruct:
    return oneTypeStruct(Ctx, T);
  case Rewriting::NestedContiguous:
    return nestedContiguous(Ctx, T);
  case Rewriting::ByteUnits:
    return byteUnits(Ctx, T);
  case Rewriting::FlattenLevel:
    return flattenLevel(Ctx, T);
  case Rewriting::SplitStructEntries:
    return splitStructEntries(Ctx, T);
  case Rewriting::ExpandArrays:
    return T->getExpansion();
  case Rewriting::CopiesAtExtent:
    return copiesAtExtent(Ctx, T);
  }
  return nullptr;
}

/// Bottom-up: operands first, then the node itself. Changed tells whether
/// any node was rewritten; null means a node could not be built.
const Type *rewriteTree(TypeContext &Ctx, const Type *T, Rewriting R,
                        bool &Changed) {
  std::vector<const Type *> Ops;
  bool OpsChanged = false;
  for (const Type *Op : T->getOperands()) {
    const Type *New = rewriteTree(Ctx, Op, R, Changed);
    if (!New)
      return nullptr;
    OpsChanged |= New != Op;
    Ops.push_back(New);
  }
  const Type *Node = T;
  if (OpsChanged) {
    std::vector<int64_t> Ints(T->getInts().begin(), T->getInts().end());
    Node = withBoundsOf(Ctx, orNull(Ctx.get(T->getKind(), Ints, Ops)), T);
    if (!Node)
      return nullptr;
  }
  // One level: the flattening applies once, at the deepest node it can.
  if (R == Rewriting::FlattenLevel && Changed)
    return Node;
  if (const Type *New = withBoundsOf(Ctx, rewriteNode(Ctx, Node, R), T)) {
    Changed = true;
    return New;
  }
  return Node;
}

} // namespace

std::string_view getRewritingName(Rewriting R) {
  switch (R) {
  case Rewriting::ListedIndex:
    return "listed-index";
  case Rewriting::OneTypeStruct:
    return "one-type-struct";
  case Rewriting::NestedContiguous:
    return "nested-contiguous";
  case Rewriting::ByteUnits:
    return "byte-units";
  case Rewriting::FlattenLevel:
    return "flatten-level";
  case Rewriting::SplitStructEntries:
    return "split-struct-entries";
  case Rewriting::ExpandArrays:
    return "expand-arrays";
  case Rewriting::CopiesAtExtent:
    return "copies-at-extent";
  }
  return "?";
}

const Type *rewriteType(TypeContext &Ctx, const Type *T, Rewriting R) {
  bool Changed = false;
  const Type *New = rewriteTree(Ctx, T, R, Changed);
  return Changed ? New : nullptr;
}

} // namespace ddtc

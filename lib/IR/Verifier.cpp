//===- lib/IR/Verifier.cpp - IR invariant checks --------------------------===//
//
// Invariants, checked on every node reachable from the roots:
//
//  1. Shape: the integer arguments are the kind's scalars followed by its
//     lists, all lists of one length; a struct has one type per entry; all
//     other derived kinds have exactly one oldtype; operands are non-null.
//  2. Domains: counts and blocklengths are non-negative, enumerations
//     (order, distribution, darg) hold valid values.
//  3. Expansion: subarray and darray nodes have one, and no other kind has.
//  4. Depth: one more than the deepest operand, at most MaxTypeDepth.
//  5. Layout: the cached layout equals the one recomputed from the operands
//     with the given rules (no stale caches); size, elements and blocks agree
//     with each other (size 0 iff no blocks; elements <= size; blocks have
//     positive lengths; the block count does not exceed the size).
//
// Each node is visited once (the IR is a DAG), iteratively, so that deep
// types cannot exhaust the stack.
//
//===----------------------------------------------------------------------===//
#include "ddtc/IR/Verifier.h"

#include "LayoutRules.h"
#include "ddtc/IR/TypeContext.h"

#include <unordered_set>

namespace ddtc {

namespace {

Error fail(const Type *T, const std::string &Message) {
  return makeError("verifier: " + std::string(getKindName(T->getKind())) +
                   " node: " + Message);
}

/// Fresh is recomputed, Cached is the node's (whose null identity was
/// replaced by the node itself).
bool sameLayout(const TypeLayout &Fresh, const TypeLayout &Cached,
                const Type *T) {
  const TypeLayout &A = Fresh, &B = Cached;
  return (A.Identity ? A.Identity : T) == B.Identity && A.Size == B.Size &&
         A.Lb == B.Lb && A.Ub == B.Ub && A.TrueLb == B.TrueLb &&
         A.TrueUb == B.TrueUb && A.Align == B.Align &&
         A.Elements == B.Elements && A.Blocks == B.Blocks &&
         A.Depth == B.Depth && A.Cost == B.Cost && A.Pieces == B.Pieces &&
         A.UniformBasic == B.UniformBasic;
}

Error verifyNode(const Type *T, const LibraryRules &Rules) {
  const KindSpec &Spec = getKindSpec(T->getKind());
  std::span<const int64_t> Ints = T->getInts();

  // 1. Shape.
  if (Ints.size() < Spec.NumScalars ||
      (Spec.NumLists == 0 && Ints.size() != Spec.NumScalars) ||
      (Spec.NumLists && (Ints.size() - Spec.NumScalars) % Spec.NumLists))
    return fail(T, "integer arguments do not match the kind");
  size_t NumOperands = 0;
  for (const FieldSpec &F : Spec.Fields)
    NumOperands += F.Shape == FieldShape::Type       ? 1
                   : F.Shape == FieldShape::TypeList ? T->getListLength()
                                                     : 0;
  if (T->getOperands().size() != NumOperands)
    return fail(T, "wrong number of type operands");
  for (const Type *Op : T->getOperands())
    if (!Op)
      return fail(T, "null operand");

  // 2. Domains.
  for (const FieldSpec &F : Spec.Fields) {
    if (F.Shape != FieldShape::Scalar && F.Shape != FieldShape::List)
      continue;
    std::span<const int64_t> Values = F.Shape == FieldShape::Scalar
                                          ? Ints.subspan(F.Index, 1)
                                          : T->getList(F.Index);
    for (int64_t V : Values) {
      bool Ok = true;
      switch (F.Value) {
      case FieldValue::Count:
        Ok = V >= 0;
        break;
      case FieldValue::Order:
        Ok = V == 0 || V == 1;
        break;
      case FieldValue::Distrib:
        Ok = V >= 0 && V <= 2;
        break;
      case FieldValue::Darg:
        Ok = V == DefaultDarg || V >= 1;
        break;
      case FieldValue::Signed:
      case FieldValue::None:
        break;
      }
      if (!Ok)
        return fail(T, "field '" + std::string(F.Name) + "' out of range");
    }
  }

  // 3. Expansion.
  bool NeedsExpansion =
      T->getKind() == TypeKind::Subarray || T->getKind() == TypeKind::Darray;
  if (NeedsExpansion != (T->getExpansion() != nullptr))
    return fail(T,
                NeedsExpansion ? "missing expansion" : "unexpected expansion");

  // 4. Depth.
  unsigned Depth = 0;
  for (const Type *Op : T->getOperands())
    Depth = std::max(Depth, Op->getLayout().Depth + 1);
  if (Depth != T->getLayout().Depth || Depth > MaxTypeDepth)
    return fail(T, "wrong depth");

  // 5. Layout.
  Expected<TypeLayout> L = computeLayout(Rules, T->getKind(), Ints,
                                         T->getOperands(), T->getExpansion());
  if (!L)
    return fail(T, "layout no longer computes: " + L.takeError().message());
  const TypeLayout &C = T->getLayout();
  if (!sameLayout(*L, C, T))
    return fail(T, "cached layout differs from the recomputed one");
  if (C.Size < 0 || (C.Size == 0) != (C.Blocks.Count == 0) ||
      C.Elements > static_cast<uint64_t>(C.Size) ||
      C.Blocks.Count > static_cast<uint64_t>(C.Size))
    return fail(T, "inconsistent size, elements and blocks");
  if (C.Blocks.Count && (C.Blocks.minLength() <= 0))
    return fail(T, "empty block");
  return Error::success();
}

} // namespace

Error verifyType(const Type *Root, const LibraryRules &Rules) {
  std::unordered_set<const Type *> Seen;
  std::vector<const Type *> Work{Root};
  while (!Work.empty()) {
    const Type *T = Work.back();
    Work.pop_back();
    if (!Seen.insert(T).second)
      continue;
    if (Error E = verifyNode(T, Rules))
      return E;
    for (const Type *Op : T->getOperands())
      Work.push_back(Op);
    if (const Type *X = T->getExpansion())
      Work.push_back(X);
  }
  return Error::success();
}

Error verifyModule(const Module &M) {
  for (const NamedType &N : M.types())
    if (Error E = verifyType(N.T, M.getContext().getRules()))
      return std::move(E.addContext("type '" + N.Name + "'"));
  return Error::success();
}

} // namespace ddtc

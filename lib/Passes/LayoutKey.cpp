//===- lib/Passes/LayoutKey.cpp - The key of generated kernels ------------===//
//
// The key is the fingerprint of a tree that depends on the layout alone:
// the type's typemap, translated so that its lowest byte of data is at 0,
// written as one flat list -- resized(lb, extent, struct(runs)), the runs
// maximal, in typemap order.
// The normal form of the type itself would do only where it is unique, and
// it is not always: where a description is cheaper than every tree the
// planners build from the typemap, the normalizer keeps it, so two
// descriptions of one layout can keep two trees (docs/normalization.md,
// "Unique normal form"). Every description of the layout writes the same
// list, so every description gets one key. The list is not normalized:
// that would make it no more unique, and it cost a commit under the runtime
// tens of milliseconds on a long index list (LAMMPS_full with one
// displacement changed: 37 ms, against 1.5-6 ms for the list alone).
//
// Typemaps of more than MaxFlatRuns runs are not listed (a type with 10^12
// blocks is keyed without flattening it); they are keyed by the normal
// form, translated with hindexed([1], [-true lb], T): an hindexed has no
// struct padding, so its lb, ub and true bounds are T's shifted by exactly
// the displacement.
//
// Translation wrappers are peeled off first: a type built on absolute
// addresses is typically struct([1], [&x], [T]). The flat list of a
// translation is the same list (its offsets start at 0); for the normal form of a long typemap,
// hindexed(-a, struct(a, T)) could keep a different tree than
// hindexed(0, T), and peeling makes that key a function of the innermost
// non-wrapper type.
//
//===----------------------------------------------------------------------===//
#include "ddtc/Passes/LayoutKey.h"

#include "ddtc/IR/TypemapWalker.h"
#include "ddtc/Support/CheckedInt.h"

#include <algorithm>
#include <cstdio>
#include <vector>

namespace ddtc {

namespace {

/// The operand of T if T is that operand translated -- one instance of
/// it, with the bounds moved exactly as far as the data -- else null.
const Type *translatedOperand(const Type *T) {
  auto OneUnit = [](std::span<const int64_t> BlockLengths) {
    return BlockLengths.size() == 1 && BlockLengths[0] == 1;
  };
  bool Wrapper = false;
  switch (T->getKind()) {
  case TypeKind::Predefined:
  case TypeKind::Resized: // moves the bounds, not the data
  case TypeKind::Subarray:
  case TypeKind::Darray:
    return nullptr;
  case TypeKind::Dup:
    Wrapper = true;
    break;
  case TypeKind::Contiguous:
    Wrapper = cast<ContiguousType>(T)->getCount() == 1;
    break;
  case TypeKind::Vector:
  case TypeKind::HVector: {
    const auto *V = cast<VectorType>(T);
    Wrapper = V->getCount() == 1 && V->getBlockLength() == 1;
    break;
  }
  case TypeKind::Indexed:
  case TypeKind::HIndexed:
    Wrapper = OneUnit(cast<IndexedType>(T)->getBlockLengths());
    break;
  case TypeKind::IndexedBlock:
  case TypeKind::HIndexedBlock: {
    const auto *B = cast<IndexedBlockType>(T);
    Wrapper = B->getBlockLength() == 1 && B->getDisplacements().size() == 1;
    break;
  }
  case TypeKind::Struct:
    Wrapper = OneUnit(cast<StructType>(T)->getBlockLengths());
    break;
  }
  if (!Wrapper)
    return nullptr;
  // The data moved by the difference of the true lbs; MPICH's bounds rules
  // (struct padding) must have moved lb and ub by the same.
  const Type *X = T->getOperands()[0];
  CheckedInt Move = CheckedInt(T->trueLb()) - X->trueLb();
  auto MovedBy = [&](int64_t A, int64_t B) {
    CheckedInt D = CheckedInt(A) - B;
    return !D.overflowed() && !Move.overflowed() && D.value() == Move.value();
  };
  bool Translated = T->size() == X->size() && MovedBy(T->lb(), X->lb()) &&
                    MovedBy(T->ub(), X->ub()) &&
                    MovedBy(T->getLayout().TrueUb, X->getLayout().TrueUb);
  return Translated ? X : nullptr;
}

/// T (which has data) as one list of its maximal typed runs, with T's bounds,
/// moved so that its lowest byte of data is at 0; null if the typemap has
/// more than MaxRuns runs or a bound does not fit. DataLb is set to the
/// lowest byte's offset: T's true lb, unless T has empty blocks, which
/// MPICH counts in the true lb (an indexed of blocklength 0 at -48 moves
/// it) though they hold no data -- a list written without them would then
/// move by another amount.
const Type *flatList(TypeContext &Ctx, const Type *T, uint64_t MaxRuns,
                     int64_t &DataLb) {
  if (T->getLayout().Blocks.Count > MaxRuns)
    return nullptr;
  std::vector<int64_t> Lengths, Displacements;
  std::vector<const Type *> Types;
  int64_t Lowest = INT64_MAX;
  TypemapWalker W(T, 1, WalkMode::Typed);
  for (TypemapRun R; W.next(R);) {
    if (Lengths.size() == MaxRuns)
      return nullptr;
    Lengths.push_back(R.Length /
                      static_cast<int64_t>(getPredefinedInfo(R.Basic).Size));
    Displacements.push_back(R.Offset);
    Types.push_back(Ctx.getPredefined(R.Basic));
    Lowest = std::min(Lowest, R.Offset);
  }
  CheckedInt Lb = CheckedInt(T->lb()) - Lowest;
  if (Lb.overflowed())
    return nullptr;
  for (int64_t &D : Displacements)
    D -= Lowest;
  Expected<const Type *> List = Ctx.getStruct(Lengths, Displacements, Types);
  if (!List) {
    (void)List.takeError();
    return nullptr;
  }
  Expected<const Type *> Bounded =
      Ctx.getResized(Lb.value(), T->extent(), *List);
  if (!Bounded) {
    (void)Bounded.takeError();
    return nullptr;
  }
  DataLb = Lowest;
  return *Bounded;
}

} // namespace

std::optional<LayoutKey> computeLayoutKey(Normalizer &N, TypeContext &Ctx,
                                          const Type *T) {
  if (T->size() == 0)
    return std::nullopt;
  int64_t DataLb = 0;
  if (const Type *Flat = flatList(Ctx, T, MaxFlatRuns, DataLb))
    return LayoutKey{Flat->getFingerprint(), DataLb};
  const Type *Core = T;
  while (const Type *X = translatedOperand(Core))
    Core = X;
  if (Core->trueLb() == INT64_MIN)
    return std::nullopt;
  int64_t One[] = {1}, Disp[] = {-Core->trueLb()};
  Expected<const Type *> Translated = Ctx.getHIndexed(One, Disp, Core);
  if (!Translated) {
    // The shifted bounds overflow: no key rather than a wrong one.
    (void)Translated.takeError();
    return std::nullopt;
  }
  return LayoutKey{N.normalize(*Translated)->getFingerprint(), T->trueLb()};
}

std::string formatKey(const Fingerprint &F) {
  char Buf[33];
  std::snprintf(Buf, sizeof Buf, "%016llx%016llx",
                static_cast<unsigned long long>(F.Hi),
                static_cast<unsigned long long>(F.Lo));
  return Buf;
}

} // namespace ddtc

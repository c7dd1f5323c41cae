//===- lib/Passes/LayoutKey.cpp - The key of generated kernels ------------===//
//
// computeLayoutKey translates with hindexed([1], [-true lb], T): an
// hindexed has no struct padding, so its lb, ub and true bounds are T's
// shifted by exactly the displacement, and the result is equivalent to any
// other translation of T to true lb 0. The normalizer then makes
// equivalent descriptions one tree, whose fingerprint is the key.
//
// Translation wrappers are peeled off first: a type built on absolute
// addresses is typically struct([1], [&x], [T]), and the normal form is a
// unique tree only when the planners' tree is at least as cheap as the
// given one (docs/normalization.md). For a T whose own description is
// cheaper, hindexed(-a, struct(a, T)) would keep a different tree than
// hindexed(0, T), and the two translations would get different keys.
// Peeling makes the key a function of the innermost non-wrapper type.
//
//===----------------------------------------------------------------------===//
#include "ddtc/Passes/LayoutKey.h"

#include "ddtc/Support/CheckedInt.h"

#include <cstdio>

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

} // namespace

std::optional<LayoutKey> computeLayoutKey(Normalizer &N, TypeContext &Ctx,
                                          const Type *T) {
  if (T->size() == 0)
    return std::nullopt;
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

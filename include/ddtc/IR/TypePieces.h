//===- ddtc/IR/TypePieces.h - A node as a sequence of pieces ----*- C++ -*-===//
//
// Every node is, in typemap order, a sequence of pieces: piece k is `Reps`
// consecutive copies of a child type at byte displacement `Disp` (copy r at
// Disp + r * extent of the child). The typemap walker and the code
// generator both traverse types this way; this is the one definition.
//
//   contiguous      1 piece: (old, count, 0)
//   vector/hvector  count pieces: (old, blocklength, k * stride)
//   (h)indexed      one piece per block
//   (h)indexed_block one piece per displacement
//   struct          one piece per entry, each with its own type
//   resized, dup    1 piece: (old, 1, 0)
//   subarray/darray 1 piece: (expansion, 1, 0)
//   pair types      one piece per component, a basic leaf (Child null)
//
// Displacements are computed with wrapping arithmetic: the layout rules
// checked at creation that the ones a valid type reaches fit in 64 bits.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_IR_TYPEPIECES_H
#define DDTC_IR_TYPEPIECES_H

#include "ddtc/IR/Type.h"

#include <cassert>
#include <cstdint>

namespace ddtc {

struct TypePiece {
  const Type *Child; ///< null: a basic leaf of a pair type
  int64_t Reps;
  int64_t Disp;
  PredefinedId Leaf; ///< when Child is null
};

inline uint64_t getNumPieces(const Type *T) {
  switch (T->getKind()) {
  case TypeKind::Predefined:
    return cast<PredefinedType>(T)->getInfo().NumComponents;
  case TypeKind::Vector:
  case TypeKind::HVector:
    return static_cast<uint64_t>(cast<VectorType>(T)->getCount());
  case TypeKind::Indexed:
  case TypeKind::HIndexed:
  case TypeKind::IndexedBlock:
  case TypeKind::HIndexedBlock:
  case TypeKind::Struct:
    return T->getListLength();
  case TypeKind::Contiguous:
  case TypeKind::Resized:
  case TypeKind::Subarray:
  case TypeKind::Darray:
  case TypeKind::Dup:
    return 1;
  }
  return 0;
}

inline TypePiece getPiece(const Type *T, uint64_t K) {
  auto WrapMul = [](int64_t A, int64_t B) {
    return static_cast<int64_t>(static_cast<uint64_t>(A) *
                                static_cast<uint64_t>(B));
  };
  switch (T->getKind()) {
  case TypeKind::Predefined: {
    const PredefinedComponent &C =
        cast<PredefinedType>(T)->getInfo().Components[K];
    return {nullptr, 1, C.Offset, C.Basic};
  }
  case TypeKind::Contiguous:
    return {T->getOldType(), cast<ContiguousType>(T)->getCount(), 0, {}};
  case TypeKind::Vector:
  case TypeKind::HVector: {
    auto *V = cast<VectorType>(T);
    return {V->getOldType(),
            V->getBlockLength(),
            WrapMul(static_cast<int64_t>(K), V->getByteStride()),
            {}};
  }
  case TypeKind::Indexed:
  case TypeKind::HIndexed: {
    auto *I = cast<IndexedType>(T);
    int64_t D = I->getDisplacements()[K];
    if (!I->isByteDisplacement())
      D = WrapMul(D, I->getOldType()->extent());
    return {I->getOldType(), I->getBlockLengths()[K], D, {}};
  }
  case TypeKind::IndexedBlock:
  case TypeKind::HIndexedBlock: {
    auto *I = cast<IndexedBlockType>(T);
    int64_t D = I->getDisplacements()[K];
    if (!I->isByteDisplacement())
      D = WrapMul(D, I->getOldType()->extent());
    return {I->getOldType(), I->getBlockLength(), D, {}};
  }
  case TypeKind::Struct: {
    auto *S = cast<StructType>(T);
    return {S->getTypes()[K],
            S->getBlockLengths()[K],
            S->getDisplacements()[K],
            {}};
  }
  case TypeKind::Resized:
  case TypeKind::Dup:
    return {T->getOldType(), 1, 0, {}};
  case TypeKind::Subarray:
  case TypeKind::Darray:
    return {T->getExpansion(), 1, 0, {}};
  }
  assert(false && "unknown kind");
  return {};
}

} // namespace ddtc

#endif // DDTC_IR_TYPEPIECES_H

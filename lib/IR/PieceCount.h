//===- lib/IR/PieceCount.h - Copy operations of one instance ----*- C++ -*-===//
//
// Private to lib/IR: TypeLayout::Pieces of a new node, the copy operations
// a pack engine performs for one instance when it copies a block of a dense
// oldtype at once and descends into others.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_LIB_IR_PIECECOUNT_H
#define DDTC_LIB_IR_PIECECOUNT_H

#include "ddtc/IR/Type.h"

#include <span>

namespace ddtc {

/// The pieces of a node of kind K that is not dense (a dense node is one
/// piece). N is the length of its lists; Expansion the subarray's or
/// darray's construction (null for other kinds). Saturating.
uint64_t countPieces(TypeKind K, std::span<const int64_t> Ints,
                     std::span<const Type *const> Operands, size_t N,
                     const Type *Expansion);

} // namespace ddtc

#endif // DDTC_LIB_IR_PIECECOUNT_H

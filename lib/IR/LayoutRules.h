//===- lib/IR/LayoutRules.h - MPICH's rules for type properties -*- C++ -*-===//
//
// Private to lib/IR: computes the TypeLayout of a new node from its
// arguments and the layouts of its operands.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_LIB_IR_LAYOUTRULES_H
#define DDTC_LIB_IR_LAYOUTRULES_H

#include "ddtc/IR/LibraryRules.h"
#include "ddtc/IR/Type.h"
#include "ddtc/Support/Error.h"

namespace ddtc {

/// The layout of a node of kind K under the library's Rules. Expansion is
/// the MPICH construction of a subarray or darray (null for other kinds).
/// Fails on 64-bit overflow with an error naming the field to blame.
Expected<TypeLayout> computeLayout(const LibraryRules &Rules, TypeKind K,
                                   std::span<const int64_t> Ints,
                                   std::span<const Type *const> Operands,
                                   const Type *Expansion);

} // namespace ddtc

#endif // DDTC_LIB_IR_LAYOUTRULES_H

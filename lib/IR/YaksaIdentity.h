//===- lib/IR/YaksaIdentity.h - The objects Yaksa represents types by -*- C++ -*-===//
//
// Private to lib/IR: the TypeLayout::Identity of a node, following how
// MPICH 4.0.2's engine (Yaksa) reduces and shares types.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_LIB_IR_YAKSAIDENTITY_H
#define DDTC_LIB_IR_YAKSAIDENTITY_H

#include "ddtc/IR/Type.h"

#include <span>

namespace ddtc {

/// The one object of every zero-length type (YAKSA_TYPE__NULL).
const void *getZeroLengthIdentity();

/// The object of a predefined type: one per Yaksa builtin (MPICH maps
/// several MPI types to one, and Yaksa makes the integer types of one size
/// share a handle), otherwise the type's own.
const void *getPredefinedIdentity(PredefinedId Id);

/// The identity of a node Yaksa reduces to its oldtype, or null (the node
/// itself). Yaksa's shortcuts: dup; contiguous of 1; resized to the old
/// bounds; hvector of count 1 -> contiguous of blocklength; (h)indexed of
/// equal blocklengths -> hindexed_block -> hvector when it starts at 0;
/// struct of one object -> hindexed. BlockLengths and Displacements are the
/// node's lists (one blocklength for the _block kinds), empty for others.
const void *getReducedIdentity(TypeKind K, std::span<const int64_t> Ints,
                               std::span<const Type *const> Operands,
                               std::span<const int64_t> BlockLengths,
                               std::span<const int64_t> Displacements);

} // namespace ddtc

#endif // DDTC_LIB_IR_YAKSAIDENTITY_H

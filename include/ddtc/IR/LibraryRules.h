//===- ddtc/IR/LibraryRules.h - Where MPI libraries differ ------*- C++ -*-===//
//
// The facts of an MPI library that ddtc's answers depend on and that the
// MPI standard leaves to implementations: which object the library
// represents a type by -- which decides whether a struct is padded to its
// alignment -- and what its datatype engine can run with generated code.
// The IR computes every layout with the rules of its TypeContext, as an
// LLVM module lays out types with its DataLayout; analyses ask the same
// rules about the engine. The IR implements none, so that none of these
// facts is fixed in it: whoever creates a TypeContext passes the rules
// (MPICH 4.0.2's are include/ddtc/Target/MPICHRules.h).
//
// The layout of a node asks one or two questions (its identity; for a
// struct, whether it is padded), never one per list entry: the normalizer
// creates many nodes.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_IR_LIBRARYRULES_H
#define DDTC_IR_LIBRARYRULES_H

#include "ddtc/IR/Type.h"

#include <cstdint>
#include <span>
#include <string_view>

namespace ddtc {

class LibraryRules {
public:
  virtual ~LibraryRules() = default;

  /// The library and its engine as reports name them ("MPICH (Yaksa)").
  virtual std::string_view getEngineName() const = 0;

  //===--------------------------------------------------------------------===//
  // Identity (TypeLayout::Identity)
  //===--------------------------------------------------------------------===//

  /// The object of every zero-length type, or null when each is its own.
  virtual const void *getZeroLengthIdentity() const = 0;
  /// The object of a predefined type (several may share one), or null for
  /// the node itself.
  virtual const void *getPredefinedIdentity(PredefinedId Id) const = 0;
  /// The identity a new node of kind K (neither predefined nor zero-length)
  /// takes from the operand the library reduces it to, or null for the
  /// node itself. BlockLengths and Displacements are the node's lists
  /// (one blocklength for the _block kinds), empty for other kinds.
  virtual const void *
  getReducedIdentity(TypeKind K, std::span<const int64_t> Ints,
                     std::span<const Type *const> Operands,
                     std::span<const int64_t> BlockLengths,
                     std::span<const int64_t> Displacements) const = 0;
  /// Whether the library builds a struct of these entry types as an
  /// hindexed of the first: laid out as that hindexed, so without the
  /// padding of a struct's extent to its alignment.
  virtual bool isHIndexedStruct(std::span<const Type *const> Types) const = 0;

  //===--------------------------------------------------------------------===//
  // The datatype engine
  //===--------------------------------------------------------------------===//

  /// Constructor levels the engine's generated pack kernels reach; deeper
  /// types take its generic path.
  virtual unsigned getMaxKernelLevels() const = 0;
};

} // namespace ddtc

#endif // DDTC_IR_LIBRARYRULES_H

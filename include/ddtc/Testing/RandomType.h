//===- ddtc/Testing/RandomType.h - Random datatype generator ----*- C++ -*-===//
//
// Generates random, valid type trees for differential testing (the MPI
// oracle compares every generated type with MPICH). The generator is
// deterministic: the same options and the same engine state give the same
// type on every platform (it draws raw 64-bit words from the engine and
// never uses the implementation-defined std:: distributions).
//
// Every node kind is produced: predefined types (basic, pair and Fortran
// types), contiguous, vector, hvector, indexed, hindexed, indexed_block,
// hindexed_block, struct (with mixed member types, packed at their natural
// alignment or scattered), resized, subarray (C and Fortran order, 1 to 3
// dimensions), darray (block, cyclic and none, default and explicit dargs,
// both orders, 1 to 3 dimensions, up to 3 processes per dimension) and
// dup. The arguments include negative strides and displacements, resized
// types with a negative lb, zero counts, zero blocklengths and zero-size
// types -- everything MPI allows, including the corner cases where MPICH
// has its own rules (zero-length types, struct padding), which ddtc has to
// match.
//
// What is avoided:
//  - arguments MPI declares erroneous: TypeContext refuses them (for
//    example a darray whose explicit block sizes do not cover the array),
//    and the generator then draws new arguments;
//  - negative extents made with resized (extent < 0). MPI allows them, but
//    MPICH's struct padding of a negative extent (a C remainder of a
//    negative number) is an implementation accident rather than a rule
//    worth testing at random; the fixture files cover negative extents in
//    simple contexts instead. A resized extent of 0 is generated.
//  - types bigger than the limits below, so that thousands of types can be
//    packed in a few seconds.
//
// A node that cannot be built within MaxAttempts draws falls back to one
// of its already built operands (or a predefined type), so randomType
// always terminates and always returns a valid type.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_TESTING_RANDOMTYPE_H
#define DDTC_TESTING_RANDOMTYPE_H

#include "ddtc/IR/TypeContext.h"

#include <cstdint>
#include <random>

namespace ddtc {

struct RandomTypeOptions {
  /// Deepest constructor nesting of the generated tree (a predefined type
  /// has depth 0, contiguous(MPI_INT) depth 1). Subarray and darray count
  /// as one level, whatever their expansion.
  unsigned MaxDepth = 4;
  /// Upper bound of counts and of the lengths of argument lists (the
  /// number of blocks of an indexed type, of members of a struct).
  unsigned MaxCount = 4;
  /// Upper bound of block lengths.
  unsigned MaxBlockLength = 3;
  /// Upper bound of |stride| and |displacement| in units of the oldtype's
  /// extent; byte strides and displacements are drawn around multiples of
  /// the extent, within the same range, plus a few bytes of jitter.
  unsigned MaxStride = 5;
  /// Upper bound, in bytes, of the size, the extent and the true extent of
  /// every node, and (four times it) of the absolute values of its bounds.
  int64_t MaxBytes = 128 * 1024;
  /// Upper bound of the number of basic typemap entries of every node.
  uint64_t MaxElements = 8192;
  /// Probability, in percent, that an inner node (depth left > 0) is a
  /// predefined type anyway, which keeps many trees shallow.
  unsigned LeafPercent = 25;
  /// Draw negative strides, displacements and resized lbs.
  bool AllowNegative = true;
  /// Draw zero counts and zero blocklengths (which give zero-size and
  /// zero-length types).
  bool AllowZero = true;
  /// Draws of new arguments for one node before it falls back.
  unsigned MaxAttempts = 16;
};

/// A random valid type of depth <= Options.MaxDepth, created in Ctx.
const Type *randomType(TypeContext &Ctx, std::mt19937_64 &Rng,
                       const RandomTypeOptions &Options = {});

} // namespace ddtc

#endif // DDTC_TESTING_RANDOMTYPE_H

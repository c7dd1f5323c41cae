//===- ddtc/Testing/Rewritings.h - Equivalent re-descriptions ---*- C++ -*-===//
//
// Rewrites a type into another description of the same typemap and bounds,
// the way different programmers (or different MPI calls) describe one
// layout: index lists spelled out, a struct of one type, nested contiguous
// types, byte units, one level flattened, struct entries split, arrays
// expanded, copies at the extent spelled as vectors. The normal form must not tell them apart
// (unittests/Passes/UniquenessTest.cpp).
//
// Each rewriting is applied to every node where it can be, bottom up. A
// rewritten node whose bounds moved (a struct pads its extent, a flattened
// list loses its oldtype's resized bounds) is wrapped in resized to its old
// bounds, as a programmer would; the caller still checks the whole type
// (checkEquivalent), because an operand's new alignment can change the
// padding of a struct above it.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_TESTING_REWRITINGS_H
#define DDTC_TESTING_REWRITINGS_H

#include "ddtc/IR/TypeContext.h"

#include <string_view>

namespace ddtc {

enum class Rewriting {
  /// vector, contiguous and *_block as explicit (h)indexed lists.
  ListedIndex,
  /// Every single-oldtype list as a struct whose entries share one type.
  OneTypeStruct,
  /// contiguous(a*b, T) as contiguous(a, contiguous(b, T)); blocks of b
  /// elements as single copies of contiguous(b, T).
  NestedContiguous,
  /// vector, indexed, indexed_block as hvector, hindexed, hindexed_block.
  ByteUnits,
  /// A list of copies of a list as one list of the inner oldtype.
  FlattenLevel,
  /// Struct entries of several elements split in two; entries that carry
  /// no data moved to the end.
  SplitStructEntries,
  /// subarray and darray as the vectors and index lists MPI builds them of.
  ExpandArrays,
  /// contiguous(r, X) as hvector(r, 1, extent of X, X), copies of a
  /// resized element as copies of its oldtype resized as a whole, and
  /// resized copies of one element back as copies of a resized element.
  CopiesAtExtent,
};

inline constexpr Rewriting AllRewritings[] = {
    Rewriting::ListedIndex,      Rewriting::OneTypeStruct,
    Rewriting::NestedContiguous, Rewriting::ByteUnits,
    Rewriting::FlattenLevel,     Rewriting::SplitStructEntries,
    Rewriting::ExpandArrays,     Rewriting::CopiesAtExtent};

std::string_view getRewritingName(Rewriting R);

/// T with R applied at every node where it applies, or null when it
/// applies nowhere (or a node could not be built). The result is not
/// checked: see the file comment.
const Type *rewriteType(TypeContext &Ctx, const Type *T, Rewriting R);

} // namespace ddtc

#endif // DDTC_TESTING_REWRITINGS_H

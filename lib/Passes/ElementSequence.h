//===- lib/Passes/ElementSequence.h - Typemaps as copies of one type -*- C++ -*-===//
//
// Many typemaps are a sequence of copies of one derived type E: a list of
// copies of a list of E, however it is described. Where E is a basic type
// the block planners see the sequence directly. Where E is a resized
// element whose copies overlap or interleave, a struct, or a pair type,
// its blocks interleave or join in the flat typemap and the planners lose
// the repetition the description had; planned over copies of E (each an
// opaque element with E's extent) they find it again. Both a nested
// description and its flattened list name the same E, so this gives them
// the same candidates (docs/normalization.md, "Copies of one element").
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_LIB_PASSES_ELEMENTSEQUENCE_H
#define DDTC_LIB_PASSES_ELEMENTSEQUENCE_H

#include "BlockPlan.h"

#include <optional>
#include <vector>

namespace ddtc::recon {

/// The types E, other than T, whose copies make up T's typemap: the
/// resized, struct and pair-type nodes met going down from T through nodes
/// of a single child type (lists, contiguous, vectors, dup, and the MPI
/// constructors of subarray and darray), outermost first, and the basic
/// type the walk ends at, if it does. The walk stops at a struct of
/// several types or at a predefined type.
std::vector<const Type *> findElements(const Type *T);

/// How copies of E become blocks.
enum class CopyRuns : uint8_t {
  /// Runs of consecutive copies (E's extent apart), as in the typemap.
  Merged,
  /// One block per entry that lists E (a count of copies at one
  /// displacement), as the description has them: where the last copy of
  /// one list entry touches the first of the next, the typemap joins them
  /// and a planner that never splits a block cannot see the repetition.
  /// The same for a nested list and its flattened form.
  AsListed,
  /// Runs merged within each copy of the first node that has several
  /// copies of its child, not across them: where copies of that node touch,
  /// the typemap joins their runs (contiguous(4, T) with T's last run
  /// ending where the next copy's first begins).
  MergedPerCopy,
};

/// T's typemap as copies of E, in typemap order, as blocks of
/// OpaqueElement (Count in copies; copies of an E of extent 0 that sit at
/// one place are one block). Nothing if T is not a sequence of copies of
/// E, E's extent is negative, or the blocks would number more than
/// MaxBlocks (or the copies 64 times that).
std::optional<std::vector<Block>>
elementBlocks(const Type *T, const Type *E, CopyRuns Runs, size_t MaxBlocks);

} // namespace ddtc::recon

#endif // DDTC_LIB_PASSES_ELEMENTSEQUENCE_H

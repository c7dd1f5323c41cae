//===- ddtc/IR/Equivalence.h - Typemap equivalence check --------*- C++ -*-===//
//
// Two types are equivalent when they have the same type signature, the
// same displacement for every typemap entry, the same lb and the same
// extent (docs/format.md). Every transformation ddtc makes must keep types
// equivalent; this checker is how tests and `--verify` make sure.
//
// The check streams both typemaps side by side as typed runs. Merged typed
// runs are a canonical spelling of a typemap -- each maximal sequence of
// consecutive same-type entries becomes one run -- so two typemaps are equal
// exactly when their run sequences are. Nothing is materialized.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_IR_EQUIVALENCE_H
#define DDTC_IR_EQUIVALENCE_H

#include "ddtc/IR/Type.h"

#include <cstdint>
#include <string>

namespace ddtc {

struct EquivalenceResult {
  bool Equivalent = true;
  /// When not equivalent: the first difference, for people
  /// ("extent 24 vs 16", "run 3: MPI_INT at 8 (4 bytes) vs MPI_INT at 12 (4
  /// bytes)").
  std::string Difference;
  /// False when the typemaps were longer than the run budget: the first
  /// MaxRuns runs were compared one by one, the rest only through the
  /// symbolic summaries (size, entries, bounds, contiguous blocks).
  bool Complete = true;
};

/// Compares `Count` instances of A with `Count` instances of B. With
/// CheckBounds false, only the typemaps (signature and displacements) are
/// compared: what a count-specific form must preserve. At most MaxRuns
/// runs are walked (a type can have 10^12 entries); see Complete.
EquivalenceResult checkEquivalent(const Type *A, const Type *B,
                                  uint64_t Count = 1, bool CheckBounds = true,
                                  uint64_t MaxRuns = UINT64_MAX);

} // namespace ddtc

#endif // DDTC_IR_EQUIVALENCE_H

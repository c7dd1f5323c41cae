//===- ddtc/Target/MPICHRules.h - Where MPICH 4.0.2 decides -----*- C++ -*-===//
//
// The LibraryRules of MPICH 4.0.2 as Debian builds it: ddtc's oracle, so
// the rules its tools, runtime and tests create their TypeContexts with.
// MPICH hands derived types to its engine, Yaksa (the revision MPICH 4.0.2
// bundles), which does not keep every type it is given: it reduces some to
// their oldtype and shares one object between predefined types of one
// representation, and it builds a struct whose entries are all one object
// as an hindexed, without alignment padding. The engine model
// (ddtc/Engine/YaksaModel.h) replays the rest of what Yaksa does.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_TARGET_MPICHRULES_H
#define DDTC_TARGET_MPICHRULES_H

#include "ddtc/IR/LibraryRules.h"

namespace ddtc {

class MPICHRules final : public LibraryRules {
public:
  /// Kernels are generated for trees this many levels deep, a resize
  /// counting as one: MPICH 4.0.2 bundles Yaksa 885970b, whose generator
  /// defaults to three levels (newer Yaksa to two), and whose run-time
  /// limit YAKSA_ENV_MAX_NESTING_LEVEL defaults to three. Measured:
  /// contiguous(64, resized(indexed(...))) runs another kernel than 64 of
  /// the resized type (perf: another code address) and 2x slower; with
  /// the limit set to 2, as fast.
  static constexpr unsigned MaxKernelLevels = 3;

  std::string_view getEngineName() const override { return "MPICH (Yaksa)"; }

  /// All zero-length types are one object (YAKSA_TYPE__NULL).
  const void *getZeroLengthIdentity() const override;
  /// One object per Yaksa builtin (MPICH maps several MPI types to one,
  /// and Yaksa makes the integer types of one size share a handle),
  /// otherwise the type's own.
  const void *getPredefinedIdentity(PredefinedId Id) const override;
  /// Yaksa's shortcuts: dup; contiguous of 1; resized to the old bounds;
  /// hvector of count 1 -> contiguous of blocklength; (h)indexed of equal
  /// blocklengths -> hindexed_block -> hvector when it starts at 0; struct
  /// of one object -> hindexed. Those that end at the oldtype share its
  /// object.
  const void *
  getReducedIdentity(TypeKind K, std::span<const int64_t> Ints,
                     std::span<const Type *const> Operands,
                     std::span<const int64_t> BlockLengths,
                     std::span<const int64_t> Displacements) const override;
  /// When every entry is one object (yaksi_type_create_struct).
  bool isHIndexedStruct(std::span<const Type *const> Types) const override;

  unsigned getMaxKernelLevels() const override { return MaxKernelLevels; }
};

/// The one instance, for TypeContexts to follow.
const MPICHRules &getMPICHRules();

} // namespace ddtc

#endif // DDTC_TARGET_MPICHRULES_H

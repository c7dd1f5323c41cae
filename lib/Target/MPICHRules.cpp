//===- lib/Target/MPICHRules.cpp - Where MPICH 4.0.2 decides --------------===//
//
// The objects MPICH 4.0.2's engine (Yaksa) represents types by. The
// identity matters for one layout rule (a struct whose entries all share
// one object is built as an hindexed, without alignment padding), so the
// IR tracks it (TypeLayout::Identity).
//
// Only IR headers are used here -- enums and inline accessors -- so that
// the library needs nothing linked but what its users link already.
//
//===----------------------------------------------------------------------===//
#include "ddtc/Target/MPICHRules.h"

#include "ddtc/Target/YaksaBuiltin.h"

#include <algorithm>

namespace ddtc {

namespace {

/// All zero-length types are one object in Yaksa (YAKSA_TYPE__NULL).
const char ZeroLengthIdentity = 0;

/// Predefined types that Yaksa represents by one object (MPICH maps them to
/// one Yaksa builtin, or Yaksa makes the integer types of one size share a
/// handle).
const char YaksaBuiltinIdentity[static_cast<unsigned>(YaksaBuiltin::Own)] = {};

/// The objects of the predefined types that have a builtin of their own.
const char OwnIdentity[NumPredefined] = {};

bool shareOneIdentity(std::span<const Type *const> Types) {
  return !Types.empty() &&
         std::all_of(Types.begin(), Types.end(), [&](const Type *T) {
           return T->getLayout().Identity == Types[0]->getLayout().Identity;
         });
}

} // namespace

const void *MPICHRules::getZeroLengthIdentity() const {
  return &ZeroLengthIdentity;
}

const void *MPICHRules::getPredefinedIdentity(PredefinedId Id) const {
  YaksaBuiltin B = getYaksaBuiltin(Id);
  return B == YaksaBuiltin::Own
             ? &OwnIdentity[static_cast<unsigned>(Id)]
             : &YaksaBuiltinIdentity[static_cast<unsigned>(B)];
}

const void *
MPICHRules::getReducedIdentity(TypeKind K, std::span<const int64_t> Ints,
                               std::span<const Type *const> Operands,
                               std::span<const int64_t> BlockLengths,
                               std::span<const int64_t> Displacements) const {
  auto OldIdentity = [&] { return Operands[0]->getLayout().Identity; };
  auto SingleUnitBlock = [&] {
    return Displacements.size() == 1 && BlockLengths[0] == 1 &&
           Displacements[0] == 0;
  };
  switch (K) {
  case TypeKind::Dup:
    return OldIdentity();
  case TypeKind::Contiguous:
    return Ints[0] == 1 ? OldIdentity() : nullptr;
  case TypeKind::Resized:
    return Operands[0]->lb() == Ints[0] && Operands[0]->extent() == Ints[1]
               ? OldIdentity()
               : nullptr;
  case TypeKind::Vector:
  case TypeKind::HVector:
    return Ints[0] == 1 && Ints[1] == 1 ? OldIdentity() : nullptr;
  case TypeKind::Indexed:
  case TypeKind::HIndexed:
  case TypeKind::IndexedBlock:
  case TypeKind::HIndexedBlock:
    return SingleUnitBlock() ? OldIdentity() : nullptr;
  case TypeKind::Struct:
    return shareOneIdentity(Operands) && SingleUnitBlock() ? OldIdentity()
                                                           : nullptr;
  case TypeKind::Predefined:
  case TypeKind::Subarray:
  case TypeKind::Darray:
    return nullptr;
  }
  return nullptr;
}

bool MPICHRules::isHIndexedStruct(std::span<const Type *const> Types) const {
  return shareOneIdentity(Types);
}

const MPICHRules &getMPICHRules() {
  static const MPICHRules Rules;
  return Rules;
}

} // namespace ddtc

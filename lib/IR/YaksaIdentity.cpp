//===- lib/IR/YaksaIdentity.cpp - The objects Yaksa represents types by ---===//
//
// MPICH 4.0.2's engine (Yaksa) does not keep every type it is given: it
// reduces some to their oldtype and shares one object between predefined
// types of one representation. The identity matters for one layout rule
// (a struct whose entries all share one object is built as an hindexed,
// without alignment padding), so the IR tracks it (TypeLayout::Identity).
//
//===----------------------------------------------------------------------===//
#include "YaksaIdentity.h"

#include "ddtc/IR/YaksaBuiltin.h"

namespace ddtc {

namespace {

/// All zero-length types are one object in Yaksa (YAKSA_TYPE__NULL).
const char ZeroLengthIdentity = 0;

/// Predefined types that Yaksa represents by one object (MPICH maps them to
/// one Yaksa builtin, or Yaksa makes the integer types of one size share a
/// handle).
const char YaksaBuiltinIdentity[static_cast<unsigned>(YaksaBuiltin::Own)] = {};

} // namespace

YaksaBuiltin getYaksaBuiltin(PredefinedId Id) {
  using P = PredefinedId;
  switch (Id) {
  case P::Char:
  case P::SignedChar:
  case P::UnsignedChar:
  case P::Int8:
  case P::UInt8:
  case P::Byte:
  case P::Packed:
  case P::CBool:
  case P::Character:
    return YaksaBuiltin::Int8;
  case P::Short:
  case P::UnsignedShort:
  case P::Int16:
  case P::UInt16:
    return YaksaBuiltin::Int16;
  case P::Int:
  case P::Unsigned:
  case P::Int32:
  case P::UInt32:
  case P::Integer:
  case P::Logical:
    return YaksaBuiltin::Int32;
  case P::Long:
  case P::UnsignedLong:
  case P::LongLongInt:
  case P::UnsignedLongLong:
  case P::Int64:
  case P::UInt64:
  case P::Aint:
  case P::Offset:
  case P::Count:
    return YaksaBuiltin::Int64;
  case P::Float:
  case P::Real:
    return YaksaBuiltin::Float;
  case P::Double:
  case P::DoublePrecision:
    return YaksaBuiltin::Double;
  case P::CComplex:
  case P::Complex:
    return YaksaBuiltin::FloatComplex;
  case P::CDoubleComplex:
  case P::DoubleComplex:
    return YaksaBuiltin::DoubleComplex;
  default:
    return YaksaBuiltin::Own;
  }
}

const void *getZeroLengthIdentity() { return &ZeroLengthIdentity; }

const void *getPredefinedIdentity(PredefinedId Id) {
  YaksaBuiltin B = getYaksaBuiltin(Id);
  return B == YaksaBuiltin::Own
             ? static_cast<const void *>(&getPredefinedInfo(Id))
             : &YaksaBuiltinIdentity[static_cast<unsigned>(B)];
}

const void *getReducedIdentity(TypeKind K, std::span<const int64_t> Ints,
                               std::span<const Type *const> Operands,
                               std::span<const int64_t> BlockLengths,
                               std::span<const int64_t> Displacements) {
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
  case TypeKind::Struct: {
    for (const Type *Op : Operands)
      if (Op->getLayout().Identity != OldIdentity())
        return nullptr;
    return SingleUnitBlock() ? OldIdentity() : nullptr;
  }
  case TypeKind::Predefined:
  case TypeKind::Subarray:
  case TypeKind::Darray:
    return nullptr;
  }
  return nullptr;
}

} // namespace ddtc

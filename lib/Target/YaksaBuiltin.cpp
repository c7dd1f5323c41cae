//===- lib/Target/YaksaBuiltin.cpp - Yaksa's builtin of a predefined type -===//
//
// Which Yaksa builtin MPICH 4.0.2 hands its engine for each predefined MPI
// type, with the integer types of one size folded together as Yaksa's
// handles are.
//
//===----------------------------------------------------------------------===//
#include "ddtc/Target/YaksaBuiltin.h"

namespace ddtc {

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

} // namespace ddtc

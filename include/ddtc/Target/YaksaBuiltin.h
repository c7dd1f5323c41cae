//===- ddtc/Target/YaksaBuiltin.h - Yaksa's builtin of a type -*- C++ -*-===//
//
// The builtin type MPICH 4.0.2 hands its engine (Yaksa) for a predefined
// MPI type: several MPI types share one (MPI_INT, MPI_INT32_T and
// MPI_INTEGER are int32_t), and Yaksa compiles its pack kernels per
// builtin. MPICH's rules need it for the identity of types (MPICHRules.cpp),
// the engine model for the prices of element copies (YaksaModel.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_TARGET_YAKSABUILTIN_H
#define DDTC_TARGET_YAKSABUILTIN_H

#include "ddtc/IR/Predefined.h"

namespace ddtc {

enum class YaksaBuiltin {
  Int8,
  Int16,
  Int32,
  Int64,
  Float,
  Double,
  FloatComplex,
  DoubleComplex,
  /// A builtin of its own (wchar_t, long double, ...), or a pair type.
  Own
};

YaksaBuiltin getYaksaBuiltin(PredefinedId Id);

} // namespace ddtc

#endif // DDTC_TARGET_YAKSABUILTIN_H

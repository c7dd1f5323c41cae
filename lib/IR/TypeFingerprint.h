//===- lib/IR/TypeFingerprint.h - Structural hash of a node ----*- C++ -*-===//
//
// Private to lib/IR: the Fingerprint (Type.h) that TypeContext computes
// for each node it is asked for, and uniques nodes by.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_LIB_IR_TYPEFINGERPRINT_H
#define DDTC_LIB_IR_TYPEFINGERPRINT_H

#include "ddtc/IR/Type.h"

#include <cstdint>
#include <span>

namespace ddtc {

/// The fingerprint of a node of kind K with these integer arguments and
/// operands (whose fingerprints it reads).
Fingerprint fingerprintNode(TypeKind K, std::span<const int64_t> Ints,
                            std::span<const Type *const> Operands);

} // namespace ddtc

#endif // DDTC_LIB_IR_TYPEFINGERPRINT_H

//===- ddtc/Passes/LayoutKey.h - The key of generated kernels ---*- C++ -*-===//
//
// A kernel library (the PREFIX.cpp of `ddtc emit`) lists its kernels under
// a key, and the runtime binds a type the program commits to the kernel
// whose key matches. The key must therefore be the same for every
// description of one layout, in every process: it is the fingerprint of
// the normal form of the type translated to a true lb of 0. Translation
// makes it cover types built on absolute addresses (MPI_BOTTOM), which
// equal a kernel's type up to a shift of all displacements; the true lb
// is carried beside the key to compute that shift. Wrappers that only
// translate (struct([1], [addr], [T]), a one-block hindexed, dup, ...) are
// peeled off first, so that the key is the same however the translation
// was spelled.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_PASSES_LAYOUTKEY_H
#define DDTC_PASSES_LAYOUTKEY_H

#include "ddtc/IR/TypeContext.h"
#include "ddtc/Passes/Normalizer.h"

#include <cstdint>
#include <optional>
#include <string>

namespace ddtc {

/// The key generated kernels are bound by: the fingerprint of the normal
/// form of T translated so that its true lb is 0, so that any equivalent
/// description, and any translation of it (absolute addresses used with
/// MPI_BOTTOM), has the same key.
struct LayoutKey {
  Fingerprint Print;
  /// T's own true lb: a type with the key of a kernel whose TrueLb is K
  /// is that kernel's type translated by TrueLb - K bytes.
  int64_t TrueLb = 0;

  friend bool operator==(const LayoutKey &, const LayoutKey &) = default;
};

/// The layout key of T; null for types of size 0 (nothing to pack) or
/// whose translation does not fit in 64 bits.
std::optional<LayoutKey> computeLayoutKey(Normalizer &N, TypeContext &Ctx,
                                          const Type *T);

/// F as 32 lowercase hex digits, Hi then Lo.
std::string formatKey(const Fingerprint &F);

} // namespace ddtc

#endif // DDTC_PASSES_LAYOUTKEY_H

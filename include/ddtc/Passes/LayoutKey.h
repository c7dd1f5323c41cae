//===- ddtc/Passes/LayoutKey.h - The key of generated kernels ---*- C++ -*-===//
//
// A kernel library (the PREFIX.cpp of `ddtc emit`) lists its kernels under
// a key, and the runtime binds a type the program commits to the kernel
// whose key matches. The key must therefore be the same for every
// description of one layout, in every process: it is the fingerprint of
// the type's typemap listed flat (its maximal runs, in order), translated
// so that its lowest byte is at 0 (of the type's normal form above
// MaxFlatRuns runs, LayoutKey.cpp says why). Translation
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

/// Typemaps of at most this many maximal runs are keyed by their flat
/// list, whose memory and time grow with the typemap: as many as the
/// normalizer lists itself (ReconstructOptions::MinFlatBlocks, of which
/// this is the default). Above, the normal form is cheaper for the
/// regular types (a vector of 500,000 blocks: 0.26 s to list at commit,
/// 0.16 ms to normalize) and costlier only for long irregular
/// lists.
inline constexpr uint64_t MaxFlatRuns = ReconstructOptions{}.MinFlatBlocks;

/// The key generated kernels are bound by: the fingerprint of T's typemap
/// listed flat and translated so that it starts at 0, so that any
/// equivalent description, and any translation of it (absolute addresses
/// used with MPI_BOTTOM), has the same key.
struct LayoutKey {
  Fingerprint Print;
  /// Where T's typemap starts: its lowest byte of data (its true lb but
  /// for empty blocks, which MPICH counts in it; for a typemap above
  /// MaxFlatRuns, its true lb). A type with the key of a kernel whose
  /// TrueLb is K is that kernel's type translated by TrueLb - K bytes.
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

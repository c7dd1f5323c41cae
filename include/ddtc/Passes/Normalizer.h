//===- ddtc/Passes/Normalizer.h - The normal form of one type ---*- C++ -*-===//
//
// The default pipeline (canonicalize, reconstruct, canonicalize) for a
// single type, with its memo tables kept across calls: what `analyze`, the
// emitter and the tests use when they need normal(T) rather than a module
// pass.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_PASSES_NORMALIZER_H
#define DDTC_PASSES_NORMALIZER_H

#include "ddtc/Passes/Canonicalize.h"
#include "ddtc/Passes/Reconstruct.h"

namespace ddtc {

class Normalizer {
public:
  explicit Normalizer(TypeContext &Ctx, ReconstructOptions Options = {})
      : Canon(Ctx), Recon(Ctx, Options) {}

  /// normal(T): equivalent to T, never costlier.
  const Type *normalize(const Type *T) {
    return Canon.canonicalize(Recon.reconstruct(Canon.canonicalize(T)));
  }

  /// The normal form of the message of Count instances of T, a type to be
  /// used with count 1 (bounds are its own).
  Expected<const Type *> normalizeMessage(const Type *T, uint64_t Count) {
    return Recon.reconstructMessage(T, Count);
  }

  const Reconstructor &getReconstructor() const { return Recon; }

private:
  Canonicalizer Canon;
  Reconstructor Recon;
};

} // namespace ddtc

#endif // DDTC_PASSES_NORMALIZER_H

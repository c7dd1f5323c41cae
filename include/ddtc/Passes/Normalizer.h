//===- ddtc/Passes/Normalizer.h - The normal form of one type ---*- C++ -*-===//
//
// The default pipeline (Passes.def) for a single type, with its memo
// tables kept across calls: what `analyze`, the layout key and the tests
// use when they need normal(T) rather than a module pass.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_PASSES_NORMALIZER_H
#define DDTC_PASSES_NORMALIZER_H

#include "ddtc/Passes/Canonicalize.h"
#include "ddtc/Passes/PassRegistry.h"
#include "ddtc/Passes/Reconstruct.h"

namespace ddtc {

class Normalizer {
public:
  explicit Normalizer(TypeContext &Ctx, ReconstructOptions Options = {})
      : Canon(Ctx), Recon(Ctx, Options) {}

  /// normal(T): equivalent to T, never costlier. The steps are the
  /// default pipeline's (Passes.def), the one `ddtc normalize` runs.
  const Type *normalize(const Type *T) {
    for (PassId Step : getDefaultPipeline()) {
      switch (Step) {
      case PassId::Canonicalize:
        T = Canon.canonicalize(T);
        break;
      case PassId::Reconstruct:
        T = Recon.reconstruct(T);
        break;
      }
    }
    return T;
  }

  /// The normal form of the message of Count instances of T, a type to be
  /// used with count 1 (bounds are its own).
  Expected<const Type *> normalizeMessage(const Type *T, uint64_t Count) {
    return Recon.reconstructMessage(T, Count);
  }

  /// The rule-based step alone: T with its local rewrites applied.
  const Type *canonicalize(const Type *T) { return Canon.canonicalize(T); }
  const Reconstructor &getReconstructor() const { return Recon; }

private:
  Canonicalizer Canon;
  Reconstructor Recon;
};

} // namespace ddtc

#endif // DDTC_PASSES_NORMALIZER_H

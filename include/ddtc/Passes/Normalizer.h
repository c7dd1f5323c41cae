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
#include "ddtc/Passes/PassManager.h"
#include "ddtc/Passes/PassRegistry.h"
#include "ddtc/Passes/Reconstruct.h"

namespace ddtc {

class Normalizer {
public:
  explicit Normalizer(TypeContext &Ctx, ReconstructOptions Options = {})
      : Rules(Ctx.getRules()), Canon(Ctx), Recon(Ctx, Options) {}

  /// normal(T): equivalent to T, never costlier. The steps are the
  /// default pipeline's (Passes.def), the one `ddtc normalize` runs.
  const Type *normalize(const Type *T) {
    for (PassId Step : getDefaultPipeline())
      T = runStep(Step, T);
    return T;
  }

  /// normal(T) of the type named Name, every step that changes it checked
  /// as the pass manager checks a pass (PassManager::checkPassResult): a
  /// broken pass is reported by `analyze` as by `normalize`. Typemaps too
  /// long to compare run by run are recorded in Partial.
  Expected<const Type *>
  normalizeChecked(const Type *T, const std::string &Name,
                   std::vector<PassManager::PartialCheck> &Partial) {
    const Type *Original = T;
    for (PassId Step : getDefaultPipeline()) {
      const Type *Next = runStep(Step, T);
      if (Next == T)
        continue;
      if (Error E = PassManager::checkPassResult(getPassInfo(Step).Name, Name,
                                                 Original, Next, Rules,
                                                 /*Equivalence=*/true, Partial))
        return E;
      T = Next;
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
  const Type *runStep(PassId Step, const Type *T) {
    switch (Step) {
    case PassId::Canonicalize:
      return Canon.canonicalize(T);
    case PassId::Reconstruct:
      return Recon.reconstruct(T);
    }
    return T;
  }

  const LibraryRules &Rules;
  Canonicalizer Canon;
  Reconstructor Recon;
};

} // namespace ddtc

#endif // DDTC_PASSES_NORMALIZER_H

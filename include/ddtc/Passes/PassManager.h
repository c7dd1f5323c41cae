//===- ddtc/Passes/PassManager.h - Running a pipeline -----------*- C++ -*-===//
//
// Runs passes in order. After every pass the verifier checks the IR and,
// with VerifyEquivalence, every named type is checked to be equivalent to
// the type it was before the pipeline -- a failure there is a bug in a pass.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_PASSES_PASSMANAGER_H
#define DDTC_PASSES_PASSMANAGER_H

#include "ddtc/IR/LibraryRules.h"
#include "ddtc/Passes/Pass.h"
#include "ddtc/Support/Error.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ddtc {

class PassManager {
public:
  void add(std::unique_ptr<Pass> P) { Passes.push_back(std::move(P)); }
  void add(std::vector<std::unique_ptr<Pass>> Ps) {
    for (std::unique_ptr<Pass> &P : Ps)
      add(std::move(P));
  }
  void setVerifyEquivalence(bool V) { VerifyEquivalence = V; }
  /// Called after each pass with its name (for --print-after-all).
  void setAfterPass(std::function<void(std::string_view, const Module &)> F) {
    AfterPass = std::move(F);
  }

  Error run(Module &M);

  /// A type whose typemap was too long to compare run by run: the first
  /// Runs runs were, the rest symbolically.
  struct PartialCheck {
    std::string Name;
    uint64_t Runs;
  };
  const std::vector<PartialCheck> &getPartiallyVerified() const {
    return PartiallyVerified;
  }

  /// Runs compared one by one when checking B against A: in proportion to
  /// their descriptions (distinctDescriptionSize), within [2^20, 2^24]
  /// (about 0.05 to 1 second of walking), so that a file of a few lines
  /// describing 2^50 blocks is checked in time that grows with the file.
  static uint64_t verifyRuns(const Type *A, const Type *B);

  /// What the pass manager checks of a type pass PassName changed: the IR
  /// verifier (with the Rules of the type's context), and with Equivalence that
  /// Result has the typemap and bounds of Original, the type named Name before
  /// the pipeline (a failure is a bug in ddtc). A typemap too long to compare
  /// run by run is recorded in Partial. The Normalizer runs the same check, so
  /// that `analyze` and `normalize` report a broken pass in the same words.
  static Error checkPassResult(std::string_view PassName,
                               const std::string &Name, const Type *Original,
                               const Type *Result, const LibraryRules &Rules,
                               bool Equivalence,
                               std::vector<PartialCheck> &Partial);

private:
  std::vector<std::unique_ptr<Pass>> Passes;
  bool VerifyEquivalence = true;
  std::function<void(std::string_view, const Module &)> AfterPass;
  std::vector<PartialCheck> PartiallyVerified;
};

} // namespace ddtc

#endif // DDTC_PASSES_PASSMANAGER_H

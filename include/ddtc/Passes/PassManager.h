//===- ddtc/Passes/PassManager.h - Running a pipeline -----------*- C++ -*-===//
//
// Runs passes in order. After every pass the verifier checks the IR and,
// with VerifyEquivalence, every named type is checked to be equivalent to
// the type it was before the pipeline -- a failure there is a bug in a pass.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_PASSES_PASSMANAGER_H
#define DDTC_PASSES_PASSMANAGER_H

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

  /// Types whose typemap was too long to compare run by run (the first
  /// VerifyRuns runs were, the rest symbolically), by name.
  const std::vector<std::string> &getPartiallyVerified() const {
    return PartiallyVerified;
  }

  /// Runs compared one by one per type: about a second of walking.
  static constexpr uint64_t VerifyRuns = uint64_t(1) << 24;

private:
  std::vector<std::unique_ptr<Pass>> Passes;
  bool VerifyEquivalence = true;
  std::function<void(std::string_view, const Module &)> AfterPass;
  std::vector<std::string> PartiallyVerified;
};

} // namespace ddtc

#endif // DDTC_PASSES_PASSMANAGER_H

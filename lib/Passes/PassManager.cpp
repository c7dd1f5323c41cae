//===- lib/Passes/PassManager.cpp - Running a pipeline --------------------===//
#include "ddtc/Passes/PassManager.h"

#include "ddtc/IR/Equivalence.h"
#include "ddtc/IR/TypeContext.h"
#include "ddtc/IR/Verifier.h"

#include <algorithm>

namespace ddtc {

uint64_t PassManager::verifyRuns(const Type *A, const Type *B) {
  constexpr uint64_t Min = uint64_t(1) << 20, Max = uint64_t(1) << 24;
  uint64_t Size = distinctDescriptionSize(A) + distinctDescriptionSize(B);
  return Size >= Max / 64 ? Max : std::max(Min, 64 * Size);
}

Error PassManager::checkPassResult(std::string_view PassName,
                                   const std::string &Name,
                                   const Type *Original, const Type *Result,
                                   const LibraryRules &Rules, bool Equivalence,
                                   std::vector<PartialCheck> &Partial) {
  if (Error E = verifyType(Result, Rules))
    return std::move(
        E.addContext("type '" + Name + "'")
            .addContext("after pass '" + std::string(PassName) + "'"));
  if (!Equivalence)
    return Error::success();
  uint64_t Runs = verifyRuns(Original, Result);
  EquivalenceResult R = checkEquivalent(Original, Result, 1, true, Runs);
  if (!R.Equivalent)
    return makeError("pass '" + std::string(PassName) +
                     "' changed the typemap of type '" + Name +
                     "': " + R.Difference + " (a bug in ddtc)");
  if (!R.Complete &&
      std::none_of(Partial.begin(), Partial.end(),
                   [&](const PartialCheck &C) { return C.Name == Name; }))
    Partial.push_back({Name, Runs});
  return Error::success();
}

Error PassManager::run(Module &M) {
  std::vector<const Type *> Before;
  for (const NamedType &N : M.types())
    Before.push_back(N.T);
  // The version of each type last checked: a type a pass left alone is
  // not walked again (nodes are uniqued and immutable).
  std::vector<const Type *> Verified = Before;
  for (const std::unique_ptr<Pass> &P : Passes) {
    // A pass that changed nothing leaves the module as checked already.
    if (P->run(M))
      for (size_t I = 0; I < M.types().size(); ++I) {
        const NamedType &N = M.types()[I];
        if (N.T == Verified[I])
          continue;
        if (Error E = checkPassResult(P->getName(), N.Name, Before[I], N.T,
                                      M.getContext().getRules(),
                                      VerifyEquivalence, PartiallyVerified))
          return E;
        Verified[I] = N.T;
      }
    if (AfterPass)
      AfterPass(P->getName(), M);
  }
  return Error::success();
}

} // namespace ddtc

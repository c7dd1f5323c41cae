//===- lib/Passes/PassManager.cpp - Running a pipeline --------------------===//
#include "ddtc/Passes/PassManager.h"

#include "ddtc/IR/Equivalence.h"
#include "ddtc/IR/Verifier.h"

#include <algorithm>

namespace ddtc {

uint64_t PassManager::verifyRuns(const Type *A, const Type *B) {
  constexpr uint64_t Min = uint64_t(1) << 20, Max = uint64_t(1) << 24;
  uint64_t Size = distinctDescriptionSize(A) + distinctDescriptionSize(B);
  return Size >= Max / 64 ? Max : std::max(Min, 64 * Size);
}

Error PassManager::run(Module &M) {
  std::vector<const Type *> Before;
  for (const NamedType &N : M.types())
    Before.push_back(N.T);
  // The version of each type last found equivalent to its original: a
  // type a pass left alone is not walked again (nodes are uniqued).
  std::vector<const Type *> Verified = Before;
  for (const std::unique_ptr<Pass> &P : Passes) {
    // A pass that changed nothing leaves the module as checked already.
    if (!P->run(M)) {
      if (AfterPass)
        AfterPass(P->getName(), M);
      continue;
    }
    if (Error E = verifyModule(M))
      return std::move(E.addContext("after pass '" + std::string(P->getName()) + "'"));
    if (VerifyEquivalence)
      for (size_t I = 0; I < M.types().size(); ++I) {
        if (M.types()[I].T == Verified[I])
          continue;
        uint64_t Runs = verifyRuns(Before[I], M.types()[I].T);
        EquivalenceResult R =
            checkEquivalent(Before[I], M.types()[I].T, 1, true, Runs);
        if (!R.Equivalent)
          return makeError("pass '" + std::string(P->getName()) +
                           "' changed the typemap of type '" +
                           M.types()[I].Name + "': " + R.Difference +
                           " (a bug in ddtc)");
        if (!R.Complete &&
            std::none_of(PartiallyVerified.begin(), PartiallyVerified.end(),
                         [&](const PartialCheck &C) {
                           return C.Name == M.types()[I].Name;
                         }))
          PartiallyVerified.push_back({M.types()[I].Name, Runs});
        Verified[I] = M.types()[I].T;
      }
    if (AfterPass)
      AfterPass(P->getName(), M);
  }
  return Error::success();
}

} // namespace ddtc

//===- lib/Passes/PassManager.cpp - Running a pipeline --------------------===//
#include "ddtc/Passes/PassManager.h"

#include "ddtc/IR/Equivalence.h"
#include "ddtc/IR/Verifier.h"

#include <algorithm>

namespace ddtc {

Error PassManager::run(Module &M) {
  std::vector<const Type *> Before;
  for (const NamedType &N : M.types())
    Before.push_back(N.T);
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
        EquivalenceResult R = checkEquivalent(Before[I], M.types()[I].T, 1,
                                              true, VerifyRuns);
        if (!R.Equivalent)
          return makeError("pass '" + std::string(P->getName()) +
                           "' changed the typemap of type '" +
                           M.types()[I].Name + "': " + R.Difference +
                           " (a bug in ddtc)");
        if (!R.Complete &&
            std::find(PartiallyVerified.begin(), PartiallyVerified.end(),
                      M.types()[I].Name) == PartiallyVerified.end())
          PartiallyVerified.push_back(M.types()[I].Name);
      }
    if (AfterPass)
      AfterPass(P->getName(), M);
  }
  return Error::success();
}

} // namespace ddtc

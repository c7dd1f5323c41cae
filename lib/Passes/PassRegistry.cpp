//===- lib/Passes/PassRegistry.cpp - All passes, by name ------------------===//
#include "ddtc/Passes/PassRegistry.h"

#include "ddtc/Passes/Canonicalize.h"
#include "ddtc/Passes/Reconstruct.h"

namespace ddtc {

namespace {
const PassInfo Registry[] = {
    {"canonicalize",
     "local rewrites to a fixpoint (trivial constructors, zero blocks, dense "
     "vectors, merged blocks, constant strides, nested vectors)",
     createCanonicalizePass},
    {"reconstruct",
     "rebuild each type from its typemap: the cheapest tree of vectors, "
     "index lists and structs (dynamic program, lattice recovery)",
     createReconstructPass},
};
} // namespace

std::span<const PassInfo> getRegisteredPasses() { return Registry; }

Expected<std::vector<std::unique_ptr<Pass>>>
parsePassPipeline(std::string_view Pipeline) {
  std::vector<std::unique_ptr<Pass>> Passes;
  while (!Pipeline.empty()) {
    size_t Comma = Pipeline.find(',');
    std::string_view Name = Pipeline.substr(0, Comma);
    Pipeline = Comma == std::string_view::npos ? "" : Pipeline.substr(Comma + 1);
    const PassInfo *Found = nullptr;
    for (const PassInfo &P : Registry)
      if (P.Name == Name)
        Found = &P;
    if (!Found) {
      std::string Known;
      for (const PassInfo &P : Registry)
        Known += (Known.empty() ? "" : ", ") + std::string(P.Name);
      return makeError("unknown pass '" + std::string(Name) + "' (known: " + Known + ")");
    }
    Passes.push_back(Found->Create());
  }
  return Passes;
}

} // namespace ddtc

//===- lib/Passes/PassRegistry.cpp - All passes, by name ------------------===//
#include "ddtc/Passes/PassRegistry.h"

#include "ddtc/Passes/Canonicalize.h"
#include "ddtc/Passes/Reconstruct.h"

namespace ddtc {

namespace {
const PassInfo Registry[] = {
#define DDTC_PASS(Id, Name, Description, Create) {Name, Description, Create},
#include "ddtc/Passes/Passes.def"
};

constexpr PassId DefaultSteps[] = {
#define DDTC_DEFAULT_STEP(Id) PassId::Id,
#include "ddtc/Passes/Passes.def"
};
} // namespace

std::span<const PassInfo> getRegisteredPasses() { return Registry; }

const PassInfo &getPassInfo(PassId Id) {
  return Registry[static_cast<unsigned>(Id)];
}

std::span<const PassId> getDefaultPipeline() { return DefaultSteps; }

std::string getDefaultPipelineText() {
  std::string Text;
  for (PassId Id : DefaultSteps)
    Text += (Text.empty() ? "" : ",") + std::string(getPassInfo(Id).Name);
  return Text;
}

Expected<std::vector<std::unique_ptr<Pass>>>
parsePassPipeline(std::string_view Pipeline) {
  std::vector<std::unique_ptr<Pass>> Passes;
  while (!Pipeline.empty()) {
    size_t Comma = Pipeline.find(',');
    std::string_view Name = Pipeline.substr(0, Comma);
    Pipeline =
        Comma == std::string_view::npos ? "" : Pipeline.substr(Comma + 1);
    const PassInfo *Found = nullptr;
    for (const PassInfo &P : Registry)
      if (P.Name == Name)
        Found = &P;
    if (!Found) {
      std::string Known;
      for (const PassInfo &P : Registry)
        Known += (Known.empty() ? "" : ", ") + std::string(P.Name);
      return makeError("unknown pass '" + std::string(Name) +
                       "' (known: " + Known + ")");
    }
    Passes.push_back(Found->Create());
  }
  return Passes;
}

} // namespace ddtc

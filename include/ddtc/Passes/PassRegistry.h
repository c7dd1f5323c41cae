//===- ddtc/Passes/PassRegistry.h - All passes, by name ---------*- C++ -*-===//
//
// The one table of passes. `--passes=a,b` and the default pipeline look
// passes up here; tests name them the same way.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_PASSES_PASSREGISTRY_H
#define DDTC_PASSES_PASSREGISTRY_H

#include "ddtc/Passes/Pass.h"
#include "ddtc/Support/Error.h"

#include <memory>
#include <span>
#include <string>
#include <vector>

namespace ddtc {

struct PassInfo {
  std::string_view Name;
  std::string_view Description;
  std::unique_ptr<Pass> (*Create)();
};

std::span<const PassInfo> getRegisteredPasses();

/// Parses "a,b,c" into passes; unknown names are an error listing the known.
Expected<std::vector<std::unique_ptr<Pass>>>
parsePassPipeline(std::string_view Pipeline);

enum class PassId {
#define DDTC_PASS(Id, Name, Description, Create) Id,
#include "ddtc/Passes/Passes.def"
};

/// The registry's entry of a pass: its name, written once in Passes.def,
/// is what the pass itself reports (Pass::getName).
const PassInfo &getPassInfo(PassId Id);

/// The default pipeline (Passes.def), as pass ids: what the Normalizer
/// runs on one type.
std::span<const PassId> getDefaultPipeline();
/// The default pipeline as `--passes` text ("canonicalize,reconstruct,...").
std::string getDefaultPipelineText();

} // namespace ddtc

#endif // DDTC_PASSES_PASSREGISTRY_H

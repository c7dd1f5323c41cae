//===- tools/ddtc/NormalizeCommand.cpp - `ddtc normalize` -----------------===//
//
// Reads a description, runs the pass pipeline on it, and writes a
// description with the same names and equivalent types. The output is
// written to a temporary file and renamed into place only when everything
// succeeded, so bad input never leaves a partial file behind.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "OutputFiles.h"

#include "ddtc/Format/DescriptionWriter.h"
#include "ddtc/IR/Equivalence.h"
#include "ddtc/IR/TextForm.h"
#include "ddtc/IR/TypeContext.h"
#include "ddtc/Passes/Normalizer.h"
#include "ddtc/Passes/PassManager.h"
#include "ddtc/Passes/PassRegistry.h"
#include "ddtc/Target/MPICHRules.h"

#include <cstdio>

namespace ddtc {

namespace {

/// Replaces every type by the normal form of its message of Count
/// instances (GL1: count x T sent as one type). The typemap of the message
/// is kept; the bounds are the new type's own.
Error describeMessages(Module &M, uint64_t Count, bool Verify) {
  TypeContext &Ctx = M.getContext();
  Normalizer N(Ctx);
  for (NamedType &NT : M.types()) {
    auto InType = [&](Error E) {
      return std::move(E.addContext("type '" + NT.Name + "'"));
    };
    Expected<const Type *> Message = N.normalizeMessage(NT.T, Count);
    if (!Message)
      return InType(Message.takeError());
    if (Verify) {
      Expected<const Type *> Whole = Ctx.getContiguous(int64_t(Count), NT.T);
      if (!Whole)
        return InType(Whole.takeError());
      EquivalenceResult R =
          checkEquivalent(*Whole, *Message, 1, /*CheckBounds=*/false,
                          PassManager::verifyRuns(*Whole, *Message));
      if (!R.Equivalent)
        return InType(
            makeError("internal error: message form differs: " + R.Difference));
    }
    NT.T = *Message;
    NT.Extras.emplace_back("x-count", std::to_string(Count));
  }
  return Error::success();
}

} // namespace

int runNormalize(const NormalizeOptions &Options) {
  Expected<std::vector<std::unique_ptr<Pass>>> Pipeline =
      parsePassPipeline(Options.Passes);
  if (!Pipeline) {
    reportError(Pipeline.takeError().message());
    return ExitUsage;
  }

  TypeContext Ctx(getMPICHRules());
  Module M(Ctx);
  if (!readInput(Options.InputPath, M))
    return ExitBadInput;

  PassManager PM;
  PM.add(std::move(*Pipeline));
  PM.setVerifyEquivalence(Options.Verify);
  if (Options.PrintAfterAll)
    PM.setAfterPass([](std::string_view Name, const Module &Mod) {
      std::string Text =
          "; after " + std::string(Name) + "\n" + printModule(Mod);
      std::fwrite(Text.data(), 1, Text.size(), stderr);
    });
  if (Error E = PM.run(M)) {
    reportError(Options.InputPath + ": " + E.message());
    return ExitBadInput;
  }
  notePartiallyVerified(PM.getPartiallyVerified());
  if (Options.Count) {
    if (Error E = describeMessages(M, *Options.Count, Options.Verify)) {
      reportError(Options.InputPath + ": " + E.message());
      return ExitBadInput;
    }
  }

  std::string Out = Options.Format == ReportFormat::Text ? printModule(M)
                                                         : writeDescription(M);
  if (Error E = writeFile(Options.OutputPath, Out)) {
    reportError(E.message());
    return ExitBadInput;
  }
  return ExitSuccess;
}

} // namespace ddtc

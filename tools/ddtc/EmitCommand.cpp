//===- tools/ddtc/EmitCommand.cpp - `ddtc emit` ---------------------------===//
//
// Reads a description, takes the layout key of every named type as given
// (for the kernel table), normalizes it with the default pipeline (unless
// -O0), and writes PREFIX.h, PREFIX.cpp, PREFIX_mpi.h and PREFIX_mpi.c.
// All four files are first written under temporary names and renamed into
// place only when every one of them was written, so that bad input or a
// full disk never leaves a partial or mismatched set behind.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "OutputFiles.h"

#include "ddtc/CodeGen/Emit.h"
#include "ddtc/Engine/MPIForm.h"
#include "ddtc/IR/TypeContext.h"
#include "ddtc/Passes/LayoutKey.h"
#include "ddtc/Passes/PassManager.h"
#include "ddtc/Passes/PassRegistry.h"
#include "ddtc/Target/MPICHRules.h"

namespace ddtc {

namespace {

/// A struct of absolute addresses (a trace's "x-bottom" type) matches no
/// later run as a whole when its arrays were allocated apart: the distances
/// between them change. Its members get kernels of their own, named
/// NAME_memberI, which the runtime binds member by member
/// (docs/runtime.md, "Binding at commit").
void addBottomMembers(Module &M) {
  size_t NumGiven = M.types().size();
  for (size_t I = 0; I < NumGiven; ++I) {
    const NamedType &N = M.types()[I];
    bool Bottom = false;
    for (const ExtraField &X : N.Extras)
      Bottom |= X.first == "x-bottom" && X.second == "true";
    auto *S = dyn_cast<StructType>(N.T);
    if (!Bottom || !S)
      continue;
    std::string Base = N.Name;
    std::vector<const Type *> Members(S->getTypes().begin(),
                                      S->getTypes().end());
    for (size_t J = 0; J < Members.size(); ++J) {
      std::string Name = Base + "_member" + std::to_string(J);
      while (M.lookup(Name))
        Name += "_";
      M.types().push_back({Name, Members[J], {}});
    }
  }
}

/// The comment above a ddtc_NAME_build: which form it builds, and why.
std::string baseName(const std::string &Path) {
  size_t Slash = Path.find_last_of('/');
  return Slash == std::string::npos ? Path : Path.substr(Slash + 1);
}

} // namespace

std::optional<std::vector<EmittedFile>>
emitFiles(TypeContext &Ctx, Module &M, const EmitOptions &Options,
          const std::string &Base, std::vector<std::optional<KernelKey>> *Keys) {
  addBottomMembers(M);

  // Keys from the types as described, before the pipeline: the runtime
  // keys the type the program built, which is the input, and a key is the
  // same for every equivalent description only up to the limits of the
  // normalizer -- the normal form of the normal form may not be the
  // normal form of the input.
  CodeGenOptions CG;
  Normalizer Norm(Ctx);
  for (const NamedType &N : M.types()) {
    std::optional<KernelKey> Key;
    if (std::optional<LayoutKey> K = computeLayoutKey(Norm, Ctx, N.T))
      Key = KernelKey{K->Print, K->TrueLb, N.T->getFingerprint()};
    CG.Keys.push_back(Key);
  }

  Expected<EngineCosts> Costs = findEngineCosts(Options.Engine);
  if (!Costs) {
    reportError(Costs.takeError().message());
    return std::nullopt;
  }
  std::vector<const Type *> Given;
  for (const NamedType &N : M.types())
    Given.push_back(N.T);

  if (Options.OptLevel > 0) {
    Expected<std::vector<std::unique_ptr<Pass>>> Pipeline =
        parsePassPipeline(getDefaultPipelineText());
    if (!Pipeline) { // the default pipeline always parses
      reportError(Pipeline.takeError().message());
      return std::nullopt;
    }
    PassManager PM;
    PM.add(std::move(*Pipeline));
    if (Error E = PM.run(M)) {
      reportError(Options.InputPath + ": " + E.message());
      return std::nullopt;
    }
  }

  // ddtc_NAME_build: the form MPI packs fastest (docs/mpi-forms.md).
  if (Options.OptLevel > 0 && Options.BuildForm == "mpi") {
    YaksaModel Model;
    for (size_t I = 0; I < M.types().size(); ++I) {
      Expected<MPIFormOptions> Uses = formOptionsForUses(M.types()[I]);
      if (!Uses) {
        reportError(Options.InputPath + ": " + Uses.takeError().message());
        return std::nullopt;
      }
      MPIForm F =
          chooseMPIForm(Given[I], getFormCandidates(Ctx, Norm, Given[I]),
                        Model, *Costs, *Uses);
      CG.MPIForms.push_back({F.Chosen.T, describeMPIForm(F, Costs->Engine)});
    }
  }

  CG.BaseName = Base;
  CG.SourceName = baseName(Options.InputPath);
  CG.Version = DDTC_VERSION;
  CG.RangeFunctions = Options.RangeFunctions;
  if (Keys)
    *Keys = CG.Keys;
  return emitModule(M, CG);
}

int runEmit(const EmitOptions &Options) {
  std::string Base = baseName(Options.OutputPrefix);
  if (Base.empty() || Base == "." || Base == "..") {
    reportError("-o needs a file name prefix, got '" + Options.OutputPrefix +
                "'");
    return ExitUsage;
  }

  TypeContext Ctx(getMPICHRules());
  Module M(Ctx);
  if (!readInput(Options.InputPath, M))
    return ExitBadInput;
  std::optional<std::vector<EmittedFile>> Emitted =
      emitFiles(Ctx, M, Options, Base);
  if (!Emitted)
    return ExitBadInput;
  std::vector<OutputFile> Files;
  for (EmittedFile &F : *Emitted)
    Files.push_back({Options.OutputPrefix + F.Suffix, std::move(F.Text)});
  if (Error E = writeFiles(Files)) {
    reportError(E.message());
    return ExitBadInput;
  }
  return ExitSuccess;
}

} // namespace ddtc

//===- tools/ddtc/CommandSupport.cpp - What every command shares ----------===//
//
// Built into the driver and into the source front-end module alike
// (SourceModule.h): the same words in reports, the same assessment of a
// type for `analyze` and `analyze --source`.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include "ddtc/IR/TextForm.h"
#include "ddtc/Passes/LayoutKey.h"
#include "ddtc/Passes/Normalizer.h"
#include "ddtc/Reader/ReadFile.h"
#include "ddtc/Reader/TypeUses.h"
#include "ddtc/Target/MPICHRules.h"

#include <algorithm>
#include <cstdio>
#include <system_error>

namespace ddtc {

void reportError(const std::string &Message) {
  std::fprintf(stderr, "error: %s\n", Message.c_str());
}

bool readInput(const std::string &Path, Module &M) {
  if (Error E = readAnyDescriptionFile(Path, M)) {
    reportError(E.message());
    return false;
  }
  return true;
}

std::filesystem::path getExecutableDir(const std::string &Argv0) {
  std::error_code EC;
  std::filesystem::path Exe =
      std::filesystem::read_symlink("/proc/self/exe", EC);
  if (EC)
    Exe = std::filesystem::absolute(Argv0, EC);
  return Exe.parent_path();
}

bool isFile(const std::string &Path) {
  std::error_code EC;
  return std::filesystem::is_regular_file(Path, EC);
}

void notePartiallyVerified(
    const std::vector<PassManager::PartialCheck> &Partial) {
  for (const PassManager::PartialCheck &C : Partial)
    std::fprintf(stderr,
                 "note: type '%s': typemap too long to verify run by run; "
                 "its first %llu runs were compared, the rest by size, "
                 "bounds and contiguous blocks\n",
                 C.Name.c_str(), (unsigned long long)C.Runs);
}

namespace {

MPIFormOptions optionsForUses(const TypeUses &Uses) {
  MPIFormOptions O;
  O.Counts = Uses.countsToCompare();
  O.SendsOnly = Uses.PointToPointOnly;
  return O;
}

} // namespace

Expected<MPIFormOptions> formOptionsForUses(const NamedType &N) {
  Expected<TypeUses> Uses = readTypeUses(N);
  if (!Uses)
    return Uses.takeError();
  return optionsForUses(*Uses);
}

bool TraceUses::load(const std::vector<std::string> &Paths) {
  for (const std::string &Path : Paths) {
    Names += (Names.empty() ? "" : ", ") + Path;
    if (!loadOne(Path))
      return false;
  }
  return true;
}

bool TraceUses::loadOne(const std::string &Path) {
  TypeContext Ctx(getMPICHRules());
  Module M(Ctx);
  if (!readInput(Path, M))
    return false;
  Normalizer N(Ctx);
  bool AnyUses = false;
  for (const NamedType &NT : M.types()) {
    Expected<TypeUses> Uses = readTypeUses(NT);
    if (!Uses) {
      reportError(Path + ": " + Uses.takeError().message());
      return false;
    }
    AnyUses |= !Uses->empty();
    std::optional<LayoutKey> Key = computeLayoutKey(N, Ctx, NT.T);
    if (!Key || Uses->empty())
      continue;
    auto Same = std::find_if(Entries.begin(), Entries.end(), [&](const Entry &E) {
      return E.Key == Key->Print && E.Extent == NT.T->extent();
    });
    if (Same == Entries.end())
      Entries.push_back({Key->Print, NT.T->extent(), *Uses});
    else
      Same->Uses.merge(*Uses);
  }
  if (!AnyUses) {
    reportError(Path + ": --uses: no type has x-uses (a trace written by "
                       "libddtc_trace.so has them)");
    return false;
  }
  return true;
}

std::optional<MPIFormOptions> TraceUses::optionsFor(Normalizer &N,
                                                    TypeContext &Ctx,
                                                    const Type *T) const {
  std::optional<LayoutKey> Key = computeLayoutKey(N, Ctx, T);
  if (!Key)
    return std::nullopt;
  for (const Entry &E : Entries)
    if (E.Key == Key->Print && E.Extent == T->extent())
      return optionsForUses(E.Uses);
  return std::nullopt;
}

Assessment assessType(TypeContext &Ctx, Normalizer &N, YaksaModel &Model,
                      const EngineCosts &Costs, const Type *Given,
                      const Type *Normal, const MPIFormOptions &Options) {
  std::string Text = printType(Normal);
  std::vector<FormCandidate> Candidates = getFormCandidates(Ctx, N, Given);
  MPIForm Form = chooseMPIForm(Given, Candidates, Model, Costs, Options);
  // Without a trace, what sends alone would get, where it sends clearly
  // faster than the form chosen for every use: a hint that a trace helps.
  std::string SendsOrigin;
  double SendsGain = 1;
  if (Options.Counts.empty() && !Options.SendsOnly) {
    MPIFormOptions SendsOnly;
    SendsOnly.SendsOnly = true;
    MPIForm Sends = chooseMPIForm(Given, Candidates, Model, Costs, SendsOnly);
    if (Sends.Chosen.T != Form.Chosen.T &&
        Form.FormSendNs >= (1 + SendsOnly.MinGain) * Sends.FormSendNs) {
      SendsOrigin = Sends.Chosen.Origin;
      SendsGain = Sends.SendGain;
    }
  }
  // The key from the flat list only: above MaxFlatRuns blocks it is the
  // normal form of the type translated to 0, a second normalization that
  // would add up to half again to analyze's time on 10^6 blocks.
  std::string KeyText, NoKey;
  if (Given->getLayout().Blocks.Count > MaxFlatRuns)
    NoKey = "not computed: more than " + std::to_string(MaxFlatRuns) +
            " blocks (ddtc emit's kernel table has it)";
  else if (std::optional<LayoutKey> Key = computeLayoutKey(N, Ctx, Given))
    KeyText = formatKey(Key->Print);
  else
    NoKey = Given->size() == 0
                ? "none (size 0)"
                : "none (its displacements overflow when translated to 0)";
  MPIFormAdvice Advice;
  Advice.Engine = Costs.Engine;
  if (!Form.isGiven()) {
    Advice.FormText = printType(Form.Chosen.T);
    Advice.Origin = Form.Chosen.Origin;
    Advice.PackGain = Form.gain();
    Advice.SendsOnly = Form.SendsOnly;
  }
  std::vector<Risk> Risks =
      findRisks(Given, Normal, Text, Advice, Ctx.getRules());
  return {Normal,
          std::move(Text),
          std::move(Risks),
          Form.isGiven() ? std::string("given")
                         : std::string(Form.Chosen.Origin),
          Model.describePath(Given),
          Model.describePath(Form.Chosen.T),
          Form.Chosen.T,
          Options.SendsOnly,
          SendsOrigin,
          SendsGain,
          std::move(KeyText),
          std::move(NoKey)};
}

} // namespace ddtc

//===- tools/ddtc/SourceCommands.cpp - extract, rewrite, analyze --source -===//
//
// The commands that read C/C++ source (lib/Source), built as the module
// ddtc-source.so that the driver loads for them alone (SourceModule.h).
// Diagnostics go to stderr in Clang's format; a source that does not
// parse, or that builds no type at all, is bad input (status 1) and
// nothing is written.
//
//===----------------------------------------------------------------------===//
#include "OutputFiles.h"
#include "SourceModule.h"

#include "ddtc/Analysis/Risks.h"
#include "ddtc/CodeGen/Emit.h"
#include "ddtc/Engine/MPIForm.h"
#include "ddtc/Format/DescriptionWriter.h"
#include "ddtc/IR/Equivalence.h"
#include "ddtc/IR/Module.h"
#include "ddtc/IR/TextForm.h"
#include "ddtc/IR/TypeContext.h"
#include "ddtc/Passes/Normalizer.h"
#include "ddtc/Support/Text.h"
#include "ddtc/Target/MPICHRules.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>

namespace ddtc {

namespace {

namespace fs = std::filesystem;

/// Extracts, prints what Clang and the interpreter found, and says whether
/// the result can be used.
bool extract(TypeContext &Ctx, const ExtractOptions &Options,
             ExtractResult &Result) {
  Result = extractTypes(Ctx, Options);
  for (const SourceDiagnostic &D : Result.Diagnostics)
    printSourceDiagnostic(D, stderr);
  if (Result.Failed)
    return false;
  if (Result.ConstructorCalls == 0) {
    std::string Files;
    for (const std::string &S : Options.Sources)
      Files += (Files.empty() ? "" : ", ") + S;
    reportError(Files + ": no MPI type constructor call (MPI_Type_vector, "
                        "MPI_Type_create_struct, ...) to extract");
    return false;
  }
  return true;
}

/// What analyze --source and rewrite share: the engine's cost table, the
/// extracted types, and the normalizer and model that judge them.
struct SourceSession {
  TypeContext Ctx{getMPICHRules()};
  Normalizer Norm{Ctx};
  YaksaModel Model;
  std::optional<EngineCosts> Costs;
  ExtractResult Result;
  /// --uses TRACE, if given.
  std::optional<TraceUses> Uses;

  bool open(const ExtractOptions &Source, const std::string &Engine,
            const std::vector<std::string> &UsesPaths) {
    Expected<EngineCosts> C = findEngineCosts(Engine);
    if (!C) {
      reportError(C.takeError().message());
      return false;
    }
    Costs = std::move(*C);
    if (!UsesPaths.empty() && !Uses.emplace().load(UsesPaths))
      return false;
    return extract(Ctx, Source, Result);
  }

  /// The MPI-facing form's options for X: its layout's uses in the trace,
  /// else the defaults (and a note saying so into Notes).
  MPIFormOptions formOptions(const ExtractedType &X,
                             std::vector<SourceDiagnostic> &Notes) {
    if (!Uses)
      return {};
    if (std::optional<MPIFormOptions> O = Uses->optionsFor(Norm, Ctx, X.T))
      return *O;
    Notes.push_back({SourceDiagnostic::Level::Note, X.Where,
                     "type '" + X.Name + "': no type of its layout is used in " +
                         Uses->names() + "; its form is chosen for every use"});
    return {};
  }
};

/// Writes Files (OutputFiles.h), reporting a failure; false if one.
bool writeOrReport(std::span<const OutputFile> Files) {
  if (Error E = writeFiles(Files)) {
    reportError(E.message());
    return false;
  }
  return true;
}

std::string canonical(const std::string &Path) {
  std::error_code EC;
  fs::path P = fs::weakly_canonical(Path, EC);
  return EC ? Path : P.string();
}

SourceDiagnostic noteAt(const SourcePosition &Where, std::string Message) {
  return {SourceDiagnostic::Level::Note, Where, std::move(Message)};
}

/// The replacement of a construction: a comment saying what and why, then
/// the calls, indented as the statement they replace.
std::string replacementText(const ExtractedType &X, const Type *Form,
                            const std::string &Why) {
  std::string Code = emitInlineBuild(Form, X.Site->Target);
  std::string Text = "/* ddtc rewrite: " + X.Name + " = " +
                     shorten(printType(Form)) + "; " + Why + " */";
  std::istringstream Lines(Code);
  for (std::string L; std::getline(Lines, L);)
    Text += "\n" + X.Site->Indent + L;
  // Arrays filled only for the call it replaces would be set but unused.
  for (const std::string &V : X.Site->Unread)
    Text += "\n" + X.Site->Indent + "(void)" + V + ";";
  return Text;
}

bool overlaps(const std::vector<SourceEdit> &Accepted, const SourceEdit &E) {
  for (const SourceEdit &A : Accepted)
    if (A.File == E.File && E.Offset < A.Offset + A.Length &&
        A.Offset < E.Offset + E.Length)
      return true;
  return false;
}

std::string applyEdits(std::string Text, std::vector<SourceEdit> Edits) {
  std::sort(Edits.begin(), Edits.end(),
            [](const SourceEdit &A, const SourceEdit &B) {
              return A.Offset > B.Offset;
            });
  for (const SourceEdit &E : Edits)
    Text.replace(E.Offset, E.Length, E.Text);
  return Text;
}

} // namespace

int runExtract(const ExtractCommandOptions &Options) {
  TypeContext Ctx(getMPICHRules());
  ExtractResult Result;
  if (!extract(Ctx, Options.Source, Result))
    return ExitBadInput;
  Module M(Ctx);
  for (const ExtractedType &X : Result.Types)
    M.types().push_back(
        {X.Name, X.T, {{"x-source", jsonQuote(X.Where.str())}}});
  std::string Text = writeDescription(M);
  if (Options.OutputPath.empty() || Options.OutputPath == "-") {
    std::fputs(Text.c_str(), stdout);
    return ExitSuccess;
  }
  OutputFile Out{Options.OutputPath, std::move(Text)};
  return writeOrReport({&Out, 1}) ? ExitSuccess : ExitBadInput;
}

int runAnalyzeSource(const AnalyzeOptions &Options) {
  SourceSession S;
  if (!S.open(Options.Source, Options.Engine, Options.UsesPaths))
    return ExitBadInput;
  unsigned Warnings = 0;
  std::vector<PassManager::PartialCheck> Partial;
  for (const ExtractedType &X : S.Result.Types) {
    // The normal form checked as `analyze FILE` checks it (AnalyzeCommand.cpp).
    Expected<const Type *> Normal =
        S.Norm.normalizeChecked(X.T, X.Name, Partial);
    if (!Normal) {
      reportError(X.Where.str() + ": " + Normal.takeError().message());
      return ExitBadInput;
    }
    std::vector<SourceDiagnostic> Notes;
    MPIFormOptions Uses = S.formOptions(X, Notes);
    for (const SourceDiagnostic &D : Notes)
      printSourceDiagnostic(D, stderr);
    Assessment A =
        assessType(S.Ctx, S.Norm, S.Model, *S.Costs, X.T, *Normal, Uses);
    for (const Risk &R : A.Risks) {
      printSourceDiagnostic(
          {SourceDiagnostic::Level::Warning, X.Where,
           "[" + R.Id + "] type '" + X.Name + "': " + R.Message},
          stderr);
      printSourceDiagnostic(noteAt(X.Where, shorten(R.Suggestion)), stderr);
      ++Warnings;
    }
  }
  notePartiallyVerified(Partial);
  if (Warnings)
    std::fprintf(stderr, "%u warning%s generated.\n", Warnings,
                 Warnings == 1 ? "" : "s");
  return ExitSuccess;
}

int runRewrite(const RewriteOptions &Options) {
  SourceSession S;
  if (!S.open(Options.Source, Options.Engine, Options.UsesPaths))
    return ExitBadInput;
  TypeContext &Ctx = S.Ctx;
  Normalizer &N = S.Norm;
  const ExtractResult &Result = S.Result;
  const EngineCosts *Costs = &*S.Costs;
  std::vector<SourceFix> Fixes;
  std::vector<SourceEdit> Accepted;
  std::vector<SourceDiagnostic> Notes;
  for (const ExtractedType &X : Result.Types) {
    if (!X.Site) {
      Notes.push_back(
          noteAt(X.Where,
                 "type '" + X.Name + "' is not rewritten: " + X.NotRewritable));
      continue;
    }
    const Type *Form = nullptr;
    std::string Why;
    if (Options.BuildForm == "mpi") {
      MPIForm F = chooseMPIForm(X.T, getFormCandidates(Ctx, N, X.T), S.Model,
                                *Costs, S.formOptions(X, Notes));
      if (!F.isGiven())
        Form = F.Chosen.T;
      Why = describeMPIForm(F, Costs->Engine);
    } else {
      const Type *Normal = N.normalize(X.T);
      if (Normal->getLayout().isCheaperThan(X.T->getLayout()))
        Form = Normal;
      Why = "normal form, description cost " +
            std::to_string(X.T->getLayout().totalCost()) + " -> " +
            std::to_string(Normal->getLayout().totalCost());
    }
    if (!Form) {
      Notes.push_back(
          noteAt(X.Where, "type '" + X.Name + "' is kept as written: " + Why));
      continue;
    }
    // The form replaces the program's own type: checked once more.
    EquivalenceResult Eq = checkEquivalent(X.T, Form);
    if (!Eq.Equivalent) {
      reportError("internal: the form chosen for '" + X.Name +
                  "' differs from it (" + Eq.Difference + "); not rewritten");
      continue;
    }
    SourceFix Fix;
    Fix.Message = "rewrite '" + X.Name + "': " + Why;
    Fix.File = X.Site->File;
    Fix.Offset = X.Site->Offset;
    Fix.Edits.push_back({X.Site->File, X.Site->Offset, X.Site->Length,
                         replacementText(X, Form, Why)});
    for (const SourceEdit &E : X.Site->Removals)
      Fix.Edits.push_back(E);
    bool Clash = false;
    for (const SourceEdit &E : Fix.Edits)
      Clash |= overlaps(Accepted, E);
    if (Clash) {
      Notes.push_back(noteAt(X.Where, "type '" + X.Name +
                                          "' is not rewritten: its edits "
                                          "overlap those of another type"));
      continue;
    }
    Accepted.insert(Accepted.end(), Fix.Edits.begin(), Fix.Edits.end());
    Fixes.push_back(std::move(Fix));
  }
  for (const SourceDiagnostic &D : Notes)
    printSourceDiagnostic(D, stderr);
  std::fprintf(stderr, "ddtc rewrite: %zu of %zu type%s rewritten\n",
               Fixes.size(), Result.Types.size(),
               Result.Types.size() == 1 ? "" : "s");

  if (!Options.ExportFixes.empty()) {
    std::string Main =
        Options.Source.Sources.empty()
            ? std::string()
            : fs::absolute(Options.Source.Sources.front()).string();
    OutputFile Out{Options.ExportFixes, fixesToYAML(Main, Fixes)};
    if (!writeOrReport({&Out, 1}))
      return ExitBadInput;
    if (!Options.InPlace)
      return ExitSuccess;
  }

  // The edits of each source, read again as bytes.
  std::map<std::string, std::vector<SourceEdit>> ByFile;
  for (const SourceEdit &E : Accepted)
    ByFile[canonical(E.File)].push_back(E);
  std::vector<OutputFile> Outputs;
  for (const std::string &S : Options.Source.Sources) {
    std::ifstream In(S, std::ios::binary);
    std::string Text((std::istreambuf_iterator<char>(In)),
                     std::istreambuf_iterator<char>());
    if (!In.good() && !In.eof()) {
      reportError(S + ": cannot read: " + std::strerror(errno));
      return ExitBadInput;
    }
    auto It = ByFile.find(canonical(S));
    Outputs.push_back(
        {S, It == ByFile.end() ? Text : applyEdits(Text, It->second)});
  }
  if (Options.InPlace)
    return writeOrReport(Outputs) ? ExitSuccess : ExitBadInput;
  for (const OutputFile &Out : Outputs)
    std::fputs(Out.Text.c_str(), stdout);
  return ExitSuccess;
}

} // namespace ddtc

/// The module's entry point (SourceModule.h).
extern "C" __attribute__((visibility("default"))) const ddtc::SourceCommands *
ddtc_source_commands() {
  static const ddtc::SourceCommands Table{ddtc::SourceCommandsVersion,
                                          ddtc::runExtract, ddtc::runRewrite,
                                          ddtc::runAnalyzeSource};
  return &Table;
}

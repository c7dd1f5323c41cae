//===- tools/ddtc/AnalyzeCommand.cpp - `ddtc analyze` ---------------------===//
//
// Reads a description, verifies it, and reports for every named type its
// metrics, its normal form (cost and copy pieces as given and normalized)
// and the risks found, as text for people or as JSON for scripts. The
// whole report is built before anything is printed, so bad input produces
// no partial output.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include "ddtc/Analysis/Risks.h"
#include "ddtc/Analysis/TypeMetrics.h"
#include "ddtc/Engine/MPIForm.h"
#include "ddtc/Format/DescriptionWriter.h"
#include "ddtc/IR/TextForm.h"
#include "ddtc/IR/TypeContext.h"
#include "ddtc/Passes/Normalizer.h"
#include "ddtc/Passes/PassManager.h"
#include "ddtc/Support/Text.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <iomanip>
#include <sstream>

namespace ddtc {

namespace {

std::string formatMean(double V) {
  std::ostringstream OS;
  OS << std::setprecision(6) << V;
  return OS.str();
}

/// The assessments of M's types. Their normal forms are checked as
/// `ddtc normalize` checks them (Normalizer::normalizeChecked): a broken
/// pass is an error here too, never a wrong report.
Expected<std::vector<Assessment>>
assess(Module &M, const EngineCosts &Costs,
       std::vector<PassManager::PartialCheck> &Partial) {
  Normalizer N(M.getContext());
  YaksaModel Model;
  std::vector<Assessment> Out;
  for (const NamedType &NT : M.types()) {
    Expected<const Type *> Normal = N.normalizeChecked(NT.T, NT.Name, Partial);
    if (!Normal)
      return Normal.takeError();
    Out.push_back(assessType(M.getContext(), N, Model, Costs, NT.T, *Normal));
  }
  return Out;
}

std::string textReport(Module &M, const EngineCosts &Costs,
                       const std::vector<Assessment> &All) {
  std::ostringstream OS;
  bool First = true;
  for (size_t I = 0; I < M.types().size(); ++I) {
    const NamedType &N = M.types()[I];
    const Assessment &A = All[I];
    TypeMetrics X = measureType(N.T);
    TypeMetrics Y = measureType(A.Normal);
    std::string Desc = shorten(printType(N.T, &M));
    if (!First)
      OS << '\n';
    First = false;
    OS << "type " << N.Name << " = " << Desc << '\n';
    auto Row = [&OS](const char *Label, const std::string &Value) {
      OS << "  " << std::left << std::setw(18) << Label << Value << '\n';
    };
    Row("size", std::to_string(X.Size));
    Row("lb", std::to_string(X.Lb));
    Row("extent", std::to_string(X.Extent));
    Row("true lb", std::to_string(X.TrueLb));
    Row("true extent", std::to_string(X.TrueExtent));
    Row("typemap entries", std::to_string(X.Elements));
    Row("blocks", std::to_string(X.Blocks));
    Row("block length", "min " + std::to_string(X.MinBlock) + ", mean " +
                            formatMean(X.MeanBlock) + ", max " +
                            std::to_string(X.MaxBlock) + " bytes");
    Row("depth", std::to_string(X.Depth));
    Row("cost", std::to_string(X.Cost));
    Row("pieces", std::to_string(X.Pieces));
    Row("normal form", shorten(A.NormalText));
    Row("normal cost", std::to_string(Y.Cost));
    Row("normal pieces", std::to_string(Y.Pieces));
    Row("normal depth", std::to_string(Y.Depth));
    Row("MPI-facing form", A.MPIForm + " (for " + Costs.Engine + ")");
    Row("engine path",
        A.GivenPath +
            (A.MPIForm == "given" ? std::string() : " -> " + A.FormPath));
    Row("risks", A.Risks.empty() ? "none" : std::to_string(A.Risks.size()));
    for (const Risk &R : A.Risks)
      OS << "    [" << R.Id << "] " << R.Message << "\n      -> "
         << shorten(R.Suggestion) << '\n';
  }
  return OS.str();
}

std::string jsonReport(Module &M, const std::string &Path,
                       const EngineCosts &Costs,
                       const std::vector<Assessment> &All) {
  using Json = nlohmann::ordered_json;
  Json Types = Json::array();
  for (size_t I = 0; I < M.types().size(); ++I) {
    const NamedType &N = M.types()[I];
    const Assessment &A = All[I];
    TypeMetrics X = measureType(N.T);
    TypeMetrics Y = measureType(A.Normal);
    Json T;
    T["name"] = N.Name;
    T["kind"] = std::string(getKindName(N.T->getKind()));
    T["size"] = X.Size;
    T["lb"] = X.Lb;
    T["extent"] = X.Extent;
    T["true_lb"] = X.TrueLb;
    T["true_extent"] = X.TrueExtent;
    T["typemap_entries"] = X.Elements;
    T["blocks"] = X.Blocks;
    T["block_length"] = {
        {"min", X.MinBlock}, {"mean", X.MeanBlock}, {"max", X.MaxBlock}};
    T["depth"] = X.Depth;
    T["cost"] = X.Cost;
    T["pieces"] = X.Pieces;
    T["normal_form"] = {{"text", A.NormalText},
                        {"json", Json::parse(writeTypeReference(A.Normal))},
                        {"cost", Y.Cost},
                        {"pieces", Y.Pieces},
                        {"depth", Y.Depth}};
    T["mpi_form"] = {{"engine", Costs.Engine},
                     {"origin", A.MPIForm},
                     {"given_path", A.GivenPath},
                     {"form_path", A.FormPath}};
    Json Risks = Json::array();
    for (const Risk &R : A.Risks)
      Risks.push_back(
          {{"id", R.Id}, {"message", R.Message}, {"suggestion", R.Suggestion}});
    T["risks"] = std::move(Risks);
    Types.push_back(std::move(T));
  }
  Json Report;
  Report["ddtc_report"] = 1;
  Report["file"] = Path;
  Report["types"] = std::move(Types);
  return Report.dump(2) + "\n";
}

} // namespace

int runAnalyze(const AnalyzeOptions &Options) {
  TypeContext Ctx;
  Module M(Ctx);
  if (!readInput(Options.InputPath, M))
    return ExitBadInput;
  Expected<EngineCosts> Costs = findEngineCosts(Options.Engine);
  if (!Costs) {
    reportError(Costs.takeError().message());
    return ExitBadInput;
  }
  std::vector<PassManager::PartialCheck> Partial;
  Expected<std::vector<Assessment>> All = assess(M, *Costs, Partial);
  if (!All) {
    reportError(Options.InputPath + ": " + All.takeError().message());
    return ExitBadInput;
  }
  notePartiallyVerified(Partial);
  std::string Report = Options.Format == ReportFormat::Json
                           ? jsonReport(M, Options.InputPath, *Costs, *All)
                           : textReport(M, *Costs, *All);
  std::fwrite(Report.data(), 1, Report.size(), stdout);
  return ExitSuccess;
}

} // namespace ddtc

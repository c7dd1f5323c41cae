//===- tools/ddtc/AnalyzeCommand.cpp - `ddtc analyze` ---------------------===//
//
// Reads a description, verifies it, and reports for every named type its
// metrics, its normal form (cost and copy pieces as given and normalized)
// and the risks found, as text for people or as JSON for scripts. The
// whole report is built before anything is printed, so bad input produces
// no partial output. With --measure, the forms of every type that has a
// GL4 risk are timed with the installed MPI library (MeasureCommand.cpp),
// and the GL4 advice follows the measurement where it contradicts the
// model.
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
#include "ddtc/Target/MPICHRules.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <sstream>

namespace ddtc {

namespace {

/// A measured gain below this is a loss (the timing noise of a median of
/// rounds is a few per cent), and one above that is a gain worth a rewrite
/// (the margin the model's choice asks for, MPIForm.h).
constexpr double MeasuredSlower = 0.95, MeasuredFaster = 1.3;

/// MPI_Pack of one type's forms, measured (--measure).
struct MeasuredForms {
  struct Point {
    uint64_t Count;
    double GivenNs, FormNs, NormalNs; ///< 0: that form is the given one
  };
  std::vector<Point> Points;
  std::string Skipped; ///< why it was not measured, if it was not
};

/// The measured gains as text: "1.62x at 1 instance, 1.75x at 63".
std::string gains(const MeasuredForms &F, double MeasuredForms::Point::*Form) {
  std::string Out;
  for (const MeasuredForms::Point &P : F.Points) {
    char Buf[96];
    std::snprintf(Buf, sizeof Buf, "%s%.2fx at %llu instance%s",
                  Out.empty() ? "" : ", ", P.GivenNs / (P.*Form),
                  static_cast<unsigned long long>(P.Count),
                  P.Count == 1 ? "" : "s");
    Out += Buf;
  }
  return Out;
}

double worstGain(const MeasuredForms &F, double MeasuredForms::Point::*Form) {
  double Worst = INFINITY;
  for (const MeasuredForms::Point &P : F.Points)
    Worst = std::min(Worst, P.GivenNs / (P.*Form));
  return Worst;
}

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
    Expected<MPIFormOptions> Uses = formOptionsForUses(NT);
    if (!Uses)
      return Uses.takeError();
    Out.push_back(
        assessType(M.getContext(), N, Model, Costs, NT.T, *Normal, *Uses));
  }
  return Out;
}

std::string textReport(Module &M, const EngineCosts &Costs,
                       const std::vector<Assessment> &All,
                       const std::vector<MeasuredForms> &Measured,
                       const std::string &Library) {
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
    if (!A.SendsOnlyOrigin.empty()) {
      char Gain[32];
      std::snprintf(Gain, sizeof Gain, "%.1fx", A.SendsOnlyGain);
      Row("form for sends", A.SendsOnlyOrigin + ", sends modelled " + Gain +
                                " faster (for a program that only sends it "
                                "point to point: analyze its trace, or "
                                "rewrite --uses)");
    }
    const MeasuredForms &F = Measured[I];
    if (!F.Skipped.empty())
      Row("measured", "not measured: " + F.Skipped);
    else if (!F.Points.empty())
      Row("measured",
          "MPI_Pack with " + Library + ": " +
              (A.Form != N.T ? A.MPIForm + " form " +
                                   gains(F, &MeasuredForms::Point::FormNs)
                             : "normal form " +
                                   gains(F, &MeasuredForms::Point::NormalNs)));
    Row("layout key", A.LayoutKey.empty() ? A.NoLayoutKey : A.LayoutKey);
    Row("risks", A.Risks.empty() ? "none" : std::to_string(A.Risks.size()));
    for (const Risk &R : A.Risks)
      OS << "    [" << R.Id << "] " << R.Message << "\n      -> "
         << shorten(R.Suggestion) << '\n';
  }
  return OS.str();
}

std::string jsonReport(Module &M, const std::string &Path,
                       const EngineCosts &Costs,
                       const std::vector<Assessment> &All,
                       const std::vector<MeasuredForms> &Measured,
                       const std::string &Library) {
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
    if (!A.SendsOnlyOrigin.empty())
      T["mpi_form"]["sends_only"] = {{"origin", A.SendsOnlyOrigin},
                                     {"modelled_send_gain", A.SendsOnlyGain}};
    const MeasuredForms &F = Measured[I];
    if (!F.Skipped.empty()) {
      T["mpi_form"]["measured"] = {{"library", Library},
                                   {"skipped", F.Skipped}};
    } else if (!F.Points.empty()) {
      Json Points = Json::array();
      for (const MeasuredForms::Point &P : F.Points)
        Points.push_back({{"count", P.Count},
                          {"given_ns", P.GivenNs},
                          {"form_ns", P.FormNs},
                          {"normal_ns", P.NormalNs}});
      T["mpi_form"]["measured"] = {{"library", Library},
                                   {"pack", std::move(Points)}};
    }
    Json Risks = Json::array();
    for (const Risk &R : A.Risks)
      Risks.push_back(
          {{"id", R.Id}, {"message", R.Message}, {"suggestion", R.Suggestion}});
    T["risks"] = std::move(Risks);
    T["layout_key"] = A.LayoutKey.empty() ? Json(nullptr) : Json(A.LayoutKey);
    Types.push_back(std::move(T));
  }
  Json Report;
  Report["ddtc_report"] = 1;
  Report["file"] = Path;
  Report["types"] = std::move(Types);
  return Report.dump(2) + "\n";
}

/// Times the forms of every type with a GL4 risk: the type as given, its
/// MPI-facing form and its normal form, where they differ.
Expected<std::vector<MeasuredForms>>
measureForms(Module &M, const std::vector<Assessment> &All,
             const std::string &Argv0, std::string &Library) {
  std::vector<MeasuredForms> Out(All.size());
  Module ToTime(M.getContext());
  auto Key = [](size_t I, const char *Form) {
    std::string K = "t";
    K += std::to_string(I);
    K += '_';
    K += Form;
    return K;
  };
  // Types with another form than the given one, timed unless its choice
  // was for sends alone.
  auto HasOther = [&](size_t I) {
    const Type *Given = M.types()[I].T;
    return All[I].Form != Given || All[I].Normal != Given;
  };
  auto Timed = [&](size_t I) { return HasOther(I) && !All[I].SendsOnly; };
  for (size_t I = 0; I < All.size(); ++I) {
    const Type *Given = M.types()[I].T;
    const Assessment &A = All[I];
    if (A.SendsOnly && HasOther(I))
      Out[I].Skipped = "the program only sends it point to point, and "
                       "--measure times MPI_Pack "
                       "(bench/forms/mpi-forms-sends.sh times sends)";
    if (!Timed(I))
      continue;
    ToTime.types().push_back({Key(I, "given"), Given, {}});
    if (A.Form != Given)
      ToTime.types().push_back({Key(I, "form"), A.Form, {}});
    if (A.Normal != Given && A.Normal != A.Form)
      ToTime.types().push_back({Key(I, "normal"), A.Normal, {}});
  }
  if (ToTime.types().empty())
    return Out;
  Expected<PackMeasurements> R = measurePacks(ToTime, Argv0);
  if (!R)
    return R.takeError();
  Library = R->Library;
  for (size_t I = 0; I < All.size(); ++I) {
    const Type *Given = M.types()[I].T;
    const Assessment &A = All[I];
    if (!Timed(I))
      continue;
    MeasuredForms &F = Out[I];
    for (const char *Form : {"given", "form", "normal"})
      if (auto S = R->Skipped.find(Key(I, Form)); S != R->Skipped.end())
        F.Skipped = S->second;
    auto G = R->Ns.find(Key(I, "given"));
    if (!F.Skipped.empty() || G == R->Ns.end())
      continue;
    for (const auto &Entry : G->second) {
      // Named copies: a lambda may not capture structured bindings before
      // C++20, which clang implements from version 16.
      uint64_t Count = Entry.first;
      double GivenNs = Entry.second;
      auto At = [&](const char *Form, const Type *T) {
        if (T == Given)
          return GivenNs;
        auto It = R->Ns.find(Key(I, Form));
        if (It == R->Ns.end() || !It->second.count(Count))
          return 0.0;
        return It->second.at(Count);
      };
      double FormNs = At("form", A.Form);
      double NormalNs = A.Normal == A.Form ? FormNs : At("normal", A.Normal);
      if (GivenNs > 0 && FormNs > 0 && NormalNs > 0)
        F.Points.push_back({Count, GivenNs, FormNs, NormalNs});
    }
  }
  return Out;
}

/// The GL4 risk of a type, brought in line with what was measured: a
/// rewrite measured slower than the given type is withdrawn, a normal form
/// measured clearly faster is advised though the model did not rank it so.
void applyMeasurement(const Type *Given, Assessment &A, const MeasuredForms &F,
                      const std::string &Library) {
  auto GL4 = std::find_if(A.Risks.begin(), A.Risks.end(),
                          [](const Risk &R) { return R.Id == "GL4"; });
  if (GL4 == A.Risks.end())
    return;
  if (!F.Skipped.empty()) {
    GL4->Message += "; not measured: " + F.Skipped;
    return;
  }
  if (F.Points.empty())
    return;
  using P = MeasuredForms::Point;
  if (A.Form != Given) {
    GL4->Message += "; measured with " + Library + ": " + gains(F, &P::FormNs);
    if (worstGain(F, &P::FormNs) < MeasuredSlower)
      GL4->Suggestion = "keep it: measured with " + Library + ", the " +
                        A.MPIForm +
                        " form packs slower than the type as "
                        "given (the model is wrong for this type)";
    return;
  }
  if (A.Normal == Given)
    return;
  GL4->Message += "; measured with " + Library +
                  ", the normal form: " + gains(F, &P::NormalNs);
  if (worstGain(F, &P::NormalNs) >= MeasuredFaster)
    GL4->Suggestion = "describe it as its normal form (measured faster with " +
                      Library +
                      ", though modelled below 1.3x): " + A.NormalText;
}

} // namespace

int runAnalyze(const AnalyzeOptions &Options) {
  TypeContext Ctx(getMPICHRules());
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
  std::vector<MeasuredForms> Measured(All->size());
  std::string Library;
  if (Options.Measure) {
    Expected<std::vector<MeasuredForms>> R =
        measureForms(M, *All, Options.Argv0, Library);
    if (!R) {
      reportError(Options.InputPath + ": " + R.takeError().message());
      return ExitBadInput;
    }
    Measured = std::move(*R);
    for (size_t I = 0; I < All->size(); ++I)
      applyMeasurement(M.types()[I].T, (*All)[I], Measured[I], Library);
  }
  std::string Report =
      Options.Format == ReportFormat::Json
          ? jsonReport(M, Options.InputPath, *Costs, *All, Measured, Library)
          : textReport(M, *Costs, *All, Measured, Library);
  std::fwrite(Report.data(), 1, Report.size(), stdout);
  return ExitSuccess;
}

} // namespace ddtc

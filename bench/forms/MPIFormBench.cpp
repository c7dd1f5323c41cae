//===- bench/forms/MPIFormBench.cpp - Given, normal and MPI-facing forms --===//
//
// For every named type of the description files given (and --random N
// random types): MPI_Pack of the type as described, of ddtc's normal form,
// and of its MPI-facing form (MPIForm.h, with the shipped or --engine cost
// table), at two message sizes -- one instance, and about 1 MiB (the
// model's two counts). The forms of one type are timed one after another
// in each run (PackTimer.h: median of batches), --runs times; the result
// is the median over runs of t(given)/t(form). Prints a table and writes
// JSON (--json) for bench/forms/mpi-forms-plot.py. Run by
// bench/forms/mpi-forms.sh; docs/mpi-forms.md has the figures.
//
//===----------------------------------------------------------------------===//
#include "ddtc/Engine/MPIForm.h"
#include "ddtc/IR/Module.h"
#include "ddtc/IR/TextForm.h"
#include "ddtc/IR/TypeContext.h"
#include "ddtc/MPI/MPISupport.h"
#include "ddtc/MPI/PackTimer.h"
#include "ddtc/MPI/TypeBuilder.h"
#include "ddtc/Passes/Normalizer.h"
#include "ddtc/Reader/ReadFile.h"
#include "ddtc/Support/UsageStatus.h"
#include "ddtc/Target/MPICHRules.h"
#include "ddtc/Testing/RandomType.h"

#include <CLI/CLI.hpp>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <vector>

using namespace ddtc;

namespace {

struct Case {
  std::string Set, Name;
  const Type *Given, *Normal;
  MPIForm Form;
};

struct Row {
  const Case *C;
  int Count;
  /// Median over runs of t(given)/t(normal) and t(given)/t(MPI-facing).
  double NormalRatio, FormRatio, GivenNs;
};

double median(std::vector<double> V) {
  std::sort(V.begin(), V.end());
  return V.empty() ? 0 : V[V.size() / 2];
}

struct Options {
  std::vector<std::string> Files;
  unsigned Random = 0;
  uint64_t Seed = 1;
  unsigned Runs = 5;
  std::string Json, Engine = "mpich";
};

std::string jsonString(const std::string &S) {
  std::string Out = "\"";
  for (char C : S) {
    if (C == '"' || C == '\\')
      Out += '\\';
    if (static_cast<unsigned char>(C) >= 0x20)
      Out += C;
  }
  return Out + "\"";
}

int run(const Options &O, const std::vector<MPI_Datatype> &Predefined) {
  Expected<EngineCosts> Costs = findEngineCosts(O.Engine);
  if (!Costs) {
    std::fprintf(stderr, "ddtc-mpiform-bench: %s\n",
                 Costs.takeError().message().c_str());
    return 1;
  }
  TypeContext Ctx(getMPICHRules());
  Normalizer Norm(Ctx);
  YaksaModel Model;
  std::vector<Case> Cases;
  auto AddCase = [&](std::string Set, std::string Name, const Type *T) {
    if (T->size() == 0 || mayCrashYaksaPack(T))
      return;
    Case C{std::move(Set), std::move(Name), T, Norm.normalize(T), {}};
    C.Form = chooseMPIForm(T, getFormCandidates(Ctx, Norm, T), Model, *Costs);
    Cases.push_back(std::move(C));
  };
  std::vector<std::unique_ptr<Module>> Modules;
  for (const std::string &File : O.Files) {
    Modules.push_back(std::make_unique<Module>(Ctx));
    if (Error E = readAnyDescriptionFile(File, *Modules.back())) {
      std::fprintf(stderr, "ddtc-mpiform-bench: %s\n", E.message().c_str());
      return 1;
    }
    std::string Set = File.substr(File.find_last_of('/') + 1);
    for (const NamedType &N : Modules.back()->types())
      AddCase(Set, N.Name, N.T);
  }
  std::mt19937_64 Rng(O.Seed);
  RandomTypeOptions RO;
  RO.AllowZero = false;
  RO.MaxCount = 6;
  RO.MaxBlockLength = 6;
  for (unsigned I = 0; I < O.Random; ++I)
    AddCase("random", "random" + std::to_string(I), randomType(Ctx, Rng, RO));

  PackTimerOptions Timer;
  std::vector<Row> Rows;
  for (size_t I = 0; I < Cases.size(); ++I) {
    const Case &C = Cases[I];
    std::fprintf(stderr, "\rddtc-mpiform-bench: type %zu/%zu", I + 1,
                 Cases.size());
    std::string Err;
    std::vector<Handle> Handles;
    for (const Type *T : {C.Given, C.Normal, C.Form.Chosen.T}) {
      MpiBuilder Builder(Predefined);
      std::optional<Handle> H = Builder.build(T, Err);
      if (!H) {
        std::fprintf(stderr, "\nddtc-mpiform-bench: %s: %s\n", C.Name.c_str(),
                     Err.c_str());
        return 1;
      }
      MPI_Datatype D = H->get();
      MPI_Type_commit(&D);
      Handles.push_back(std::move(*H));
    }
    int Large = int(std::max<int64_t>(1, (1 << 20) / C.Given->size()));
    for (int Count : {1, Large}) {
      if (Count == 1 && Large == 1 && !Rows.empty() && Rows.back().C == &C)
        continue;
      std::vector<double> Normal, Form, Given;
      for (unsigned R = 0; R < O.Runs; ++R) {
        double T[3];
        for (int K = 0; K < 3; ++K) {
          // The chosen form is the given one: the same handle is timed.
          if (K == 2 && C.Form.isGiven()) {
            T[2] = T[0];
            continue;
          }
          std::optional<PackTimes> P =
              timePackUnpack(Handles[size_t(K)].get(), Count, Timer, Err);
          if (!P) {
            std::fprintf(stderr, "\nddtc-mpiform-bench: %s: %s\n",
                         C.Name.c_str(), Err.c_str());
            return 1;
          }
          T[K] = P->PackSeconds;
        }
        Given.push_back(T[0] * 1e9);
        Normal.push_back(T[0] / T[1]);
        Form.push_back(T[0] / T[2]);
      }
      Rows.push_back({&C, Count, median(Normal), median(Form), median(Given)});
    }
  }
  std::fprintf(stderr, "\n");

  std::printf("| set | type | count | given ns | normal / given | MPI-facing "
              "/ given | MPI-facing form | modelled pack gain (worst) |\n"
              "|---|---|--:|--:|--:|--:|---|--:|\n");
  for (const Row &R : Rows)
    std::printf("| %s | %s | %d | %.0f | %.2f | %.2f | %s | %.2f (%.2f) |\n",
                R.C->Set.c_str(), R.C->Name.c_str(), R.Count, R.GivenNs,
                R.NormalRatio, R.FormRatio, R.C->Form.Chosen.Origin,
                R.C->Form.PackGain, R.C->Form.WorstGain);

  if (!O.Json.empty()) {
    std::ofstream Out(O.Json);
    Out << "{\"engine\": " << jsonString(Costs->Engine)
        << ", \"runs\": " << O.Runs << ", \"rows\": [\n";
    for (size_t I = 0; I < Rows.size(); ++I) {
      const Row &R = Rows[I];
      Out << "  {\"set\": " << jsonString(R.C->Set)
          << ", \"type\": " << jsonString(R.C->Name)
          << ", \"count\": " << R.Count << ", \"given_ns\": " << R.GivenNs
          << ", \"normal_speedup\": " << R.NormalRatio
          << ", \"form_speedup\": " << R.FormRatio
          << ", \"form\": " << jsonString(R.C->Form.Chosen.Origin)
          << ", \"modelled_gain\": "
          << (R.C->Form.FormPackNs > 0
                  ? R.C->Form.GivenPackNs / R.C->Form.FormPackNs
                  : 1.0)
          << ", \"given_text\": " << jsonString(printType(R.C->Given))
          << ", \"form_text\": " << jsonString(printType(R.C->Form.Chosen.T))
          << "}" << (I + 1 < Rows.size() ? "," : "") << "\n";
    }
    Out << "]}\n";
    if (!Out.flush()) {
      std::fprintf(stderr, "ddtc-mpiform-bench: %s: cannot write\n",
                   O.Json.c_str());
      return 1;
    }
  }
  return 0;
}

} // namespace

int main(int Argc, char **Argv) {
  Options O;
  CLI::App App{"ddtc-mpiform-bench: MPI_Pack of each type as given, in normal "
               "form and in its MPI-facing form (docs/mpi-forms.md)",
               "ddtc-mpiform-bench"};
  App.add_option("file", O.Files, "description files");
  App.add_option("--random", O.Random, "random types to add");
  App.add_option("--seed", O.Seed, "their seed");
  App.add_option("--runs", O.Runs, "runs, the median taken")
      ->check(CLI::Range(1u, 1000000u));
  App.add_option("--engine", O.Engine,
                 "the engine model: mpich or a cost table of ddtc calibrate");
  App.add_option("--json", O.Json, "write the results as JSON to this file");
  try {
    App.parse(Argc, Argv);
  } catch (const CLI::ParseError &E) {
    return usageStatus(App, E);
  }
  return runWithMpi(Argc, Argv, "ddtc-mpiform-bench",
                    [&](const std::vector<MPI_Datatype> &Predefined) {
                      return run(O, Predefined);
                    });
}

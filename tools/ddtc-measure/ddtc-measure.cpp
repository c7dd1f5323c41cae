//===- tools/ddtc-measure/ddtc-measure.cpp - MPI_Pack times of types ------===//
//
// `ddtc analyze --measure` runs this MPI program (one process) on a
// description file of the forms it wants timed: every named type is packed
// with MPI_Pack of the MPI library this program runs with, one instance and
// about 1 MiB (the engine model's two message sizes, MPIForm.h). All types
// are timed in rounds, one batch each per round (PackTimer.h), and the
// median over rounds is printed: forms of one type compared this way see
// the same machine, where timing each type apart would put some in a slow
// spell of the VM and others not (docs/mpi-forms.md).
//
// Output, one line each, for a program to read:
//   library <MPI library version>
//   time <name> <count> <nanoseconds>
//   skip <name> <reason>
//
//===----------------------------------------------------------------------===//
#include "ddtc/IR/Module.h"
#include "ddtc/IR/TypeContext.h"
#include "ddtc/MPI/MPISupport.h"
#include "ddtc/MPI/PackTimer.h"
#include "ddtc/MPI/TypeBuilder.h"
#include "ddtc/Reader/ReadFile.h"
#include "ddtc/Support/UsageStatus.h"
#include "ddtc/Target/MPICHRules.h"

#include <CLI/CLI.hpp>
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace ddtc;

namespace {

/// One message to time: a committed type and its count.
struct Probe {
  std::string Name;
  const Handle *H;
  int Count;
};

int run(const std::string &File, unsigned Rounds,
        const std::vector<MPI_Datatype> &Predefined) {
  TypeContext Ctx(getMPICHRules());
  Module M(Ctx);
  if (Error E = readAnyDescriptionFile(File, M)) {
    std::fprintf(stderr, "ddtc-measure: %s\n", E.message().c_str());
    return 1;
  }
  std::printf("library %s\n", mpiLibraryVersion().c_str());
  std::vector<Handle> Handles;
  Handles.reserve(M.types().size());
  std::vector<Probe> Probes;
  for (const NamedType &N : M.types()) {
    const Type *T = N.T;
    if (T->size() == 0) {
      std::printf("skip %s no data to pack\n", N.Name.c_str());
      continue;
    }
    if (mayCrashYaksaPack(T)) {
      std::printf("skip %s MPICH 4.0.2 may crash packing it (a struct member "
                  "of size 0)\n",
                  N.Name.c_str());
      continue;
    }
    std::string Err;
    MpiBuilder Builder(Predefined);
    std::optional<Handle> H = Builder.build(T, Err);
    if (!H) {
      std::printf("skip %s %s\n", N.Name.c_str(), Err.c_str());
      continue;
    }
    MPI_Datatype D = H->get();
    MPI_Type_commit(&D);
    Handles.push_back(std::move(*H));
    int Large = int(std::clamp<int64_t>((int64_t(1) << 20) / T->size(), 1,
                                        int64_t(1) << 30));
    Probes.push_back({N.Name, &Handles.back(), 1});
    if (Large > 1)
      Probes.push_back({N.Name, &Handles.back(), Large});
  }
  std::vector<PackMessage> Messages;
  for (const Probe &P : Probes)
    Messages.push_back({P.H->get(), P.Count});
  size_t Failed = 0;
  std::string Err;
  std::optional<std::vector<double>> Ns = timePackInRounds(
      Messages, Rounds, "ddtc-measure", "messages", Failed, Err);
  if (!Ns) {
    std::fprintf(stderr, "ddtc-measure: %s: %s\n", Probes[Failed].Name.c_str(),
                 Err.c_str());
    return 1;
  }
  for (size_t I = 0; I < Probes.size(); ++I)
    std::printf("time %s %d %.1f\n", Probes[I].Name.c_str(), Probes[I].Count,
                (*Ns)[I]);
  return 0;
}

} // namespace

int main(int Argc, char **Argv) {
  std::string File;
  unsigned Rounds = 15;
  CLI::App App{"ddtc-measure: MPI_Pack times of the forms of each type of a "
               "file written by `ddtc analyze --measure` (one process)",
               "ddtc-measure"};
  App.add_option("file", File, "the measurement file")->required();
  App.add_option("--rounds", Rounds, "rounds, the median taken (default 15)")
      ->check(CLI::Range(1u, 1000000u));
  try {
    App.parse(Argc, Argv);
  } catch (const CLI::ParseError &E) {
    return usageStatus(App, E);
  }
  return runWithMpi(Argc, Argv, "ddtc-measure",
                    [&](const std::vector<MPI_Datatype> &Predefined) {
                      return run(File, Rounds, Predefined);
                    });
}

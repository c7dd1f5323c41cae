//===- tools/ddtc/PrintCommand.cpp - `ddtc print` -------------------------===//
//
// Converts between the two spellings of a description: format v1 (JSON) and
// the textual IR (.ddt files). Reading either, it prints either, and checks
// on the way that the textual form round-trips: parsing the printed text
// must give back the very same nodes.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include "ddtc/Format/DescriptionWriter.h"
#include "ddtc/IR/TextForm.h"
#include "ddtc/IR/TypeContext.h"
#include "ddtc/Target/MPICHRules.h"

#include <cstdio>

namespace ddtc {

int runPrint(const PrintOptions &Options) {
  TypeContext Ctx(getMPICHRules());
  Module M(Ctx);
  if (!readInput(Options.InputPath, M))
    return ExitBadInput;

  std::string Text = printModule(M);
  Module Reparsed(Ctx);
  Error E = parseModule(Text, Reparsed);
  bool Same = !E && Reparsed.types().size() == M.types().size();
  for (size_t I = 0; Same && I < M.types().size(); ++I)
    Same = Reparsed.types()[I].T == M.types()[I].T &&
           Reparsed.types()[I].Name == M.types()[I].Name;
  if (!Same || printModule(Reparsed) != Text) {
    reportError(Options.InputPath + ": the textual form does not round-trip" +
                (E ? ": " + E.message() : std::string()));
    return ExitBadInput;
  }

  std::string Out =
      Options.Format == ReportFormat::Json ? writeDescription(M) : Text;
  std::fwrite(Out.data(), 1, Out.size(), stdout);
  return ExitSuccess;
}

} // namespace ddtc

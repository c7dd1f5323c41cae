//===- test/Fuzz/FuzzFormatReader.cpp - Fuzzing format v1 -----------------===//
//
// Any bytes given to the format v1 reader end in a diagnostic or in a module
// that verifies and that the writer prints back into the same types.
//
//===----------------------------------------------------------------------===//
#include "ddtc/Format/DescriptionWriter.h"
#include "ddtc/Frontend/JSONReader.h"
#include "ddtc/IR/Module.h"
#include "ddtc/IR/TypeContext.h"
#include "ddtc/IR/Verifier.h"

#include <cstdio>
#include <cstdlib>
#include <string_view>

using namespace ddtc;

static void fail(const char *What, const std::string &Detail) {
  std::fprintf(stderr, "fuzz-format-reader: %s: %s\n", What, Detail.c_str());
  std::abort();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  TypeContext Ctx;
  Module M(Ctx);
  std::string_view Text(reinterpret_cast<const char *>(Data), Size);
  if (Error E = readDescription(Text, M)) {
    if (E.message().empty())
      fail("a rejection without a message", "");
    return 0;
  }
  if (Error E = verifyModule(M))
    fail("the module read does not verify", E.message());
  // Written and read again: the same (uniqued) types, in the same order.
  std::string Written = writeDescription(M);
  Module Again(Ctx);
  if (Error E = readDescription(Written, Again))
    fail("what the writer wrote is rejected", E.message() + "\n" + Written);
  if (Again.types().size() != M.types().size())
    fail("a different number of types after writing", Written);
  for (size_t I = 0; I < M.types().size(); ++I)
    if (Again.types()[I].T != M.types()[I].T ||
        Again.types()[I].Name != M.types()[I].Name)
      fail("a different type after writing", M.types()[I].Name);
  return 0;
}

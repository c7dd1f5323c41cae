//===- test/Fuzz/FuzzTextParser.cpp - Fuzzing the textual IR --------------===//
//
// Any bytes given to the parser of the textual IR (.ddt) end in a
// diagnostic or in a module that verifies and prints back into the same
// types.
//
//===----------------------------------------------------------------------===//
#include "ddtc/IR/Module.h"
#include "ddtc/IR/TypeContext.h"
#include "ddtc/IR/TextForm.h"
#include "ddtc/IR/Verifier.h"

#include <cstdio>
#include <cstdlib>
#include <string_view>

using namespace ddtc;

static void fail(const char *What, const std::string &Detail) {
  std::fprintf(stderr, "fuzz-text-parser: %s: %s\n", What, Detail.c_str());
  std::abort();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  TypeContext Ctx;
  Module M(Ctx);
  std::string_view Text(reinterpret_cast<const char *>(Data), Size);
  if (Error E = parseModule(Text, M)) {
    if (E.message().empty())
      fail("a rejection without a message", "");
    return 0;
  }
  if (Error E = verifyModule(M))
    fail("the module parsed does not verify", E.message());
  std::string Printed = printModule(M);
  Module Again(Ctx);
  if (Error E = parseModule(Printed, Again))
    fail("what the printer printed is rejected", E.message() + "\n" + Printed);
  if (Again.types().size() != M.types().size())
    fail("a different number of types after printing", Printed);
  for (size_t I = 0; I < M.types().size(); ++I)
    if (Again.types()[I].T != M.types()[I].T)
      fail("a different type after printing", M.types()[I].Name);
  return 0;
}

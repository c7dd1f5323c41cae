//===- test/Fuzz/FuzzTextParser.cpp - Fuzzing the textual IR --------------===//
//
// Any bytes given to the parser of the textual IR (.ddt) end in a
// diagnostic or in a module that verifies and prints back into the same
// types.
//
//===----------------------------------------------------------------------===//
#include "RoundTrip.h"

#include "ddtc/IR/TextForm.h"

using namespace ddtc;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  fuzz::checkRoundTrip(
      "fuzz-text-parser",
      std::string_view(reinterpret_cast<const char *>(Data), Size),
      [](std::string_view Text, Module &M) { return parseModule(Text, M); },
      [](const Module &M) { return printModule(M); });
  return 0;
}

//===- test/Fuzz/FuzzFormatReader.cpp - Fuzzing format v1 -----------------===//
//
// Any bytes given to the format v1 reader end in a diagnostic or in a module
// that verifies and that the writer writes back into the same types.
//
//===----------------------------------------------------------------------===//
#include "RoundTrip.h"

#include "ddtc/Format/DescriptionWriter.h"
#include "ddtc/Reader/FormatReader.h"

using namespace ddtc;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  fuzz::checkRoundTrip(
      "fuzz-format-reader",
      std::string_view(reinterpret_cast<const char *>(Data), Size),
      [](std::string_view Text, Module &M) { return readDescription(Text, M); },
      [](const Module &M) { return writeDescription(M); });
  return 0;
}

//===- tools/ddtc/CommandSupport.cpp - What every command shares ----------===//
//
// Built into the driver and into the source front-end module alike
// (SourceModule.h), so that both report in the same words.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include "ddtc/Reader/ReadFile.h"

#include <cstdio>

namespace ddtc {

void reportError(const std::string &Message) {
  std::fprintf(stderr, "error: %s\n", Message.c_str());
}

bool readInput(const std::string &Path, Module &M) {
  if (Error E = readAnyDescriptionFile(Path, M)) {
    reportError(E.message());
    return false;
  }
  return true;
}

void notePartiallyVerified(
    const std::vector<PassManager::PartialCheck> &Partial) {
  for (const PassManager::PartialCheck &C : Partial)
    std::fprintf(stderr,
                 "note: type '%s': typemap too long to verify run by run; "
                 "its first %llu runs were compared, the rest by size, "
                 "bounds and contiguous blocks\n",
                 C.Name.c_str(), (unsigned long long)C.Runs);
}

} // namespace ddtc

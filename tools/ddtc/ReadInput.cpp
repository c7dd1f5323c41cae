//===- tools/ddtc/ReadInput.cpp - Reading any description -----------------===//
//
// Every command reads format v1; for tests and experiments the commands
// also read the textual IR, recognized by the ".ddt" extension. What is read
// is verified before any command works on it.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include "ddtc/Frontend/JSONReader.h"
#include "ddtc/IR/TextForm.h"
#include "ddtc/IR/Verifier.h"

#include <fstream>
#include <sstream>

namespace ddtc {

namespace {

Error parseInput(const std::string &Path, Module &M) {
  const std::string Suffix = ".ddt";
  bool Text = Path.size() >= Suffix.size() &&
              Path.compare(Path.size() - Suffix.size(), Suffix.size(), Suffix) == 0;
  if (!Text)
    return readDescriptionFile(Path, M);
  std::ifstream In(Path);
  if (!In)
    return makeError(Path + ": cannot open");
  std::stringstream Buffer;
  Buffer << In.rdbuf();
  if (Error E = parseModule(Buffer.str(), M))
    return std::move(E.addContext(Path));
  return Error::success();
}

} // namespace

Error readInput(const std::string &Path, Module &M) {
  if (Error E = parseInput(Path, M))
    return E;
  if (Error E = verifyModule(M))
    return std::move(E.addContext(Path));
  return Error::success();
}

} // namespace ddtc

//===- test/Fuzz/RoundTrip.h - Reader fuzz targets' one check ---*- C++ -*-===//
//
// What both readers promise for any bytes: a diagnostic with a message, or
// a module that verifies and that its writer turns back into the same
// (uniqued) types, with the same names, in the same order.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_TEST_FUZZ_ROUNDTRIP_H
#define DDTC_TEST_FUZZ_ROUNDTRIP_H

#include "ddtc/IR/Module.h"
#include "ddtc/IR/TypeContext.h"
#include "ddtc/IR/Verifier.h"
#include "ddtc/Target/MPICHRules.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace ddtc::fuzz {

[[noreturn]] inline void fail(const char *Target, const char *What,
                              const std::string &Detail) {
  std::fprintf(stderr, "%s: %s: %s\n", Target, What, Detail.c_str());
  std::abort();
}

/// Read(Text, Module) -> Error and Write(Module) -> std::string.
template <typename ReadFn, typename WriteFn>
void checkRoundTrip(const char *Target, std::string_view Text, ReadFn Read,
                    WriteFn Write) {
  TypeContext Ctx(getMPICHRules());
  Module M(Ctx);
  if (Error E = Read(Text, M)) {
    if (E.message().empty())
      fail(Target, "a rejection without a message", "");
    return;
  }
  if (Error E = verifyModule(M))
    fail(Target, "the module read does not verify", E.message());
  std::string Written = Write(M);
  Module Again(Ctx);
  if (Error E = Read(Written, Again))
    fail(Target, "what the writer wrote is rejected",
         E.message() + "\n" + Written);
  if (Again.types().size() != M.types().size())
    fail(Target, "a different number of types after writing", Written);
  for (size_t I = 0; I < M.types().size(); ++I)
    if (Again.types()[I].T != M.types()[I].T ||
        Again.types()[I].Name != M.types()[I].Name)
      fail(Target, "a different type after writing", M.types()[I].Name);
}

} // namespace ddtc::fuzz

#endif // DDTC_TEST_FUZZ_ROUNDTRIP_H

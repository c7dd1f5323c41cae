//===- ddtc/Passes/Pass.h - Passes over a module of types -------*- C++ -*-===//
//
// A pass rewrites the named types of a module into equivalent types (same
// typemap, lb and extent). Passes are thin: the work is in small static
// functions; a pass reports whether it changed anything.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_PASSES_PASS_H
#define DDTC_PASSES_PASS_H

#include "ddtc/IR/Module.h"

#include <string_view>

namespace ddtc {

class Pass {
public:
  virtual ~Pass() = default;
  /// The name the registry and `--passes` use (kebab-case).
  virtual std::string_view getName() const = 0;
  /// Rewrites M's named types; returns true if any changed.
  virtual bool run(Module &M) = 0;
};

/// Replaces every named type T of M by Rewrite(T); true if any changed.
template <class F> bool rewriteTypes(Module &M, F &&Rewrite) {
  bool Changed = false;
  for (NamedType &N : M.types()) {
    const Type *New = Rewrite(N.T);
    Changed |= New != N.T;
    N.T = New;
  }
  return Changed;
}

} // namespace ddtc

#endif // DDTC_PASSES_PASS_H

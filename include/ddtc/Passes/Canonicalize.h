//===- ddtc/Passes/Canonicalize.h - Local rewrites to a fixpoint -*- C++ -*-===//
//
// Canonicalization applies named rewrite patterns (the union of what MPICH,
// Yaksa, Open MPI, TEMPI and libpack do at commit time) bottom-up until
// none applies. Every pattern proposes a replacement for one node whose
// operands are already canonical; the driver takes the proposal first in
// the total order on descriptions (Type::precedes: the cost model, then
// kind rank, arguments, operands) if it keeps lb and extent (the typemap
// is kept by construction) and comes before the node. Each step goes
// strictly down that order, so rewriting cannot cycle; an iteration cap
// guards it anyway.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_PASSES_CANONICALIZE_H
#define DDTC_PASSES_CANONICALIZE_H

#include "ddtc/IR/TypeContext.h"
#include "ddtc/Passes/Pass.h"

#include <memory>
#include <span>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace ddtc {

/// A named local rewrite: returns an equivalent replacement of T, or null.
struct RewritePattern {
  std::string_view Name;
  const Type *(*Rewrite)(TypeContext &Ctx, const Type *T);
};

std::span<const RewritePattern> getCanonicalizationPatterns();

/// Canonicalizes types of one context, memoizing results.
class Canonicalizer {
public:
  explicit Canonicalizer(TypeContext &Ctx) : Ctx(Ctx) {}
  const Type *canonicalize(const Type *T);
  /// Pattern applications so far, by pattern name (for tests and stats).
  const std::unordered_map<std::string_view, unsigned> &getStats() const {
    return Stats;
  }

private:
  const Type *rewriteRoot(const Type *T);

  TypeContext &Ctx;
  std::unordered_map<const Type *, const Type *> Memo;
  std::unordered_set<const Type *> InProgress;
  std::unordered_map<std::string_view, unsigned> Stats;
};

std::unique_ptr<Pass> createCanonicalizePass();

} // namespace ddtc

#endif // DDTC_PASSES_CANONICALIZE_H

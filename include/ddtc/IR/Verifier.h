//===- ddtc/IR/Verifier.h - IR invariant checks -----------------*- C++ -*-===//
//
// Checks the invariants listed in lib/IR/Verifier.cpp on every node
// reachable from a type or a module. Run after reading and, in later
// stages, after every pass; a failure is a bug in ddtc, reported as an
// Error naming the node.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_IR_VERIFIER_H
#define DDTC_IR_VERIFIER_H

#include "ddtc/IR/LibraryRules.h"
#include "ddtc/IR/Module.h"
#include "ddtc/Support/Error.h"

namespace ddtc {

/// T and the nodes below it, whose layouts must be those Rules give (the
/// rules of their TypeContext).
Error verifyType(const Type *T, const LibraryRules &Rules);
/// Every type of M, with the rules of M's context.
Error verifyModule(const Module &M);

} // namespace ddtc

#endif // DDTC_IR_VERIFIER_H

//===- ddtc/IR/TextForm.h - Textual form of types and modules ---*- C++ -*-===//
//
// A compact, exact textual form of the IR, for tests and diagnostics:
//
//   type tile = resized(lb=0, extent=24, oldtype=contiguous(count=4,
//   oldtype=MPI_INT)) type halo = vector(count=99, blocklength=1, stride=2,
//   oldtype=tile)
//
// Each constructor lists its arguments in format v1 order as name=value;
// lists are [a, b], enumerations are bare words (C, Fortran, block, cyclic,
// none, default), a type argument is a predefined name, an earlier named
// type or a nested constructor. printModule and parseModule round-trip: the
// parsed module has the same nodes, and printing it again gives the same
// text.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_IR_TEXTFORM_H
#define DDTC_IR_TEXTFORM_H

#include "ddtc/IR/Module.h"
#include "ddtc/Support/Error.h"

#include <string>
#include <string_view>

namespace ddtc {

/// The expression of T. With a module, operands that are named types of M
/// are printed by name.
std::string printType(const Type *T, const Module *M = nullptr);

/// One `type NAME = EXPR` line per named type.
std::string printModule(const Module &M);

/// Parses the textual form into M (which must be empty). Lines starting with
/// ';' and blank lines are ignored.
Error parseModule(std::string_view Text, Module &M);

} // namespace ddtc

#endif // DDTC_IR_TEXTFORM_H

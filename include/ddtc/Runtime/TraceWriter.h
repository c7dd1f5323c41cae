//===- ddtc/Runtime/TraceWriter.h - Format v1 without a JSON library -*- C++ -*-===//
//
// Writes a Module as a format v1 description file, as the Frontend's
// writeDescription does, for the runtime libraries, which may not link
// nlohmann-json: the same field order (driven by the kind field table),
// the same one-type-per-line layout, and an operand equal to an earlier
// named type written as a reference to it. The `x-` fields of the module
// and of each named type are JSON text already and are copied verbatim.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_RUNTIME_TRACEWRITER_H
#define DDTC_RUNTIME_TRACEWRITER_H

#include "ddtc/IR/Module.h"

#include <string>

namespace ddtc {

/// The text of M as a format v1 file. Extras whose value is not valid JSON
/// make an invalid file: callers build them with jsonQuote
/// (RuntimeSupport.h) and integers.
std::string writeTraceDescription(const Module &M);

} // namespace ddtc

#endif // DDTC_RUNTIME_TRACEWRITER_H

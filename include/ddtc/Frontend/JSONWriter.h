//===- ddtc/Frontend/JSONWriter.h - Writing format v1 -----------*- C++ -*-===//
//
// Writes a Module as a format v1 description file, one type per line. A
// child equal to an earlier named type is written as a reference to it.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_FRONTEND_JSONWRITER_H
#define DDTC_FRONTEND_JSONWRITER_H

#include "ddtc/IR/Module.h"

#include <string>

namespace ddtc {

std::string writeDescription(const Module &M);

/// T as a format v1 type reference: a predefined type's name or an inline
/// type object (JSON text, one line).
std::string writeTypeReference(const Type *T);

} // namespace ddtc

#endif // DDTC_FRONTEND_JSONWRITER_H

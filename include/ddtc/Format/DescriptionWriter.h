//===- ddtc/Format/DescriptionWriter.h - Writing format v1 ------*- C++ -*-===//
//
// Writes a Module as a format v1 description file (docs/format.md), one
// named type per line, the fields in format order (from the kind field
// table); an operand equal to an earlier named type is written as a
// reference to it. The `x-` fields of the module and of each named type
// are JSON text already and are copied verbatim. Needs no JSON library:
// the tool and the trace library (lib/Runtime) write with it alike.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_FORMAT_DESCRIPTIONWRITER_H
#define DDTC_FORMAT_DESCRIPTIONWRITER_H

#include "ddtc/IR/Module.h"

#include <string>
#include <string_view>

namespace ddtc {

/// The text of M as a format v1 file. Extras whose value is not valid
/// JSON make an invalid file: build them with jsonQuote and integers.
std::string writeDescription(const Module &M);

/// T as a format v1 type reference: a predefined type's name or an inline
/// type object (JSON text, one line).
std::string writeTypeReference(const Type *T);

/// S as a JSON string literal, quotes included. Bytes that are not valid
/// UTF-8 become U+FFFD, so that a file stays readable by strict parsers
/// whatever the names and paths in it contain.
std::string jsonQuote(std::string_view S);

} // namespace ddtc

#endif // DDTC_FORMAT_DESCRIPTIONWRITER_H

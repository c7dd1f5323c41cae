//===- ddtc/Reader/FormatReader.h - Reading format v1 -----------*- C++ -*-===//
//
// Reads the text of a datatype description (format v1, docs/format.md)
// into a Module. Any problem is an Error whose message names the type and
// the field ("type 'halo': field 'stride': expected an integer"); the
// caller prefixes the file name. Files are read by ddtc/Reader/ReadFile.h.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_READER_FORMATREADER_H
#define DDTC_READER_FORMATREADER_H

#include "ddtc/IR/Module.h"
#include "ddtc/Support/Error.h"

#include <string_view>

namespace ddtc {

/// Parses the text of a format v1 file into M (which must be empty).
Error readDescription(std::string_view Text, Module &M);

} // namespace ddtc

#endif // DDTC_READER_FORMATREADER_H

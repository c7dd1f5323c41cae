//===- ddtc/Frontend/JSONReader.h - Reading format v1 -----------*- C++ -*-===//
//
// Reads a datatype description file (format v1, docs/format.md) into a
// Module. Any problem is an Error whose message names the type and the
// field ("type 'halo': field 'stride': expected an integer"); the caller
// prefixes the file name.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_FRONTEND_JSONREADER_H
#define DDTC_FRONTEND_JSONREADER_H

#include "ddtc/IR/Module.h"
#include "ddtc/Support/Error.h"

#include <string>
#include <string_view>

namespace ddtc {

/// Parses the text of a description file into M (which must be empty).
Error readDescription(std::string_view Text, Module &M);

/// Reads the file at Path; the error message starts with the path.
Error readDescriptionFile(const std::string &Path, Module &M);

/// Reads the file at Path as format v1, or as the textual IR when the name
/// ends in ".ddt" (what tests and `--random` printouts use), and verifies
/// the result. The error message starts with the path.
Error readAnyDescriptionFile(const std::string &Path, Module &M);

} // namespace ddtc

#endif // DDTC_FRONTEND_JSONREADER_H

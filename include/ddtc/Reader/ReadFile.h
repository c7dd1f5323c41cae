//===- ddtc/Reader/ReadFile.h - Reading description files -------*- C++ -*-===//
//
// The files every ddtc program reads: format v1 (docs/format.md) and the
// textual IR (`.ddt`, what tests and `--random` printouts use). Both are
// refused above the input limit before they are read (docs/testing.md,
// "Limits"), and every message starts with the path.
//
// The choice by file name is here, not in each tool, because the driver,
// ddtc-bench, the oracles and the benchmarks all accept both forms.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_READER_READFILE_H
#define DDTC_READER_READFILE_H

#include "ddtc/IR/Module.h"
#include "ddtc/Support/Error.h"

#include <string>

namespace ddtc {

/// Reads the format v1 file at Path into M (which must be empty).
Error readDescriptionFile(const std::string &Path, Module &M);

/// Reads the file at Path as the textual IR when its name ends in ".ddt",
/// as format v1 otherwise, and verifies the result.
Error readAnyDescriptionFile(const std::string &Path, Module &M);

} // namespace ddtc

#endif // DDTC_READER_READFILE_H

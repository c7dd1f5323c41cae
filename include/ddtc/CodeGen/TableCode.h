//===- ddtc/CodeGen/TableCode.h - Index tables as text ----------*- C++ -*-===//
//
// Long index tables of the emitted pack code are not brace lists of
// integers, which compilers parse slowly (g++ -O2 took minutes on the
// tables of a large trace), but string literals of a compact code that the
// emitted prelude's decodeTable (lib/CodeGen/EmittedPrelude.cpp) turns into
// a static array on first use (docs/emit.md, "Index tables"). This is the
// encoder; the prelude documents the code.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_CODEGEN_TABLECODE_H
#define DDTC_CODEGEN_TABLECODE_H

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace ddtc {

/// The longest chunk encodeTable makes by default: below the 65,536
/// characters C++ compilers must accept in one literal (clang's
/// -Woverlength-strings), with room for the longest number.
constexpr size_t TableChunkChars = 65000;

/// Values in the table code, split into chunks of at most MaxChunk
/// characters (at least 13, the longest number), each ending between two
/// numbers. Values are taken modulo 2^64: a table of unsigned entries
/// decodes to the same bits. The chunks hold only the characters
/// ./0-9A-Za-z.
std::vector<std::string> encodeTable(std::span<const int64_t> Values,
                                     size_t MaxChunk = TableChunkChars);

} // namespace ddtc

#endif // DDTC_CODEGEN_TABLECODE_H

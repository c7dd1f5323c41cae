//===- ddtc/CodeGen/CodeWriter.h - Indenting text emitter -------*- C++ -*-===//
//
// The code generators are printers over this small emitter: it keeps the
// indentation, so that generated files read like hand-written ones, and
// formats integers as C/C++ literals of the right type.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_CODEGEN_CODEWRITER_H
#define DDTC_CODEGEN_CODEWRITER_H

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace ddtc {

class CodeWriter {
public:
  /// Writes one line at the current indentation (an empty line unindented).
  CodeWriter &line(std::string_view Text = {});
  /// Writes Text (ending in "{") and indents what follows.
  CodeWriter &open(std::string_view Text);
  /// Unindents and writes Text ("}" by default).
  CodeWriter &close(std::string_view Text = "}");
  /// Writes Text one level out and stays indented: the "} else {" of a
  /// block, or what separates two lambdas in one call.
  CodeWriter &middle(std::string_view Text);

  const std::string &str() const { return Out; }

private:
  std::string Out;
  unsigned Depth = 0;
};

/// V as a C/C++ integer literal of a 64-bit-capable type (INT64_MIN, which
/// has no literal, as an expression).
/// The frame of a C header usable from C and C++: the include guard, one
/// #include and extern "C". The declarations go between the two calls.
void openCHeader(CodeWriter &W, const std::string &Guard,
                 std::string_view Include);
void closeCHeader(CodeWriter &W, const std::string &Guard);

std::string intLiteral(int64_t V);

/// "{a, b, c}", wrapped every 16 values.
std::string initializerList(std::span<const int64_t> Values);

} // namespace ddtc

#endif // DDTC_CODEGEN_CODEWRITER_H

//===- lib/CodeGen/CodeWriter.cpp - Indenting text emitter ----------------===//
#include "ddtc/CodeGen/CodeWriter.h"

#include <cassert>

namespace ddtc {

CodeWriter &CodeWriter::line(std::string_view Text) {
  if (!Text.empty())
    Out.append(2 * Depth, ' ');
  Out += Text;
  Out += '\n';
  return *this;
}

CodeWriter &CodeWriter::open(std::string_view Text) {
  line(Text);
  ++Depth;
  return *this;
}

CodeWriter &CodeWriter::close(std::string_view Text) {
  assert(Depth > 0 && "unbalanced close");
  --Depth;
  return line(Text);
}

CodeWriter &CodeWriter::middle(std::string_view Text) {
  close(Text);
  ++Depth;
  return *this;
}

void openCHeader(CodeWriter &W, const std::string &Guard,
                 std::string_view Include) {
  W.line("#ifndef " + Guard);
  W.line("#define " + Guard);
  W.line();
  W.line("#include " + std::string(Include));
  W.line();
  W.line("#ifdef __cplusplus");
  W.line("extern \"C\" {");
  W.line("#endif");
}

void closeCHeader(CodeWriter &W, const std::string &Guard) {
  W.line();
  W.line("#ifdef __cplusplus");
  W.line("} // extern \"C\"");
  W.line("#endif");
  W.line();
  W.line("#endif // " + Guard);
}

std::string intLiteral(int64_t V) {
  if (V == INT64_MIN)
    return "(-9223372036854775807L - 1)";
  // Literals that do not fit an int get their type from the value (long on
  // LP64) in C99 and C++11; the suffix says so to the reader.
  std::string S = std::to_string(V);
  if (V > INT32_MAX || V < INT32_MIN)
    S += 'L';
  return S;
}

std::string initializerList(std::span<const int64_t> Values) {
  std::string S = "{";
  for (size_t I = 0; I < Values.size(); ++I) {
    if (I)
      S += I % 16 == 0 ? ",\n    " : ", ";
    S += intLiteral(Values[I]);
  }
  return S + "}";
}

} // namespace ddtc

//===- lib/IR/TextParser.cpp - Parsing the textual form -------------------===//
//
// A recursive-descent parser mirroring the printer: the field table says
// which arguments each constructor takes and in which order.
//
//===----------------------------------------------------------------------===//
#include "ddtc/IR/TextForm.h"
#include "ddtc/IR/TypeContext.h"

#include <cctype>
#include <charconv>

namespace ddtc {

namespace {

class Parser {
public:
  Parser(std::string_view Text, Module &M)
      : Text(Text), M(M), Ctx(M.getContext()) {}

  Error parse() {
    skipSpace();
    while (Pos < Text.size()) {
      if (Error E = parseDefinition())
        return E;
      skipSpace();
    }
    return Error::success();
  }

private:
  Error parseDefinition() {
    if (word() != "type")
      return error("expected 'type'");
    skipSpace();
    std::string_view Name = word();
    if (Name.empty())
      return error("expected a type name");
    if (Name.size() > MaxNameLength)
      return error("type name longer than " + std::to_string(MaxNameLength) +
                   " characters");
    if (M.lookup(Name) || lookupPredefined(Name))
      return error("type '" + std::string(Name) + "' is already defined");
    if (Error E = expect('='))
      return E;
    Expected<const Type *> T = parseType(0);
    if (!T)
      return T.takeError().addContext("type '" + std::string(Name) + "'");
    NamedType N;
    N.Name = std::string(Name);
    N.T = *T;
    M.types().push_back(std::move(N));
    return Error::success();
  }

  Expected<const Type *> parseType(unsigned Depth) {
    if (Depth > MaxTypeDepth)
      return error("types nested too deeply");
    skipSpace();
    std::string_view Name = word();
    if (Name.empty())
      return error("expected a type");
    if (std::optional<PredefinedId> Id = lookupPredefined(Name))
      return static_cast<const Type *>(Ctx.getPredefined(*Id));
    std::optional<TypeKind> Kind = lookupKind(Name);
    skipSpace();
    if (!Kind || Kind == TypeKind::Predefined || peek() != '(') {
      if (const NamedType *N = M.lookup(Name))
        return N->T;
      return error("unknown type '" + std::string(Name) + "'");
    }
    if (Error E = expect('('))
      return E;

    const KindSpec &Spec = getKindSpec(*Kind);
    std::vector<int64_t> Scalars(Spec.NumScalars);
    std::vector<std::vector<int64_t>> Lists(Spec.NumLists);
    std::vector<const Type *> Operands;
    bool First = true;
    for (const FieldSpec &F : Spec.Fields) {
      if (!First)
        if (Error E = expect(','))
          return E;
      First = false;
      skipSpace();
      size_t FieldStart = Pos;
      if (word() != F.Name) {
        Pos = FieldStart;
        return error("expected field '" + std::string(F.Name) + "'");
      }
      if (Error E = expect('='))
        return E;
      switch (F.Shape) {
      case FieldShape::Scalar: {
        Expected<int64_t> V = parseValue(F.Value);
        if (!V)
          return V.takeError();
        Scalars[F.Index] = *V;
        break;
      }
      case FieldShape::List:
      case FieldShape::TypeList: {
        if (Error E = expect('['))
          return E;
        skipSpace();
        size_t Entries = 0;
        while (peek() != ']') {
          if (Entries)
            if (Error E = expect(','))
              return E;
          if (++Entries > MaxListLength)
            return error("field '" + std::string(F.Name) + "' has more than " +
                         std::to_string(MaxListLength) + " entries");
          if (F.Shape == FieldShape::List) {
            Expected<int64_t> V = parseValue(F.Value);
            if (!V)
              return V.takeError();
            Lists[F.Index].push_back(*V);
          } else {
            Expected<const Type *> T = parseType(Depth + 1);
            if (!T)
              return T;
            Operands.push_back(*T);
          }
          skipSpace();
          if (Pos >= Text.size())
            return error("expected ']'");
        }
        ++Pos;
        break;
      }
      case FieldShape::Type: {
        Expected<const Type *> T = parseType(Depth + 1);
        if (!T)
          return T;
        Operands.push_back(*T);
        break;
      }
      }
    }
    if (Error E = expect(')'))
      return E;
    size_t N = Spec.NumLists ? Lists[0].size() : 0;
    for (const std::vector<int64_t> &L : Lists)
      if (L.size() != N)
        return error("argument lists have different lengths");
    std::vector<int64_t> Ints = std::move(Scalars);
    for (const std::vector<int64_t> &L : Lists)
      Ints.insert(Ints.end(), L.begin(), L.end());
    return Ctx.get(*Kind, std::move(Ints), std::move(Operands));
  }

  Expected<int64_t> parseValue(FieldValue V) {
    skipSpace();
    if (Pos < Text.size() &&
        (Text[Pos] == '-' ||
         std::isdigit(static_cast<unsigned char>(Text[Pos])))) {
      int64_t X;
      auto [End, Ec] =
          std::from_chars(Text.data() + Pos, Text.data() + Text.size(), X);
      if (Ec != std::errc())
        return error("expected a 64-bit integer");
      Pos = End - Text.data();
      return X;
    }
    if (std::optional<int64_t> X = lookupValueWord(V, word()))
      return *X;
    return error("expected a value");
  }

  std::string_view word() {
    size_t Start = Pos;
    while (Pos < Text.size() &&
           (std::isalnum(static_cast<unsigned char>(Text[Pos])) ||
            Text[Pos] == '_'))
      ++Pos;
    return Text.substr(Start, Pos - Start);
  }

  char peek() const { return Pos < Text.size() ? Text[Pos] : '\0'; }

  Error expect(char C) {
    skipSpace();
    if (peek() != C)
      return error(std::string("expected '") + C + "'");
    ++Pos;
    return Error::success();
  }

  void skipSpace() {
    while (Pos < Text.size()) {
      if (Text[Pos] == ';') {
        while (Pos < Text.size() && Text[Pos] != '\n')
          ++Pos;
      } else if (std::isspace(static_cast<unsigned char>(Text[Pos]))) {
        ++Pos;
      } else {
        break;
      }
    }
  }

  Error error(const std::string &Message) const {
    size_t Line = 1, Column = 1;
    for (size_t I = 0; I < Pos && I < Text.size(); ++I) {
      if (Text[I] == '\n') {
        ++Line;
        Column = 1;
      } else {
        ++Column;
      }
    }
    return makeError("line " + std::to_string(Line) + ", column " +
                     std::to_string(Column) + ": " + Message);
  }

  std::string_view Text;
  size_t Pos = 0;
  Module &M;
  TypeContext &Ctx;
};

} // namespace

Error parseModule(std::string_view Text, Module &M) {
  return Parser(Text, M).parse();
}

} // namespace ddtc

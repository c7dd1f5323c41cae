//===- lib/Format/DescriptionWriter.cpp - Writing format v1 ---------------===//
//
// JSON is written as text, without a JSON library, so that the runtime
// libraries (which may not link one) write traces with the writer the tool
// uses. Every field comes from getKindSpec, so a kind added to the IR is
// written here without a change. The output is compact JSON, one named
// type per line.
//
//===----------------------------------------------------------------------===//
#include "ddtc/Format/DescriptionWriter.h"

#include <cstdio>
#include <unordered_map>

namespace ddtc {

namespace {

/// Length of the valid UTF-8 sequence at S[I] (1 to 4), or 0 when the bytes
/// there are not one (overlong forms and surrogates included).
size_t utf8Length(std::string_view S, size_t I) {
  auto Byte = [&](size_t K) { return static_cast<unsigned char>(S[K]); };
  unsigned char B = Byte(I);
  size_t N;
  uint32_t Min, Cp;
  if (B < 0x80)
    return 1;
  if ((B & 0xE0) == 0xC0) {
    N = 2, Min = 0x80, Cp = B & 0x1F;
  } else if ((B & 0xF0) == 0xE0) {
    N = 3, Min = 0x800, Cp = B & 0x0F;
  } else if ((B & 0xF8) == 0xF0) {
    N = 4, Min = 0x10000, Cp = B & 0x07;
  } else {
    return 0;
  }
  if (I + N > S.size())
    return 0;
  for (size_t K = 1; K < N; ++K) {
    if ((Byte(I + K) & 0xC0) != 0x80)
      return 0;
    Cp = (Cp << 6) | (Byte(I + K) & 0x3F);
  }
  if (Cp < Min || Cp > 0x10FFFF || (Cp >= 0xD800 && Cp <= 0xDFFF))
    return 0;
  return N;
}

class Writer {
public:
  void typeRef(const Type *T, std::string &Out) const {
    if (auto *P = dyn_cast<PredefinedType>(T)) {
      Out += jsonQuote(P->getName());
      return;
    }
    if (auto It = Names.find(T); It != Names.end()) {
      Out += jsonQuote(It->second);
      return;
    }
    Out += '{';
    fields(T, Out);
    Out += '}';
  }

  /// The fields of T's object after an opening brace: "kind" and the
  /// constructor arguments in format v1 order.
  void fields(const Type *T, std::string &Out) const {
    Out += "\"kind\":";
    Out += jsonQuote(getKindName(T->getKind()));
    for (const FieldSpec &F : getKindSpec(T->getKind()).Fields) {
      Out += ',';
      Out += jsonQuote(F.Name);
      Out += ':';
      switch (F.Shape) {
      case FieldShape::Scalar:
        value(F.Value, T->getScalar(F.Index), Out);
        break;
      case FieldShape::List: {
        Out += '[';
        bool First = true;
        for (int64_t V : T->getList(F.Index)) {
          if (!First)
            Out += ',';
          First = false;
          value(F.Value, V, Out);
        }
        Out += ']';
        break;
      }
      case FieldShape::Type:
        typeRef(T->getOldType(), Out);
        break;
      case FieldShape::TypeList: {
        Out += '[';
        bool First = true;
        for (const Type *Op : T->getOperands()) {
          if (!First)
            Out += ',';
          First = false;
          typeRef(Op, Out);
        }
        Out += ']';
        break;
      }
      }
    }
  }

  void addName(const Type *T, const std::string &Name) {
    Names.try_emplace(T, Name);
  }

private:
  static void value(FieldValue V, int64_t X, std::string &Out) {
    std::string_view Word = getValueWord(V, X);
    if (Word.empty())
      Out += std::to_string(X);
    else
      Out += jsonQuote(Word);
  }

  std::unordered_map<const Type *, std::string> Names;
};

void addExtras(const std::vector<ExtraField> &Extras, std::string &Out) {
  for (const ExtraField &X : Extras) {
    Out += ',';
    Out += jsonQuote(X.first);
    Out += ':';
    Out += X.second;
  }
}

} // namespace

std::string jsonQuote(std::string_view S) {
  std::string Out;
  Out.reserve(S.size() + 2);
  Out += '"';
  for (size_t I = 0; I < S.size();) {
    unsigned char C = static_cast<unsigned char>(S[I]);
    if (C >= 0x80) {
      size_t N = utf8Length(S, I);
      if (N == 0) {
        Out += "\\ufffd";
        ++I;
      } else {
        Out.append(S.substr(I, N));
        I += N;
      }
      continue;
    }
    switch (C) {
    case '"':
      Out += "\\\"";
      break;
    case '\\':
      Out += "\\\\";
      break;
    case '\b':
      Out += "\\b";
      break;
    case '\f':
      Out += "\\f";
      break;
    case '\n':
      Out += "\\n";
      break;
    case '\r':
      Out += "\\r";
      break;
    case '\t':
      Out += "\\t";
      break;
    default:
      if (C < 0x20) {
        char Buf[8];
        std::snprintf(Buf, sizeof(Buf), "\\u%04x", C);
        Out += Buf;
      } else {
        Out += static_cast<char>(C);
      }
    }
    ++I;
  }
  Out += '"';
  return Out;
}

std::string writeTypeReference(const Type *T) {
  std::string Out;
  Writer().typeRef(T, Out);
  return Out;
}

std::string writeDescription(const Module &M) {
  Writer W;
  std::string Out = "{\n  \"ddtc\": 1,\n";
  for (const ExtraField &X : M.extras())
    Out += "  " + jsonQuote(X.first) + ": " + X.second + ",\n";
  Out += "  \"types\": [";
  bool First = true;
  for (const NamedType &N : M.types()) {
    Out += First ? "\n    " : ",\n    ";
    First = false;
    Out += "{\"name\":";
    Out += jsonQuote(N.Name);
    Out += ',';
    // Format v1 has no alias form: a named type that is a predefined type
    // (what contiguous(1, MPI_INT) normalizes to) is written as its dup.
    if (isa<PredefinedType>(N.T)) {
      Out += "\"kind\":\"dup\",\"oldtype\":";
      W.typeRef(N.T, Out);
    } else {
      W.fields(N.T, Out);
    }
    addExtras(N.Extras, Out);
    Out += '}';
    W.addName(N.T, N.Name);
  }
  Out += First ? "]\n}\n" : "\n  ]\n}\n";
  return Out;
}

} // namespace ddtc

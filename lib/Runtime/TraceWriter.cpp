//===- lib/Runtime/TraceWriter.cpp - Format v1 without a JSON library -----===//
//
// The shape of lib/Frontend/JSONWriter.cpp with strings instead of JSON
// values: every field comes from getKindSpec, so a kind added to the IR
// is written here without a change. The output is compact JSON, one named
// type per line, which `ddtc` reads like any description file.
//
//===----------------------------------------------------------------------===//
#include "ddtc/Runtime/TraceWriter.h"

#include "ddtc/Runtime/RuntimeSupport.h"

#include <unordered_map>

namespace ddtc {

namespace {

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

std::string writeTraceDescription(const Module &M) {
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
    // is written as its dup, as writeDescription does.
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

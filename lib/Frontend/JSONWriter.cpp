//===- lib/Frontend/JSONWriter.cpp - Writing format v1 --------------------===//
//
// Builds each named type as an ordered JSON object (fields in format v1
// order, `x-` fields after them) and writes one type per line, the layout
// of the bundled corpus, which keeps long displacement lists readable and
// diffs small.
//
//===----------------------------------------------------------------------===//
#include "ddtc/Frontend/JSONWriter.h"

#include <nlohmann/json.hpp>

#include <unordered_map>

namespace ddtc {

using Json = nlohmann::ordered_json;

namespace {

class Writer {
public:
  Json typeRef(const Type *T) {
    if (auto *P = dyn_cast<PredefinedType>(T))
      return std::string(P->getName());
    if (auto It = Names.find(T); It != Names.end())
      return It->second;
    return typeObject(T);
  }

  Json typeObject(const Type *T) {
    Json J = Json::object();
    J["kind"] = std::string(getKindName(T->getKind()));
    const KindSpec &Spec = getKindSpec(T->getKind());
    for (const FieldSpec &F : Spec.Fields) {
      std::string Name(F.Name);
      switch (F.Shape) {
      case FieldShape::Scalar:
        J[Name] = value(F.Value, T->getScalar(F.Index));
        break;
      case FieldShape::List: {
        Json L = Json::array();
        for (int64_t V : T->getList(F.Index))
          L.push_back(value(F.Value, V));
        J[Name] = std::move(L);
        break;
      }
      case FieldShape::Type:
        J[Name] = typeRef(T->getOldType());
        break;
      case FieldShape::TypeList: {
        Json L = Json::array();
        for (const Type *Op : T->getOperands())
          L.push_back(typeRef(Op));
        J[Name] = std::move(L);
        break;
      }
      }
    }
    return J;
  }

  void addName(const Type *T, const std::string &Name) {
    Names.try_emplace(T, Name);
  }

private:
  static Json value(FieldValue V, int64_t X) {
    std::string_view Word = getValueWord(V, X);
    return Word.empty() ? Json(X) : Json(std::string(Word));
  }

  std::unordered_map<const Type *, std::string> Names;
};

void addExtras(Json &J, const std::vector<ExtraField> &Extras) {
  for (const ExtraField &X : Extras)
    J[X.first] = Json::parse(X.second);
}

} // namespace

std::string writeDescription(const Module &M) {
  Writer W;
  std::string Out = "{\n  \"ddtc\": 1,\n";
  for (const ExtraField &X : M.extras())
    Out += "  " + Json(X.first).dump() + ": " + X.second + ",\n";
  Out += "  \"types\": [";
  bool First = true;
  for (const NamedType &N : M.types()) {
    Json J = Json::object();
    J["name"] = N.Name;
    // Format v1 has no alias form: a named type that is a predefined type
    // (what contiguous(1, MPI_INT) normalizes to) is written as its dup.
    Json Body = isa<PredefinedType>(N.T)
                    ? Json{{"kind", "dup"}, {"oldtype", W.typeRef(N.T)}}
                    : W.typeObject(N.T);
    for (auto &[Key, Value] : Body.items())
      J[Key] = std::move(Value);
    addExtras(J, N.Extras);
    Out += First ? "\n    " : ",\n    ";
    First = false;
    Out += J.dump();
    W.addName(N.T, N.Name);
  }
  Out += First ? "]\n}\n" : "\n  ]\n}\n";
  return Out;
}

std::string writeTypeReference(const Type *T) {
  return Writer().typeRef(T).dump();
}

} // namespace ddtc

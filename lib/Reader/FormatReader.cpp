//===- lib/Reader/FormatReader.cpp - Reading format v1 -------------------===//
//
// Parsing is two steps: nlohmann::json turns the text into a document (its
// exceptions are caught here, at the JSON boundary, and a callback stops
// documents nested deeper than any datatype can be), then the document is
// checked field by field and turned into nodes of the TypeContext. Every
// error carries the path to the offending field.
//
//===----------------------------------------------------------------------===//
#include "ddtc/Reader/FormatReader.h"

#include "ddtc/IR/TypeContext.h"

#include <nlohmann/json.hpp>

#include <cstring>

namespace ddtc {

using Json = nlohmann::ordered_json;

namespace {

/// Nesting of JSON values beyond which a document cannot hold a valid
/// description: each type level costs at most two JSON levels (an object
/// and the `types` array of a struct), plus the top-level wrappers.
constexpr unsigned MaxJsonDepth = 2 * MaxTypeDepth + 8;

struct TooDeep {};

bool isIdentifier(std::string_view S) {
  if (S.empty() ||
      !(std::isalpha(static_cast<unsigned char>(S[0])) || S[0] == '_'))
    return false;
  for (char C : S)
    if (!(std::isalnum(static_cast<unsigned char>(C)) || C == '_'))
      return false;
  return true;
}

std::string describe(const Json &J) {
  switch (J.type()) {
  case Json::value_t::null:
    return "null";
  case Json::value_t::object:
    return "an object";
  case Json::value_t::array:
    return "an array";
  case Json::value_t::string:
    return "a string";
  case Json::value_t::boolean:
    return "a boolean";
  case Json::value_t::number_float:
    return "a floating-point number";
  case Json::value_t::number_integer:
  case Json::value_t::number_unsigned:
    return "an integer";
  default:
    return "an unsupported value";
  }
}

class Reader {
public:
  explicit Reader(Module &M) : M(M), Ctx(M.getContext()) {}

  Error readTop(const Json &Doc);

private:
  /// Reads a type reference at Path (a field path like "types[1].oldtype").
  Expected<const Type *> readTypeRef(const Json &J, const std::string &Path,
                                     unsigned Depth);
  Expected<const Type *> readTypeObject(const Json &J, const std::string &Path,
                                        unsigned Depth, bool Named);
  Expected<int64_t> readInt(const Json &J, const std::string &Path,
                            FieldValue Value);

  static Error error(const std::string &Path, const std::string &Message) {
    if (Path.empty())
      return makeError(Message);
    return makeError("field '" + Path + "': " + Message);
  }
  static Error tooDeep(const std::string &Path) {
    return error(Path, "types nested more than " +
                           std::to_string(MaxTypeDepth) + " levels deep");
  }
  static std::string join(const std::string &Path, std::string_view Field) {
    return Path.empty() ? std::string(Field) : Path + "." + std::string(Field);
  }

  Module &M;
  TypeContext &Ctx;
};

Expected<int64_t> Reader::readInt(const Json &J, const std::string &Path,
                                  FieldValue Value) {
  bool WordsOnly = Value == FieldValue::Order || Value == FieldValue::Distrib;
  if (J.is_string())
    if (std::optional<int64_t> X =
            lookupValueWord(Value, J.get_ref<const std::string &>()))
      return *X;
  if (!WordsOnly && J.is_number_unsigned()) {
    uint64_t U = J.get<uint64_t>();
    if (U > static_cast<uint64_t>(INT64_MAX))
      return error(Path,
                   "integer " + std::to_string(U) + " does not fit in 64 bits");
    return static_cast<int64_t>(U);
  }
  if (!WordsOnly && J.is_number_integer())
    return J.get<int64_t>();

  const char *Expected =
      Value == FieldValue::Order     ? "\"C\" or \"Fortran\""
      : Value == FieldValue::Distrib ? "\"block\", \"cyclic\" or \"none\""
      : Value == FieldValue::Darg    ? "an integer or \"default\""
                                     : "an integer";
  // A string in a field that takes words is quoted: it was a near miss.
  bool TakesWords = WordsOnly || Value == FieldValue::Darg;
  std::string Got = J.is_string() && TakesWords
                        ? "\"" + J.get_ref<const std::string &>() + "\""
                        : describe(J);
  return error(Path, std::string("expected ") + Expected + ", got " + Got);
}

Expected<const Type *>
Reader::readTypeRef(const Json &J, const std::string &Path, unsigned Depth) {
  if (J.is_string()) {
    const std::string &Name = J.get_ref<const std::string &>();
    if (std::optional<PredefinedId> Id = lookupPredefined(Name))
      return static_cast<const Type *>(Ctx.getPredefined(*Id));
    if (const NamedType *N = M.lookup(Name)) {
      // A chain of named types can be too deep without any deep JSON; said
      // here, the message names the field (TypeContext's would not).
      if (N->T->getLayout().Depth >= MaxTypeDepth)
        return tooDeep(Path);
      return N->T;
    }
    return error(Path, "'" + Name +
                           "' is neither a predefined type nor a type defined "
                           "earlier in the file");
  }
  if (J.is_object())
    return readTypeObject(J, Path, Depth, /*Named=*/false);
  return error(Path,
               "expected a type name or a type object, got " + describe(J));
}

Expected<const Type *> Reader::readTypeObject(const Json &J,
                                              const std::string &Path,
                                              unsigned Depth, bool Named) {
  // A constructor Depth objects below the named type makes that type at
  // least Depth + 1 levels deep: refused here, with the path, rather than
  // by TypeContext once built, without one.
  if (Depth >= MaxTypeDepth)
    return tooDeep(Path);
  auto KindIt = J.find("kind");
  if (KindIt == J.end())
    return error(join(Path, "kind"), "missing");
  if (!KindIt->is_string())
    return error(join(Path, "kind"),
                 "expected a string, got " + describe(*KindIt));
  const std::string &KindName = KindIt->get_ref<const std::string &>();
  std::optional<TypeKind> Kind = lookupKind(KindName);
  if (!Kind || *Kind == TypeKind::Predefined)
    return error(join(Path, "kind"), "unknown kind '" + KindName + "'");
  const KindSpec &Spec = getKindSpec(*Kind);

  // Unknown fields are refused, except `x-` extensions.
  for (auto It = J.begin(); It != J.end(); ++It) {
    const std::string &Key = It.key();
    if (Key == "kind" || Key.rfind("x-", 0) == 0 || (Named && Key == "name"))
      continue;
    bool Known = false;
    for (const FieldSpec &F : Spec.Fields)
      Known |= F.Name == Key;
    if (!Known)
      return error(join(Path, Key),
                   Key == "name" ? "inline types have no name"
                                 : "unknown field for kind '" + KindName + "'");
  }

  // Lists first, to learn their common length.
  std::optional<size_t> ListLength;
  std::string ListName;
  std::vector<std::vector<int64_t>> Lists(Spec.NumLists);
  std::vector<int64_t> Scalars(Spec.NumScalars);
  std::vector<const Type *> Operands;
  for (const FieldSpec &F : Spec.Fields) {
    std::string FieldPath = join(Path, F.Name);
    auto It = J.find(F.Name);
    if (It == J.end())
      return error(FieldPath, "missing");
    const Json &V = *It;
    switch (F.Shape) {
    case FieldShape::Scalar: {
      Expected<int64_t> I = readInt(V, FieldPath, F.Value);
      if (!I)
        return I.takeError();
      Scalars[F.Index] = *I;
      break;
    }
    case FieldShape::List:
    case FieldShape::TypeList: {
      if (!V.is_array())
        return error(FieldPath, "expected an array, got " + describe(V));
      if (ListLength && *ListLength != V.size())
        return error(FieldPath, "has " + std::to_string(V.size()) +
                                    " entries but '" + ListName + "' has " +
                                    std::to_string(*ListLength));
      if (V.size() > MaxListLength) // the parser kept one entry more
        return error(FieldPath, "has more than the " +
                                    std::to_string(MaxListLength) +
                                    " entries ddtc reads");
      ListLength = V.size();
      ListName = F.Name;
      for (size_t I = 0; I < V.size(); ++I) {
        std::string ElemPath = FieldPath + "[" + std::to_string(I) + "]";
        if (F.Shape == FieldShape::List) {
          Expected<int64_t> X = readInt(V[I], ElemPath, F.Value);
          if (!X)
            return X.takeError();
          Lists[F.Index].push_back(*X);
        } else {
          Expected<const Type *> T = readTypeRef(V[I], ElemPath, Depth + 1);
          if (!T)
            return T;
          Operands.push_back(*T);
        }
      }
      break;
    }
    case FieldShape::Type: {
      Expected<const Type *> T = readTypeRef(V, FieldPath, Depth + 1);
      if (!T)
        return T;
      Operands.push_back(*T);
      break;
    }
    }
  }

  std::vector<int64_t> Ints = std::move(Scalars);
  for (std::vector<int64_t> &L : Lists)
    Ints.insert(Ints.end(), L.begin(), L.end());
  Expected<const Type *> T =
      Ctx.get(*Kind, std::move(Ints), std::move(Operands));
  if (T || Path.empty())
    return T;
  // Errors of the context name fields of the inline type itself; make them
  // paths from the named type ("oldtype.count").
  std::string Msg = T.takeError().message();
  const std::string FieldPrefix = "field '";
  if (Msg.rfind(FieldPrefix, 0) == 0)
    return makeError(FieldPrefix + Path + "." + Msg.substr(FieldPrefix.size()));
  return error(Path, Msg);
}

Error Reader::readTop(const Json &Doc) {
  if (!Doc.is_object())
    return makeError("expected a JSON object at the top level, got " +
                     describe(Doc));
  for (auto It = Doc.begin(); It != Doc.end(); ++It) {
    const std::string &Key = It.key();
    if (Key == "ddtc" || Key == "types")
      continue;
    if (Key.rfind("x-", 0) == 0) {
      M.extras().emplace_back(Key, It.value().dump());
      continue;
    }
    return error(Key, "unknown top-level field");
  }
  auto Version = Doc.find("ddtc");
  if (Version == Doc.end())
    return error("ddtc", "missing (expected \"ddtc\": 1)");
  if (!Version->is_number_integer() || Version->get<int64_t>() != 1)
    return error("ddtc", "unsupported format version " + Version->dump() +
                             " (this ddtc reads version 1)");
  auto Types = Doc.find("types");
  if (Types == Doc.end())
    return error("types", "missing");
  if (!Types->is_array())
    return error("types", "expected an array, got " + describe(*Types));

  for (size_t I = 0; I < Types->size(); ++I) {
    const Json &Entry = (*Types)[I];
    std::string Where = "types[" + std::to_string(I) + "]";
    if (!Entry.is_object())
      return error(Where, "expected a type object, got " + describe(Entry));
    auto NameIt = Entry.find("name");
    if (NameIt == Entry.end())
      return error(Where + ".name", "missing");
    if (!NameIt->is_string())
      return error(Where + ".name",
                   "expected a string, got " + describe(*NameIt));
    const std::string &Name = NameIt->get_ref<const std::string &>();
    auto InType = [&Name](Error E) {
      return std::move(E.addContext("type '" + Name + "'"));
    };
    if (Name.size() > MaxNameLength)
      return error(Where + ".name", "longer than " +
                                        std::to_string(MaxNameLength) +
                                        " characters");
    if (!isIdentifier(Name))
      return InType(error("name", "'" + Name + "' is not a C identifier"));
    if (lookupPredefined(Name))
      return InType(error("name", "'" + Name + "' is a predefined type"));
    if (M.lookup(Name))
      return InType(error("name", "'" + Name + "' is defined twice"));

    Expected<const Type *> T = readTypeObject(Entry, "", 0, /*Named=*/true);
    if (!T)
      return InType(T.takeError());
    NamedType NT;
    NT.Name = Name;
    NT.T = *T;
    for (auto It = Entry.begin(); It != Entry.end(); ++It)
      if (It.key().rfind("x-", 0) == 0)
        NT.Extras.emplace_back(It.key(), It.value().dump());
    M.types().push_back(std::move(NT));
  }
  return Error::success();
}

/// Empties the document's lists and objects, innermost first. nlohmann's
/// destructor moves every element of a list onto a stack of its own (so
/// that deep documents are destroyed without recursion): for a list of
/// 10^7 numbers a copy of 160 MB, a fifth of reading it. The document is
/// at most MaxJsonDepth deep, and the driver runs on a large stack.
void releaseDocument(Json &J) {
  if (J.is_array()) {
    for (Json &X : J)
      if (X.is_structured())
        releaseDocument(X);
    J.get_ref<Json::array_t &>().clear();
  } else if (J.is_object()) {
    for (auto &Member : J.get_ref<Json::object_t &>())
      if (Member.second.is_structured())
        releaseDocument(Member.second);
    J.get_ref<Json::object_t &>().clear();
  }
}

} // namespace

Error readDescription(std::string_view Text, Module &M) {
  Json Doc;
  try {
    // The callback sees every value with its nesting depth; throwing from
    // it stops the parser before a hostile document exhausts memory. An
    // array keeps at most one entry more than any list ddtc reads (the
    // reader then reports it too long), so that a file of a single long
    // array costs the memory of that many entries, not of the whole file
    // (a DOM entry takes 16 bytes for the 2 of "0,").
    std::vector<std::pair<bool, size_t>> Open; // (is an array, entries kept)
    Json::parser_callback_t Guard = [&Open](int Depth,
                                            Json::parse_event_t Event, Json &) {
      using E = Json::parse_event_t;
      if (Depth > static_cast<int>(MaxJsonDepth))
        throw TooDeep();
      bool IsEntry = Event == E::value || Event == E::object_start ||
                     Event == E::array_start;
      if (IsEntry && !Open.empty() && Open.back().first &&
          ++Open.back().second > MaxListLength + 1)
        return false; // dropped; a container's own events stop too
      if (Event == E::object_start || Event == E::array_start)
        Open.emplace_back(Event == E::array_start, 0);
      else if (Event == E::object_end || Event == E::array_end)
        Open.pop_back();
      return true;
    };
    Doc = Json::parse(Text.begin(), Text.end(), Guard);
  } catch (const TooDeep &) {
    return makeError("JSON nested more than " + std::to_string(MaxJsonDepth) +
                     " levels deep; types nest at most " +
                     std::to_string(MaxTypeDepth) + " levels");
  } catch (const Json::parse_error &E) {
    std::string What = E.what();
    // "[json.exception.parse_error.101] parse error at line 1, column 2: ..."
    auto Pos = What.find("parse error");
    return makeError("malformed JSON: " +
                     (Pos == std::string::npos ? What : What.substr(Pos)));
  } catch (const Json::exception &E) {
    return makeError(std::string("malformed JSON: ") + E.what());
  }
  Error E = Reader(M).readTop(Doc);
  releaseDocument(Doc);
  return E;
}

} // namespace ddtc

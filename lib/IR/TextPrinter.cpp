//===- lib/IR/TextPrinter.cpp - Printing the textual form -----------------===//
//
// A generic printer driven by the field table: every kind prints the same
// way, so there is no per-kind code to keep in sync with the parser.
//
//===----------------------------------------------------------------------===//
#include "ddtc/IR/TextForm.h"

#include <unordered_map>

namespace ddtc {

namespace {

class Printer {
public:
  explicit Printer(const Module *M) {
    if (M)
      for (const NamedType &N : M->types())
        Names.try_emplace(N.T, N.Name);
  }

  /// Prints T; children that are named types print as their name.
  void print(const Type *T, std::string &Out, bool TopLevel) {
    if (auto *P = dyn_cast<PredefinedType>(T)) {
      Out += P->getName();
      return;
    }
    if (!TopLevel)
      if (auto It = Names.find(T); It != Names.end()) {
        Out += It->second;
        return;
      }
    const KindSpec &Spec = getKindSpec(T->getKind());
    Out += getKindName(T->getKind());
    Out += '(';
    bool First = true;
    for (const FieldSpec &F : Spec.Fields) {
      if (!First)
        Out += ", ";
      First = false;
      Out += F.Name;
      Out += '=';
      switch (F.Shape) {
      case FieldShape::Scalar:
        printValue(F.Value, T->getScalar(F.Index), Out);
        break;
      case FieldShape::List: {
        Out += '[';
        bool FirstElem = true;
        for (int64_t V : T->getList(F.Index)) {
          if (!FirstElem)
            Out += ", ";
          FirstElem = false;
          printValue(F.Value, V, Out);
        }
        Out += ']';
        break;
      }
      case FieldShape::Type:
        print(T->getOldType(), Out, false);
        break;
      case FieldShape::TypeList: {
        Out += '[';
        bool FirstElem = true;
        for (const Type *Op : T->getOperands()) {
          if (!FirstElem)
            Out += ", ";
          FirstElem = false;
          print(Op, Out, false);
        }
        Out += ']';
        break;
      }
      }
    }
    Out += ')';
  }

  void addName(const Type *T, const std::string &Name) {
    Names.try_emplace(T, Name);
  }

private:
  static void printValue(FieldValue V, int64_t X, std::string &Out) {
    std::string_view Word = getValueWord(V, X);
    Out += Word.empty() ? std::to_string(X) : std::string(Word);
  }

  std::unordered_map<const Type *, std::string> Names;
};

} // namespace

std::string printType(const Type *T, const Module *M) {
  std::string Out;
  Printer(M).print(T, Out, /*TopLevel=*/true);
  return Out;
}

std::string printModule(const Module &M) {
  // Names become visible in definition order, as in the file.
  Printer P(nullptr);
  std::string Out;
  for (const NamedType &N : M.types()) {
    Out += "type " + N.Name + " = ";
    P.print(N.T, Out, /*TopLevel=*/true);
    Out += '\n';
    P.addName(N.T, N.Name);
  }
  return Out;
}

} // namespace ddtc

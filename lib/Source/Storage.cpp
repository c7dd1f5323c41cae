//===- lib/Source/Storage.cpp - Variables and the places in them ----------===//
//
// Where the interpreter keeps values: a slot per variable (locals per
// frame, globals followed from their initializer only if const), the
// places an expression designates in them (an element, a member, what a
// pointer points to), reads and writes through places, the shape and
// initial value of a new object, and what a write ddtc does not follow
// makes unknown: the interpreter's memory model, which statements and
// expressions (Interpreter.cpp, Expressions.cpp) share.
//
//===----------------------------------------------------------------------===//
#include "Interpreter.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

#include <set>

namespace ddtc::source {

using namespace clang;

//===----------------------------------------------------------------------===//
// Variables and places
//===----------------------------------------------------------------------===//

Slot Interpreter::slotOf(const VarDecl *D) {
  if (D->hasLocalStorage() || D->isStaticLocal()) {
    for (auto It = Stack.rbegin(); It != Stack.rend(); ++It) {
      auto Found = It->Vars.find(D);
      if (Found != It->Vars.end())
        return Found->second;
      break; // only the innermost frame's locals are visible
    }
    Slot S = std::make_shared<Value>(Value::unknown(
        "'" + D->getNameAsString() + "' is not followed", D->getLocation()));
    if (!Stack.empty())
      Stack.back().Vars[D] = S;
    return S;
  }
  auto Found = Globals.find(D);
  if (Found != Globals.end())
    return Found->second;
  Value V;
  const VarDecl *Def = D->getDefinition();
  const Expr *Init = D->getAnyInitializer();
  QualType T = D->getType();
  bool Constant = D->isConstexpr() || T.isConstQualified() ||
                  (T->isArrayType() &&
                   AC.getAsArrayType(T)->getElementType().isConstQualified());
  if (Constant && Init) {
    // Evaluated without the frames: a constant's initializer sees no
    // locals.
    std::vector<Frame> Saved;
    std::swap(Saved, Stack);
    V = initialValue(T, Init, D->getLocation(), D->getNameAsString());
    std::swap(Saved, Stack);
  } else {
    V = Value::unknown("'" + D->getNameAsString() +
                           "' is a global variable that is not const",
                       (Def ? Def : D)->getLocation());
  }
  Slot S = std::make_shared<Value>(std::move(V));
  Globals[D] = S;
  return S;
}

std::optional<Place> Interpreter::place(const Expr *E) {
  E = E->IgnoreParens();
  if (const auto *R = dyn_cast<DeclRefExpr>(E)) {
    const auto *D = dyn_cast<VarDecl>(R->getDecl());
    if (!D)
      return std::nullopt;
    // A C++ reference holds a pointer to what it refers to.
    if (D->getType()->isReferenceType()) {
      Value Ref = *slotOf(D);
      if (Ref.K != Value::Kind::Pointer)
        return std::nullopt;
      return *Ref.P;
    }
    return Place{slotOf(D), {}, D->getNameAsString()};
  }
  if (const auto *A = dyn_cast<ArraySubscriptExpr>(E)) {
    Value Base = eval(A->getBase());
    Value Index = eval(A->getIdx());
    if (Base.K != Value::Kind::Pointer || !Index.isInt() ||
        Base.P->Path.empty())
      return std::nullopt;
    Place P = *Base.P;
    P.Path.back() += Index.I;
    return P;
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    if (U->getOpcode() != UO_Deref)
      return std::nullopt;
    Value Ptr = eval(U->getSubExpr());
    if (Ptr.K != Value::Kind::Pointer)
      return std::nullopt;
    return *Ptr.P;
  }
  if (const auto *M = dyn_cast<MemberExpr>(E)) {
    const auto *F = dyn_cast<FieldDecl>(M->getMemberDecl());
    if (!F || !followedRecord(M->getBase()->getType()->isPointerType()
                                  ? M->getBase()->getType()->getPointeeType()
                                  : M->getBase()->getType()))
      return std::nullopt;
    std::optional<Place> P;
    if (M->isArrow()) {
      Value Ptr = eval(M->getBase());
      if (Ptr.K != Value::Kind::Pointer)
        return std::nullopt;
      P = *Ptr.P;
    } else {
      P = place(M->getBase());
    }
    if (P)
      P->Path.push_back(F->getFieldIndex());
    return P;
  }
  if (const auto *C = dyn_cast<ImplicitCastExpr>(E))
    if (C->getCastKind() == CK_NoOp || C->getCastKind() == CK_LValueBitCast)
      return place(C->getSubExpr());
  return std::nullopt;
}

std::string Interpreter::placeName(const Place &P) const {
  std::string Name = P.Name;
  const Value *V = P.Root.get();
  for (int64_t I : P.Path) {
    if (V->K != Value::Kind::Array || I < 0 ||
        static_cast<uint64_t>(I) >= V->Elems->size())
      break; // a pointer to a scalar, at offset 0
    if (V->Record) {
      auto Field = V->Record->field_begin();
      std::advance(Field, I);
      Name += "_" + Field->getNameAsString();
    } else {
      Name += "_" + std::to_string(I);
    }
    V = &(*V->Elems)[I];
  }
  return Name;
}

Value Interpreter::load(const Place &P) const {
  const Value *V = P.Root.get();
  for (int64_t I : P.Path) {
    if (V->K != Value::Kind::Array) {
      // A pointer to a scalar, read at offset 0, is the scalar.
      if (I == 0 && &I == &P.Path.back())
        return *V;
      return V->isUnknown()
                 ? *V
                 : Value::unknown("'" + P.Name + "' is not an array here", {});
    }
    if (I < 0 || static_cast<uint64_t>(I) >= V->Elems->size())
      return Value::unknown(
          "index " + std::to_string(I) + " is outside '" + P.Name + "'", {});
    V = &(*V->Elems)[I];
  }
  return *V;
}

bool Interpreter::store(const Place &P, Value V) {
  Value *Target = P.Root.get();
  for (int64_t I : P.Path) {
    if (Target->K != Value::Kind::Array) {
      if (I == 0 && &I == &P.Path.back())
        break;
      return false;
    }
    if (I < 0 || static_cast<uint64_t>(I) >= Target->Elems->size())
      return false;
    Target = &(*Target->Elems)[I];
  }
  // A struct is stored as a copy of its members, not shared with the
  // struct it came from.
  *Target = V.K == Value::Kind::Array ? V.copy() : std::move(V);
  return true;
}

void Interpreter::clobber(const Expr *E, const std::string &Why,
                          SourceLocation Loc) {
  // Down to the variable written into or through: all its values, and all
  // that its pointers reach, may change.
  E = E->IgnoreParenCasts();
  while (true) {
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(E))
      E = A->getBase()->IgnoreParenCasts();
    else if (const auto *M = dyn_cast<MemberExpr>(E))
      E = M->getBase()->IgnoreParenCasts();
    else if (const auto *U = dyn_cast<UnaryOperator>(E);
             U && (U->getOpcode() == UO_AddrOf || U->getOpcode() == UO_Deref))
      E = U->getSubExpr()->IgnoreParenCasts();
    else if (const auto *B = dyn_cast<BinaryOperator>(E);
             B && B->isAdditiveOp())
      E = (B->getLHS()->getType()->isPointerType() ? B->getLHS() : B->getRHS())
              ->IgnoreParenCasts();
    else
      break;
  }
  // A string literal is not the program's to write.
  if (isa<StringLiteral>(E))
    return;
  Value Unknown = Value::unknown(Why, Loc);
  std::set<const Value *> Seen;
  if (const auto *R = dyn_cast<DeclRefExpr>(E))
    if (const auto *D = dyn_cast<VarDecl>(R->getDecl())) {
      Slot S = slotOf(D);
      Seen.insert(S.get());
      clobberValue(*S, Unknown, Seen);
      return;
    }
  // Written through a pointer ddtc does not know: any object whose
  // address was taken.
  for (const Slot &S : Exposed)
    if (Seen.insert(S.get()).second)
      clobberValue(*S, Unknown, Seen);
}

void Interpreter::clobberValue(Value &V, const Value &Unknown,
                               std::set<const Value *> &Seen) {
  // Arrays and structs keep their shape, so that an element assigned later
  // is followed again.
  if (V.K == Value::Kind::Array) {
    for (Value &E : *V.Elems)
      clobberValue(E, Unknown, Seen);
    return;
  }
  if (V.K == Value::Kind::Pointer && Seen.insert(V.P->Root.get()).second)
    clobberValue(*V.P->Root, Unknown, Seen);
  V = Unknown;
}

Value Interpreter::pointerTo(Place P) {
  Exposed.insert(P.Root);
  return Value::pointer(std::move(P));
}

//===----------------------------------------------------------------------===//
// New objects: shape and initial value
//===----------------------------------------------------------------------===//

const RecordDecl *Interpreter::followedRecord(QualType T) const {
  const auto *RT = T->getAs<RecordType>();
  if (!RT)
    return nullptr;
  const RecordDecl *RD = RT->getDecl()->getDefinition();
  if (!RD || RD->isUnion())
    return nullptr;
  // Plain structs: a class with bases or virtual functions has a layout
  // and behaviour ddtc does not model.
  if (const auto *CRD = dyn_cast<CXXRecordDecl>(RD))
    if (CRD->getNumBases() || CRD->isPolymorphic())
      return nullptr;
  return RD;
}

uint64_t Interpreter::valueCount(QualType T) const {
  constexpr uint64_t Over = MaxVariableValues + 1;
  if (const ConstantArrayType *A = AC.getAsConstantArrayType(T)) {
    uint64_t N = A->getSize().getLimitedValue(Over);
    uint64_t E = valueCount(A->getElementType());
    return N && E > Over / N ? Over : std::min(Over, N * E);
  }
  if (const RecordDecl *RD = followedRecord(T)) {
    uint64_t Sum = 0;
    for (const FieldDecl *F : RD->fields())
      Sum = std::min(Over, Sum + valueCount(F->getType()));
    return Sum;
  }
  return 1;
}

Value Interpreter::blankValue(QualType T, bool Zero,
                              const std::string &Name) const {
  if (const ConstantArrayType *A = AC.getAsConstantArrayType(T)) {
    uint64_t N = A->getSize().getZExtValue();
    std::vector<Value> Elems;
    Elems.reserve(N);
    for (uint64_t I = 0; I < N; ++I)
      Elems.push_back(blankValue(A->getElementType(), Zero, Name));
    return Value::array(std::move(Elems));
  }
  if (const RecordDecl *RD = followedRecord(T)) {
    std::vector<Value> Fields;
    for (const FieldDecl *F : RD->fields())
      Fields.push_back(
          blankValue(F->getType(), Zero, Name + "." + F->getNameAsString()));
    Value V = Value::array(std::move(Fields));
    V.Record = RD;
    return V;
  }
  if (T->isRecordType() || T->isArrayType())
    return Value::unknown("'" + Name +
                              "' is a union, a class with bases or "
                              "an array of variable length, which "
                              "ddtc does not follow",
                          {});
  return Zero ? Value::integer(0) : Value();
}

Value Interpreter::initialValue(QualType T, const Expr *Init,
                                SourceLocation Loc, const std::string &Name) {
  if (T->isArrayType() || T->isRecordType()) {
    if (T->isArrayType() && !AC.getAsConstantArrayType(T))
      return Value::unknown("'" + Name + "' is an array of variable length",
                            Loc);
    if (T->isRecordType() && !followedRecord(T))
      return Value::unknown("'" + Name +
                                "' is a union or a class with bases "
                                "or virtual functions, which ddtc "
                                "does not follow",
                            Loc);
    if (valueCount(T) > MaxVariableValues)
      return Value::unknown("'" + Name + "' holds more than " +
                                std::to_string(MaxVariableValues) +
                                " values, which ddtc does not follow one by "
                                "one",
                            Loc);
  }
  // Objects of static storage duration start as zeros.
  if (!Init)
    return blankValue(T, /*Zero=*/Stack.empty(), Name);
  const Expr *Bare = Init->IgnoreImplicit();
  if (isa<ImplicitValueInitExpr>(Bare))
    return blankValue(T, /*Zero=*/true, Name);

  if (const auto *List = dyn_cast<InitListExpr>(Bare)) {
    // Clang's semantic form: one initializer per element or field, in
    // order, with what the program leaves out filled in.
    if (const ConstantArrayType *A = AC.getAsConstantArrayType(T)) {
      uint64_t N = A->getSize().getZExtValue();
      std::vector<Value> Elems;
      Elems.reserve(N);
      for (uint64_t I = 0; I < N; ++I) {
        const Expr *EI =
            I < List->getNumInits() ? List->getInit(I) : List->getArrayFiller();
        Elems.push_back(EI ? initialValue(A->getElementType(), EI, Loc, Name)
                           : blankValue(A->getElementType(), true, Name));
      }
      return Value::array(std::move(Elems));
    }
    if (const RecordDecl *RD = followedRecord(T)) {
      std::vector<Value> Fields;
      unsigned I = 0;
      for (const FieldDecl *F : RD->fields()) {
        std::string FieldName = Name + "." + F->getNameAsString();
        const Expr *FI = I < List->getNumInits() ? List->getInit(I) : nullptr;
        Fields.push_back(FI ? initialValue(F->getType(), FI, Loc, FieldName)
                            : blankValue(F->getType(), true, FieldName));
        ++I;
      }
      Value V = Value::array(std::move(Fields));
      V.Record = RD;
      return V;
    }
    return List->getNumInits() ? initialValue(T, List->getInit(0), Loc, Name)
                               : Value::integer(0);
  }
  if (T->isArrayType())
    return Value::unknown("'" + Name +
                              "' is initialized in a way ddtc does "
                              "not follow",
                          Loc);
  if (T->isRecordType()) {
    // A copy of another struct, or what a call returns.
    if (const auto *CE = dyn_cast<CXXConstructExpr>(Bare)) {
      const CXXConstructorDecl *Ctor = CE->getConstructor();
      if (Ctor->isDefaultConstructor() && Ctor->isTrivial())
        return blankValue(T, /*Zero=*/CE->requiresZeroInitialization() ||
                                 Stack.empty(),
                          Name);
    }
    Value V = eval(Init);
    if (V.K == Value::Kind::Array && V.Record)
      return V.copy();
    return V.isUnknown() ? V
                         : Value::unknown("'" + Name +
                                              "' is initialized in "
                                              "a way ddtc does not "
                                              "follow",
                                          Loc);
  }
  return truncate(eval(Init), T);
}

} // namespace ddtc::source

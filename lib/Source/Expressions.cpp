//===- lib/Source/Expressions.cpp - The values of expressions -------------===//
//
// What an expression evaluates to: literals, operators, casts, names and
// the MPI constants of mpi.h, recognized by the macro they expand from.
// Integers are computed in 64 bits and converted to the C type of each
// expression as C does (unsigned types wrap, narrowing keeps the low bits);
// a signed overflow or a division by zero makes the value unknown rather
// than guessed. Calls, which run statements, are in Interpreter.cpp;
// initializers, which build objects, in Storage.cpp.
//
//===----------------------------------------------------------------------===//
#include "Interpreter.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

namespace ddtc::source {

using namespace clang;

namespace {

/// The MPI constants whose meaning ddtc needs by name, not by value.
constexpr const char *MPIConstants[] = {
    "MPI_ORDER_C",           "MPI_ORDER_FORTRAN",   "MPI_DISTRIBUTE_BLOCK",
    "MPI_DISTRIBUTE_CYCLIC", "MPI_DISTRIBUTE_NONE", "MPI_DISTRIBUTE_DFLT_DARG",
};

bool isUnsigned(QualType T) {
  return T->isUnsignedIntegerOrEnumerationType() || T->isPointerType();
}

} // namespace

const char *Interpreter::mpiMacro(const Expr *E) const {
  // Only expressions a macro of mpi.h expands to: a cast, a literal, a
  // name, an address -- not `MPI_INT == t`, which begins with one.
  if (!isa<ParenExpr, CastExpr, IntegerLiteral, DeclRefExpr>(E)) {
    const auto *U = dyn_cast<UnaryOperator>(E);
    if (!U || (U->getOpcode() != UO_AddrOf && U->getOpcode() != UO_Minus))
      return nullptr;
  }
  SourceLocation L = E->getBeginLoc();
  const LangOptions &LO = AC.getLangOpts();
  while (L.isMacroID()) {
    StringRef Name = Lexer::getImmediateMacroName(L, SM, LO);
    if (auto Id = lookupPredefined(Name))
      return getPredefinedInfo(*Id).Name.data();
    for (const char *C : MPIConstants)
      if (Name == C)
        return C;
    L = SM.getImmediateMacroCallerLoc(L);
  }
  return nullptr;
}

Value Interpreter::truncate(Value V, QualType T) const {
  if (!V.isInt() || T.isNull())
    return V;
  T = T.getCanonicalType();
  if (T->isBooleanType()) {
    V.I = V.I != 0;
    return V;
  }
  if (!T->isIntegerType())
    return V;
  unsigned Width = AC.getIntWidth(T);
  if (Width >= 64)
    return V;
  uint64_t Mask = (uint64_t(1) << Width) - 1;
  uint64_t Bits = static_cast<uint64_t>(V.I) & Mask;
  if (!T->isUnsignedIntegerOrEnumerationType() && (Bits >> (Width - 1)) & 1)
    Bits |= ~Mask;
  V.I = static_cast<int64_t>(Bits);
  return V;
}

std::optional<Value> Interpreter::fold(const Expr *E) {
  if (E->isValueDependent() || E->isTypeDependent())
    return std::nullopt;
  Expr::EvalResult R;
  if (E->HasSideEffects(AC) || !E->EvaluateAsInt(R, AC))
    return std::nullopt;
  const llvm::APSInt &I = R.Val.getInt();
  if (I.getMinSignedBits() > 64 && !(I.isUnsigned() && I.getActiveBits() <= 64))
    return std::nullopt;
  return Value::integer(I.isUnsigned() ? static_cast<int64_t>(I.getZExtValue())
                                       : I.getSExtValue());
}

Value Interpreter::eval(const Expr *E) {
  if (!step(E->getBeginLoc()))
    return Value::unknown("ddtc stopped following the program", {});
  const char *Macro = mpiMacro(E);
  if (Macro && lookupPredefined(Macro))
    return predefinedHandle(Macro);

  Value V;
  if (const auto *P = dyn_cast<ParenExpr>(E))
    V = eval(P->getSubExpr());
  else if (const auto *L = dyn_cast<IntegerLiteral>(E))
    V = L->getValue().getActiveBits() <= 64
            ? truncate(Value::integer(
                           static_cast<int64_t>(L->getValue().getZExtValue())),
                       L->getType())
            : Value::unknown("the literal does not fit 64 bits",
                             L->getBeginLoc());
  else if (const auto *C = dyn_cast<CharacterLiteral>(E))
    V = Value::integer(C->getValue());
  else if (const auto *B = dyn_cast<CXXBoolLiteralExpr>(E))
    V = Value::integer(B->getValue());
  else if (isa<CXXNullPtrLiteralExpr, GNUNullExpr>(E))
    V = Value::integer(0);
  else if (const auto *U = dyn_cast<UnaryOperator>(E))
    V = evalUnary(U);
  else if (const auto *Bin = dyn_cast<BinaryOperator>(E))
    V = evalBinary(Bin);
  else if (const auto *Cast = dyn_cast<CastExpr>(E))
    V = evalCast(Cast);
  else if (const auto *R = dyn_cast<DeclRefExpr>(E))
    V = evalDeclRef(R);
  else if (isa<ArraySubscriptExpr>(E)) {
    std::optional<Place> P = place(E);
    V = P ? load(*P)
          : Value::unknown("'" + text(E) + "' is not an element ddtc follows",
                           E->getBeginLoc());
  } else if (const auto *Cond = dyn_cast<ConditionalOperator>(E)) {
    Value C = eval(Cond->getCond());
    if (C.isInt())
      V = eval(C.I ? Cond->getTrueExpr() : Cond->getFalseExpr());
    else
      V = Value::unknown("the condition '" + text(Cond->getCond()) +
                             "' is not a compile-time value",
                         Cond->getBeginLoc());
  } else if (const auto *Call = dyn_cast<CallExpr>(E))
    V = evalCall(Call);
  else if (const auto *CE = dyn_cast<ConstantExpr>(E))
    V = eval(CE->getSubExpr());
  else if (const auto *FE = dyn_cast<FullExpr>(E))
    V = eval(FE->getSubExpr());
  else if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(E))
    V = eval(MT->getSubExpr());
  else if (isa<ImplicitValueInitExpr>(E))
    V = Value::integer(0);
  else if (std::optional<Value> F = fold(E))
    V = *F; // sizeof, offsetof, alignof...
  else if (isa<MemberExpr>(E)) {
    std::optional<Place> P = place(E);
    V = P ? load(*P)
          : Value::unknown("'" + text(E) +
                               "' is not a member ddtc follows (members of "
                               "unions, of classes with bases and of objects "
                               "it does not know are not)",
                           E->getBeginLoc());
  } else if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    // C++ copies a struct with its implicit copy constructor.
    const CXXConstructorDecl *Ctor = CE->getConstructor();
    V = Ctor->isCopyOrMoveConstructor() && Ctor->isTrivial() &&
                CE->getNumArgs() == 1
            ? eval(CE->getArg(0))
            : Value::unknown("the constructor of '" +
                                 CE->getType().getAsString() +
                                 "' is not followed",
                             E->getBeginLoc());
  } else if (isa<FloatingLiteral>(E))
    V = Value::unknown("floating-point values are not followed",
                       E->getBeginLoc());
  else {
    // What it might run is not run: reported and made unknown.
    skipUnknown(
        E, "it is in '" + text(E) + "', an expression ddtc does not follow",
        E->getBeginLoc());
    V = Value::unknown("'" + text(E) + "' is not an expression ddtc follows",
                       E->getBeginLoc());
  }
  if (Macro && V.isInt())
    V.Symbol = Macro;
  return V;
}

Value Interpreter::evalUnary(const UnaryOperator *U) {
  SourceLocation Loc = U->getBeginLoc();
  switch (U->getOpcode()) {
  case UO_AddrOf: {
    std::optional<Place> P = place(U->getSubExpr());
    if (P)
      return pointerTo(std::move(*P));
    return Value::unknown(
        "the address of '" + text(U->getSubExpr()) + "' is not followed", Loc);
  }
  case UO_Deref: {
    std::optional<Place> P = place(U);
    return P ? load(*P)
             : Value::unknown("'" + text(U) + "' is not followed", Loc);
  }
  case UO_PreInc:
  case UO_PreDec:
  case UO_PostInc:
  case UO_PostDec: {
    std::optional<Place> P = place(U->getSubExpr());
    if (!P)
      return Value::unknown("'" + text(U) + "' is not followed", Loc);
    Value Old = load(*P);
    int64_t Delta = U->isIncrementOp() ? 1 : -1;
    Value New = Old;
    if (Old.isInt()) {
      New.Symbol = nullptr;
      if (__builtin_add_overflow(Old.I, Delta, &New.I) &&
          !isUnsigned(U->getType()))
        New = Value::unknown("'" + text(U) + "' overflows", Loc);
      else
        New = truncate(New, U->getSubExpr()->getType());
    } else if (Old.K == Value::Kind::Pointer && !Old.P->Path.empty()) {
      New = Value::pointer(*Old.P);
      New.P->Path.back() += Delta;
    } else if (!Old.isUnknown()) {
      New = Value::unknown("'" + text(U) + "' is not followed", Loc);
    }
    store(*P, New);
    return U->isPrefix() ? New : Old;
  }
  case UO_Plus:
  case UO_Extension:
    return eval(U->getSubExpr());
  default:
    break;
  }
  Value X = eval(U->getSubExpr());
  if (!X.isInt())
    return X.isUnknown()
               ? X
               : Value::unknown("'" + text(U) + "' is not followed", Loc);
  switch (U->getOpcode()) {
  case UO_Minus:
    if (X.I == INT64_MIN && !isUnsigned(U->getType()))
      return Value::unknown("'" + text(U) + "' overflows", Loc);
    return truncate(
        Value::integer(static_cast<int64_t>(0 - static_cast<uint64_t>(X.I))),
        U->getType());
  case UO_Not:
    return truncate(Value::integer(~X.I), U->getType());
  case UO_LNot:
    return Value::integer(X.I == 0);
  default:
    return Value::unknown("'" + text(U) + "' is not followed", Loc);
  }
}

Value Interpreter::evalBinary(const BinaryOperator *B) {
  SourceLocation Loc = B->getOperatorLoc();
  BinaryOperatorKind Op = B->getOpcode();
  if (Op == BO_Comma) {
    eval(B->getLHS());
    return eval(B->getRHS());
  }
  if (Op == BO_LAnd || Op == BO_LOr) {
    Value L = eval(B->getLHS());
    if (!L.isInt()) {
      skipUnknown(B->getRHS(),
                  "it is evaluated only if '" + text(B->getLHS()) +
                      "', which is not a compile-time value",
                  Loc);
      return L.isUnknown() ? L : Value::unknown("not followed", Loc);
    }
    if ((Op == BO_LAnd) == (L.I == 0))
      return Value::integer(Op == BO_LOr);
    Value R = eval(B->getRHS());
    return R.isInt() ? Value::integer(R.I != 0) : R;
  }

  std::optional<Place> Target;
  Value L;
  if (B->isAssignmentOp()) {
    Target = place(B->getLHS());
    if (Op != BO_Assign)
      L = Target ? load(*Target)
                 : Value::unknown("'" + text(B->getLHS()) + "' is not followed",
                                  Loc);
  } else {
    L = eval(B->getLHS());
  }
  Value R = eval(B->getRHS());
  if (Op == BO_Assign) {
    R = truncate(R, B->getLHS()->getType());
    if (Target)
      store(*Target, R);
    else
      clobber(B->getLHS(), "'" + text(B->getLHS()) + "' is not followed", Loc);
    return R;
  }

  BinaryOperatorKind Arith =
      B->isCompoundAssignmentOp()
          ? BinaryOperator::getOpForCompoundAssignment(Op)
          : Op;
  QualType CompType =
      B->isCompoundAssignmentOp()
          ? cast<CompoundAssignOperator>(B)->getComputationResultType()
          : (B->isComparisonOp() ? B->getLHS()->getType() : B->getType());
  Value Result;
  auto Fail = [&](const std::string &Why) {
    return Value::unknown("'" + text(B) + "' " + Why, Loc);
  };
  if (L.K == Value::Kind::Address && R.K == Value::Kind::Address &&
      Arith == BO_Sub) {
    Result = L.Object == R.Object && L.Pointee == R.Pointee
                 ? Value::integer(L.I - R.I)
                 : Fail("subtracts the addresses of two different objects");
  } else if (L.K == Value::Kind::Address && R.isInt() &&
             (Arith == BO_Add || Arith == BO_Sub)) {
    Result = Value::address(L.Object, Arith == BO_Add ? L.I + R.I : L.I - R.I,
                            L.Pointee);
  } else if (L.K == Value::Kind::Pointer && R.isInt() &&
             (Arith == BO_Add || Arith == BO_Sub) && !L.P->Path.empty()) {
    Result = Value::pointer(*L.P);
    Result.P->Path.back() += Arith == BO_Add ? R.I : -R.I;
  } else if (!L.isInt() || !R.isInt()) {
    Result = L.isUnknown()   ? L
             : R.isUnknown() ? R
                             : Fail("is not arithmetic ddtc follows");
  } else {
    bool Unsigned = isUnsigned(CompType.getCanonicalType());
    uint64_t UL = static_cast<uint64_t>(L.I), UR = static_cast<uint64_t>(R.I);
    int64_t X = 0;
    bool Overflow = false;
    switch (Arith) {
    case BO_Add:
      Overflow = __builtin_add_overflow(L.I, R.I, &X);
      if (Unsigned)
        X = static_cast<int64_t>(UL + UR), Overflow = false;
      break;
    case BO_Sub:
      Overflow = __builtin_sub_overflow(L.I, R.I, &X);
      if (Unsigned)
        X = static_cast<int64_t>(UL - UR), Overflow = false;
      break;
    case BO_Mul:
      Overflow = __builtin_mul_overflow(L.I, R.I, &X);
      if (Unsigned)
        X = static_cast<int64_t>(UL * UR), Overflow = false;
      break;
    case BO_Div:
    case BO_Rem:
      if (R.I == 0)
        return Fail("divides by zero");
      if (Unsigned)
        X = static_cast<int64_t>(Arith == BO_Div ? UL / UR : UL % UR);
      else if (L.I == INT64_MIN && R.I == -1)
        Overflow = true;
      else
        X = Arith == BO_Div ? L.I / R.I : L.I % R.I;
      break;
    case BO_Shl:
    case BO_Shr:
      if (R.I < 0 || R.I >= 64)
        return Fail("shifts by " + std::to_string(R.I));
      if (Arith == BO_Shl)
        X = static_cast<int64_t>(UL << R.I);
      else
        X = Unsigned ? static_cast<int64_t>(UL >> R.I) : L.I >> R.I;
      break;
    case BO_And:
      X = L.I & R.I;
      break;
    case BO_Or:
      X = L.I | R.I;
      break;
    case BO_Xor:
      X = L.I ^ R.I;
      break;
    case BO_LT:
      X = Unsigned ? UL < UR : L.I < R.I;
      break;
    case BO_GT:
      X = Unsigned ? UL > UR : L.I > R.I;
      break;
    case BO_LE:
      X = Unsigned ? UL <= UR : L.I <= R.I;
      break;
    case BO_GE:
      X = Unsigned ? UL >= UR : L.I >= R.I;
      break;
    case BO_EQ:
      X = L.I == R.I;
      break;
    case BO_NE:
      X = L.I != R.I;
      break;
    default:
      return Fail("is not arithmetic ddtc follows");
    }
    if (Overflow)
      return Fail("overflows");
    Result = B->isComparisonOp() ? Value::integer(X)
                                 : truncate(Value::integer(X), CompType);
    // A signed result that does not fit its type overflowed.
    if (!B->isComparisonOp() && !Unsigned && Result.I != X)
      return Fail("overflows");
  }
  if (B->isCompoundAssignmentOp()) {
    Result = truncate(Result, B->getLHS()->getType());
    if (Target)
      store(*Target, Result);
  }
  return Result;
}

Value Interpreter::evalCast(const CastExpr *C) {
  switch (C->getCastKind()) {
  case CK_ArrayToPointerDecay: {
    std::optional<Place> P = place(C->getSubExpr());
    if (!P)
      return Value::unknown("the array '" + text(C->getSubExpr()) +
                                "' is not followed",
                            C->getBeginLoc());
    P->Path.push_back(0);
    return pointerTo(std::move(*P));
  }
  case CK_IntegralToBoolean: {
    Value V = eval(C->getSubExpr());
    return V.isInt() ? Value::integer(V.I != 0) : V;
  }
  case CK_FloatingToIntegral:
  case CK_IntegralToFloating:
  case CK_FloatingCast:
  case CK_FloatingToBoolean:
    if (std::optional<Value> F = fold(C))
      return *F;
    return Value::unknown("floating-point values are not followed",
                          C->getBeginLoc());
  default: {
    // Integer conversions narrow; handles, addresses and pointers pass
    // through the casts mpi.h and programs put on them.
    Value V = eval(C->getSubExpr());
    return truncate(V, C->getType());
  }
  }
}

Value Interpreter::evalDeclRef(const DeclRefExpr *R) {
  const ValueDecl *D = R->getDecl();
  if (const auto *E = dyn_cast<EnumConstantDecl>(D))
    return Value::integer(E->getInitVal().getExtValue());
  if (const auto *V = dyn_cast<VarDecl>(D)) {
    if (V->getType()->isReferenceType()) {
      std::optional<Place> P = place(R);
      return P ? load(*P)
               : Value::unknown("what the reference '" + V->getNameAsString() +
                                    "' refers to is not followed",
                                R->getBeginLoc());
    }
    Value X = *slotOf(V);
    if (X.isUnknown() && !X.Why)
      return Value::unknown("'" + V->getNameAsString() +
                                "' is read before it is assigned",
                            V->getLocation());
    return X;
  }
  return Value::unknown("'" + D->getNameAsString() + "' is not a variable",
                        R->getBeginLoc());
}

} // namespace ddtc::source

//===- lib/Source/Interpreter.cpp - Following a function's values ---------===//
//
// Statements and expressions; MPI calls are in MPICalls.cpp. Integers are
// computed in 64 bits and converted to the C type of each expression as C
// does (unsigned types wrap, narrowing keeps the low bits); a signed
// overflow or a division by zero makes the value unknown rather than
// guessed.
//
//===----------------------------------------------------------------------===//
#include "Interpreter.h"

#include "ddtc/IR/ConstructorCalls.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <set>

namespace ddtc::source {

using namespace clang;

Interpreter::Interpreter(ASTContext &AC, TypeContext &Ctx, UnitResults &Out)
    : AC(AC), SM(AC.getSourceManager()), Ctx(Ctx), Out(Out) {}

//===----------------------------------------------------------------------===//
// Diagnostics
//===----------------------------------------------------------------------===//

SourcePosition Interpreter::position(SourceLocation Loc) const {
  SourcePosition P;
  if (Loc.isInvalid())
    return P;
  PresumedLoc PL = SM.getPresumedLoc(SM.getExpansionLoc(Loc));
  if (PL.isInvalid())
    return P;
  P.File = PL.getFilename();
  P.Line = PL.getLine();
  P.Column = PL.getColumn();
  return P;
}

void Interpreter::warn(SourceLocation Loc, std::string Message) {
  Out.Diagnostics.push_back(
      {SourceDiagnostic::Level::Warning, position(Loc), std::move(Message)});
}

void Interpreter::note(SourceLocation Loc, std::string Message) {
  Out.Diagnostics.push_back(
      {SourceDiagnostic::Level::Note, position(Loc), std::move(Message)});
}

std::string Interpreter::text(const Expr *E) const {
  CharSourceRange R = CharSourceRange::getTokenRange(E->getSourceRange());
  StringRef T = Lexer::getSourceText(SM.getExpansionRange(R), SM,
                                     AC.getLangOpts());
  std::string S = T.str();
  // One line, and short: it is quoted in a diagnostic.
  for (char &C : S)
    if (C == '\n' || C == '\t')
      C = ' ';
  if (S.size() > 60)
    S = S.substr(0, 57) + "...";
  return S;
}

bool Interpreter::step(SourceLocation Loc) {
  if (++Steps <= MaxInterpreterSteps)
    return true;
  if (Steps == MaxInterpreterSteps + 1)
    warn(Loc, "stopped following the program here after " +
                  std::to_string(MaxInterpreterSteps) +
                  " steps; types committed after this point are left out");
  return false;
}

//===----------------------------------------------------------------------===//
// Entry and statements
//===----------------------------------------------------------------------===//

void Interpreter::runEntry(const FunctionDecl *F) {
  Steps = 0;
  // Globals are followed from their initial values only where they are
  // const: another entry point may have changed the others.
  Globals.clear();
  Stack.clear();
  Stack.push_back({F, {}, {}});
  for (const ParmVarDecl *P : F->parameters()) {
    std::string Why = "'" + P->getNameAsString() + "' is a parameter of '" +
                      F->getNameAsString() +
                      "', which nothing in this file calls";
    Value V = Value::unknown(Why, P->getLocation());
    // A pointer parameter points to a place of its own (unknown until
    // written): `void build(MPI_Datatype *out)` builds a type into it.
    QualType T = P->getType();
    if (T->isPointerType() && !T->getPointeeType().isConstQualified() &&
        T->getPointeeType()->isScalarType())
      V = Value::pointer(Place{std::make_shared<Value>(std::move(V)),
                               {},
                               P->getNameAsString()});
    Stack.back().Vars[P] = std::make_shared<Value>(std::move(V));
  }
  exec(F->getBody());
  Stack.clear();
}

Interpreter::Flow Interpreter::exec(const Stmt *S) {
  if (!S)
    return Flow::Next;
  if (!step(S->getBeginLoc()))
    return Flow::Stop;
  if (const auto *E = dyn_cast<Expr>(S)) {
    eval(E);
    return Steps > MaxInterpreterSteps ? Flow::Stop : Flow::Next;
  }
  switch (S->getStmtClass()) {
  case Stmt::CompoundStmtClass:
    for (const Stmt *Child : cast<CompoundStmt>(S)->body()) {
      Flow F = exec(Child);
      if (F != Flow::Next)
        return F;
    }
    return Flow::Next;
  case Stmt::DeclStmtClass:
    for (const Decl *D : cast<DeclStmt>(S)->decls())
      if (const auto *V = dyn_cast<VarDecl>(D)) {
        Flow F = execDecl(V);
        if (F != Flow::Next)
          return F;
      }
    return Flow::Next;
  case Stmt::NullStmtClass:
    return Flow::Next;
  case Stmt::LabelStmtClass:
    return exec(cast<LabelStmt>(S)->getSubStmt());
  case Stmt::AttributedStmtClass:
    return exec(cast<AttributedStmt>(S)->getSubStmt());
  case Stmt::BreakStmtClass:
    return Flow::Break;
  case Stmt::ContinueStmtClass:
    return Flow::Continue;
  case Stmt::ReturnStmtClass:
    if (const Expr *RV = cast<ReturnStmt>(S)->getRetValue()) {
      Value V = eval(RV);
      Stack.back().Result = truncate(V, Stack.back().F->getReturnType());
    }
    return Flow::Return;
  case Stmt::IfStmtClass: {
    const auto *If = cast<IfStmt>(S);
    if (Flow F = exec(If->getInit()); F != Flow::Next)
      return F;
    if (const DeclStmt *CD = If->getConditionVariableDeclStmt())
      if (Flow F = exec(CD); F != Flow::Next)
        return F;
    Value C = eval(If->getCond());
    if (C.isInt())
      return exec(C.I ? If->getThen() : If->getElse());
    std::string Why = "it runs only if '" + text(If->getCond()) +
                      "', which is not a compile-time value";
    SourceLocation WhyLoc = If->getCond()->getBeginLoc();
    if (C.Why)
      Why += " (" + C.Why->Text + ")";
    skipUnknown(If->getThen(), Why, WhyLoc);
    skipUnknown(If->getElse(), Why, WhyLoc);
    return Flow::Next;
  }
  case Stmt::ForStmtClass: {
    const auto *For = cast<ForStmt>(S);
    if (Flow F = exec(For->getInit()); F != Flow::Next)
      return F;
    return execLoop(For, For->getCond(), For->getBody(), For->getInc(),
                    /*TestFirst=*/true);
  }
  case Stmt::WhileStmtClass: {
    const auto *While = cast<WhileStmt>(S);
    return execLoop(While, While->getCond(), While->getBody(), nullptr,
                    /*TestFirst=*/true);
  }
  case Stmt::DoStmtClass: {
    const auto *Do = cast<DoStmt>(S);
    return execLoop(Do, Do->getCond(), Do->getBody(), nullptr,
                    /*TestFirst=*/false);
  }
  default:
    skipUnknown(S,
                std::string("it is in a '") + S->getStmtClassName() +
                    "', which ddtc does not follow",
                S->getBeginLoc());
    return Flow::Next;
  }
}

Interpreter::Flow Interpreter::execDecl(const VarDecl *D) {
  // Static locals keep their value between calls in C; followed as locals
  // initialized at their declaration, which is what a function run once
  // sees.
  Value V = initialValue(D->getType(), D->getInit(), D->getLocation(),
                         D->getNameAsString());
  Stack.back().Vars[D] = std::make_shared<Value>(std::move(V));
  return Steps > MaxInterpreterSteps ? Flow::Stop : Flow::Next;
}

Interpreter::Flow Interpreter::execLoop(const Stmt *Loop, const Expr *Cond,
                                        const Stmt *Body, const Expr *Inc,
                                        bool TestFirst) {
  for (bool First = true;; First = false) {
    if (Cond && (TestFirst || !First)) {
      Value C = eval(Cond);
      if (Steps > MaxInterpreterSteps)
        return Flow::Stop;
      if (!C.isInt()) {
        std::string Why = "it is in a loop whose condition '" + text(Cond) +
                          "' is not a compile-time value";
        if (C.Why)
          Why += " (" + C.Why->Text + ")";
        skipUnknown(Body, Why, Cond->getBeginLoc());
        if (Inc)
          skipUnknown(Inc, Why, Cond->getBeginLoc());
        return Flow::Next;
      }
      if (!C.I)
        return Flow::Next;
    }
    Flow F = exec(Body);
    if (F == Flow::Break)
      return Flow::Next;
    if (F == Flow::Return || F == Flow::Stop)
      return F;
    if (Inc)
      eval(Inc);
    (void)Loop;
  }
}

void Interpreter::skipUnknown(const Stmt *S, const std::string &Why,
                              SourceLocation WhyLoc) {
  if (!S)
    return;
  // Everything S could write becomes unknown; the types it could build are
  // reported. Calls of the program's own functions are looked into, once.
  std::vector<const Stmt *> Work{S};
  std::set<const FunctionDecl *> Seen;
  while (!Work.empty()) {
    const Stmt *X = Work.back();
    Work.pop_back();
    if (!X)
      continue;
    if (const auto *B = dyn_cast<BinaryOperator>(X)) {
      if (B->isAssignmentOp())
        clobber(B->getLHS(), Why, WhyLoc);
    } else if (const auto *U = dyn_cast<UnaryOperator>(X)) {
      if (U->isIncrementDecrementOp())
        clobber(U->getSubExpr(), Why, WhyLoc);
    } else if (const auto *C = dyn_cast<CallExpr>(X)) {
      const FunctionDecl *Callee = C->getDirectCallee();
      std::string Name = Callee && Callee->getIdentifier()
                             ? Callee->getName().str()
                             : std::string();
      if (lookupConstructorCall(Name) && C->getNumArgs() > 0) {
        std::string Into = text(C->getArg(C->getNumArgs() - 1));
        if (!Into.empty() && Into[0] == '&')
          Into.erase(0, 1);
        warn(C->getBeginLoc(),
             "the type built into '" + Into + "' is left out: " + Why);
      }
      for (const Expr *A : C->arguments()) {
        const Expr *Bare = A->IgnoreParenImpCasts();
        if (A->getType()->isPointerType())
          clobber(Bare, Why, WhyLoc);
      }
      const FunctionDecl *Def = nullptr;
      if (Callee && Callee->hasBody(Def) && Seen.insert(Def).second)
        Work.push_back(Def->getBody());
    }
    for (const Stmt *Child : X->children())
      Work.push_back(Child);
  }
}

//===----------------------------------------------------------------------===//
// Storage
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
    if (const auto *D = dyn_cast<VarDecl>(R->getDecl()))
      return Place{slotOf(D), {}, D->getNameAsString()};
    return std::nullopt;
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
  if (const auto *C = dyn_cast<ImplicitCastExpr>(E))
    if (C->getCastKind() == CK_NoOp || C->getCastKind() == CK_LValueBitCast)
      return place(C->getSubExpr());
  return std::nullopt;
}

Value Interpreter::load(const Place &P) const {
  const Value *V = P.Root.get();
  for (int64_t I : P.Path) {
    if (V->K != Value::Kind::Array) {
      // A pointer to a scalar, read at offset 0, is the scalar.
      if (I == 0 && &I == &P.Path.back())
        return *V;
      return V->isUnknown() ? *V
                            : Value::unknown("'" + P.Name +
                                                 "' is not an array here",
                                             {});
    }
    if (I < 0 || static_cast<uint64_t>(I) >= V->Elems->size())
      return Value::unknown("index " + std::to_string(I) + " is outside '" +
                                P.Name + "'",
                            {});
    V = &(*V->Elems)[I];
  }
  return *V;
}

void Interpreter::store(const Place &P, Value V) {
  Value *Target = P.Root.get();
  for (int64_t I : P.Path) {
    if (Target->K != Value::Kind::Array) {
      if (I == 0 && &I == &P.Path.back())
        break;
      return;
    }
    if (I < 0 || static_cast<uint64_t>(I) >= Target->Elems->size())
      return;
    Target = &(*Target->Elems)[I];
  }
  *Target = std::move(V);
}

void Interpreter::clobber(const Expr *E, const std::string &Why,
                          SourceLocation Loc) {
  E = E->IgnoreParenImpCasts();
  while (true) {
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(E))
      E = A->getBase()->IgnoreParenImpCasts();
    else if (const auto *M = dyn_cast<MemberExpr>(E))
      E = M->getBase()->IgnoreParenImpCasts();
    else if (const auto *U = dyn_cast<UnaryOperator>(E);
             U && U->getOpcode() == UO_AddrOf)
      E = U->getSubExpr()->IgnoreParenImpCasts();
    else
      break;
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E);
      U && U->getOpcode() == UO_Deref) {
    if (const auto *R = dyn_cast<DeclRefExpr>(
            U->getSubExpr()->IgnoreParenImpCasts()))
      if (const auto *D = dyn_cast<VarDecl>(R->getDecl())) {
        Value Ptr = *slotOf(D);
        if (Ptr.K == Value::Kind::Pointer)
          *Ptr.P->Root = Value::unknown(Why, Loc);
      }
    return;
  }
  const auto *R = dyn_cast<DeclRefExpr>(E);
  if (!R)
    return;
  const auto *D = dyn_cast<VarDecl>(R->getDecl());
  if (!D)
    return;
  Slot S = slotOf(D);
  // A pointer variable: what it points to may be written too.
  if (S->K == Value::Kind::Pointer)
    *S->P->Root = Value::unknown(Why, Loc);
  *S = Value::unknown(Why, Loc);
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

namespace {

/// The MPI constants whose meaning ddtc needs by name, not by value.
constexpr const char *MPIConstants[] = {
    "MPI_ORDER_C",           "MPI_ORDER_FORTRAN",    "MPI_DISTRIBUTE_BLOCK",
    "MPI_DISTRIBUTE_CYCLIC", "MPI_DISTRIBUTE_NONE",  "MPI_DISTRIBUTE_DFLT_DARG",
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
  if (!T->isUnsignedIntegerOrEnumerationType() &&
      (Bits >> (Width - 1)) & 1)
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
  else if (isa<MemberExpr>(E))
    V = Value::unknown("members of structs and classes are not followed "
                       "(only their addresses, with MPI_Get_address)",
                       E->getBeginLoc());
  else if (isa<FloatingLiteral>(E))
    V = Value::unknown("floating-point values are not followed",
                       E->getBeginLoc());
  else
    V = Value::unknown("'" + text(E) + "' is not an expression ddtc follows",
                       E->getBeginLoc());
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
      return Value::pointer(std::move(*P));
    return Value::unknown("the address of '" + text(U->getSubExpr()) +
                              "' is not followed",
                          Loc);
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
    return X.isUnknown() ? X
                         : Value::unknown("'" + text(U) + "' is not followed",
                                          Loc);
  switch (U->getOpcode()) {
  case UO_Minus:
    if (X.I == INT64_MIN && !isUnsigned(U->getType()))
      return Value::unknown("'" + text(U) + "' overflows", Loc);
    return truncate(Value::integer(static_cast<int64_t>(
                        0 - static_cast<uint64_t>(X.I))),
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
      skipUnknown(B->getRHS(), "it is evaluated only if '" +
                                   text(B->getLHS()) +
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
      clobber(B->getLHS(), "'" + text(B->getLHS()) + "' is not followed",
              Loc);
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
    Result = L.isUnknown() ? L
             : R.isUnknown()
                 ? R
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
    return Value::pointer(std::move(*P));
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

Value Interpreter::initialValue(QualType T, const Expr *Init,
                                SourceLocation Loc, const std::string &Name) {
  bool Static = Stack.empty();
  if (const ConstantArrayType *A = AC.getAsConstantArrayType(T)) {
    uint64_t N = A->getSize().getZExtValue();
    QualType Elem = A->getElementType();
    if (N > MaxArrayElements || !(Elem->isIntegralOrEnumerationType() ||
                                  Elem->isPointerType() || Elem->isArrayType()))
      return Value::unknown("'" + Name + "' is not an array of integers or "
                                         "handles of at most " +
                                std::to_string(MaxArrayElements) +
                                " elements",
                            Loc);
    const auto *List = dyn_cast_or_null<InitListExpr>(
        Init ? Init->IgnoreImplicit() : nullptr);
    std::vector<Value> Elems;
    Elems.reserve(N);
    for (uint64_t I = 0; I < N; ++I) {
      const Expr *EI = nullptr;
      if (List)
        EI = I < List->getNumInits() ? List->getInit(I)
                                     : List->getArrayFiller();
      if (EI || Init || Static)
        Elems.push_back(initialValue(Elem, EI, Loc, Name));
      else
        Elems.push_back(Value()); // uninitialized
    }
    return Value::array(std::move(Elems));
  }
  if (T->isArrayType())
    return Value::unknown("'" + Name + "' is an array of variable length", Loc);
  if (!Init)
    return Static ? Value::integer(0) : Value();
  if (const auto *List = dyn_cast<InitListExpr>(Init->IgnoreImplicit())) {
    if (T->isRecordType())
      return Value::unknown("structs and classes are not followed", Loc);
    return List->getNumInits() ? initialValue(T, List->getInit(0), Loc, Name)
                               : Value::integer(0);
  }
  if (isa<ImplicitValueInitExpr>(Init))
    return Value::integer(0);
  if (T->isRecordType())
    return Value::unknown("structs and classes are not followed", Loc);
  return truncate(eval(Init), T);
}

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

Value Interpreter::evalCall(const CallExpr *C) {
  ++Out.Executions[C];
  const FunctionDecl *Callee = C->getDirectCallee();
  StringRef Name = Callee && Callee->getIdentifier() ? Callee->getName() : "";
  if (Name.startswith("MPI_") || Name.startswith("PMPI_"))
    if (std::optional<Value> V =
            evalMPICall(C, Name.startswith("P") ? Name.drop_front() : Name))
      return *V;
  const FunctionDecl *Def = nullptr;
  if (Callee && Callee->hasBody(Def) && !Def->isVariadic())
    return callFunction(C, Def);
  // Anything else may write what it is given a pointer to, and read the
  // handles it is given.
  std::vector<Value> Args;
  for (const Expr *A : C->arguments())
    Args.push_back(eval(A));
  useHandles(Args);
  std::string Why = "it is written by '" +
                    (Name.empty() ? text(C->getCallee()) : Name.str()) +
                    "' at run time";
  for (const Expr *A : C->arguments()) {
    QualType PT = A->getType();
    if (PT->isPointerType() && !PT->getPointeeType().isConstQualified())
      clobber(A, Why, C->getBeginLoc());
  }
  return Value::unknown("'" + (Name.empty() ? std::string("the call")
                                            : Name.str()) +
                            "' returns a value known only at run time",
                        C->getBeginLoc());
}

Value Interpreter::callFunction(const CallExpr *C, const FunctionDecl *F) {
  std::vector<Value> Args;
  for (const Expr *A : C->arguments())
    Args.push_back(eval(A));
  useHandles(Args);
  if (Stack.size() >= MaxCallDepth) {
    for (const Expr *A : C->arguments())
      if (A->getType()->isPointerType())
        clobber(A, "calls nested deeper than " + std::to_string(MaxCallDepth) +
                       " are not followed",
                C->getBeginLoc());
    return Value::unknown("calls nested deeper than " +
                              std::to_string(MaxCallDepth) +
                              " are not followed",
                          C->getBeginLoc());
  }
  Frame NF{F, {}, Value::unknown("'" + F->getNameAsString() +
                                     "' returns no value",
                                 C->getBeginLoc())};
  for (unsigned I = 0; I < F->getNumParams() && I < Args.size(); ++I)
    NF.Vars[F->getParamDecl(I)] = std::make_shared<Value>(
        truncate(Args[I], F->getParamDecl(I)->getType()));
  Stack.push_back(std::move(NF));
  exec(F->getBody());
  Value Result = std::move(Stack.back().Result);
  Stack.pop_back();
  return Result;
}

} // namespace ddtc::source

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
#include "clang/AST/ParentMapContext.h"
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
  StringRef T =
      Lexer::getSourceText(SM.getExpansionRange(R), SM, AC.getLangOpts());
  std::string S = T.str();
  // One line, and short: it is quoted in a diagnostic.
  for (char &C : S)
    if (C == '\n' || C == '\t')
      C = ' ';
  if (S.size() > 60)
    S = S.substr(0, 57) + "...";
  return S;
}

std::string Interpreter::intoText(const CallExpr *C) const {
  std::string Into = text(C->getArg(C->getNumArgs() - 1));
  if (!Into.empty() && Into[0] == '&')
    Into.erase(0, 1);
  return Into;
}

void Interpreter::reportUnreached(const std::vector<const CallExpr *> &Calls) {
  // After the budget ran out, the warning there covers what follows.
  if (Out.Stopped)
    return;
  // A call that did not run in a function that did was passed over by
  // control flow ddtc decided (a branch whose condition folds); one in a
  // function never entered was not looked at.
  auto EnclosingFunction = [&](const Stmt *S) -> const FunctionDecl * {
    DynTypedNodeList Parents = AC.getParents(*S);
    while (!Parents.empty()) {
      if (const auto *F = Parents[0].get<FunctionDecl>())
        return F;
      if (const auto *P = Parents[0].get<Stmt>())
        Parents = AC.getParents(*P);
      else if (const auto *D = Parents[0].get<Decl>())
        Parents = AC.getParents(*D);
      else
        break;
    }
    return nullptr;
  };
  for (const CallExpr *C : Calls) {
    if (Out.Executions.count(C) || C->getNumArgs() == 0)
      continue;
    const FunctionDecl *F = EnclosingFunction(C);
    if (F && Entered.count(F->getCanonicalDecl()))
      continue;
    if (Out.Reported.insert(C).second)
      warn(C->getBeginLoc(),
           "the type built into '" + intoText(C) +
               "' is left out: ddtc did not run this call (it is reached "
               "only through code ddtc does not follow: a function "
               "pointer, a method, a template, a recursion with no entry)");
  }
}

bool Interpreter::step(SourceLocation Loc) {
  if (++Steps <= MaxInterpreterSteps)
    return true;
  if (Steps == MaxInterpreterSteps + 1) {
    Out.Stopped = true;
    warn(Loc, "stopped following the program here after " +
                  std::to_string(MaxInterpreterSteps) +
                  " steps; types committed after this point are left out");
  }
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
  Exposed.clear();
  Stack.clear();
  Stack.push_back({F, {}, {}});
  Entered.insert(F->getCanonicalDecl());
  for (const ParmVarDecl *P : F->parameters()) {
    std::string Why = "'" + P->getNameAsString() + "' is a parameter of '" +
                      F->getNameAsString() +
                      "', which nothing in this file calls";
    Value V = Value::unknown(Why, P->getLocation());
    // A pointer parameter points to a place of its own (unknown until
    // written): `void build(MPI_Datatype *out)` builds a type into it.
    QualType T = P->getType();
    if ((T->isPointerType() || T->isReferenceType()) &&
        !T->getPointeeType().isConstQualified()) {
      QualType Pointee = T->getPointeeType();
      if (Pointee->isScalarType())
        V = pointerTo(Place{
            std::make_shared<Value>(std::move(V)), {}, P->getNameAsString()});
      else if (followedRecord(Pointee) &&
               valueCount(Pointee) <= MaxVariableValues) {
        // `void build(struct types *t)`: its members are built into.
        Slot Members = std::make_shared<Value>(
            blankValue(Pointee, false, P->getNameAsString()));
        std::set<const Value *> Seen;
        clobberValue(*Members, V, Seen);
        V = pointerTo(Place{std::move(Members), {}, P->getNameAsString()});
      }
    }
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
    for (auto It = cast<CompoundStmt>(S)->body_begin(),
              End = cast<CompoundStmt>(S)->body_end();
         It != End; ++It) {
      Flow F = exec(*It);
      if (F == Flow::Next)
        continue;
      if (F == Flow::MayJump || F == Flow::Abandon) {
        // Control may leave here; what follows runs only maybe.
        SourceLocation At = JumpLoc;
        std::string Why = "it runs only if control does not leave at " +
                          position(At).str() +
                          ", where ddtc does not know the condition";
        for (auto Rest = std::next(It); Rest != End; ++Rest) {
          skipUnknown(*Rest, Why, At);
          F = std::max(F, jumpFlow(*Rest));
        }
        JumpLoc = At;
      }
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
    return jumpFlow(If);
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
    return jumpFlow(S);
  }
}

Interpreter::Flow Interpreter::execDecl(const VarDecl *D) {
  // Static locals keep their value between calls in C; followed as locals
  // initialized at their declaration, which is what a function run once
  // sees.
  Value V = D->getType()->isReferenceType()
                ? bindReference(D->getInit(), D->getNameAsString())
                : initialValue(D->getType(), D->getInit(), D->getLocation(),
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
        return jumpFlow(Loop);
      }
      if (!C.I)
        return Flow::Next;
    }
    Flow F = exec(Body);
    if (F == Flow::Break)
      return Flow::Next;
    if (F == Flow::Return || F == Flow::Stop || F == Flow::Abandon)
      return F;
    if (F == Flow::MayJump) {
      // A break or continue under an unknown condition: the iterations
      // from here on may or may not run.
      std::string Why = "it is in a loop that may end early at " +
                        position(JumpLoc).str() +
                        ", where ddtc does not know the condition";
      skipUnknown(Body, Why, JumpLoc);
      if (Inc)
        skipUnknown(Inc, Why, JumpLoc);
      if (Cond)
        skipUnknown(Cond, Why, JumpLoc);
      return Flow::Next;
    }
    if (Inc)
      eval(Inc);
  }
}

namespace {

/// Where the statements of a region passed over could send control out of
/// it.
struct Jumps {
  SourceLocation Return;   ///< return or throw: out of the function
  SourceLocation Loop;     ///< break or continue: out of the enclosing loop
  SourceLocation Anywhere; ///< goto
};

void scanJumps(const Stmt *S, bool InLoop, bool InSwitch, Jumps &J) {
  if (!S)
    return;
  auto Mark = [](SourceLocation &At, SourceLocation L) {
    if (At.isInvalid())
      At = L;
  };
  switch (S->getStmtClass()) {
  case Stmt::ReturnStmtClass:
  case Stmt::CXXThrowExprClass:
    Mark(J.Return, S->getBeginLoc());
    break;
  case Stmt::GotoStmtClass:
  case Stmt::IndirectGotoStmtClass:
    Mark(J.Anywhere, S->getBeginLoc());
    break;
  case Stmt::BreakStmtClass:
    if (!InLoop && !InSwitch)
      Mark(J.Loop, S->getBeginLoc());
    break;
  case Stmt::ContinueStmtClass:
    if (!InLoop)
      Mark(J.Loop, S->getBeginLoc());
    break;
  case Stmt::ForStmtClass:
  case Stmt::WhileStmtClass:
  case Stmt::DoStmtClass:
  case Stmt::CXXForRangeStmtClass:
    InLoop = true;
    break;
  case Stmt::SwitchStmtClass:
    InSwitch = true;
    break;
  case Stmt::LambdaExprClass:
  case Stmt::BlockExprClass:
    return; // a function of its own
  default:
    break;
  }
  for (const Stmt *Child : S->children())
    scanJumps(Child, InLoop, InSwitch, J);
}

} // namespace

Interpreter::Flow Interpreter::jumpFlow(const Stmt *S) {
  Jumps J;
  scanJumps(S, false, false, J);
  // The function may have returned before what follows: what it returns
  // is not known.
  if (J.Return.isValid() && Stack.back().MayHaveReturned.isInvalid())
    Stack.back().MayHaveReturned = J.Return;
  if (J.Anywhere.isValid()) {
    JumpLoc = J.Anywhere;
    return Flow::Abandon;
  }
  if (J.Loop.isValid()) {
    JumpLoc = J.Loop;
    return Flow::MayJump;
  }
  return Flow::Next;
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
      bool Constructor = lookupConstructorCall(Name) && C->getNumArgs() > 0;
      if (Constructor && Out.Reported.insert(C).second)
        warn(C->getBeginLoc(),
             "the type built into '" + intoText(C) + "' is left out: " + Why);
      for (unsigned I = 0; I < C->getNumArgs(); ++I) {
        const Expr *A = C->getArg(I);
        if (!A->getType()->isPointerType())
          continue;
        // The handle a skipped constructor builds into holds a type left
        // out with its warning (the commit need not warn again).
        std::optional<Place> P;
        if (Constructor && I + 1 == C->getNumArgs())
          if (const auto *U = dyn_cast<UnaryOperator>(A->IgnoreParens());
              U && U->getOpcode() == UO_AddrOf)
            P = place(U->getSubExpr());
        auto Left = std::make_shared<Handle>();
        Left->Ctor = C;
        Left->Why = std::make_shared<Reason>(Reason{Why, WhyLoc});
        if (!P || !store(*P, Value::handle(std::move(Left))))
          clobber(A->IgnoreParenImpCasts(), Why, WhyLoc);
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
// Expressions
//===----------------------------------------------------------------------===//

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

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

Value Interpreter::evalCall(const CallExpr *C) {
  ++Out.Executions[C];
  // C++ assigns a struct with its implicit assignment operator.
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(C))
    if (const auto *M = dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee());
        M && Op->getOperator() == OO_Equal && M->isTrivial() &&
        (M->isCopyAssignmentOperator() || M->isMoveAssignmentOperator())) {
      Value V = eval(Op->getArg(1));
      if (std::optional<Place> P = place(Op->getArg(0)))
        store(*P, V);
      else
        clobber(Op->getArg(0), "'" + text(Op->getArg(0)) + "' is not followed",
                Op->getBeginLoc());
      return V;
    }
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
  for (unsigned I = 0; I < C->getNumArgs(); ++I) {
    QualType PT = C->getArg(I)->getType();
    if (!PT->isPointerType() || PT->getPointeeType().isConstQualified())
      continue;
    if (Args[I].K == Value::Kind::Pointer) {
      // Exactly what it points into.
      std::set<const Value *> Seen{Args[I].P->Root.get()};
      clobberValue(*Args[I].P->Root, Value::unknown(Why, C->getBeginLoc()),
                   Seen);
    } else {
      clobber(C->getArg(I), Why, C->getBeginLoc());
    }
  }
  return Value::unknown(
      "'" + (Name.empty() ? std::string("the call") : Name.str()) +
          "' returns a value known only at run time",
      C->getBeginLoc());
}

Value Interpreter::bindReference(const Expr *Init, const std::string &Name) {
  if (!Init)
    return Value::unknown("the reference '" + Name + "' is not bound",
                          SourceLocation());
  if (std::optional<Place> P = place(Init->IgnoreImplicit()))
    return pointerTo(std::move(*P));
  // Bound to a temporary (a `const T &` parameter given a value).
  return pointerTo(Place{std::make_shared<Value>(eval(Init).copy()), {}, Name});
}

Value Interpreter::callFunction(const CallExpr *C, const FunctionDecl *F) {
  std::vector<Value> Args;
  for (unsigned I = 0; I < C->getNumArgs(); ++I) {
    const Expr *A = C->getArg(I);
    if (I < F->getNumParams() &&
        F->getParamDecl(I)->getType()->isReferenceType())
      Args.push_back(bindReference(A, F->getParamDecl(I)->getNameAsString()));
    else
      Args.push_back(eval(A));
  }
  useHandles(Args);
  if (Stack.size() >= MaxCallDepth) {
    for (const Expr *A : C->arguments())
      if (A->getType()->isPointerType())
        clobber(A,
                "calls nested deeper than " + std::to_string(MaxCallDepth) +
                    " are not followed",
                C->getBeginLoc());
    return Value::unknown("calls nested deeper than " +
                              std::to_string(MaxCallDepth) +
                              " are not followed",
                          C->getBeginLoc());
  }
  Frame NF{F,
           {},
           Value::unknown("'" + F->getNameAsString() + "' returns no value",
                          C->getBeginLoc())};
  for (unsigned I = 0; I < F->getNumParams() && I < Args.size(); ++I)
    NF.Vars[F->getParamDecl(I)] = std::make_shared<Value>(
        truncate(Args[I], F->getParamDecl(I)->getType()).copy());
  Stack.push_back(std::move(NF));
  Entered.insert(F->getCanonicalDecl());
  Flow Ended = exec(F->getBody());
  Value Result = std::move(Stack.back().Result);
  SourceLocation Early = Stack.back().MayHaveReturned;
  Stack.pop_back();
  if (Ended == Flow::Abandon)
    return Value::unknown("'" + F->getNameAsString() +
                              "' has a goto ddtc does not follow",
                          JumpLoc);
  if (Early.isValid())
    return Value::unknown("'" + F->getNameAsString() + "' may return at " +
                              position(Early).str() +
                              ", where ddtc does not know the condition",
                          Early);
  return Result;
}

} // namespace ddtc::source

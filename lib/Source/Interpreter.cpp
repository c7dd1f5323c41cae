//===- lib/Source/Interpreter.cpp - Running a function's statements -------===//
//
// Entry functions, statements and calls of the program's own functions,
// and the diagnostics the interpreter gives. Control flow lives here: what
// runs, what is passed over (and so made unknown) and why. The values of
// expressions are computed in Expressions.cpp, variables and the places in
// them are kept by Storage.cpp, and MPI calls are modelled in MPICalls.cpp.
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

//===- lib/Source/Interpreter.h - Following a function's values -*- C++ -*-===//
//
// An interpreter over Clang's AST that runs a function as far as its values
// are compile-time values: statements in order, branches whose condition
// folds, loops whose bounds do, calls of functions defined in the
// translation unit (with the arguments the call passes). Where control
// depends on an unknown value, the statements that might run are not run:
// every variable they could write becomes unknown, and the MPI constructor
// calls among them are reported as left out. MPI calls are modelled in
// MPICalls.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_LIB_SOURCE_INTERPRETER_H
#define DDTC_LIB_SOURCE_INTERPRETER_H

#include "Values.h"

#include "ddtc/Source/SourceExtractor.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"

#include <map>
#include <unordered_map>

namespace ddtc {
class TypeContext;
}

namespace ddtc::source {

/// A type committed during interpretation.
struct Commit {
  std::string Name; ///< of the variable it was committed in
  std::shared_ptr<Handle> H;
};

/// What the interpretation of one translation unit produces.
struct UnitResults {
  std::vector<Commit> Commits;
  std::vector<SourceDiagnostic> Diagnostics;
  /// Executions of each call expression: a rewrite replaces a call that
  /// ran exactly once.
  std::map<const clang::CallExpr *, unsigned> Executions;
  /// Constructor calls found in the unit (whether run or not).
  unsigned ConstructorCalls = 0;
};

class Interpreter {
public:
  Interpreter(clang::ASTContext &AC, TypeContext &Ctx, UnitResults &Out);

  /// Runs F with unknown parameters.
  void runEntry(const clang::FunctionDecl *F);

  /// A warning at Loc.
  void warn(clang::SourceLocation Loc, std::string Message);
  void note(clang::SourceLocation Loc, std::string Message);
  SourcePosition position(clang::SourceLocation Loc) const;

private:
  enum class Flow { Next, Break, Continue, Return, Stop };
  struct Frame {
    const clang::FunctionDecl *F;
    std::unordered_map<const clang::VarDecl *, Slot> Vars;
    Value Result;
  };

  // Statements.
  Flow exec(const clang::Stmt *S);
  Flow execDecl(const clang::VarDecl *D);
  Flow execLoop(const clang::Stmt *Loop, const clang::Expr *Cond,
                const clang::Stmt *Body, const clang::Expr *Inc,
                bool TestFirst);
  /// S might run or not: what it writes becomes unknown, its constructor
  /// calls are reported as left out.
  void skipUnknown(const clang::Stmt *S, const std::string &Why,
                   clang::SourceLocation WhyLoc);
  bool step(clang::SourceLocation Loc);

  // Expressions.
  Value eval(const clang::Expr *E);
  Value evalUnary(const clang::UnaryOperator *U);
  Value evalBinary(const clang::BinaryOperator *B);
  Value evalCast(const clang::CastExpr *C);
  Value evalDeclRef(const clang::DeclRefExpr *R);
  Value evalCall(const clang::CallExpr *C);
  Value callFunction(const clang::CallExpr *C, const clang::FunctionDecl *F);
  Value initialValue(clang::QualType T, const clang::Expr *Init,
                     clang::SourceLocation Loc, const std::string &Name);
  /// The value of E as clang's constant evaluator folds it, if it does.
  std::optional<Value> fold(const clang::Expr *E);
  /// An MPI predefined datatype or constant E is exactly the expansion of.
  const char *mpiMacro(const clang::Expr *E) const;
  Value truncate(Value V, clang::QualType T) const;
  std::string text(const clang::Expr *E) const;

  // Storage.
  Slot slotOf(const clang::VarDecl *D);
  std::optional<Place> place(const clang::Expr *E);
  Value load(const Place &P) const;
  void store(const Place &P, Value V);
  /// Makes the variable E names (or points into) unknown.
  void clobber(const clang::Expr *E, const std::string &Why,
               clang::SourceLocation Loc);

  // MPI (MPICalls.cpp).
  std::optional<Value> evalMPICall(const clang::CallExpr *C,
                                   llvm::StringRef Name);
  Value construct(const clang::CallExpr *C, llvm::StringRef Name);
  Value predefinedHandle(const char *Name);
  std::optional<Value> addressOf(const clang::Expr *E);
  /// The handles among a call's arguments (or that they point to) are
  /// used by something ddtc does not follow.
  void useHandles(const std::vector<Value> &Args);
  /// Count elements of the array V points into (a scalar for Count 1).
  std::optional<std::vector<Value>> readArray(const Value &V, int64_t Count);

  clang::ASTContext &AC;
  clang::SourceManager &SM;
  TypeContext &Ctx;
  UnitResults &Out;
  std::vector<Frame> Stack;
  std::unordered_map<const clang::VarDecl *, Slot> Globals;
  uint64_t Steps = 0;
};

/// The budget of statements and expressions per entry function: a loop
/// that runs longer is not followed to its end.
constexpr uint64_t MaxInterpreterSteps = 20'000'000;
/// Calls nested deeper are not followed (recursion).
constexpr unsigned MaxCallDepth = 32;
/// Arrays with more elements are not followed element by element.
constexpr uint64_t MaxArrayElements = uint64_t(1) << 22;

} // namespace ddtc::source

#endif // DDTC_LIB_SOURCE_INTERPRETER_H

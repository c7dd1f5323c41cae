//===- lib/Source/Interpreter.h - Following a function's values -*- C++ -*-===//
//
// An interpreter over Clang's AST that runs a function as far as its values
// are compile-time values: statements in order, branches whose condition
// folds, loops whose bounds do, calls of functions defined in the
// translation unit (with the arguments the call passes). Where control
// depends on an unknown value, the statements that might run are not run:
// every variable they could write becomes unknown, and the MPI constructor
// calls among them are reported as left out. Statements and calls are run
// in Interpreter.cpp, expressions evaluated in Expressions.cpp, variables
// kept in Storage.cpp; MPI calls are modelled in MPICalls.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_LIB_SOURCE_INTERPRETER_H
#define DDTC_LIB_SOURCE_INTERPRETER_H

#include "Values.h"

#include "ddtc/Source/SourceExtractor.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"

#include <map>
#include <set>
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
  /// Constructor calls reported as left out without running.
  std::set<const clang::CallExpr *> Reported;
  /// The step budget ran out (and said so) in some entry function.
  bool Stopped = false;
};

class Interpreter {
public:
  Interpreter(clang::ASTContext &AC, TypeContext &Ctx, UnitResults &Out);

  /// Runs F with unknown parameters.
  void runEntry(const clang::FunctionDecl *F);

  /// Warns at each of Calls that neither ran nor was reported: nothing is
  /// left out silently.
  void reportUnreached(const std::vector<const clang::CallExpr *> &Calls);

  /// A warning at Loc.
  void warn(clang::SourceLocation Loc, std::string Message);
  void note(clang::SourceLocation Loc, std::string Message);
  SourcePosition position(clang::SourceLocation Loc) const;

private:
  /// How a statement ends. MayJump and Abandon come from statements
  /// passed over that might have left: a break or continue (the loop may
  /// have ended), a goto (anything may follow); ordered by how much of
  /// what follows they make uncertain.
  enum class Flow { Next, Break, Continue, Return, Stop, MayJump, Abandon };
  struct Frame {
    const clang::FunctionDecl *F;
    std::unordered_map<const clang::VarDecl *, Slot> Vars;
    Value Result;
    /// A return among statements passed over: the result is not known.
    clang::SourceLocation MayHaveReturned = {};
  };

  // Statements and calls (Interpreter.cpp).
  Flow exec(const clang::Stmt *S);
  Flow execDecl(const clang::VarDecl *D);
  Flow execLoop(const clang::Stmt *Loop, const clang::Expr *Cond,
                const clang::Stmt *Body, const clang::Expr *Inc,
                bool TestFirst);
  /// S might run or not: what it writes becomes unknown, its constructor
  /// calls are reported as left out.
  void skipUnknown(const clang::Stmt *S, const std::string &Why,
                   clang::SourceLocation WhyLoc);
  /// Where control could leave S, passed over: Next, MayJump or Abandon
  /// (with JumpLoc), and the frame marked if S could return.
  Flow jumpFlow(const clang::Stmt *S);
  bool step(clang::SourceLocation Loc);
  Value evalCall(const clang::CallExpr *C);
  Value callFunction(const clang::CallExpr *C, const clang::FunctionDecl *F);
  /// What a C++ reference bound to Init holds: a pointer to it (or to a
  /// temporary holding its value).
  Value bindReference(const clang::Expr *Init, const std::string &Name);
  std::string text(const clang::Expr *E) const;
  /// The handle a constructor call builds into, as written.
  std::string intoText(const clang::CallExpr *C) const;

  // Expressions (Expressions.cpp).
  Value eval(const clang::Expr *E);
  Value evalUnary(const clang::UnaryOperator *U);
  Value evalBinary(const clang::BinaryOperator *B);
  Value evalCast(const clang::CastExpr *C);
  Value evalDeclRef(const clang::DeclRefExpr *R);
  /// The value of E as clang's constant evaluator folds it, if it does.
  std::optional<Value> fold(const clang::Expr *E);
  /// An MPI predefined datatype or constant E is exactly the expansion of.
  const char *mpiMacro(const clang::Expr *E) const;
  Value truncate(Value V, clang::QualType T) const;

  // Storage (Storage.cpp).
  Slot slotOf(const clang::VarDecl *D);
  std::optional<Place> place(const clang::Expr *E);
  /// The name of what P designates: `faces_2`, `t_block`.
  std::string placeName(const Place &P) const;
  Value load(const Place &P) const;
  /// False when P is not storage ddtc follows (outside an array, into an
  /// unknown value).
  bool store(const Place &P, Value V);
  /// Makes the variable E writes (into or through), and all its pointers
  /// reach, unknown.
  void clobber(const clang::Expr *E, const std::string &Why,
               clang::SourceLocation Loc);
  void clobberValue(Value &V, const Value &Unknown,
                    std::set<const Value *> &Seen);
  /// A pointer to P exists: a write through an unknown pointer may reach
  /// it.
  Value pointerTo(Place P);
  /// The struct T is, if ddtc follows its members (not a union, not a
  /// class with bases or virtual functions).
  const clang::RecordDecl *followedRecord(clang::QualType T) const;
  /// The scalar values an object of type T holds, saturated just above
  /// MaxVariableValues.
  uint64_t valueCount(clang::QualType T) const;
  /// An object of type T not (or zero-) initialized: arrays and structs
  /// get their shape, so that their elements and members can be assigned.
  Value blankValue(clang::QualType T, bool Zero, const std::string &Name) const;
  Value initialValue(clang::QualType T, const clang::Expr *Init,
                     clang::SourceLocation Loc, const std::string &Name);

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
  /// The variables some pointer points into.
  std::set<Slot> Exposed;
  /// The functions run (as entries or called), over all entries.
  std::set<const clang::FunctionDecl *> Entered;
  uint64_t Steps = 0;
  /// Where the latest MayJump or Abandon comes from.
  clang::SourceLocation JumpLoc;
};

/// The budget of statements and expressions per entry function: a loop
/// that runs longer is not followed to its end.
constexpr uint64_t MaxInterpreterSteps = 20'000'000;
/// Calls nested deeper are not followed (recursion).
constexpr unsigned MaxCallDepth = 32;
/// Variables (arrays, structs, arrays of structs) holding more scalar
/// values are not followed value by value.
constexpr uint64_t MaxVariableValues = uint64_t(1) << 22;

} // namespace ddtc::source

#endif // DDTC_LIB_SOURCE_INTERPRETER_H

//===- lib/Source/SourceExtractor.cpp - Types from C/C++ source -----------===//
//
// Runs Clang over each source (flags from `--`, or compile_commands.json),
// interprets the functions nothing else in the file calls, and turns the
// types they commit into ExtractedTypes with their positions and, where
// the construction is a statement of its own that ran once, the site
// `ddtc rewrite` replaces.
//
//===----------------------------------------------------------------------===//
#include "ddtc/Source/SourceExtractor.h"

#include "Interpreter.h"

#include "ddtc/IR/ConstructorCalls.h"
#include "ddtc/IR/Predefined.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/Lexer.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/DiagnosticsYaml.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"

#include <fstream>
#include <map>
#include <set>
#include <unordered_set>

#ifndef DDTC_CLANG_RESOURCE_DIR
#error "DDTC_CLANG_RESOURCE_DIR: the builtin headers of the Clang linked"
#endif

namespace ddtc {

using namespace clang;
using llvm::cast;
using llvm::dyn_cast;
using llvm::isa;
using source::Handle;
using source::UnitResults;

std::string SourcePosition::str() const {
  return File + ":" + std::to_string(Line) + ":" + std::to_string(Column);
}

namespace {

/// The function definitions of the main file, and the functions called.
class FunctionCollector : public RecursiveASTVisitor<FunctionCollector> {
public:
  explicit FunctionCollector(SourceManager &SM) : SM(SM) {}

  bool VisitFunctionDecl(FunctionDecl *F) {
    if (F->doesThisDeclarationHaveABody() && !F->isDependentContext() &&
        SM.isInMainFile(SM.getExpansionLoc(F->getLocation())))
      Definitions.push_back(F);
    return true;
  }
  bool VisitCallExpr(CallExpr *C) {
    const FunctionDecl *F = C->getDirectCallee();
    if (!F)
      return true;
    Called.insert(F->getCanonicalDecl());
    if (F->getIdentifier() && lookupConstructorCall(F->getName()) &&
        SM.isInMainFile(SM.getExpansionLoc(C->getBeginLoc())))
      ConstructorCalls.push_back(C);
    return true;
  }

  std::vector<const FunctionDecl *> Definitions;
  std::unordered_set<const FunctionDecl *> Called;
  std::vector<const CallExpr *> ConstructorCalls;

private:
  SourceManager &SM;
};

/// Turns the commits of one translation unit into ExtractedTypes.
class UnitCollector {
public:
  UnitCollector(ASTContext &AC, UnitResults &Results)
      : AC(AC), SM(AC.getSourceManager()), LO(AC.getLangOpts()),
        Results(Results) {}

  ExtractedType collect(const source::Commit &C);

private:
  struct Range {
    unsigned Begin, End; ///< offsets in the main file
  };
  /// The statement that is exactly call C, through its `;`, if it is a
  /// statement of its own in the main file that ran once.
  std::optional<Range> statementOf(const CallExpr *C, std::string &WhyNot);
  /// Range R widened to whole lines when nothing else is on them.
  Range wholeLines(Range R) const;
  /// The edit that removes the declaration of a variable the removed and
  /// replaced calls used, when nothing left refers to it (so that the
  /// rewritten code has no unused variable).
  std::optional<SourceEdit> removeDeclaration(const clang::VarDecl *Var,
                                              const RewriteSite &Site);
  /// Where each variable of the main file is referred to (file offsets).
  std::map<const VarDecl *, std::vector<unsigned>> References;
  bool Indexed = false;
  SourcePosition position(SourceLocation Loc) const;

  ASTContext &AC;
  SourceManager &SM;
  const LangOptions &LO;
  UnitResults &Results;
};

SourcePosition UnitCollector::position(SourceLocation Loc) const {
  PresumedLoc PL = SM.getPresumedLoc(SM.getExpansionLoc(Loc));
  if (PL.isInvalid())
    return {};
  return {PL.getFilename(), PL.getLine(), PL.getColumn()};
}

std::optional<UnitCollector::Range>
UnitCollector::statementOf(const CallExpr *C, std::string &WhyNot) {
  unsigned Runs = Results.Executions.count(C) ? Results.Executions.at(C) : 0;
  if (Runs != 1) {
    WhyNot = "its constructor call runs " + std::to_string(Runs) + " times";
    return std::nullopt;
  }
  SourceLocation Begin = C->getBeginLoc(), End = C->getEndLoc();
  if (Begin.isMacroID() || End.isMacroID()) {
    WhyNot = "its constructor call is in a macro expansion";
    return std::nullopt;
  }
  if (!SM.isInMainFile(Begin)) {
    WhyNot = "its constructor call is in a header";
    return std::nullopt;
  }
  DynTypedNodeList Parents = AC.getParents(*C);
  if (Parents.size() != 1 || !Parents[0].get<CompoundStmt>()) {
    WhyNot = "its constructor call is not a statement of its own (its "
             "result is used)";
    return std::nullopt;
  }
  SourceLocation After =
      Lexer::findLocationAfterToken(End, tok::semi, SM, LO, false);
  if (After.isInvalid()) {
    WhyNot = "no ';' follows its constructor call";
    return std::nullopt;
  }
  return Range{SM.getFileOffset(Begin), SM.getFileOffset(After)};
}

UnitCollector::Range UnitCollector::wholeLines(Range R) const {
  StringRef Buffer = SM.getBufferData(SM.getMainFileID());
  unsigned B = R.Begin, E = R.End;
  while (B > 0 && (Buffer[B - 1] == ' ' || Buffer[B - 1] == '\t'))
    --B;
  if (B > 0 && Buffer[B - 1] != '\n')
    return R;
  while (E < Buffer.size() && (Buffer[E] == ' ' || Buffer[E] == '\t'))
    ++E;
  if (E < Buffer.size() && Buffer[E] != '\n')
    return R;
  return {B, E < Buffer.size() ? E + 1 : E};
}

namespace {
class ReferenceIndexer : public RecursiveASTVisitor<ReferenceIndexer> {
public:
  ReferenceIndexer(SourceManager &SM,
                   std::map<const VarDecl *, std::vector<unsigned>> &Refs)
      : SM(SM), Refs(Refs) {}
  bool VisitDeclRefExpr(DeclRefExpr *R) {
    if (const auto *V = dyn_cast<VarDecl>(R->getDecl()))
      Refs[V->getCanonicalDecl()].push_back(
          SM.getFileOffset(SM.getExpansionLoc(R->getBeginLoc())));
    return true;
  }

private:
  SourceManager &SM;
  std::map<const VarDecl *, std::vector<unsigned>> &Refs;
};
} // namespace

std::optional<SourceEdit>
UnitCollector::removeDeclaration(const VarDecl *Var, const RewriteSite &Site) {
  if (!Var->hasLocalStorage() || Var->getLocation().isMacroID() ||
      !SM.isInMainFile(Var->getLocation()) ||
      (Var->hasInit() && Var->getInit()->HasSideEffects(AC)))
    return std::nullopt;
  if (!Indexed) {
    ReferenceIndexer(SM, References).TraverseDecl(AC.getTranslationUnitDecl());
    Indexed = true;
  }
  for (unsigned Offset : References[Var->getCanonicalDecl()]) {
    // Gone: in the replaced statement or in a removed one.
    bool Gone = Offset >= Site.Offset && Offset < Site.Offset + Site.Length;
    for (const SourceEdit &E : Site.Removals)
      Gone |= Offset >= E.Offset && Offset < E.Offset + E.Length;
    if (!Gone)
      return std::nullopt;
  }
  DynTypedNodeList Parents = AC.getParents(*Var);
  const DeclStmt *DS =
      Parents.size() == 1 ? Parents[0].get<DeclStmt>() : nullptr;
  if (!DS)
    return std::nullopt;
  std::vector<const VarDecl *> Decls;
  for (const Decl *D : DS->decls())
    if (const auto *V = dyn_cast<VarDecl>(D))
      Decls.push_back(V);
    else
      return std::nullopt;
  auto Offset = [&](SourceLocation L) { return SM.getFileOffset(L); };
  std::string File = Site.File;
  if (Decls.size() == 1) {
    std::string Ignored;
    SourceLocation After = Lexer::findLocationAfterToken(
        DS->getEndLoc(), tok::semi, SM, LO, false);
    Range R{Offset(DS->getBeginLoc()),
            After.isValid() ? Offset(After) : Offset(DS->getEndLoc()) + 1};
    if (DS->getBeginLoc().isMacroID())
      return std::nullopt;
    R = wholeLines(R);
    return SourceEdit{File, R.Begin, R.End - R.Begin, ""};
  }
  // `MPI_Datatype pair, tile, tiled;`: the name and the comma after it, or
  // before it for the last one.
  for (size_t I = 0; I < Decls.size(); ++I) {
    if (Decls[I] != Var)
      continue;
    if (I + 1 < Decls.size()) {
      unsigned B = Offset(Var->getLocation());
      unsigned E = Offset(Decls[I + 1]->getLocation());
      return SourceEdit{File, B, E - B, ""};
    }
    SourceLocation PrevEnd =
        Lexer::getLocForEndOfToken(Decls[I - 1]->getEndLoc(), 0, SM, LO);
    SourceLocation End =
        Lexer::getLocForEndOfToken(Var->getEndLoc(), 0, SM, LO);
    if (PrevEnd.isInvalid() || End.isInvalid())
      return std::nullopt;
    return SourceEdit{File, Offset(PrevEnd), Offset(End) - Offset(PrevEnd), ""};
  }
  return std::nullopt;
}

ExtractedType UnitCollector::collect(const source::Commit &C) {
  Handle &H = *C.H;
  ExtractedType X;
  X.Name = C.Name;
  X.T = H.T;
  X.Where = position(H.Ctor->getBeginLoc());

  std::string WhyNot;
  std::optional<Range> Final = statementOf(H.Ctor, WhyNot);
  if (Final && !H.InEntryFunction)
    WhyNot = "it is built in a function that receives its arguments from a "
             "caller (rewriting would fix them)";
  else if (Final && !H.Users.empty())
    WhyNot = "its handle is also an operand of another type";
  if (!Final || !WhyNot.empty()) {
    X.NotRewritable = WhyNot;
    return X;
  }

  RewriteSite Site;
  Site.File = SM.getFileEntryForID(SM.getMainFileID())->getName().str();
  Site.Offset = Final->Begin;
  Site.Length = Final->End - Final->Begin;
  StringRef Buffer = SM.getBufferData(SM.getMainFileID());
  unsigned LineStart = Final->Begin;
  while (LineStart > 0 && Buffer[LineStart - 1] != '\n')
    --LineStart;
  for (unsigned I = LineStart;
       I < Final->Begin && (Buffer[I] == ' ' || Buffer[I] == '\t'); ++I)
    Site.Indent += Buffer[I];
  const Expr *NewArg = H.Ctor->getArg(H.Ctor->getNumArgs() - 1);
  Site.Target =
      Lexer::getSourceText(
          CharSourceRange::getTokenRange(NewArg->getSourceRange()), SM, LO)
          .str();

  // The intermediate handles only this type uses go with it: their
  // constructor calls and their frees.
  std::vector<Handle *> All;
  std::set<Handle *> Seen;
  std::vector<Handle *> Work{&H};
  while (!Work.empty()) {
    Handle *Y = Work.back();
    Work.pop_back();
    if (!Seen.insert(Y).second)
      continue;
    if (Y != &H)
      All.push_back(Y);
    for (const std::shared_ptr<Handle> &O : Y->Operands)
      Work.push_back(O.get());
  }
  std::set<Handle *> Removed{&H};
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (Handle *O : All) {
      if (Removed.count(O) || O->Commit || O->OtherUses || !O->InEntryFunction)
        continue;
      bool UsersGone = true;
      for (Handle *U : O->Users)
        UsersGone &= Removed.count(U) > 0;
      if (!UsersGone)
        continue;
      std::string Ignored;
      std::vector<Range> Ranges;
      std::optional<Range> Ctor = statementOf(O->Ctor, Ignored);
      if (!Ctor)
        continue;
      Ranges.push_back(*Ctor);
      bool FreesOk = true;
      for (const CallExpr *F : O->Frees) {
        std::optional<Range> R = statementOf(F, Ignored);
        FreesOk &= R.has_value();
        if (R)
          Ranges.push_back(*R);
      }
      if (!FreesOk)
        continue;
      for (Range R : Ranges) {
        Range W = wholeLines(R);
        Site.Removals.push_back({Site.File, W.Begin, W.End - W.Begin, ""});
      }
      Removed.insert(O);
      Changed = true;
    }
  }
  // The variables of the calls that are gone: handles, and the arrays of
  // their arguments.
  std::set<const VarDecl *> Vars;
  std::vector<const Stmt *> Walk;
  for (Handle *O : Removed)
    Walk.push_back(O->Ctor);
  while (!Walk.empty()) {
    const Stmt *S = Walk.back();
    Walk.pop_back();
    if (const auto *R = dyn_cast_or_null<DeclRefExpr>(S))
      if (const auto *V = dyn_cast<VarDecl>(R->getDecl()))
        Vars.insert(V);
    if (S)
      for (const Stmt *Child : S->children())
        Walk.push_back(Child);
  }
  const VarDecl *Target = nullptr;
  if (const auto *U = dyn_cast<UnaryOperator>(NewArg->IgnoreParenImpCasts()))
    if (const auto *R = dyn_cast<DeclRefExpr>(U->getSubExpr()->IgnoreParens()))
      Target = dyn_cast<VarDecl>(R->getDecl());
  std::vector<SourceEdit> Declarations;
  for (const VarDecl *V : Vars) {
    if (std::optional<SourceEdit> E = removeDeclaration(V, Site))
      Declarations.push_back(*E);
    else if (V != Target && V->hasLocalStorage() && V->getIdentifier())
      Site.Unread.push_back(V->getNameAsString());
  }
  Site.Removals.insert(Site.Removals.end(), Declarations.begin(),
                       Declarations.end());
  X.Site = std::move(Site);
  return X;
}

class ExtractConsumer : public ASTConsumer {
public:
  ExtractConsumer(TypeContext &Ctx, ExtractResult &Result)
      : Ctx(Ctx), Result(Result) {}

  void HandleTranslationUnit(ASTContext &AC) override {
    // Clang has reported the errors; a broken AST is not interpreted.
    if (AC.getDiagnostics().hasErrorOccurred()) {
      Result.Failed = true;
      return;
    }
    FunctionCollector Functions(AC.getSourceManager());
    Functions.TraverseDecl(AC.getTranslationUnitDecl());
    UnitResults Unit;
    Unit.ConstructorCalls = Functions.ConstructorCalls.size();
    source::Interpreter Interp(AC, Ctx, Unit);
    for (const FunctionDecl *F : Functions.Definitions)
      if (!Functions.Called.count(F->getCanonicalDecl()))
        Interp.runEntry(F);
    Interp.reportUnreached(Functions.ConstructorCalls);
    UnitCollector Collector(AC, Unit);
    for (const source::Commit &C : Unit.Commits)
      Result.Types.push_back(Collector.collect(C));
    Result.ConstructorCalls += Unit.ConstructorCalls;
    for (SourceDiagnostic &D : Unit.Diagnostics)
      Result.Diagnostics.push_back(std::move(D));
  }

private:
  TypeContext &Ctx;
  ExtractResult &Result;
};

class ExtractAction : public ASTFrontendAction {
public:
  ExtractAction(TypeContext &Ctx, ExtractResult &Result)
      : Ctx(Ctx), Result(Result) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 StringRef) override {
    return std::make_unique<ExtractConsumer>(Ctx, Result);
  }

private:
  TypeContext &Ctx;
  ExtractResult &Result;
};

class ExtractActionFactory : public tooling::FrontendActionFactory {
public:
  ExtractActionFactory(TypeContext &Ctx, ExtractResult &Result)
      : Ctx(Ctx), Result(Result) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<ExtractAction>(Ctx, Result);
  }

private:
  TypeContext &Ctx;
  ExtractResult &Result;
};

bool isIdentifierChar(char C) {
  return std::isalnum(static_cast<unsigned char>(C)) || C == '_';
}

/// Names made C identifiers (format v1), distinct from predefined types
/// and from each other.
void makeNamesUnique(std::vector<ExtractedType> &Types) {
  std::set<std::string> Taken;
  for (ExtractedType &X : Types) {
    std::string Base;
    for (char C : X.Name)
      Base += isIdentifierChar(C) ? C : '_';
    if (Base.empty() || std::isdigit(static_cast<unsigned char>(Base[0])))
      Base = "type_" + Base;
    if (lookupPredefined(Base))
      Base += "_type";
    std::string Name = Base;
    for (unsigned I = 2; Taken.count(Name); ++I)
      Name = Base + "_" + std::to_string(I);
    Taken.insert(Name);
    X.Name = Name;
  }
}

/// A helper called several times with the same unknown argument warns
/// once: a warning (with its notes) identical to an earlier one is
/// dropped.
void dropRepeatedDiagnostics(std::vector<SourceDiagnostic> &Diags) {
  std::set<std::string> Seen;
  std::vector<SourceDiagnostic> Kept;
  for (size_t I = 0; I < Diags.size();) {
    size_t End = I + 1;
    while (End < Diags.size() &&
           Diags[End].Kind == SourceDiagnostic::Level::Note)
      ++End;
    std::string Key;
    for (size_t J = I; J < End; ++J)
      Key += Diags[J].Where.str() + '\0' + Diags[J].Message + '\0';
    if (Seen.insert(Key).second)
      for (size_t J = I; J < End; ++J)
        Kept.push_back(std::move(Diags[J]));
    I = End;
  }
  Diags = std::move(Kept);
}

SourceDiagnostic errorAt(const std::string &File, std::string Message) {
  return {SourceDiagnostic::Level::Error, {File, 0, 0}, std::move(Message)};
}

} // namespace

ExtractResult extractTypes(TypeContext &Ctx, const ExtractOptions &Options) {
  ExtractResult Result;
  for (const std::string &S : Options.Sources)
    if (!llvm::sys::fs::is_regular_file(S)) {
      Result.Diagnostics.push_back(errorAt(
          S, llvm::sys::fs::exists(S) ? "not a regular file" : "no such file"));
      Result.Failed = true;
    }
  if (Result.Failed)
    return Result;

  std::string Err;
  std::unique_ptr<tooling::CompilationDatabase> DB;
  if (Options.UseCompilerArgs) {
    DB = std::make_unique<tooling::FixedCompilationDatabase>(
        ".", Options.CompilerArgs);
  } else if (!Options.BuildDir.empty()) {
    DB = tooling::CompilationDatabase::loadFromDirectory(Options.BuildDir, Err);
    if (!DB) {
      Result.Diagnostics.push_back(errorAt(Options.BuildDir, Err));
      Result.Failed = true;
      return Result;
    }
  } else {
    DB = tooling::CompilationDatabase::autoDetectFromSource(
        Options.Sources.front(), Err);
    if (!DB)
      DB = std::make_unique<tooling::FixedCompilationDatabase>(
          ".", std::vector<std::string>());
  }

  tooling::ClangTool Tool(*DB, Options.Sources);
  // The builtin headers (stddef.h...) of the Clang ddtc links, wherever
  // ddtc is installed; and the program's own warnings are not ddtc's to
  // report.
  Tool.appendArgumentsAdjuster(tooling::getInsertArgumentAdjuster(
      {"-resource-dir=" DDTC_CLANG_RESOURCE_DIR, "-w"},
      tooling::ArgumentInsertPosition::END));
  ExtractActionFactory Factory(Ctx, Result);
  if (Tool.run(&Factory) != 0)
    Result.Failed = true;
  dropRepeatedDiagnostics(Result.Diagnostics);
  makeNamesUnique(Result.Types);
  return Result;
}

void printSourceDiagnostic(const SourceDiagnostic &D, std::FILE *Out) {
  const char *Level = D.Kind == SourceDiagnostic::Level::Error     ? "error"
                      : D.Kind == SourceDiagnostic::Level::Warning ? "warning"
                                                                   : "note";
  if (D.Where.Line == 0) {
    std::fprintf(Out, "%s%s%s: %s\n", D.Where.File.c_str(),
                 D.Where.File.empty() ? "" : ": ", Level, D.Message.c_str());
    return;
  }
  std::fprintf(Out, "%s: %s: %s\n", D.Where.str().c_str(), Level,
               D.Message.c_str());
  // The line and a caret under the column, as Clang prints them.
  static std::map<std::string, std::vector<std::string>> Files;
  auto It = Files.find(D.Where.File);
  if (It == Files.end()) {
    std::vector<std::string> Lines;
    std::ifstream In(D.Where.File);
    for (std::string L; std::getline(In, L);)
      Lines.push_back(L);
    It = Files.emplace(D.Where.File, std::move(Lines)).first;
  }
  if (D.Where.Line > It->second.size())
    return;
  const std::string &Line = It->second[D.Where.Line - 1];
  std::string Caret;
  for (size_t I = 0; I + 1 < D.Where.Column && I < Line.size(); ++I)
    Caret += Line[I] == '\t' ? '\t' : ' ';
  std::fprintf(Out, "%s\n%s^\n", Line.c_str(), Caret.c_str());
}

std::string fixesToYAML(const std::string &MainSourceFile,
                        const std::vector<SourceFix> &Fixes) {
  tooling::TranslationUnitDiagnostics TU;
  TU.MainSourceFile = MainSourceFile;
  for (const SourceFix &F : Fixes) {
    tooling::DiagnosticMessage Message(F.Message);
    Message.FilePath = F.File;
    Message.FileOffset = F.Offset;
    for (const SourceEdit &E : F.Edits) {
      llvm::Error Err = Message.Fix[E.File].add(
          tooling::Replacement(E.File, E.Offset, E.Length, E.Text));
      // The edits of one fix never overlap (the caller checked).
      llvm::consumeError(std::move(Err));
    }
    TU.Diagnostics.emplace_back(
        "ddtc-rewrite", Message,
        llvm::SmallVector<tooling::DiagnosticMessage, 1>(),
        tooling::Diagnostic::Warning, "");
  }
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  llvm::yaml::Output YAML(OS);
  YAML << TU;
  OS.flush();
  return Out;
}

} // namespace ddtc

//===- ddtc/Source/SourceExtractor.h - Types from C/C++ source --*- C++ -*-===//
//
// `ddtc extract`, `ddtc analyze --source` and `ddtc rewrite` read the
// datatypes a program builds from its source, with Clang: every function
// that no other function of the file calls is interpreted from its first
// statement, following integers, arrays, addresses of members and
// MPI_Datatype handles through straight-line code, branches whose condition
// folds, loops with constant bounds and calls of functions defined in the
// translation unit. A committed type whose every argument is a
// compile-time value becomes an ExtractedType; any other is left out with
// a warning at the argument that is not, saying why. Nothing is guessed.
//
// This library is the only part of ddtc that links Clang; what it returns
// is plain data (positions, offsets, text), so that the commands need no
// Clang headers.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_SOURCE_SOURCEEXTRACTOR_H
#define DDTC_SOURCE_SOURCEEXTRACTOR_H

#include "ddtc/IR/Type.h"

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace ddtc {

class TypeContext;

/// A position as compilers print it: file as given, line and column from 1.
struct SourcePosition {
  std::string File;
  unsigned Line = 0, Column = 0;
  /// "file:line:col".
  std::string str() const;
};

struct SourceDiagnostic {
  enum class Level { Error, Warning, Note };
  Level Kind = Level::Warning;
  SourcePosition Where;
  std::string Message;
};

/// A range of a file's bytes and its replacement.
struct SourceEdit {
  std::string File; ///< the path Clang opened
  unsigned Offset = 0, Length = 0;
  std::string Text;
};

/// Where `ddtc rewrite` can replace the construction of a type.
struct RewriteSite {
  /// The statement that calls the outermost constructor, through its `;`.
  std::string File;
  unsigned Offset = 0, Length = 0;
  /// The whitespace that starts the statement's line.
  std::string Indent;
  /// The source text of the call's newtype argument (`&halo`).
  std::string Target;
  /// Statements that only built or freed intermediate handles of this type
  /// (used by nothing else), removed with it: each through the end of its
  /// line.
  std::vector<SourceEdit> Removals;
  /// Local variables the replaced calls used that stay declared: the
  /// program may no longer read them (an array filled for the call only),
  /// so the replacement marks them used.
  std::vector<std::string> Unread;
};

/// A committed type read from the source.
struct ExtractedType {
  /// Unique among the extracted types: the variable it was committed in,
  /// `faces_2` for `faces[2]`, then `_2`, `_3`... when taken.
  std::string Name;
  const Type *T = nullptr;
  /// The call of its outermost constructor.
  SourcePosition Where;
  /// Set when the construction can be rewritten; otherwise why not.
  std::optional<RewriteSite> Site;
  std::string NotRewritable;
};

struct ExtractOptions {
  std::vector<std::string> Sources;
  /// -p: the directory of compile_commands.json.
  std::string BuildDir;
  /// The flags after `--`; UseCompilerArgs says `--` was given (even with
  /// nothing after it), which overrides any compilation database.
  std::vector<std::string> CompilerArgs;
  bool UseCompilerArgs = false;
};

struct ExtractResult {
  std::vector<ExtractedType> Types;
  /// Warnings about types left out and notes, in source order per file.
  std::vector<SourceDiagnostic> Diagnostics;
  /// MPI type constructor calls met (executed or not).
  unsigned ConstructorCalls = 0;
  /// A source could not be read or did not parse (Clang said why).
  bool Failed = false;
};

/// Reads the sources. The types are created in Ctx.
ExtractResult extractTypes(TypeContext &Ctx, const ExtractOptions &Options);

/// Prints D as Clang does: "file:line:col: warning: message", then the
/// source line and a caret under the column when the file can be read.
void printSourceDiagnostic(const SourceDiagnostic &D, std::FILE *Out);

/// One rewrite, as clang-tidy exports a fix: a message at a position and
/// the edits that carry it out.
struct SourceFix {
  std::string Message;
  std::string File;
  unsigned Offset = 0;
  std::vector<SourceEdit> Edits;
};

/// The fixes as the YAML document clang-tidy's --export-fixes writes and
/// clang-apply-replacements reads.
std::string fixesToYAML(const std::string &MainSourceFile,
                        const std::vector<SourceFix> &Fixes);

} // namespace ddtc

#endif // DDTC_SOURCE_SOURCEEXTRACTOR_H

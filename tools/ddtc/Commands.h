//===- tools/ddtc/Commands.h - The ddtc subcommands -------------*- C++ -*-===//
//
// Each subcommand is a function returning the process exit status:
// 0 success, 1 bad input (diagnostic already printed), 2 bad usage.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_TOOLS_DDTC_COMMANDS_H
#define DDTC_TOOLS_DDTC_COMMANDS_H

#include "ddtc/Analysis/Risks.h"
#include "ddtc/CodeGen/Emit.h"
#include "ddtc/Engine/MPIForm.h"
#include "ddtc/IR/Module.h"
#include "ddtc/Passes/PassManager.h"
#include "ddtc/Reader/TypeUses.h"
#include "ddtc/Source/SourceExtractor.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ddtc {

class Normalizer;
class TypeContext;

constexpr int ExitSuccess = 0;
constexpr int ExitBadInput = 1;
constexpr int ExitUsage = 2;

enum class ReportFormat { Text, Json };

struct AnalyzeOptions {
  std::string InputPath;
  /// --source: the inputs are C/C++ sources, and the risks are reported as
  /// compiler warnings at the constructor calls.
  bool FromSource = false;
  ExtractOptions Source;
  ReportFormat Format = ReportFormat::Text;
  /// The MPI library GL4 advice is for: "mpich" (the shipped table) or a
  /// cost table written by ddtc calibrate.
  std::string Engine = "mpich";
  /// --measure: time MPI_Pack of each rewritable type's forms with the MPI
  /// library ddtc-measure runs with, and report the measured gains.
  bool Measure = false;
  /// To find ddtc-measure beside ddtc.
  std::string Argv0;
  /// --uses TRACE... (with --source): the program's traces (one per rank),
  /// whose x-uses the GL4 advice is given for (TraceUses).
  std::vector<std::string> UsesPaths;
};

int runAnalyze(const AnalyzeOptions &Options);

/// What `analyze` says about one type beyond its metrics: its normal form,
/// its risks (GL4 with the advice for the engine of Costs), and its
/// MPI-facing form's origin ("given", "normal"...) with the engine's path
/// for the type as given and in that form (AnalyzeCommand.cpp).
struct Assessment {
  const Type *Normal;
  std::string NormalText;
  std::vector<Risk> Risks;
  std::string MPIForm, GivenPath, FormPath;
  /// The MPI-facing form (the given type when it is kept).
  const Type *Form = nullptr;
  /// The form was chosen for sends alone: the trace shows the type only
  /// sent and received point to point (MPIFormOptions::SendsOnly).
  bool SendsOnly = false;
  /// Without known uses: the form a program that only sends the type point
  /// to point would get, where it is modelled to send at least 1.3x faster
  /// than Form, and its modelled send gain over the given type; empty
  /// otherwise.
  std::string SendsOnlyOrigin;
  double SendsOnlyGain = 1;
  /// The layout key in hex (ddtc/Passes/LayoutKey.h): the key of the
  /// type's kernel in an emitted table and in the runtime's report, by
  /// which a report entry is matched to its type in a trace. Empty where
  /// computeLayoutKey gives none (size 0, displacements that overflow when
  /// translated), and for a type of more than MaxFlatRuns blocks, whose key
  /// costs a normalization more (ddtc emit's kernel table has it).
  std::string LayoutKey;
  /// Where LayoutKey is empty, which of those it is, for the report.
  std::string NoLayoutKey;
};
/// The report on Given, whose normal form Normal was computed and checked
/// by the caller (Normalizer::normalizeChecked).
/// Options chooses the MPI-facing form for the type's uses
/// (formOptionsForUses).
Assessment assessType(TypeContext &Ctx, Normalizer &N, YaksaModel &Model,
                      const EngineCosts &Costs, const Type *Given,
                      const Type *Normal, const MPIFormOptions &Options = {});
/// The MPI-facing form's options for N's uses in a trace (x-uses,
/// ddtc/Reader/TypeUses.h): the counts the program used, and sends alone
/// where it only sends and receives N point to point. No uses: the
/// defaults. A malformed x-uses: the error, naming N.
Expected<MPIFormOptions> formOptionsForUses(const NamedType &N);

struct PrintOptions {
  std::string InputPath;
  ReportFormat Format = ReportFormat::Text;
};

/// `ddtc print`: converts between format v1 and the textual IR.
int runPrint(const PrintOptions &Options);

struct NormalizeOptions {
  std::string InputPath;
  std::string OutputPath;
  std::string Passes;
  ReportFormat Format = ReportFormat::Json;
  bool PrintAfterAll = false;
  bool Verify = true;
  /// With a value: describe the message of Count instances (GL1).
  std::optional<uint64_t> Count;
};

/// `ddtc normalize`: runs the pass pipeline and writes the result.
int runNormalize(const NormalizeOptions &Options);

/// The note on stderr, per type, that its typemap was checked only in
/// part (`normalize` and `analyze` alike).
void notePartiallyVerified(
    const std::vector<PassManager::PartialCheck> &Partial);

struct EmitOptions {
  std::string InputPath;
  std::string OutputPrefix;
  /// 0: emit the types as given; 1: normalize them first.
  unsigned OptLevel = 1;
  /// What ddtc_NAME_build builds: "mpi" (the MPI-facing form for Engine,
  /// the default) or "normal" (ddtc's normal form).
  std::string BuildForm = "mpi";
  std::string Engine = "mpich";
  /// Whether the kernels have _pack_range and _unpack_range (CodeGenOptions).
  bool RangeFunctions = true;
};

/// `ddtc emit`: writes pack/unpack and MPI constructor code.
int runEmit(const EmitOptions &Options);

/// The files `ddtc emit` writes for M, read from Options.InputPath, named
/// for Base (the last component of the prefix); and in Keys, where given,
/// the layout key of each of M's types by position, as the kernel table
/// has them (the module gains the members of MPI_BOTTOM structs, named
/// NAME_memberI). Nullopt after a diagnostic.
std::optional<std::vector<EmittedFile>>
emitFiles(TypeContext &Ctx, Module &M, const EmitOptions &Options,
          const std::string &Base,
          std::vector<std::optional<KernelKey>> *Keys = nullptr);

struct CacheBuildOptions {
  std::vector<std::string> Inputs;
  /// The cache directory; empty: the runtime's (DDTC_CACHE, else
  /// $XDG_CACHE_HOME/ddtc, else ~/.cache/ddtc).
  std::string CacheDir;
  /// -march for the kernels: empty for none (generic), "native", or a CPU.
  std::string March;
  /// The C++ compiler: empty for $CXX, else c++.
  std::string Compiler;
  /// Compile every kernel again, even where the cache has an entry.
  bool Force = false;
  /// The size the cache is kept under (CacheTrim.h); empty: 1G.
  std::string MaxSize;
  /// Stop a compile after this many seconds (0: never).
  double TimeoutSeconds = 0;
  /// `cache serve`: compile what was asked once the rank has ended.
  bool After = false;
};

/// `ddtc cache build`: compiles the kernels of description files (traces)
/// into the kernel cache (ddtc/Runtime/KernelCache.h).
int runCacheBuild(const CacheBuildOptions &Options);

/// `ddtc cache serve`: the runtime's compile server (CacheServe.cpp).
int runCacheServe(const CacheBuildOptions &Options);

struct ExtractCommandOptions {
  ExtractOptions Source;
  /// The description file; stdout when empty or "-".
  std::string OutputPath;
};

/// `ddtc extract`: the committed types of C/C++ sources, as format v1.
int runExtract(const ExtractCommandOptions &Options);

struct RewriteOptions {
  ExtractOptions Source;
  /// -i: edit the sources in place instead of printing them.
  bool InPlace = false;
  /// --export-fixes: write the edits as YAML for clang-apply-replacements.
  std::string ExportFixes;
  /// "mpi" (the MPI-facing form for Engine) or "normal", as for emit.
  std::string BuildForm = "mpi";
  std::string Engine = "mpich";
  /// --uses TRACE...: the program's traces (one per rank); each type's
  /// MPI-facing form is chosen for the uses they record (TraceUses).
  std::vector<std::string> UsesPaths;
};

/// `ddtc rewrite`: replaces the construction of each type whose chosen
/// form differs from the given one.
int runRewrite(const RewriteOptions &Options);

/// `ddtc analyze --source`.
int runAnalyzeSource(const AnalyzeOptions &Options);

/// A command done by a program of its own (CompanionCommand.cpp).
struct CompanionOptions {
  /// "plot" or "calibrate", for diagnostics.
  std::string Command;
  /// The program: "ddtc-plot" (a Python script) or "ddtc-calibrate" (an
  /// MPI program), looked for beside ddtc, or in the build tree.
  std::string Program;
  /// The environment variable that names the program explicitly.
  std::string EnvVar;
  /// The arguments after the command, unparsed.
  std::vector<std::string> Args;
  /// To find the program beside ddtc when /proc/self/exe is unavailable.
  std::string Argv0;
};

/// `ddtc plot`, `ddtc calibrate`: runs the program; returns only if it
/// cannot.
int runCompanion(const CompanionOptions &Options);

/// `ddtc run` (RunCommand.cpp).
struct RunOptions {
  /// The command after `--`: the launcher, or the program, and its
  /// arguments.
  std::vector<std::string> Command;
  /// --family: "mpich" or "openmpi"; empty: the family of the command's
  /// program.
  std::string Family;
  /// --reports DIR: where the ranks write their reports (traces); empty:
  /// ./ddtc-reports, unless DDTC_RT_REPORT (DDTC_TRACE) names the files.
  std::string ReportsDir;
  /// --cache DIR: DDTC_CACHE, the store of the runtime's settings.
  std::string Cache;
  /// --kernels LIB[:LIB...]: DDTC_KERNELS.
  std::string Kernels;
  /// --trace: the trace library instead of the runtime.
  bool Trace = false;
  /// --dry-run: print the command with its variables, run nothing.
  bool DryRun = false;
  /// To find the libraries beside ddtc when /proc/self/exe is unavailable.
  std::string Argv0;
};

/// `ddtc run`: runs the command under the runtime library of its MPI
/// family and summarizes the reports; the command's exit status.
int runUnderRuntime(const RunOptions &Options);

/// The path of the companion program Name: EnvVar if set, else beside
/// ddtc (installed), else in the build tree.
Expected<std::string> findCompanion(const std::string &Name,
                                    const std::string &EnvVar,
                                    const std::string &Argv0);

/// MPI_Pack times of the types of a module, measured by ddtc-measure with
/// the MPI library it runs with (`ddtc analyze --measure`).
struct PackMeasurements {
  /// The MPI library ("MPICH 4.0.2").
  std::string Library;
  /// Nanoseconds per MPI_Pack by type name and count.
  std::map<std::string, std::map<uint64_t, double>> Ns;
  /// Types it could not time, with the reason.
  std::map<std::string, std::string> Skipped;
};

/// Runs ddtc-measure (found as findCompanion finds it; DDTC_MEASURE names
/// it) on M, written to a temporary file. Errors name the program.
Expected<PackMeasurements> measurePacks(const Module &M,
                                        const std::string &Argv0);

/// Prints "error: MESSAGE" on stderr.
void reportError(const std::string &Message);

/// The directory of the running executable: /proc/self/exe sees through
/// symbolic links and PATH lookup, which argv[0] (the fallback) does not.
std::filesystem::path getExecutableDir(const std::string &Argv0);

/// Path names a regular file (no error if it names nothing).
bool isFile(const std::string &Path);

/// The uses a program's trace records, by layout: `--uses TRACE` of
/// rewrite and analyze --source, which see a program's constructor calls
/// but not what it does with the types. A source type takes the x-uses of
/// the trace's types of its layout (the same layout key, LayoutKey.h, and
/// extent), however either was built.
class TraceUses {
public:
  /// Adds the uses of the traces at Paths (a program's traces, one per
  /// rank: a sender's and a receiver's uses differ); false after reporting
  /// what is wrong with one.
  bool load(const std::vector<std::string> &Paths);
  /// The MPI-facing form's options for T's uses (formOptionsForUses);
  /// nullopt where the trace has no type of T's layout with uses.
  std::optional<MPIFormOptions> optionsFor(Normalizer &N, TypeContext &Ctx,
                                           const Type *T) const;
  /// The traces, for messages ("trace-0.json, trace-1.json").
  const std::string &names() const { return Names; }

private:
  struct Entry {
    Fingerprint Key;
    int64_t Extent;
    TypeUses Uses;
  };
  bool loadOne(const std::string &Path);
  std::string Names;
  std::vector<Entry> Entries;
};

/// Reads the description file at Path (format v1, or textual IR for .ddt)
/// into M; on failure reports the error and returns false, and the command
/// exits with ExitBadInput.
bool readInput(const std::string &Path, Module &M);

} // namespace ddtc

#endif // DDTC_TOOLS_DDTC_COMMANDS_H

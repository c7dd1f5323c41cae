//===- tools/ddtc/ddtc.cpp - The ddtc driver ------------------------------===//
//
// Parses the command line and dispatches to a subcommand. Usage errors exit
// with status 2, bad input with status 1 (see Commands.h).
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "LargeStack.h"
#ifdef DDTC_HAVE_SOURCE
#include "SourceModule.h"
#endif

#include "ddtc/Passes/PassRegistry.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <map>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <string_view>
#include <vector>

#ifdef DDTC_HAVE_SOURCE
/// The sources and the -p of extract and rewrite (compiler flags come
/// after `--`, split off before CLI11 parses).
static void addSourceOptions(CLI::App *Cmd, ddtc::ExtractOptions &Source) {
  Cmd->add_option("SOURCE", Source.Sources, "C/C++ sources")->required();
  Cmd->add_option("-p", Source.BuildDir,
                  "build directory holding compile_commands.json");
}
#endif

/// Where the kernels go and how they are compiled: `cache build`'s, and
/// the runtime's compile server's.
static void addCompileOptions(CLI::App *Cmd, ddtc::CacheBuildOptions &O) {
  Cmd->add_option("--cache", O.CacheDir,
                  "the cache directory (default: DDTC_CACHE, else "
                  "$XDG_CACHE_HOME/ddtc, else ~/.cache/ddtc)");
  Cmd->add_option("--march", O.March,
                  "compile for this CPU (-march=CPU): the compute nodes' "
                  "(default: none, the compiler's default target; native: "
                  "this one)");
  Cmd->add_option("--cxx", O.Compiler,
                  "the C++ compiler (default: $CXX, else c++)");
  Cmd->add_option("--max-size", O.MaxSize,
                  "keep the cache's kernels under this size, removing those "
                  "used longest ago (bytes, or with K, M or G; default 1G)");
}

static int runDriver(int argc, char **argv) {
  using namespace ddtc;
  CLI::App App{"ddtc: a compiler for MPI derived datatypes"};
  App.require_subcommand(1);
  App.set_version_flag("--version", "ddtc " DDTC_VERSION);

  AnalyzeOptions Analyze;
  CLI::App *AnalyzeCmd = App.add_subcommand(
      "analyze", "report size, bounds, blocks, depth and cost of each type");
  std::vector<std::string> AnalyzeInputs;
  AnalyzeCmd
      ->add_option("FILE", AnalyzeInputs,
                   "description file (format v1) or trace; with "
                   "--source, C/C++ sources")
      ->required();
  std::map<std::string, ReportFormat> Formats{{"text", ReportFormat::Text},
                                              {"json", ReportFormat::Json}};
  AnalyzeCmd
      ->add_option("--format", Analyze.Format, "report format: text or json")
      ->transform(CLI::CheckedTransformer(Formats, CLI::ignore_case));
  AnalyzeCmd->add_option("--engine", Analyze.Engine,
                         "the MPI library GL4 advice is for: mpich (the "
                         "shipped MPICH 4.0.2 table, default) or a cost table "
                         "written by ddtc calibrate");
  AnalyzeCmd->add_flag("--measure", Analyze.Measure,
                       "time MPI_Pack of each type's forms with the installed "
                       "MPI library (ddtc-measure) and report the measured "
                       "gains; the GL4 advice follows the measurement");
#ifdef DDTC_HAVE_SOURCE
  AnalyzeCmd->add_flag("--source", Analyze.FromSource,
                       "the inputs are C/C++ sources: report the risks as "
                       "compiler warnings at the constructor calls (compiler "
                       "flags after --)");
  AnalyzeCmd->add_option("-p", Analyze.Source.BuildDir,
                         "with --source: the build directory holding "
                         "compile_commands.json");
  AnalyzeCmd->add_option("--uses", Analyze.UsesPaths,
                         "with --source: the program's traces "
                         "(libddtc_trace.so, one per rank); GL4 advice is for "
                         "the uses they record of each type's layout")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->delimiter(',');
#endif

  PrintOptions Print;
  CLI::App *PrintCmd = App.add_subcommand(
      "print", "convert a description between format v1 and the textual IR");
  PrintCmd
      ->add_option("FILE", Print.InputPath,
                   "description file (.json) or textual IR (.ddt)")
      ->required();
  PrintCmd->add_option("--format", Print.Format, "output: text or json")
      ->transform(CLI::CheckedTransformer(Formats, CLI::ignore_case));

  NormalizeOptions Normalize;
  Normalize.Passes = getDefaultPipelineText();
  CLI::App *NormalizeCmd = App.add_subcommand(
      "normalize", "rewrite each type into an equivalent, cheaper description");
  NormalizeCmd->add_option("FILE", Normalize.InputPath, "description file")
      ->required();
  NormalizeCmd
      ->add_option("-o", Normalize.OutputPath,
                   "output description (- for stdout)")
      ->required();
  std::string PassHelp =
      "comma-separated passes (default: " + getDefaultPipelineText() +
      "); known:";
  for (const PassInfo &P : getRegisteredPasses())
    PassHelp += " " + std::string(P.Name);
  NormalizeCmd->add_option("--passes", Normalize.Passes, PassHelp);
  NormalizeCmd->add_flag(
      "--print-after-all", Normalize.PrintAfterAll,
      "print the module (textual IR) on stderr after each pass");
  NormalizeCmd->add_flag(
      "!--no-verify", Normalize.Verify,
      "skip checking each result's equivalence with its input");
  NormalizeCmd
      ->add_option("--count", Normalize.Count,
                   "describe the message of N consecutive instances as one "
                   "type, to send with count 1 (recorded as x-count)")
      ->check(CLI::Range(uint64_t(1), uint64_t(1) << 40));
  NormalizeCmd
      ->add_option("--format", Normalize.Format,
                   "output: json (default) or text")
      ->transform(CLI::CheckedTransformer(Formats, CLI::ignore_case));

  EmitOptions Emit;
  CLI::App *EmitCmd = App.add_subcommand(
      "emit", "write C++ pack/unpack code and MPI constructor code for each "
              "type (PREFIX.h, PREFIX.cpp, PREFIX_mpi.h, PREFIX_mpi.c)");
  EmitCmd->add_option("FILE", Emit.InputPath, "description file")->required();
  EmitCmd
      ->add_option("-o", Emit.OutputPrefix,
                   "output prefix: writes PREFIX.h, PREFIX.cpp, "
                   "PREFIX_mpi.h and PREFIX_mpi.c")
      ->required();
  EmitCmd
      ->add_option("-O", Emit.OptLevel,
                   "-O0: emit the types as given; -O1 (default): normalize "
                   "them first")
      ->check(CLI::Range(0u, 1u));
  EmitCmd
      ->add_option("--build-form", Emit.BuildForm,
                   "what ddtc_NAME_build builds: mpi (default: the form the "
                   "engine model ranks fastest for the MPI library, never "
                   "slower than the given one) or normal (ddtc's normal form)")
      ->check(CLI::IsMember({"mpi", "normal"}));
  EmitCmd->add_option("--engine", Emit.Engine,
                      "the MPI library of --build-form=mpi: mpich (the "
                      "shipped MPICH 4.0.2 table, default) or a cost table "
                      "written by ddtc calibrate");

  CacheBuildOptions CacheBuild;
  CLI::App *CacheCmd = App.add_subcommand(
      "cache", "fill the kernel cache the runtime loads kernels from");
  CacheCmd->require_subcommand(1);
  CLI::App *CacheBuildCmd = CacheCmd->add_subcommand(
      "build", "compile the kernels of description files (a program's "
               "traces) into the kernel cache");
  CacheBuildCmd->add_option("FILE", CacheBuild.Inputs, "description files")
      ->required();
  addCompileOptions(CacheBuildCmd, CacheBuild);
  CacheBuildCmd->add_flag("--force", CacheBuild.Force,
                          "compile every kernel again, even those the cache "
                          "has");

  // The runtime's compile server: started by libddtc_rt.so, not by
  // users, so left out of the help.
  CacheBuildOptions CacheServe;
  CLI::App *CacheServeCmd = CacheCmd->add_subcommand(
      "serve", "compile the kernels the runtime asks for on standard input");
  CacheServeCmd->group("");
  addCompileOptions(CacheServeCmd, CacheServe);
  CacheServeCmd->get_option("--cache")->required();
  CacheServeCmd->add_option("--timeout", CacheServe.TimeoutSeconds);
  CacheServeCmd->add_flag("--after", CacheServe.After);

#ifdef DDTC_HAVE_SOURCE
  ExtractCommandOptions Extract;
  CLI::App *ExtractCmd = App.add_subcommand(
      "extract", "read the MPI_Type_* calls of C/C++ sources into a "
                 "description file (compiler flags after --)");
  addSourceOptions(ExtractCmd, Extract.Source);
  ExtractCmd->add_option("-o", Extract.OutputPath,
                         "output description (default: stdout)");

  RewriteOptions Rewrite;
  CLI::App *RewriteCmd = App.add_subcommand(
      "rewrite", "rewrite the MPI type constructor calls of C/C++ sources "
                 "into the form MPI packs fastest (compiler flags after --)");
  addSourceOptions(RewriteCmd, Rewrite.Source);
  RewriteCmd->add_flag("-i", Rewrite.InPlace,
                       "edit the sources in place (default: print them)");
  RewriteCmd->add_option("--export-fixes", Rewrite.ExportFixes,
                         "write the edits as YAML for "
                         "clang-apply-replacements instead of printing");
  RewriteCmd
      ->add_option("--build-form", Rewrite.BuildForm,
                   "what the new code builds: mpi (default: the form the "
                   "engine model ranks fastest, never slower than the "
                   "given one) or normal (ddtc's normal form, when cheaper)")
      ->check(CLI::IsMember({"mpi", "normal"}));
  RewriteCmd->add_option("--uses", Rewrite.UsesPaths,
                         "the program's traces (libddtc_trace.so, one per "
                         "rank): each type's MPI-facing form is chosen for the "
                         "uses they record of its layout (sends alone where "
                         "the program only sends it point to point)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->delimiter(',');
  RewriteCmd->add_option("--engine", Rewrite.Engine,
                         "the MPI library of --build-form=mpi: mpich (default) "
                         "or a cost table written by ddtc calibrate");
#endif

  RunOptions Run;
  CLI::App *RunCmd = App.add_subcommand(
      "run", "run an MPI program under ddtc's runtime library and summarize "
             "its reports (the command after --: ddtc run -- mpiexec -n 2 "
             "./app)");
  RunCmd
      ->add_option("--family", Run.Family,
                   "the program's MPI family: mpich or openmpi (default: "
                   "the family of the MPI library the program links, else "
                   "of its launcher)")
      ->check(CLI::IsMember({"mpich", "openmpi"}));
  RunCmd->footer("The command follows --: ddtc run [OPTIONS] -- LAUNCHER "
                 "ARGS... (docs/cli.md)");
  RunCmd
      ->add_option("--reports", Run.ReportsDir,
                   "the directory the ranks write their reports (traces) "
                   "into (default: ddtc-reports)")
      ->type_name("DIR");
  RunCmd
      ->add_option("--cache", Run.Cache,
                   "the directory of the runtime's stored settings "
                   "(DDTC_CACHE)")
      ->type_name("DIR");
  RunCmd
      ->add_option("--kernels", Run.Kernels,
                   "kernel libraries compiled from ddtc emit, separated by "
                   "colons (DDTC_KERNELS)")
      ->type_name("LIB[:LIB...]");
  RunCmd->add_flag("--trace", Run.Trace,
                   "preload the trace library instead: every rank writes its "
                   "types and their uses (DDTC_TRACE)");
  RunCmd->add_flag("--dry-run", Run.DryRun,
                   "print the command with the variables it would run with, "
                   "and run nothing");

  // Compiler flags follow `--` (as for clang-tidy), and so does the
  // command of `run`: split off before parsing.
  std::vector<std::string> CompilerArgs;
  bool HaveCompilerArgs = false;
  for (int I = 1; I < argc; ++I)
    if (std::string_view(argv[I]) == "--" && argc >= 2 &&
        std::string_view(argv[1]) != "plot" &&
        std::string_view(argv[1]) != "calibrate") {
      CompilerArgs.assign(argv + I + 1, argv + argc);
      HaveCompilerArgs = true;
      argc = I;
      break;
    }

  // Everything after `plot` or `calibrate` goes to its program unchanged,
  // --help included. CLI11 would drop a leading `--` even with
  // prefix_command(), so these commands are dispatched before parsing;
  // they are registered for the list of commands in `ddtc --help`.
  App.add_subcommand("plot",
                     "draw figures from ddtc-bench results (ddtc plot --help)");
  App.add_subcommand("calibrate",
                     "measure the installed MPI library's datatype engine and "
                     "write the cost table of the MPI-facing forms "
                     "(ddtc calibrate --help)");
  if (argc >= 2 && (std::string_view(argv[1]) == "plot" ||
                    std::string_view(argv[1]) == "calibrate")) {
    bool Plot = std::string_view(argv[1]) == "plot";
    CompanionOptions Companion;
    Companion.Command = argv[1];
    Companion.Program = Plot ? "ddtc-plot" : "ddtc-calibrate";
    Companion.EnvVar = Plot ? "DDTC_PLOT" : "DDTC_CALIBRATE";
    Companion.Args.assign(argv + 2, argv + argc);
    Companion.Argv0 = argv[0];
    return runCompanion(Companion);
  }

  try {
    App.parse(argc, argv);
  } catch (const CLI::CallForHelp &E) {
    return App.exit(E);
  } catch (const CLI::CallForVersion &E) {
    return App.exit(E);
  } catch (const CLI::ParseError &E) {
    App.exit(E);
    return ExitUsage;
  }

  if (RunCmd->parsed()) {
    Run.Command = CompilerArgs;
    Run.Argv0 = argv[0];
    return runUnderRuntime(Run);
  }
  if (HaveCompilerArgs && !AnalyzeCmd->parsed()
#ifdef DDTC_HAVE_SOURCE
      && !ExtractCmd->parsed() && !RewriteCmd->parsed()
#endif
  ) {
    reportError("compiler flags after '--' are for extract, rewrite and "
                "analyze --source");
    return ExitUsage;
  }
  if (AnalyzeCmd->parsed()) {
#ifdef DDTC_HAVE_SOURCE
    if (Analyze.FromSource && Analyze.Measure) {
      reportError("--measure is for description files, not --source");
      return ExitUsage;
    }
    if (Analyze.FromSource) {
      Analyze.Source.Sources = AnalyzeInputs;
      Analyze.Source.CompilerArgs = CompilerArgs;
      Analyze.Source.UseCompilerArgs = HaveCompilerArgs;
      return runSourceCommand(argv[0], [&](const SourceCommands &C) {
        return C.AnalyzeSource(Analyze);
      });
    }
#endif
    if (AnalyzeInputs.size() != 1 || HaveCompilerArgs ||
        !Analyze.Source.BuildDir.empty() || !Analyze.UsesPaths.empty()) {
      reportError("analyze takes one description file (a trace's own x-uses "
                  "are read from it); -p, --uses, several files and compiler "
                  "flags are for --source");
      return ExitUsage;
    }
    Analyze.InputPath = AnalyzeInputs.front();
    Analyze.Argv0 = argv[0];
    return runAnalyze(Analyze);
  }
#ifdef DDTC_HAVE_SOURCE
  if (ExtractCmd->parsed()) {
    Extract.Source.CompilerArgs = CompilerArgs;
    Extract.Source.UseCompilerArgs = HaveCompilerArgs;
    return runSourceCommand(
        argv[0], [&](const SourceCommands &C) { return C.Extract(Extract); });
  }
  if (RewriteCmd->parsed()) {
    Rewrite.Source.CompilerArgs = CompilerArgs;
    Rewrite.Source.UseCompilerArgs = HaveCompilerArgs;
    return runSourceCommand(
        argv[0], [&](const SourceCommands &C) { return C.Rewrite(Rewrite); });
  }
#endif
  if (PrintCmd->parsed())
    return runPrint(Print);
  if (NormalizeCmd->parsed())
    return runNormalize(Normalize);
  if (EmitCmd->parsed())
    return runEmit(Emit);
  if (CacheBuildCmd->parsed())
    return runCacheBuild(CacheBuild);
  if (CacheServeCmd->parsed())
    return runCacheServe(CacheServe);
  return ExitUsage;
}

int main(int argc, char **argv) {
#ifdef __GLIBC__
  // ddtc allocates and frees vectors of millions of entries (the JSON
  // document, index lists, flattened blocks). By default glibc serves each
  // from fresh mmap'd pages and returns them on free, so every one is
  // paid again in page faults: a third of `normalize` on a list of 10^6
  // blocks (0.99 -> 0.72 s, bench/normalization/normalize-shapes.sh). Keep
  // them in the heap for reuse; a batch tool's peak memory is the same.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
  return ddtc::runOnLargeStack(runDriver, argc, argv);
}

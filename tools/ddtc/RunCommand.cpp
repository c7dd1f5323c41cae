//===- tools/ddtc/RunCommand.cpp - A program under the runtime ------------===//
//
// `ddtc run -- LAUNCHER ARGS...` runs an unmodified MPI program under ddtc's
// runtime library, setting up what a user would otherwise set by hand
// (docs/runtime.md): the library of the program's MPI family in
// LD_PRELOAD, the report of every rank, shape kernels for the types without
// an emitted kernel, and for Open MPI's launcher the -x options that pass
// these variables to ranks on other nodes (Hydra passes the whole
// environment by itself). ddtc is no MPI process: it starts the command,
// passes the signals meant for it on, summarizes the reports when the
// command ends and exits with the command's status.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "MPIFamily.h"
#include "RankFiles.h"
#include "RunSummary.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <spawn.h>
#include <sstream>
#include <fstream>
#include <string_view>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <thread>
#include <system_error>
#include <unistd.h>

extern char **environ;

namespace fs = std::filesystem;

namespace ddtc {

namespace {

/// A shell's status for a command it cannot find, and for one it finds
/// but cannot run.
constexpr int ExitNotFound = 127;
constexpr int ExitCannotRun = 126;

struct Variable {
  std::string Name, Value;
};

/// What the command runs with.
struct Plan {
  /// The library and why it is the one ("libddtc_rt.so, for MPICH (app
  /// links libmpich.so.12)").
  std::string Library;
  /// The variables ddtc run sets, in this order.
  std::vector<Variable> Set;
  /// The command, with the -x options of Open MPI's launcher.
  std::vector<std::string> Argv;
  /// The pattern of the files the ranks write (reports or traces), and
  /// whether it is ddtc run's own (in the reports directory) rather than
  /// the user's.
  std::string Pattern;
  bool OwnPattern = false;
  std::string ReportsDir;
};

void reportRunError(const std::string &Message) {
  std::fprintf(stderr, "ddtc run: error: %s\n", Message.c_str());
}

/// Word as a shell reads it back: quoted where it has anything but
/// characters no shell treats specially.
std::string shellQuote(const std::string &Word) {
  bool Plain = !Word.empty() &&
               Word.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijkl"
                                      "mnopqrstuvwxyz0123456789_@%+=:,./-") ==
                   std::string::npos;
  if (Plain)
    return Word;
  std::string Out = "'";
  for (char C : Word)
    Out += C == '\'' ? std::string("'\\''") : std::string(1, C);
  return Out + "'";
}

std::string quoteCommand(const std::vector<std::string> &Words) {
  std::string Out;
  for (const std::string &W : Words)
    Out += (Out.empty() ? "" : " ") + shellQuote(W);
  return Out;
}

std::string absolutePath(const std::string &Path) {
  std::error_code EC;
  fs::path P = fs::absolute(Path, EC);
  return EC ? Path : P.lexically_normal().string();
}

/// The directories the runtime libraries may be in: PREFIX/lib beside
/// PREFIX/bin (installed), then the build tree's.
std::vector<fs::path> getLibraryDirs(const std::string &Argv0) {
  std::vector<fs::path> Dirs{
      (getExecutableDir(Argv0) / DDTC_RUNTIME_DIR_FROM_BINDIR)
          .lexically_normal()};
#ifdef DDTC_BUILD_RUNTIME_DIR
  Dirs.push_back(DDTC_BUILD_RUNTIME_DIR);
#endif
  return Dirs;
}

/// The path of the library Name; an error listing where it was looked for.
Expected<std::string> findLibrary(const std::string &Name,
                                  const std::string &Argv0) {
  std::string Tried;
  for (const fs::path &Dir : getLibraryDirs(Argv0)) {
    std::string Path = (Dir / Name).string();
    if (isFile(Path))
      return Path;
    Tried += (Tried.empty() ? "" : ", ") + Dir.string();
  }
  return makeError(Name + " is not built (looked in " + Tried + ")");
}

/// The kernel libraries as paths the ranks' dlopen finds: a relative path
/// of an existing file made absolute (dlopen looks a name without a slash
/// up in the library path, not the current directory).
std::string absoluteLibraries(const std::string &List) {
  std::string Out, Entry;
  for (size_t I = 0; I <= List.size(); ++I) {
    if (I < List.size() && List[I] != ':') {
      Entry += List[I];
      continue;
    }
    if (!Entry.empty())
      Out += (Out.empty() ? "" : ":") +
             (isFile(Entry) ? absolutePath(Entry) : Entry);
    Entry.clear();
  }
  return Out;
}

Expected<Plan> makePlan(const RunOptions &Options,
                        const std::string &LauncherPath) {
  Plan P;
  FoundFamily Family{MPIFamily::MPICH, ""};
  if (!Options.Family.empty()) {
    std::optional<MPIFamily> F = parseFamily(Options.Family);
    if (!F)
      return makeError("unknown family '" + Options.Family +
                       "' (mpich or openmpi)");
    Family = {*F, "--family " + Options.Family};
  } else {
    Expected<FoundFamily> Found = detectFamily(Options.Command, LauncherPath);
    if (!Found)
      return Found.takeError();
    Family = *Found;
  }
  std::string Name =
      std::string(Options.Trace ? "libddtc_trace" : "libddtc_rt") +
      getFamilyLibrarySuffix(Family.Family) + ".so";
  Expected<std::string> Library = findLibrary(Name, Options.Argv0);
  if (!Library)
    return makeError("the library for " +
                     std::string(getFamilyName(Family.Family)) + " (" +
                     Family.Evidence + "): " + Library.takeError().message());
  P.Library = Name + ", for " + getFamilyName(Family.Family) + " (" +
              Family.Evidence + ")";

  const char *Preload = std::getenv("LD_PRELOAD");
  P.Set.push_back(
      {"LD_PRELOAD",
       *Library + (Preload && *Preload ? ":" + std::string(Preload) : "")});
  // The user's own pattern wins over the default directory, not over
  // --reports.
  const char *PatternVar = Options.Trace ? "DDTC_TRACE" : "DDTC_RT_REPORT";
  const char *UserPattern = std::getenv(PatternVar);
  P.ReportsDir = absolutePath(Options.ReportsDir.empty() ? "ddtc-reports"
                                                         : Options.ReportsDir);
  if (Options.ReportsDir.empty() && UserPattern && *UserPattern) {
    P.Pattern = absolutePath(UserPattern);
  } else {
    P.OwnPattern = true;
    P.Pattern = (fs::path(P.ReportsDir) /
                 (Options.Trace ? "trace-%r.json" : "report-%r.json"))
                    .string();
    P.Set.push_back({PatternVar, P.Pattern});
  }
  if (!Options.Trace) {
    if (!std::getenv("DDTC_RT_SHAPES"))
      P.Set.push_back({"DDTC_RT_SHAPES", "on"});
    if (!Options.Cache.empty())
      P.Set.push_back({"DDTC_CACHE", absolutePath(Options.Cache)});
    if (!Options.Kernels.empty())
      P.Set.push_back({"DDTC_KERNELS", absoluteLibraries(Options.Kernels)});
  }

  P.Argv.push_back(Options.Command.front());
  if (getLauncherFamily(LauncherPath) == MPIFamily::OpenMPI) {
    // Open MPI's launcher passes a variable to the ranks on other nodes
    // only when -x names it: those ddtc run sets, and the user's DDTC_
    // settings, which ranks on every node must share.
    std::vector<std::string> Names;
    for (const Variable &V : P.Set)
      Names.push_back(V.Name);
    for (char **E = environ; *E; ++E) {
      std::string_view Entry(*E);
      std::string VarName(Entry.substr(0, Entry.find('=')));
      if (VarName.rfind("DDTC_", 0) == 0 &&
          std::find(Names.begin(), Names.end(), VarName) == Names.end())
        Names.push_back(VarName);
    }
    for (const std::string &N : Names) {
      P.Argv.push_back("-x");
      P.Argv.push_back(N);
    }
  }
  P.Argv.insert(P.Argv.end(), Options.Command.begin() + 1,
                Options.Command.end());
  return P;
}

/// The environment of the command: ddtc's own with Set's variables.
std::vector<std::string> makeEnvironment(const std::vector<Variable> &Set) {
  std::vector<std::string> Env;
  for (char **E = environ; *E; ++E) {
    std::string_view Entry(*E);
    std::string_view Name = Entry.substr(0, Entry.find('='));
    if (std::none_of(Set.begin(), Set.end(),
                     [&](const Variable &V) { return V.Name == Name; }))
      Env.emplace_back(Entry);
  }
  for (const Variable &V : Set)
    Env.push_back(V.Name + "=" + V.Value);
  return Env;
}

/// The command's process while it runs, and a signal for it not sent yet:
/// the handler and the thread that starts the command each store their
/// own and then send what both have, so that a signal that comes while the
/// command starts is sent once it runs. (Lock-free atomics are
/// async-signal-safe.)
std::atomic<pid_t> Child{0};
std::atomic<int> PendingSignal{0};

void sendPendingSignal() {
  pid_t Pid = Child.load();
  if (Pid <= 0)
    return;
  if (int Signal = PendingSignal.exchange(0))
    kill(Pid, Signal);
}

void forwardSignal(int Signal, siginfo_t *Info, void *) {
  // A signal of the terminal (Ctrl-C) reaches its whole foreground process
  // group, the command included: sent again it would count twice (a second
  // SIGINT makes Hydra's mpiexec abort the job at once). Only a signal sent
  // to ddtc itself (kill, a batch system) is passed on.
  if (Info && Info->si_code == SI_KERNEL)
    return;
  PendingSignal.store(Signal);
  sendPendingSignal();
}

/// Runs the command and waits for it; its wait status, or the exit status
/// ddtc run ends with where it cannot be run (negated).
int runCommand(const std::string &Path, const std::vector<std::string> &Argv,
               const std::vector<std::string> &Env) {
  std::vector<char *> ArgvPtrs, EnvPtrs;
  for (const std::string &A : Argv)
    ArgvPtrs.push_back(const_cast<char *>(A.c_str()));
  ArgvPtrs.push_back(nullptr);
  for (const std::string &E : Env)
    EnvPtrs.push_back(const_cast<char *>(E.c_str()));
  EnvPtrs.push_back(nullptr);

  struct sigaction Forward = {}, OldInt, OldTerm;
  Forward.sa_sigaction = forwardSignal;
  Forward.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&Forward.sa_mask);
  sigaction(SIGINT, &Forward, &OldInt);
  sigaction(SIGTERM, &Forward, &OldTerm);

  std::fflush(nullptr);
  pid_t Pid = 0;
  // posix_spawn gives the child the default action for the signals ddtc
  // catches.
  int Spawned = posix_spawn(&Pid, Path.c_str(), nullptr, nullptr,
                            ArgvPtrs.data(), EnvPtrs.data());
  int Status = 0;
  if (Spawned != 0) {
    reportRunError("cannot run " + Argv.front() + ": " +
                   std::strerror(Spawned));
    Status = -(Spawned == ENOENT ? ExitNotFound : ExitCannotRun);
  } else {
    Child.store(Pid);
    sendPendingSignal();
    while (waitpid(Pid, &Status, 0) < 0 && errno == EINTR) {
    }
    Child.store(0);
  }
  sigaction(SIGINT, &OldInt, nullptr);
  sigaction(SIGTERM, &OldTerm, nullptr);
  return Status;
}

/// The compile servers among this process's children: `ddtc cache serve`
/// processes whose rank has ended (this process is their subreaper).
size_t countCompileServers() {
  size_t N = 0;
  std::string Self = std::to_string(getpid());
  std::error_code EC;
  for (const fs::directory_entry &E : fs::directory_iterator("/proc", EC)) {
    std::string Pid = E.path().filename().string();
    if (Pid.find_first_not_of("0123456789") != std::string::npos)
      continue;
    // "PID (COMM) STATE PPID ...": COMM may hold spaces and parentheses.
    std::ifstream Stat(E.path() / "stat");
    std::string Line;
    if (!std::getline(Stat, Line))
      continue;
    size_t Close = Line.rfind(')');
    if (Close == std::string::npos)
      continue;
    std::istringstream Rest(Line.substr(Close + 1));
    std::string State, Parent;
    if (!(Rest >> State >> Parent) || Parent != Self)
      continue;
    std::ifstream Cmd(E.path() / "cmdline");
    std::string Arg;
    std::vector<std::string> Words;
    while (std::getline(Cmd, Arg, '\0'))
      Words.push_back(Arg);
    if (Words.size() >= 3 && Words[1] == "cache" && Words[2] == "serve")
      ++N;
  }
  return N;
}

/// Waits for the compiles the ranks asked for where they compile after
/// the program (DDTC_CACHE_COMPILE): a batch job that ends with its last
/// command would end them, and their kernels are the next run's. Other
/// processes the program left behind are not waited for.
void waitForCompileServers() {
  bool Told = false;
  for (;;) {
    while (waitpid(-1, nullptr, WNOHANG) > 0) {
    }
    size_t N = countCompileServers();
    if (N == 0)
      break;
    if (!Told)
      std::fprintf(stderr,
                   "ddtc run: compiling the kernels of the hottest types for "
                   "the next run (%zu compile servers)...\n",
                   N);
    Told = true;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  if (Told)
    std::fprintf(stderr, "ddtc run: the kernels are in the cache\n");
}

} // namespace

int runUnderRuntime(const RunOptions &Options) {
  if (Options.Command.empty()) {
    reportRunError("no command to run: give it after '--' (ddtc run "
                   "[OPTIONS] -- LAUNCHER ARGS...)");
    return ExitUsage;
  }
  if (Options.Trace && (!Options.Kernels.empty() || !Options.Cache.empty())) {
    reportRunError("--kernels and --cache are for the runtime library; "
                   "--trace preloads the trace library, which reads neither");
    return ExitUsage;
  }
  std::string LauncherPath = findExecutable(Options.Command.front());
  if (LauncherPath.empty()) {
    reportRunError(Options.Command.front() + ": command not found");
    return ExitNotFound;
  }
  Expected<Plan> P = makePlan(Options, LauncherPath);
  if (!P) {
    reportRunError(P.takeError().message());
    return ExitBadInput;
  }

  if (Options.DryRun) {
    std::string Line = "env";
    for (const Variable &V : P->Set)
      Line += " " + shellQuote(V.Name + "=" + V.Value);
    std::printf("%s %s\n", Line.c_str(), quoteCommand(P->Argv).c_str());
    return ExitSuccess;
  }

  RankFiles Files(P->Pattern);
  if (!Files.isListable())
    std::fprintf(stderr,
                 "ddtc run: note: the ranks write into directories of their "
                 "own (%s): their files are not summarized\n",
                 P->Pattern.c_str());
  if (P->OwnPattern) {
    // Only this run's files in the directory, for the summary and for
    // whoever reads them next.
    std::error_code EC;
    fs::create_directories(P->ReportsDir, EC);
    if (EC) {
      reportRunError("cannot create " + P->ReportsDir + ": " + EC.message());
      return ExitBadInput;
    }
    if (Error E = Files.removeAll()) {
      reportRunError(E.message());
      return ExitBadInput;
    }
  }
  Files.snapshot();

  // The ranks' compile servers outlive them where kernels are compiled
  // after the program: they become this process's children, to be waited
  // for.
  if (!Options.Trace)
    prctl(PR_SET_CHILD_SUBREAPER, 1);
  int Status = runCommand(LauncherPath, P->Argv, makeEnvironment(P->Set));
  if (Status < 0)
    return -Status;

  if (!Files.isListable()) {
    if (!Options.Trace)
      waitForCompileServers();
    return WIFSIGNALED(Status) ? 128 + WTERMSIG(Status) : WEXITSTATUS(Status);
  }
  RunOutcome Outcome;
  Outcome.Files = Files.fresh();
  Outcome.Pattern = P->Pattern;
  Outcome.Library = P->Library;
  Outcome.WaitStatus = Status;
  if (Options.Trace) {
    std::string Rerun = "ddtc run --kernels libkernels.so";
    if (!Options.Family.empty())
      Rerun += " --family " + Options.Family;
    Outcome.RunWithKernels = Rerun + " -- " + quoteCommand(Options.Command);
    printTraceSummary(Outcome);
  } else {
    printReportSummary(Outcome);
  }
  if (!Options.Trace)
    waitForCompileServers();
  if (WIFSIGNALED(Status))
    return 128 + WTERMSIG(Status);
  return WEXITSTATUS(Status);
}

} // namespace ddtc

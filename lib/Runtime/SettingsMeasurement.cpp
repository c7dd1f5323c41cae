//===- lib/Runtime/SettingsMeasurement.cpp - Settings measured at start ---===//
#include "SettingsMeasurement.h"
#include "HelperProcesses.h"

#include "ddtc/MPI/MachineIdentity.h"
#include "ddtc/Runtime/RuntimeSettings.h"
#include "ddtc/Runtime/SettingsStore.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>
#include <thread>
#include <utility>
#include <vector>

extern char **environ;

namespace ddtc {

namespace {

using Clock = std::chrono::steady_clock;

/// The number the environment variable Name holds, if it is one in
/// [Lo, Hi], with its text; else nullopt (unset, empty or not such a number:
/// the caller's default).
std::optional<std::pair<double, std::string>> envNumber(const char *Name,
                                                        double Lo, double Hi) {
  const char *V = std::getenv(Name);
  if (!V || !*V)
    return std::nullopt;
  char *End = nullptr;
  double X = std::strtod(V, &End);
  if (!End || *End || !(X >= Lo && X <= Hi))
    return std::nullopt;
  return std::pair<double, std::string>(X, V);
}

/// How long the measurement itself may take (DDTC_RT_CALIBRATE_TIMEOUT,
/// seconds, default 20): ddtc-rt-calibrate --auto takes about a second on
/// an idle node and stops itself, storing nothing, past this budget -- a
/// node that busy would give the contention's settings, not the
/// machine's. The job as a whole (launch and teardown included) is killed
/// if it outlives the budget by half again and 5 s more: a launcher that
/// hangs.
double budgetSeconds() {
  auto S = envNumber("DDTC_RT_CALIBRATE_TIMEOUT", 0, 3600);
  return S && S->first > 0 ? S->first : 20;
}

/// The most of its time, in percent, a rank of the measurement may wait
/// for a CPU (DDTC_RT_CALIBRATE_MAX_WAIT, default 5): above it, other work
/// shares the node's cores and the figures are the contention's
/// (tools/ddtc-rt-calibrate/CpuWait.h). Returned as the option's text.
std::string maxWaitPercent() {
  auto P = envNumber("DDTC_RT_CALIBRATE_MAX_WAIT", 0, 100);
  return P ? P->second : "5";
}

/// The exit statuses of ddtc-rt-calibrate stopped by its budget, and of
/// one whose ranks waited for a CPU too long.
constexpr int BusyStatus = 3, ContendedStatus = 4;

/// The launcher and its arguments: DDTC_RT_MPIEXEC (words), else the MPI
/// library's launcher as the build found it, started on this node only.
std::vector<std::string> launcher() {
  std::vector<std::string> Words;
  std::string Text = DDTC_RT_MPIEXEC;
  if (const char *V = std::getenv("DDTC_RT_MPIEXEC"); V && *V)
    Text = V;
  std::istringstream In(Text);
  for (std::string W; In >> W;)
    Words.push_back(W);
  return Words;
}

/// What the store holds for Id: nothing this run can use, settings
/// measured once, or settings a second run has confirmed.
enum class StoreState { None, Once, Confirmed };

StoreState storeState(const MachineIdentity &Id) {
  RuntimeSettings Probe;
  Probe.loadMeasured(Id.Node, Id.Library, 0);
  if (Probe.source() != RuntimeSettings::Source::Measured)
    return StoreState::None;
  return Probe.measurements() >= 2 ? StoreState::Confirmed : StoreState::Once;
}

/// Runs Argv with its output in Log and waits for it until Deadline,
/// Seconds from now; "" on exit status 0, else why not (Budget: the
/// measurement's, for the message of a measurement that stopped itself).
std::string runUntil(const std::vector<std::string> &Argv,
                     const std::string &Log, Clock::time_point Deadline,
                     double Seconds, double Budget) {
  std::vector<char *> Args;
  for (const std::string &A : Argv)
    Args.push_back(const_cast<char *>(A.c_str()));
  Args.push_back(nullptr);
  posix_spawn_file_actions_t Files;
  posix_spawn_file_actions_init(&Files);
  posix_spawn_file_actions_addopen(&Files, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&Files, 1, Log.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&Files, 1, 2);
  // None of the program's other files: a launcher waits for the pipes of
  // a rank's output to close, and would wait for this helper too.
  posix_spawn_file_actions_addclosefrom_np(&Files, 3);
  posix_spawnattr_t Attr;
  posix_spawnattr_init(&Attr);
  // A process group of its own, so that a launcher that hangs is killed
  // with the processes it started.
  posix_spawnattr_setpgroup(&Attr, 0);
  posix_spawnattr_setflags(&Attr, POSIX_SPAWN_SETPGROUP);
  std::vector<char *> Env = helperEnvironment();
  pid_t Pid = 0;
  int Rc = posix_spawnp(&Pid, Args[0], &Files, &Attr, Args.data(), Env.data());
  posix_spawn_file_actions_destroy(&Files);
  posix_spawnattr_destroy(&Attr);
  if (Rc != 0)
    return "cannot start '" + Argv[0] + "': " + std::strerror(Rc);
  int Status = 0;
  for (;;) {
    pid_t Done = waitpid(Pid, &Status, WNOHANG);
    if (Done == Pid)
      break;
    if (Done < 0 && errno != EINTR)
      return std::string("cannot wait for the measurement: ") +
             std::strerror(errno);
    if (Clock::now() >= Deadline) {
      kill(-Pid, SIGKILL);
      waitpid(Pid, &Status, 0);
      char Text[32];
      std::snprintf(Text, sizeof Text, "%g", Seconds);
      return std::string("it did not finish within ") + Text +
             " s and was stopped";
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (WIFEXITED(Status) && WEXITSTATUS(Status) == 0)
    return "";
  if (WIFEXITED(Status) && WEXITSTATUS(Status) == BusyStatus) {
    char Text[32];
    std::snprintf(Text, sizeof Text, "%g", Budget);
    return std::string("the node was too busy to measure within ") + Text +
           " s (DDTC_RT_CALIBRATE_TIMEOUT)";
  }
  if (WIFEXITED(Status) && WEXITSTATUS(Status) == ContendedStatus)
    return "other work on the node's cores delayed it (its ranks waited for "
           "a CPU more than DDTC_RT_CALIBRATE_MAX_WAIT=" +
           maxWaitPercent() + "% of the time)";
  return WIFEXITED(Status)
             ? "it exited with status " + std::to_string(WEXITSTATUS(Status))
             : "it was killed by signal " + std::to_string(WTERMSIG(Status));
}

/// This process's job on this node, as the failure marker names it: the
/// parent process (the launcher's proxy, which started every rank of the
/// job on this node) and when that process started, so that a recycled
/// process id is another job.
std::string jobOnThisNode() {
  pid_t Parent = getppid();
  std::string Stat;
  if (FILE *F = std::fopen(
          ("/proc/" + std::to_string(Parent) + "/stat").c_str(), "r")) {
    char Buf[1024];
    size_t N = std::fread(Buf, 1, sizeof Buf - 1, F);
    std::fclose(F);
    Stat.assign(Buf, N);
  }
  // Field 22, the start time, counted after the command's closing paren.
  std::string Start;
  if (size_t Paren = Stat.rfind(')'); Paren != std::string::npos) {
    std::istringstream In(Stat.substr(Paren + 1));
    std::string Field;
    for (int I = 3; I <= 22 && In >> Field; ++I)
      if (I == 22)
        Start = Field;
  }
  return std::to_string(Parent) + " " + Start;
}

/// The measurement's markers of a job on this node (`.failed`: it failed
/// for this job, `.job`: this job measured the settings stored once) hold
/// the job (jobOnThisNode) and a line of what they mark. What the marker at
/// Path says, if this job wrote it.
std::optional<std::string> readJobMarker(const std::string &Path) {
  std::ifstream In(Path);
  std::string Job, Note;
  if (!In || !std::getline(In, Job) || Job != jobOnThisNode())
    return std::nullopt;
  std::getline(In, Note);
  return Note;
}

void writeJobMarker(const std::string &Path, const std::string &Note) {
  if (FILE *F = std::fopen(Path.c_str(), "w")) {
    std::fprintf(F, "%s\n%s\n", jobOnThisNode().c_str(), Note.c_str());
    std::fclose(F);
  }
}

} // namespace

Measurement measureSettings(const MachineIdentity &Id) {
  Measurement M;
  std::string Dir = cacheDirectory();
  if (Dir.empty()) {
    M.Failure = "no cache directory for the settings (set DDTC_CACHE, "
                "XDG_CACHE_HOME or HOME)";
    return M;
  }
  std::string Err;
  if (!makeTrustedDirectory(Dir, Err)) {
    M.Failure = "the settings cannot be stored: " + Err;
    return M;
  }
  std::string Path = storedSettingsPath(Dir, Id.Node, Id.Library);
  std::string Base = Path.substr(0, Path.size() - 5); // without ".conf"
  std::string LockPath = Base + ".lock", Log = Base + ".log",
              FailedPath = Base + ".failed", JobPath = Base + ".job";
  double Budget = budgetSeconds(), Timeout = Budget * 1.5 + 5;
  auto Start = Clock::now();
  // Waiting for another rank's measurement counts against the same bound.
  auto Deadline = Start + std::chrono::duration_cast<Clock::duration>(
                              std::chrono::duration<double>(Timeout));
  int Lock =
      open(LockPath.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (Lock < 0) {
    M.Failure = "cannot open '" + LockPath + "': " + std::strerror(errno);
    return M;
  }
  while (flock(Lock, LOCK_EX | LOCK_NB) != 0) {
    if (Clock::now() >= Deadline) {
      close(Lock);
      M.Failure = "another process has been measuring them for longer than "
                  "DDTC_RT_CALIBRATE_TIMEOUT allows";
      return M;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  // A rank of this job that found the settings stored once by this job
  // leaves their confirmation to another run, at another time; one that
  // finds that a rank of this job on this node failed to measure uses what
  // it loaded too, at once, rather than measure again and perhaps succeed:
  // every rank of a node runs with the same settings.
  StoreState Before = storeState(Id);
  bool Done = Before == StoreState::Confirmed ||
              (Before == StoreState::Once && readJobMarker(JobPath));
  if (std::optional<std::string> Why = readJobMarker(FailedPath);
      !Done && Why) {
    M.Failure = *Why;
  } else if (!Done) {
    std::vector<std::string> Argv = launcher();
    bool NoLauncher = Argv.empty();
    for (const char *A : {"-n", "2"})
      Argv.push_back(A);
    Argv.push_back(
        helperProgram(DDTC_RT_CALIBRATOR_NAME, DDTC_RT_BUILT_CALIBRATOR));
    for (const char *A : {"--auto", "--store", "--budget"})
      Argv.push_back(A);
    char BudgetText[32];
    std::snprintf(BudgetText, sizeof BudgetText, "%g", Budget);
    Argv.push_back(BudgetText);
    Argv.push_back("--max-wait");
    Argv.push_back(maxWaitPercent());
    // The job writes where this process reads: the same store, which it
    // merges with a measurement stored there once.
    std::string Why = NoLauncher
                          ? "no MPI launcher (DDTC_RT_MPIEXEC)"
                          : runUntil(Argv, Log, Deadline, Timeout, Budget);
    StoreState After = storeState(Id);
    if (!Why.empty())
      M.Failure =
          "the measurement failed: " + Why + " (its output: " + Log + ")";
    else if (After == StoreState::None)
      M.Failure = "the measurement stored no settings for this node type and "
                  "MPI library (its output: " +
                  Log + ")";
    if (M.Failure.empty()) {
      unlink(FailedPath.c_str());
      // A store measured once (by this job now) waits for another run's
      // measurement to confirm it.
      if (After == StoreState::Once)
        writeJobMarker(JobPath, "measured the settings stored once");
    } else {
      writeJobMarker(FailedPath, M.Failure);
    }
  }
  M.Seconds = std::chrono::duration<double>(Clock::now() - Start).count();
  close(Lock); // releases the lock
  return M;
}

} // namespace ddtc

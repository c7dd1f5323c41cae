//===- lib/Runtime/KernelCompiler.cpp - Kernels compiled on first use -----===//
#include "KernelCompiler.h"

#include "CachedKernels.h"
#include "HelperProcesses.h"
#include "Placement.h"
#include "RuntimeLog.h"
#include "TypeBinding.h"

#include "ddtc/Format/DescriptionWriter.h"
#include "ddtc/Runtime/KernelCache.h"
#include "ddtc/Runtime/RuntimeSettings.h"
#include "ddtc/Runtime/RuntimeSupport.h"
#include "ddtc/Runtime/SettingsStore.h"
#include "ddtc/Support/ByteSize.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <set>
#include <sstream>
#include <thread>

namespace ddtc {

namespace {

/// A size setting of the environment, or Default where unset; false for a
/// value that is not one.
bool sizeSetting(const char *Name, uint64_t &Value) {
  const char *V = std::getenv(Name);
  return !V || !*V || parseByteSize(V, Value);
}

} // namespace

KernelCompiler &KernelCompiler::get() {
  static KernelCompiler *C = new KernelCompiler();
  return *C;
}

void KernelCompiler::start(std::vector<std::string> &Warnings) {
  std::string Setting = getEnvOr("DDTC_CACHE_COMPILE", "on");
  if (Setting == "off")
    return;
  if (Setting != "on" && Setting != "during" && Setting != "after") {
    Warnings.push_back("DDTC_CACHE_COMPILE='" + Setting +
                       "' is none of on, during, after and off; on");
    Setting = "on";
  }
  // A compile beside ranks that keep every core busy takes a core from
  // one of them, however low its priority (MPI's waits spin, and a rank
  // descheduled stalls its peers): there the kernels are compiled when the
  // rank has ended, for the next run.
  if (Setting == "on") {
    int Local = Placement::launcherLocalSize();
    unsigned Cores = std::thread::hardware_concurrency();
    Setting =
        Local > 0 && Cores > 0 && unsigned(Local) < Cores ? "during" : "after";
  }
  After = Setting == "after";
  uint64_t Hot = HotBytes, Max = MaxCompiles, Timeout = 60;
  if (!sizeSetting("DDTC_CACHE_HOT", Hot))
    Warnings.push_back("DDTC_CACHE_HOT is not a size (bytes, or with K, M or "
                       "G); keeping " +
                       std::to_string(HotBytes));
  else
    HotBytes = Hot;
  if (!sizeSetting("DDTC_CACHE_MAX_COMPILES", Max))
    Warnings.push_back("DDTC_CACHE_MAX_COMPILES is not a number; keeping " +
                       std::to_string(MaxCompiles));
  else
    MaxCompiles = static_cast<size_t>(Max);
  if (!sizeSetting("DDTC_CACHE_COMPILE_TIMEOUT", Timeout) || Timeout == 0)
    Warnings.push_back("DDTC_CACHE_COMPILE_TIMEOUT is not a number of "
                       "seconds; keeping 60");
  if (MaxCompiles == 0)
    return;
  // The size the servers keep the cache under (`ddtc cache build
  // --max-size`), checked here so that a bad value warns once.
  std::string MaxSize = getEnvOr("DDTC_CACHE_MAX_SIZE", "");
  if (uint64_t Bytes; !MaxSize.empty() && !parseByteSize(MaxSize, Bytes)) {
    Warnings.push_back("DDTC_CACHE_MAX_SIZE='" + MaxSize +
                       "' is not a size (bytes, or with K, M or G); 1G");
    MaxSize.clear();
  }

  std::string Dir = cacheDirectory();
  if (Dir.empty()) {
    Warnings.push_back("no cache directory for compiled kernels (set "
                       "DDTC_CACHE, XDG_CACHE_HOME or HOME); not compiling");
    return;
  }
  std::string Top = kernelCacheRoot(Dir, DDTC_VERSION);
  std::string Err;
  RequestDir = Top + "/requests";
  if (!makeTrustedDirectory(RequestDir, Err)) {
    Warnings.push_back("kernel cache: " + Err + "; not compiling");
    return;
  }
  for (const std::string &D : {Dir, Dir + "/kernels", Top})
    if (std::string Why = whyUntrusted(D, /*Directory=*/true); !Why.empty()) {
      Warnings.push_back("kernel cache '" + D + "' is " + Why +
                         "; not compiling");
      return;
    }

  ServerArgv = {helperProgram("ddtc", DDTC_RT_BUILT_DDTC),
                "cache",
                "serve",
                "--cache",
                Dir,
                "--march",
                "native",
                "--timeout",
                std::to_string(Timeout)};
  if (After)
    ServerArgv.push_back("--after");
  if (!MaxSize.empty())
    ServerArgv.insert(ServerArgv.end(), {"--max-size", MaxSize});
  ServerLog = Top + "/compile.log";
}

void KernelCompiler::launch(std::vector<std::string> &Warnings) {
  if (ServerArgv.empty())
    return;
  std::vector<std::string> Argv = std::move(ServerArgv);
  ServerArgv.clear();
  const std::string &Ddtc = Argv[0];
  // The server's end becomes its standard input and output; ours stays
  // out of the program's children (close-on-exec), so that the server
  // sees the end of its input when this process ends, whatever else the
  // program starts.
  int Ends[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, Ends) != 0) {
    Warnings.push_back(std::string("cannot start the compile server: ") +
                       std::strerror(errno) + "; not compiling");
    return;
  }
  std::vector<char *> Args;
  for (std::string &A : Argv)
    Args.push_back(A.data());
  Args.push_back(nullptr);
  posix_spawn_file_actions_t Files;
  posix_spawn_file_actions_init(&Files);
  posix_spawn_file_actions_adddup2(&Files, Ends[1], 0);
  posix_spawn_file_actions_adddup2(&Files, Ends[1], 1);
  // What the compiler says goes to the cache's log, not into the
  // program's output.
  posix_spawn_file_actions_addopen(&Files, 2, ServerLog.c_str(),
                                   O_WRONLY | O_CREAT | O_APPEND, 0600);
  // None of the program's other files: a launcher waits for the pipes of
  // a rank's output to close, and would wait for this helper too.
  posix_spawn_file_actions_addclosefrom_np(&Files, 3);
  std::vector<char *> Env = helperEnvironment();
  pid_t Pid = 0;
  int E = posix_spawn(&Pid, Args[0], &Files, nullptr, Args.data(), Env.data());
  posix_spawn_file_actions_destroy(&Files);
  close(Ends[1]);
  if (E != 0) {
    close(Ends[0]);
    Warnings.push_back("cannot start the compile server " + Ddtc + ": " +
                       std::strerror(E) + "; not compiling");
    return;
  }
  // The server is not waited for: it ends when this process does, and
  // its parent then is init. Answers are read without blocking.
  fcntl(Ends[0], F_SETFL, fcntl(Ends[0], F_GETFL) | O_NONBLOCK);
  Socket = Ends[0];
  Enabled = true;
}

std::string KernelCompiler::describe(const Binding &B) {
  // The description of the decoded type; the server emits and keys it as
  // `ddtc cache build` does, the same key the commit computes.
  Module M(*B.Ctx);
  std::set<std::string> Added;
  auto Add = [&](const Type *T) {
    char Name[40];
    std::snprintf(Name, sizeof Name, "hot_%016" PRIx64 "%016" PRIx64,
                  T->getFingerprint().Hi, T->getFingerprint().Lo);
    if (Added.insert(Name).second)
      M.types().push_back({Name, T, {}});
  };
  Add(B.T);
  // A struct's members too: one of absolute addresses (MPI_BOTTOM), or of
  // arrays allocated apart, has another layout key as a whole in the next
  // run, where its arrays lie elsewhere, but the same members, which the
  // next commit binds one by one (BindingTable::bindMembers).
  if (const auto *S = dyn_cast<StructType>(B.T))
    for (const Type *Member : S->getTypes())
      if (Member->size() != 0 && !Member->getLayout().isDense())
        Add(Member);
  return writeDescription(M);
}

void KernelCompiler::request(const Binding &B) {
  if (!B.T || !B.Ctx || !B.Stats)
    return;
  std::lock_guard<std::mutex> G(Lock);
  if (!Enabled)
    return;
  if (After) {
    remember(B);
    return;
  }
  if (Requested >= MaxCompiles)
    return;
  send(describe(B), B.Stats);
  if (Requested >= MaxCompiles)
    Enabled = false;
}

void KernelCompiler::remember(const Binding &B) {
  uint64_t Bytes = B.Stats->SubstitutedBytes.load(std::memory_order_relaxed);
  for (const Candidate &C : Candidates)
    if (C.Stats == B.Stats)
      return; // another commit of the same type
  // Bounded: past the bound, a type that has moved fewer bytes than every
  // one kept is not kept, else it takes the place of the least of them.
  if (Candidates.size() >= MaxCandidates ||
      CandidateBytes >= MaxCandidateBytes) {
    auto Least = std::min_element(Candidates.begin(), Candidates.end(),
                                  [](const Candidate &X, const Candidate &Y) {
                                    return X.Stats->SubstitutedBytes.load() <
                                           Y.Stats->SubstitutedBytes.load();
                                  });
    if (Least->Stats->SubstitutedBytes.load() >= Bytes)
      return;
    CandidateBytes -= Least->Description.size();
    Candidates.erase(Least);
  }
  Candidates.push_back({B.Stats, describe(B)});
  CandidateBytes += Candidates.back().Description.size();
}

void KernelCompiler::send(const std::string &Description,
                          const TypeStats *Stats) {
  uint64_t Id = NextId++;
  std::string Path = RequestDir + "/" + std::to_string(getpid()) + "-" +
                     std::to_string(Id) + ".json";
  std::string Err;
  if (!writeFileAtomically(Path, Description, Err, 0600)) {
    warn(Rank, "cannot ask for the kernel of " + Stats->Name + ": " + Err +
                   "; no more compiles this run");
    Enabled = false;
    return;
  }
  std::string Line = std::to_string(Id) + " " + Path + "\n";
  // A short line on a socket the server reads: never blocks for long; a
  // server that is gone is an error here, never a SIGPIPE.
  if (::send(Socket, Line.data(), Line.size(), MSG_NOSIGNAL) !=
      static_cast<ssize_t>(Line.size())) {
    warn(Rank, std::string("the compile server is gone (") +
                   std::strerror(errno) + "); not compiling");
    unlink(Path.c_str());
    Enabled = false;
    return;
  }
  ++Requested;
  // Compiled after the program: no answer to wait for.
  if (!After) {
    Waiting.emplace(Id, Stats);
    Pending.fetch_add(1, std::memory_order_relaxed);
  }
}

std::vector<const TypeStats *> KernelCompiler::poll() {
  std::vector<const TypeStats *> Arrived;
  std::unique_lock<std::mutex> G(Lock, std::try_to_lock);
  if (!G.owns_lock())
    return Arrived;
  auto Now = std::chrono::steady_clock::now();
  if (Now - LastPoll < PollInterval)
    return Arrived;
  LastPoll = Now;
  char Buf[512];
  ssize_t N;
  while ((N = recv(Socket, Buf, sizeof Buf, MSG_DONTWAIT)) > 0)
    Partial.append(Buf, static_cast<size_t>(N));
  if (N == 0 && !Waiting.empty()) {
    // The server ended with requests open: it was killed.
    warn(Rank, "the compile server ended; " + std::to_string(Waiting.size()) +
                   " kernels not compiled this run");
    Failed += Waiting.size();
    Pending.fetch_sub(static_cast<int>(Waiting.size()));
    Waiting.clear();
    Enabled = false;
  }
  bool Added = false;
  for (size_t End; (End = Partial.find('\n')) != std::string::npos;) {
    std::istringstream In(Partial.substr(0, End));
    Partial.erase(0, End + 1);
    uint64_t Id = 0;
    std::string Outcome;
    if (!(In >> Id >> Outcome))
      continue;
    auto It = Waiting.find(Id);
    if (It == Waiting.end())
      continue;
    const TypeStats *S = It->second;
    Waiting.erase(It);
    Pending.fetch_sub(1, std::memory_order_relaxed);
    if (Outcome == "ok") {
      ++Compiled;
      Arrived.push_back(S);
      Added = true;
    } else {
      // A compiler that is missing, fails or is too slow would fail the
      // same way for every type: one warning, and no more compiles.
      ++Failed;
      if (Enabled)
        warn(Rank, "compiling the kernel of " + S->Name + " (size " +
                       std::to_string(S->Size) + ", extent " +
                       std::to_string(S->Extent) +
                       ") failed; it keeps its shape kernel, and no more "
                       "kernels are compiled this run (the compiler's "
                       "messages are in " +
                       RequestDir.substr(0, RequestDir.rfind('/')) +
                       "/compile.log)");
      Enabled = false;
    }
  }
  G.unlock();
  if (Added)
    CachedKernels::get().refresh();
  return Arrived;
}

size_t KernelCompiler::requested() const {
  std::lock_guard<std::mutex> G(Lock);
  return Requested;
}

size_t KernelCompiler::compiled() const {
  std::lock_guard<std::mutex> G(Lock);
  return Compiled;
}

size_t KernelCompiler::failed() const {
  std::lock_guard<std::mutex> G(Lock);
  return Failed;
}

void KernelCompiler::stop() {
  std::lock_guard<std::mutex> G(Lock);
  // Compiling after the program, the hottest types are known at its end:
  // the kernels asked for are those of the types that moved the most
  // bytes, whenever they became hot (DDTBench's FFT, 1.1 GB through its
  // shape kernel, comes last and would find the bound reached).
  // The counts are read once: other threads may still move these types,
  // and std::sort needs an order that does not change while it runs.
  std::vector<std::pair<uint64_t, const Candidate *>> ByBytes;
  ByBytes.reserve(Candidates.size());
  for (const Candidate &C : Candidates)
    ByBytes.emplace_back(
        C.Stats->SubstitutedBytes.load(std::memory_order_relaxed), &C);
  std::stable_sort(
      ByBytes.begin(), ByBytes.end(),
      [](const auto &X, const auto &Y) { return X.first > Y.first; });
  for (const auto &[Bytes, C] : ByBytes) {
    if (!Enabled || Requested >= MaxCompiles)
      break;
    send(C->Description, C->Stats);
  }
  Candidates.clear();
  Enabled = false;
  if (Socket >= 0)
    close(Socket);
  Socket = -1;
}

} // namespace ddtc

//===- tools/ddtc-bench/KernelLibrary.cpp - Emitted kernels, loaded -------===//

#include "KernelLibrary.h"
#include "BenchOptions.h"
#include "Collective.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

extern char **environ;

namespace fs = std::filesystem;

namespace {
/// The tables the libraries loaded so far registered, in order.
std::vector<const ddtc_kernel_table *> &registeredTables() {
  static std::vector<const ddtc_kernel_table *> Tables;
  return Tables;
}
} // namespace

/// Called by every emitted library's constructor (KernelABI.h). Exported
/// from the executable (ENABLE_EXPORTS), so the libraries' weak references
/// bind to it when they are loaded.
extern "C" __attribute__((visibility("default"))) void
ddtc_rt_register_kernels(const ddtc_kernel_table *Table) {
  registeredTables().push_back(Table);
}

namespace ddtc::bench {

namespace {

//===----------------------------------------------------------------------===//
// Finding things
//===----------------------------------------------------------------------===//

std::string selfDirectory() {
  std::error_code EC;
  fs::path Self = fs::read_symlink("/proc/self/exe", EC);
  return EC ? std::string(".") : Self.parent_path().string();
}

bool isExecutable(const std::string &P) {
  struct stat St;
  return stat(P.c_str(), &St) == 0 && S_ISREG(St.st_mode) &&
         access(P.c_str(), X_OK) == 0;
}

/// The ddtc tool: --ddtc, $DDTC, then beside this program (installed:
/// both in bin/; build tree: tools/ddtc/ddtc beside tools/ddtc-bench/).
bool findDdtc(const BenchOptions &O, std::string &Out, std::string &Err) {
  std::vector<std::string> Candidates;
  if (!O.Ddtc.empty())
    Candidates.push_back(O.Ddtc);
  else if (const char *Env = std::getenv("DDTC"); Env && *Env)
    Candidates.push_back(Env);
  else {
    std::string Dir = selfDirectory();
    Candidates.push_back(Dir + "/ddtc");
    Candidates.push_back(Dir + "/../ddtc/ddtc");
  }
  for (const std::string &C : Candidates)
    if (isExecutable(C)) {
      Out = C;
      return true;
    }
  Err = "cannot find the ddtc tool to emit kernels (looked at";
  for (const std::string &C : Candidates)
    Err += " " + C;
  Err += "); name it with --ddtc PATH or $DDTC";
  return false;
}

std::string cacheRoot(const BenchOptions &O) {
  if (!O.CacheDir.empty())
    return O.CacheDir;
  if (const char *Env = std::getenv("DDTC_BENCH_CACHE"); Env && *Env)
    return Env;
  if (const char *Xdg = std::getenv("XDG_CACHE_HOME"); Xdg && *Xdg)
    return std::string(Xdg) + "/ddtc-bench";
  if (const char *Home = std::getenv("HOME"); Home && *Home)
    return std::string(Home) + "/.cache/ddtc-bench";
  return "/tmp/ddtc-bench-" + std::to_string(getuid());
}

//===----------------------------------------------------------------------===//
// Emitting and compiling
//===----------------------------------------------------------------------===//

/// How the kernels are compiled: the compilers ddtc was built with, and
/// MPICH's headers for the ddtc_NAME_build functions.
const char *const CxxCompiler = DDTC_BENCH_CXX;
const char *const CCompiler = DDTC_BENCH_CC;
const char *const MpiIncludes = DDTC_BENCH_MPI_INCLUDES; // ';'-separated
const char *const KernelFlags = "-O3";

void hashBytes(uint64_t &H, const void *Data, size_t N) {
  const auto *P = static_cast<const unsigned char *>(Data);
  for (size_t I = 0; I < N; ++I) {
    H ^= P[I];
    H *= 0x100000001b3ull; // FNV-1a
  }
}
void hashString(uint64_t &H, const std::string &S) {
  hashBytes(H, S.data(), S.size() + 1);
}

/// The cache key: everything the library's content depends on. The ddtc
/// binary's size and time stand for its emitter, so that a rebuilt ddtc
/// does not reuse kernels of an older one.
bool cacheKey(const std::string &File, const std::string &Ddtc,
              std::string &Key, std::string &Err) {
  std::ifstream In(File, std::ios::binary);
  if (!In) {
    Err = File + ": cannot read: " + std::strerror(errno);
    return false;
  }
  std::stringstream Text;
  Text << In.rdbuf();
  uint64_t H = 0xcbf29ce484222325ull;
  hashString(H, Text.str());
  for (const char *S :
       {DDTC_VERSION, CxxCompiler, CCompiler, MpiIncludes, KernelFlags})
    hashString(H, S);
  struct stat St;
  if (stat(Ddtc.c_str(), &St) == 0) {
    hashBytes(H, &St.st_size, sizeof St.st_size);
    hashBytes(H, &St.st_mtim.tv_sec, sizeof St.st_mtim.tv_sec);
  }
  char Buf[17];
  std::snprintf(Buf, sizeof Buf, "%016llx", static_cast<unsigned long long>(H));
  Key = Buf;
  return true;
}

/// Runs Argv with stdout and stderr appended to Log; an error names the
/// command and quotes the end of its output.
bool run(const std::vector<std::string> &Argv, const std::string &Log,
         std::string &Err) {
  std::vector<char *> Args;
  for (const std::string &A : Argv)
    Args.push_back(const_cast<char *>(A.c_str()));
  Args.push_back(nullptr);
  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  posix_spawn_file_actions_addopen(&Actions, 1, Log.c_str(),
                                   O_WRONLY | O_CREAT | O_APPEND, 0644);
  posix_spawn_file_actions_adddup2(&Actions, 1, 2);
  pid_t Pid = 0;
  int Spawned =
      posix_spawn(&Pid, Args[0], &Actions, nullptr, Args.data(), environ);
  posix_spawn_file_actions_destroy(&Actions);
  std::string Command;
  for (const std::string &A : Argv)
    Command += (Command.empty() ? "" : " ") + A;
  if (Spawned != 0) {
    Err = "cannot run " + Argv[0] + ": " + std::strerror(Spawned);
    return false;
  }
  int Status = 0;
  while (waitpid(Pid, &Status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(Status) && WEXITSTATUS(Status) == 0)
    return true;
  std::ifstream In(Log);
  std::string Line, Tail;
  for (int N = 0; N < 20 && std::getline(In, Line); ++N)
    Tail += "\n  " + Line;
  Err = "'" + Command + "' failed" + Tail;
  return false;
}

/// Emits and compiles the kernels of File into Dir/kernels.so, building in
/// a private directory first and renaming it into place, so that
/// concurrent runs never see a half-written library.
bool generate(const std::string &File, const std::string &Ddtc,
              const std::string &Dir, std::string &Err) {
  if (access((Dir + "/kernels.so").c_str(), R_OK) == 0)
    return true; // made by an earlier run
  std::error_code EC;
  fs::create_directories(fs::path(Dir).parent_path(), EC);
  std::string Template = Dir + ".tmp.XXXXXX";
  if (!mkdtemp(Template.data())) {
    Err = "cannot create a directory in " +
          fs::path(Dir).parent_path().string() + ": " + std::strerror(errno);
    return false;
  }
  const std::string Tmp = Template, Log = Tmp + "/build.log";
  std::vector<std::string> CFlags = {CCompiler, KernelFlags, "-fPIC"};
  std::stringstream Includes(MpiIncludes);
  for (std::string I; std::getline(Includes, I, ';');)
    if (!I.empty())
      CFlags.push_back("-I" + I);
  CFlags.insert(CFlags.end(),
                {"-c", Tmp + "/kernels_mpi.c", "-o", Tmp + "/kernels_mpi.o"});
  bool Ok =
      run({Ddtc, "emit", File, "-o", Tmp + "/kernels"}, Log, Err) &&
      run(CFlags, Log, Err) &&
      run({CxxCompiler, KernelFlags, "-fPIC", "-shared", Tmp + "/kernels.cpp",
           Tmp + "/kernels_mpi.o", "-o", Tmp + "/kernels.so"},
          Log, Err);
  if (!Ok) {
    fs::remove_all(Tmp, EC);
    return false;
  }
  if (std::rename(Tmp.c_str(), Dir.c_str()) != 0) {
    // Another run got there first: its library is as good as ours.
    fs::remove_all(Tmp, EC);
    if (access((Dir + "/kernels.so").c_str(), R_OK) != 0) {
      Err = "cannot create " + Dir + ": " + std::strerror(errno);
      return false;
    }
  }
  return true;
}

} // namespace

//===----------------------------------------------------------------------===//
// KernelLibrary
//===----------------------------------------------------------------------===//

KernelLibrary::~KernelLibrary() {
  // Not dlclose'd: MPI may still hold types built by its functions until
  // MPI_Finalize, and unloading gains nothing at exit.
}

bool KernelLibrary::load(const BenchOptions &O, std::string &Err) {
  std::string Mine;
  if (!O.KernelLibrary.empty()) {
    Path = O.KernelLibrary;
  } else {
    // One rank per node emits and compiles; the others wait for it.
    MPI_Comm Node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL,
                        &Node);
    int NodeRank = 0;
    MPI_Comm_rank(Node, &NodeRank);
    std::string Ddtc, Key, Dir;
    if (NodeRank == 0 && findDdtc(O, Ddtc, Mine) &&
        cacheKey(O.File, Ddtc, Key, Mine)) {
      Dir = cacheRoot(O) + "/" + Key;
      generate(O.File, Ddtc, Dir, Mine);
    }
    Mine = broadcastString(Mine, 0, Node);
    Dir = broadcastString(Dir, 0, Node);
    MPI_Comm_free(&Node);
    Path = Dir + "/kernels.so";
  }
  if (Mine.empty()) {
    size_t Before = registeredTables().size();
    Handle = dlopen(Path.find('/') == std::string::npos ? ("./" + Path).c_str()
                                                        : Path.c_str(),
                    RTLD_NOW | RTLD_LOCAL);
    if (!Handle)
      Mine = std::string("cannot load kernels: ") + dlerror();
    else if (registeredTables().size() == Before)
      Mine = Path + ": registers no kernel table (not a library made from "
                    "`ddtc emit` output?)";
    for (size_t I = Before; Mine.empty() && I < registeredTables().size();
         ++I) {
      const ddtc_kernel_table *T = registeredTables()[I];
      if (T->abi_version != DDTC_KERNEL_ABI) {
        Mine = Path + ": kernel table ABI " + std::to_string(T->abi_version) +
               ", this ddtc-bench reads ABI " + std::to_string(DDTC_KERNEL_ABI);
        break;
      }
      for (size_t K = 0; K < T->num_kernels; ++K)
        Kernels.emplace(T->kernels[K].name, &T->kernels[K]);
    }
  }
  Err = agree(Mine);
  return Err.empty();
}

const ddtc_kernel *KernelLibrary::getKernel(const std::string &Name) const {
  auto It = Kernels.find(Name);
  return It == Kernels.end() ? nullptr : It->second;
}

BuildFn KernelLibrary::getBuild(const std::string &Name) const {
  if (!Handle)
    return nullptr;
  return reinterpret_cast<BuildFn>(
      dlsym(Handle, ("ddtc_" + Name + "_build").c_str()));
}

} // namespace ddtc::bench

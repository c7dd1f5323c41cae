//===- lib/Runtime/FamilyGuard.cpp - Out of the way of another MPI family -===//
//
// Each preload library is built for one MPI ABI: MPICH's handles are ints,
// Open MPI's are pointers. Preloaded into a program of the other family,
// its wrappers would read the program's handles as their own -- a pointer
// cut to an int -- and crash the program even where they only pass a call
// on. So before the program starts, the library finds the family of the
// MPI that the program's calls reach (the library that defines PMPI_Init
// for the whole process) and, if it is not its own, warns once and runs the
// program again in the same process (exec), without itself in LD_PRELOAD:
// the program then runs exactly as it would without ddtc, results and exit
// status included. Nothing of MPI exists yet at that point.
//
// A program that loads MPI later with dlopen is not seen here; the
// libraries' own MPI is then the first in the process and serves it.
//
//===----------------------------------------------------------------------===//
#include <mpi.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <dlfcn.h>
#include <limits.h>
#include <unistd.h>

namespace {

/// Set in the program's environment before it runs again, so that a
/// library that could not be taken out of LD_PRELOAD (one listed in
/// /etc/ld.so.preload) does not run it again and again.
constexpr const char *GuardVariable = "DDTC_FOREIGN_MPI";

#ifdef OPEN_MPI
constexpr const char *OwnFamily = "Open MPI";
#else
constexpr const char *OwnFamily = "MPICH";
#endif

/// The family of the library at Path, known by a symbol only that
/// family's library defines; null if neither.
const char *familyOfLibrary(const char *Path) {
  void *Handle = dlopen(Path, RTLD_LAZY | RTLD_NOLOAD);
  if (!Handle)
    return nullptr;
  const char *Family = nullptr;
  if (dlsym(Handle, "ompi_mpi_comm_world"))
    Family = "Open MPI";
  else if (dlsym(Handle, "MPIR_Err_create_code"))
    Family = "MPICH";
  dlclose(Handle);
  return Family;
}

std::string baseName(const std::string &Path) {
  size_t Slash = Path.rfind('/');
  return Slash == std::string::npos ? Path : Path.substr(Slash + 1);
}

std::string realPath(const std::string &Path) {
  char Buf[PATH_MAX];
  return realpath(Path.c_str(), Buf) ? std::string(Buf) : Path;
}

/// LD_PRELOAD without the entries that are this library (the list is
/// separated by spaces or colons).
std::string preloadWithout(const std::string &Self) {
  const char *List = std::getenv("LD_PRELOAD");
  std::string Out, Entry, SelfReal = realPath(Self);
  auto Flush = [&] {
    if (!Entry.empty() && realPath(Entry) != SelfReal &&
        baseName(Entry) != baseName(Self))
      Out += (Out.empty() ? "" : ":") + Entry;
    Entry.clear();
  };
  for (const char *C = List ? List : ""; *C; ++C) {
    if (*C == ' ' || *C == ':')
      Flush();
    else
      Entry += *C;
  }
  Flush();
  return Out;
}

/// The rank the launcher gave this process, if it says.
const char *launcherRank() {
  for (const char *Name : {"PMI_RANK", "OMPI_COMM_WORLD_RANK", "PMIX_RANK"})
    if (const char *V = std::getenv(Name))
      return V;
  return nullptr;
}

/// The command line the process was started with.
std::vector<std::string> commandLine() {
  std::vector<std::string> Args;
  FILE *F = std::fopen("/proc/self/cmdline", "rb");
  if (!F)
    return Args;
  std::string Arg;
  for (int C; (C = std::fgetc(F)) != EOF;) {
    if (C)
      Arg += static_cast<char>(C);
    else {
      Args.push_back(Arg);
      Arg.clear();
    }
  }
  std::fclose(F);
  return Args;
}

__attribute__((constructor)) void leaveAnotherFamilysProgram() {
  if (std::getenv(GuardVariable))
    return;
  void *Init = dlsym(RTLD_DEFAULT, "PMPI_Init");
  Dl_info Program, Self;
  if (!Init || !dladdr(Init, &Program) || !Program.dli_fname ||
      !dladdr(reinterpret_cast<void *>(&leaveAnotherFamilysProgram), &Self) ||
      !Self.dli_fname)
    return;
  const char *Family = familyOfLibrary(Program.dli_fname);
  if (!Family || std::strcmp(Family, OwnFamily) == 0)
    return;

  std::string SelfName = baseName(Self.dli_fname);
  const char *Rank = launcherRank();
  if (!Rank || std::strcmp(Rank, "0") == 0)
    std::fprintf(stderr,
                 "ddtc: warning: %s is built for %s, and this program uses "
                 "%s (%s): running it without ddtc (preload the library "
                 "built for %s)\n",
                 SelfName.c_str(), OwnFamily, Family,
                 baseName(Program.dli_fname).c_str(), Family);
  std::vector<std::string> Args = commandLine();
  if (Args.empty())
    return;
  std::string Preload = preloadWithout(Self.dli_fname);
  if (Preload.empty())
    unsetenv("LD_PRELOAD");
  else
    setenv("LD_PRELOAD", Preload.c_str(), 1);
  setenv(GuardVariable, Family, 1);
  std::vector<char *> Argv;
  for (std::string &A : Args)
    Argv.push_back(A.data());
  Argv.push_back(nullptr);
  execv("/proc/self/exe", Argv.data());
  std::fprintf(stderr, "ddtc: warning: cannot run the program again: %s\n",
               std::strerror(errno));
}

} // namespace

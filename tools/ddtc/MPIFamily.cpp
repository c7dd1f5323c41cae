//===- tools/ddtc/MPIFamily.cpp - The MPI family of a command -------------===//
//
// A program's family is that of the MPI library it loads, which `ldd`
// lists with everything loaded through other libraries: a Fortran program
// links MPI through its Fortran bindings (libmpichfort.so.12,
// libmpi_mpifh.so.40). The library is known by its soname, which is the
// ABI's: MPICH's ABI is libmpi.so.12 (MPICH, Intel MPI, MVAPICH), which
// Debian calls libmpich.so.12; Open MPI's is libmpi.so.40.
//
//===----------------------------------------------------------------------===//
#include "MPIFamily.h"
#include "Subprocess.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>
#include <unistd.h>

namespace fs = std::filesystem;

namespace ddtc {

namespace {

/// A file name and the family it says.
struct NamedFamily {
  const char *Name;
  MPIFamily Family;
};

/// The MPI libraries by soname.
constexpr NamedFamily MPISonames[] = {
    {"libmpi.so.12", MPIFamily::MPICH},
    {"libmpich.so.12", MPIFamily::MPICH},
    {"libmpi.so.40", MPIFamily::OpenMPI},
};

/// The launchers by name, as given or after symbolic links: mpiexec.mpich
/// and mpirun.mpich are links to mpiexec.hydra, Open MPI's mpiexec and
/// mpirun to orterun (Open MPI 4) or prterun (Open MPI 5).
constexpr NamedFamily Launchers[] = {
    {"mpiexec.hydra", MPIFamily::MPICH},
    {"mpiexec.mpich", MPIFamily::MPICH},
    {"mpirun.mpich", MPIFamily::MPICH},
    {"orterun", MPIFamily::OpenMPI},
    {"prterun", MPIFamily::OpenMPI},
    {"mpiexec.openmpi", MPIFamily::OpenMPI},
    {"mpirun.openmpi", MPIFamily::OpenMPI},
};

bool isExecutableFile(const std::string &Path) {
  std::error_code EC;
  return fs::is_regular_file(Path, EC) && access(Path.c_str(), X_OK) == 0;
}

bool isELF(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  char Magic[4] = {};
  return In.read(Magic, 4) && Magic[0] == 0x7f && Magic[1] == 'E' &&
         Magic[2] == 'L' && Magic[3] == 'F';
}

/// The sonames of the libraries ldd says Path loads; empty where ldd
/// cannot tell (a static program, no ldd).
std::vector<std::string> getLoadedLibraries(const std::string &Path) {
  static const std::string Ldd = findExecutable("ldd");
  std::vector<std::string> Names;
  std::string Output;
  if (Ldd.empty())
    return Names;
  SpawnOptions Options;
  Options.Output = &Output;
  Options.DiscardStderr = true;
  Expected<int> Status = runProgram({Ldd, Path}, Options);
  if (!Status || *Status != 0)
    return Names;
  // "\tlibmpich.so.12 => /usr/lib/.../libmpich.so.12 (0x...)", or the
  // loader's path alone.
  std::istringstream Lines(Output);
  std::string Line;
  while (std::getline(Lines, Line)) {
    std::istringstream Words(Line);
    std::string First;
    if (Words >> First)
      Names.push_back(fs::path(First).filename().string());
  }
  return Names;
}

/// The MPI family of the libraries Path loads, with the soname.
std::optional<std::pair<MPIFamily, std::string>>
getLinkedFamily(const std::string &Path) {
  for (const std::string &Name : getLoadedLibraries(Path))
    for (const NamedFamily &S : MPISonames)
      if (Name == S.Name)
        return std::make_pair(S.Family, Name);
  return std::nullopt;
}

std::string baseName(const std::string &Path) {
  return fs::path(Path).filename().string();
}

} // namespace

const char *getFamilyOption(MPIFamily F) {
  switch (F) {
  case MPIFamily::MPICH:
    return "mpich";
  case MPIFamily::OpenMPI:
    return "openmpi";
  }
  return "";
}

const char *getFamilyName(MPIFamily F) {
  switch (F) {
  case MPIFamily::MPICH:
    return "MPICH";
  case MPIFamily::OpenMPI:
    return "Open MPI";
  }
  return "";
}

const char *getFamilyLibrarySuffix(MPIFamily F) {
  switch (F) {
  case MPIFamily::MPICH:
    return "";
  case MPIFamily::OpenMPI:
    return "_openmpi";
  }
  return "";
}

std::optional<MPIFamily> parseFamily(std::string_view Word) {
  for (MPIFamily F : {MPIFamily::MPICH, MPIFamily::OpenMPI})
    if (Word == getFamilyOption(F))
      return F;
  return std::nullopt;
}

std::string findExecutable(const std::string &Word) {
  if (Word.empty())
    return "";
  if (Word.find('/') != std::string::npos)
    return isExecutableFile(Word) ? Word : "";
  const char *Path = std::getenv("PATH");
  std::istringstream Dirs(Path ? Path : "/usr/local/bin:/usr/bin:/bin");
  std::string Dir;
  while (std::getline(Dirs, Dir, ':')) {
    // An empty entry is the current directory.
    std::string Candidate = (Dir.empty() ? std::string(".") : Dir) + "/" + Word;
    if (isExecutableFile(Candidate))
      return Candidate;
  }
  return "";
}

std::optional<MPIFamily> getLauncherFamily(const std::string &LauncherPath) {
  std::error_code EC;
  fs::path Resolved = fs::canonical(LauncherPath, EC);
  // The name as given first: mpiexec.openmpi is a link to orterun, and
  // either says Open MPI.
  for (const std::string &Name :
       {baseName(LauncherPath),
        EC ? std::string() : Resolved.filename().string()})
    for (const NamedFamily &L : Launchers)
      if (Name == L.Name)
        return L.Family;
  // Open MPI's launcher under a name of its own (Open MPI 5's mpirun is a
  // program, not a link) loads its run-time environment's libraries.
  for (const std::string &Library : getLoadedLibraries(LauncherPath))
    for (const char *Prefix :
         {"libopen-rte.so.", "libopen-pal.so.", "libprrte.so."})
      if (Library.rfind(Prefix, 0) == 0)
        return MPIFamily::OpenMPI;
  return std::nullopt;
}

Expected<FoundFamily> detectFamily(const std::vector<std::string> &Command,
                                   const std::string &LauncherPath) {
  std::optional<FoundFamily> Found;
  std::string FoundIn;
  for (size_t I = 0; I < Command.size(); ++I) {
    const std::string &Path = I == 0 ? LauncherPath : Command[I];
    if (!isExecutableFile(Path) || !isELF(Path))
      continue;
    auto Linked = getLinkedFamily(Path);
    if (!Linked)
      continue;
    if (!Found) {
      Found =
          FoundFamily{Linked->first, Command[I] + " links " + Linked->second};
      FoundIn = Command[I];
      continue;
    }
    if (Found->Family != Linked->first)
      return makeError(FoundIn + " and " + Command[I] +
                       " link the MPI libraries of two families (" +
                       Found->Evidence + ", " + Command[I] + " links " +
                       Linked->second + "); say which with --family");
  }
  if (Found)
    return *Found;
  if (std::optional<MPIFamily> F = getLauncherFamily(LauncherPath))
    return FoundFamily{*F,
                       Command[0] + " is " + getFamilyName(*F) + "'s launcher"};
  return makeError(
      "cannot tell the MPI family of the command: no program in it links "
      "libmpi.so.12, libmpich.so.12 (MPICH) or libmpi.so.40 (Open MPI), and " +
      Command[0] +
      " is no launcher known to ddtc; say it with --family "
      "mpich or --family openmpi");
}

} // namespace ddtc

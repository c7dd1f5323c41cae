//===- lib/MPI/MachineIdentity.cpp - What settings are measured on --------===//
#include "ddtc/MPI/MachineIdentity.h"
#include "ddtc/MPI/MPISupport.h"

#include <dlfcn.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <fstream>

namespace ddtc {

namespace {

std::string trim(const std::string &S) {
  size_t B = S.find_first_not_of(" \t");
  return B == std::string::npos
             ? ""
             : S.substr(B, S.find_last_not_of(" \t") - B + 1);
}

/// The processor's name as the kernel reports it: x86's "model name",
/// or Arm's implementer and part numbers.
std::string processorName() {
  std::ifstream In("/proc/cpuinfo");
  std::string Line, Implementer, Part;
  while (std::getline(In, Line)) {
    size_t Colon = Line.find(':');
    if (Colon == std::string::npos)
      continue;
    std::string Key = trim(Line.substr(0, Colon));
    std::string Value = trim(Line.substr(Colon + 1));
    if (Key == "model name")
      return Value;
    if (Key == "CPU implementer" && Implementer.empty())
      Implementer = Value;
    if (Key == "CPU part" && Part.empty())
      Part = Value;
  }
  if (!Implementer.empty())
    return "implementer " + Implementer + " part " + Part;
  return "unknown processor";
}

/// The file of the shared object that defines PMPI_Init, with its size and
/// modification time; "linked statically" if none.
std::string libraryFile() {
  Dl_info Info{};
  if (!dladdr(reinterpret_cast<void *>(&PMPI_Init), &Info) || !Info.dli_fname)
    return "linked statically";
  char Real[PATH_MAX];
  std::string Path = realpath(Info.dli_fname, Real) ? Real : Info.dli_fname;
  struct stat St {};
  if (stat(Path.c_str(), &St) != 0)
    return Path;
  return Path + ", " + std::to_string(St.st_size) + " bytes, modified " +
         std::to_string(St.st_mtime);
}

} // namespace

MachineIdentity machineIdentity() {
  MachineIdentity Id;
  struct utsname U {};
  uname(&U);
  Id.Node = std::string(U.machine) + ", " + processorName() + ", " +
            std::to_string(sysconf(_SC_NPROCESSORS_CONF)) + " CPUs";
  Id.Library = mpiLibraryVersion() + ", " + libraryFile();
  return Id;
}

} // namespace ddtc

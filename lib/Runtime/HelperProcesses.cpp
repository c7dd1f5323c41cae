//===- lib/Runtime/HelperProcesses.cpp - Programs the runtime starts ------===//
#include "HelperProcesses.h"

#include <dlfcn.h>
#include <unistd.h>

#include <string_view>

extern char **environ;

namespace ddtc {

std::string helperProgram(const char *Name, const char *Built) {
  Dl_info Info{};
  if (dladdr(reinterpret_cast<void *>(&helperProgram), &Info) &&
      Info.dli_fname) {
    std::string Lib = Info.dli_fname;
    std::string Installed = Lib.substr(0, Lib.rfind('/')) + "/" +
                            DDTC_RT_BINDIR_FROM_LIBDIR + "/" + Name;
    if (access(Installed.c_str(), X_OK) == 0)
      return Installed;
  }
  return Built;
}

std::vector<char *> helperEnvironment() {
  static const char *const Dropped[] = {"PMI_",
                                        "PMIX_",
                                        "HYDRA_",
                                        "HYDI_",
                                        "MPI_LOCALNRANKS",
                                        "MPI_LOCALRANKID",
                                        "OMPI_",
                                        "PRTE_",
                                        "ORTE_",
                                        "LD_PRELOAD",
                                        "DDTC_"};
  std::vector<char *> Env;
  for (char **E = environ; E && *E; ++E) {
    std::string_view V(*E);
    bool Drop = false;
    for (const char *P : Dropped)
      Drop |= V.starts_with(P);
    // Open MPI's consent to run as root is the user's, not the job's; the
    // cache a helper writes to is the one this process reads.
    if (V.starts_with("OMPI_ALLOW_RUN_AS_ROOT") || V.starts_with("DDTC_CACHE="))
      Drop = false;
    if (!Drop)
      Env.push_back(*E);
  }
  // A program that runs as root under Open MPI was allowed to by its user,
  // often with --allow-run-as-root on mpiexec's command line, which its
  // ranks do not see: the helper job, the runtime's own, runs as the same
  // user with the same consent (MPICH's launcher ignores the variables).
  if (geteuid() == 0) {
    static char Allow[] = "OMPI_ALLOW_RUN_AS_ROOT=1",
                Confirm[] = "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1";
    for (char *V : {Allow, Confirm}) {
      std::string_view Name(V, std::string_view(V).find('=') + 1);
      bool Given = false;
      for (char *E : Env)
        Given |= std::string_view(E).starts_with(Name);
      if (!Given)
        Env.push_back(V);
    }
  }
  Env.push_back(nullptr);
  return Env;
}

} // namespace ddtc

//===- tools/ddtc/MPIFamily.h - The MPI family of a command -----*- C++ -*-===//
//
// The runtime libraries are built once per MPI ABI (docs/runtime.md, "MPI
// families"), and a library of the other family cannot serve a program:
// `ddtc run` preloads the one of the family its command's program links.
// It finds the family as a user would: what `ldd` says the program links,
// else which launcher starts it.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_TOOLS_DDTC_MPIFAMILY_H
#define DDTC_TOOLS_DDTC_MPIFAMILY_H

#include "ddtc/Support/Error.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ddtc {

enum class MPIFamily { MPICH, OpenMPI };

/// The word of `--family`: "mpich" or "openmpi".
const char *getFamilyOption(MPIFamily F);
/// The family's name in messages: "MPICH" or "Open MPI".
const char *getFamilyName(MPIFamily F);
/// What the names of the family's libraries end with before ".so" (""
/// for MPICH, "_openmpi"), as lib/Runtime/CMakeLists.txt names them.
const char *getFamilyLibrarySuffix(MPIFamily F);
/// The family of a `--family` word; nullopt for another word.
std::optional<MPIFamily> parseFamily(std::string_view Word);

/// A family and what it was found by, for messages ("rt-exchange links
/// libmpich.so.12").
struct FoundFamily {
  MPIFamily Family;
  std::string Evidence;
};

/// The path execvp would run for Word: Word itself where it has a slash,
/// else the first executable file of that name in PATH. Empty if none.
std::string findExecutable(const std::string &Word);

/// The family of Command (launcher first, found at LauncherPath): that of
/// the MPI library linked, directly or through others, by the first of its
/// words that is an executable ELF file (the launcher, then the
/// arguments), else that of the launcher, by its name. An error where
/// neither says, or where two programs link libraries of both families.
Expected<FoundFamily> detectFamily(const std::vector<std::string> &Command,
                                   const std::string &LauncherPath);

/// The family whose launcher LauncherPath is (mpiexec.hydra, orterun...,
/// seen through symbolic links); nullopt for a program that is none.
std::optional<MPIFamily> getLauncherFamily(const std::string &LauncherPath);

} // namespace ddtc

#endif // DDTC_TOOLS_DDTC_MPIFAMILY_H

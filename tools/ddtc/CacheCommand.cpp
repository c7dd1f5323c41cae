//===- tools/ddtc/CacheCommand.cpp - `ddtc cache build` -------------------===//
//
// Fills the kernel cache (ddtc/Runtime/KernelCache.h) ahead of a run, for
// compute nodes without a compiler: each description's kernels are emitted
// as `ddtc emit` writes them, compiled into one shared object in a staging
// directory, and linked into the cache under the name of each kernel's
// layout key. Only keys without an entry are compiled; a description whose
// keys all have one costs no compile.
//
// Every entry appears whole or not at all: the library is compiled under
// a temporary name, and each entry is a hard link made under a temporary
// name and renamed over the entry. A failed compile leaves nothing behind.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "CacheTrim.h"
#include "Subprocess.h"

#include "ddtc/IR/TypeContext.h"
#include "ddtc/Runtime/KernelCache.h"
#include "ddtc/Runtime/SettingsStore.h"
#include "ddtc/Support/ByteSize.h"
#include "ddtc/Target/MPICHRules.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>

namespace ddtc {

namespace {

namespace fs = std::filesystem;

/// The compiler's own account of itself (`CXX --version`, first line): two
/// compilers, or two versions of one, make kernels of their own entries.
std::string compilerIdentity(const std::string &Compiler, std::string &Err) {
  std::string Output;
  SpawnOptions Options;
  Options.Output = &Output;
  Options.DiscardStderr = true;
  Options.SearchPath = true;
  Options.TimeoutSeconds = 60;
  Expected<int> Status = runProgram({Compiler, "--version"}, Options);
  // Why it could not run matters less than which compiler to name.
  std::string Line;
  if (Status && *Status == 0)
    Line = Output.substr(0, Output.find('\n'));
  while (!Line.empty() && Line.back() == '\r')
    Line.pop_back();
  if (Line.empty())
    Err = "cannot run the C++ compiler '" + Compiler +
          "' (set CXX or --cxx to one)";
  return Line;
}

/// An entry worth keeping: this user's, writable by nobody else, and a
/// shared object (a file cut short by a full disk before it was renamed
/// cannot be one, but a damaged disk can make anything).
bool isSoundEntry(const std::string &Path) {
  if (!whyUntrusted(Path, /*Directory=*/false).empty())
    return false;
  std::ifstream In(Path, std::ios::binary);
  char Magic[4] = {};
  In.read(Magic, 4);
  struct stat St {};
  return In && std::memcmp(Magic, "\x7f"
                                  "ELF",
                           4) == 0 &&
         stat(Path.c_str(), &St) == 0 && St.st_size > 64;
}

struct Keyed {
  std::string Name;
  std::string Entry; ///< the entry's file name
};

} // namespace

int runCacheBuild(const CacheBuildOptions &Options) {
  std::string Dir = Options.CacheDir.empty() ? cacheDirectory()
                                             : Options.CacheDir;
  if (Dir.empty()) {
    reportError("no cache directory: give --cache DIR, or set DDTC_CACHE, "
                "XDG_CACHE_HOME or HOME");
    return ExitUsage;
  }
  uint64_t MaxBytes = DefaultCacheMaxBytes;
  if (!Options.MaxSize.empty() && !parseByteSize(Options.MaxSize, MaxBytes)) {
    reportError("--max-size '" + Options.MaxSize +
                "' is not a size (bytes, or with K, M or G)");
    return ExitUsage;
  }
  std::string Compiler = Options.Compiler;
  if (Compiler.empty()) {
    const char *CXX = std::getenv("CXX");
    Compiler = CXX && *CXX ? CXX : "c++";
  }
  std::string Err;
  std::string Identity = compilerIdentity(Compiler, Err);
  if (Identity.empty()) {
    reportError(Err);
    return ExitBadInput;
  }
  std::vector<std::string> Flags = {"-O2", "-fPIC", "-shared"};
  if (!Options.March.empty())
    Flags.push_back("-march=" + Options.March);
  std::string FlagText;
  for (const std::string &F : Flags)
    FlagText += " " + F;

  std::string Target = targetOfMarch(Options.March);
  std::string Top = kernelCacheRoot(Dir, DDTC_VERSION);
  std::string Sub =
      Top + "/" + entryDirectoryName(Target, Identity + "\n" + FlagText);
  // Read every input before writing anything: bad input writes nothing.
  struct Work {
    std::string Input;
    std::vector<EmittedFile> Files;
    std::vector<Keyed> Missing;
    size_t Kernels = 0;
  };
  std::vector<Work> Jobs;
  // The entries an input before compiles: the same types in several
  // inputs (a trace per rank) are compiled once, by the first.
  std::set<std::string> Planned;
  for (const std::string &Input : Options.Inputs) {
    TypeContext Ctx(getMPICHRules());
    Module M(Ctx);
    if (!readInput(Input, M))
      return ExitBadInput;
    EmitOptions Emit;
    Emit.InputPath = Input;
    // The kernels alone are loaded: the MPI constructors need no
    // MPI-facing form.
    Emit.BuildForm = "normal";
    // The runtime packs whole instances: no range functions, which are
    // most of the compile time of a trace's kernels.
    Emit.RangeFunctions = false;
    std::vector<std::optional<KernelKey>> Keys;
    std::optional<std::vector<EmittedFile>> Files =
        emitFiles(Ctx, M, Emit, "kernels", &Keys);
    if (!Files)
      return ExitBadInput;
    Work W{Input, std::move(*Files), {}, 0};
    std::set<std::string> Seen;
    for (size_t I = 0; I < Keys.size() && I < M.types().size(); ++I) {
      if (!Keys[I])
        continue;
      const Type *T = M.types()[I].T;
      std::string Entry =
          entryFileName(Keys[I]->Print.Hi, Keys[I]->Print.Lo,
                        static_cast<uint64_t>(T->size()), T->extent());
      if (!Seen.insert(Entry).second)
        continue;
      ++W.Kernels;
      bool Needed = Options.Force || !isSoundEntry(Sub + "/" + Entry);
      if (Needed && Planned.insert(Entry).second)
        W.Missing.push_back({M.types()[I].Name, Entry});
    }
    Jobs.push_back(std::move(W));
  }

  // The runtime loads nothing from a directory others can write to; one
  // made here is the user's alone (0700).
  if (!makeTrustedDirectory(Sub, Err)) {
    reportError("kernel cache: " + Err);
    return ExitBadInput;
  }
  for (const std::string &D : {Dir, Dir + "/kernels", Top})
    if (std::string Why = whyUntrusted(D, /*Directory=*/true); !Why.empty()) {
      reportError("kernel cache '" + D + "' is " + Why +
                  "; the runtime would not use it");
      return ExitBadInput;
    }

  size_t Written = 0, Compiled = 0;
  std::set<FileId> Fresh; ///< the libraries written now, kept by the trim
  std::string Pid = std::to_string(getpid());
  for (Work &W : Jobs) {
    if (W.Missing.empty()) {
      std::fprintf(stderr, "ddtc cache: %s: %zu kernels, all in the cache\n",
                   W.Input.c_str(), W.Kernels);
      continue;
    }
    std::fprintf(stderr, "ddtc cache: %s: compiling %zu of %zu kernels...\n",
                 W.Input.c_str(), W.Missing.size(), W.Kernels);
    std::fflush(stderr);
    // A staging directory of this process in the entries' directory: the
    // same file system, so the entries are links to the compiled file.
    std::string Stage = Sub + "/.build-" + Pid + "-" + std::to_string(Compiled);
    std::error_code EC;
    fs::remove_all(Stage, EC);
    if (!fs::create_directory(Stage, EC)) {
      reportError("cannot create '" + Stage + "': " + EC.message());
      return ExitBadInput;
    }
    bool Ok = true;
    for (const EmittedFile &F : W.Files) {
      if (F.Suffix != ".h" && F.Suffix != ".cpp")
        continue;
      std::ofstream Out(Stage + "/kernels" + F.Suffix);
      Out << F.Text;
      Out.close();
      if (!Out) {
        reportError("cannot write '" + Stage + "/kernels" + F.Suffix + "'");
        Ok = false;
      }
    }
    std::string Library = Stage + "/kernels.so";
    if (Ok) {
      std::vector<std::string> Argv = {Compiler};
      Argv.insert(Argv.end(), Flags.begin(), Flags.end());
      Argv.insert(Argv.end(), {Stage + "/kernels.cpp", "-o", Library});
      SpawnOptions Run;
      Run.SearchPath = true;
      Run.TimeoutSeconds = Options.TimeoutSeconds;
      Expected<int> Status = runProgram(Argv, Run);
      if (!Status || *Status != 0) {
        reportError(W.Input + ": " +
                    (!Status ? Status.takeError().message()
                             : "the compiler failed (exit status " +
                                   std::to_string(*Status) + ")") +
                    "; nothing written to the cache");
        Ok = false;
      }
    }
    if (struct stat St {}; Ok && stat(Library.c_str(), &St) == 0)
      Fresh.insert({St.st_dev, St.st_ino});
    for (const Keyed &K : W.Missing) {
      if (!Ok)
        break;
      std::string Temp = Stage + "/" + K.Entry;
      if (link(Library.c_str(), Temp.c_str()) != 0 ||
          rename(Temp.c_str(), (Sub + "/" + K.Entry).c_str()) != 0) {
        reportError("cannot write the cache entry of " + K.Name + " in '" +
                    Sub + "': " + std::strerror(errno));
        Ok = false;
      }
      Written += Ok;
    }
    fs::remove_all(Stage, EC);
    if (!Ok)
      return ExitBadInput;
    ++Compiled;
  }
  std::fprintf(stderr, "ddtc cache: %zu entries written to %s\n", Written,
               Sub.c_str());
  TrimResult Trim = trimKernelCache(Dir + "/kernels", MaxBytes, Fresh);
  if (Trim.Removed)
    std::fprintf(stderr,
                 "ddtc cache: %zu entries used longest ago removed, to keep "
                 "the cache under %s (--max-size)\n",
                 Trim.Removed, formatByteSize(MaxBytes).c_str());
  return ExitSuccess;
}

} // namespace ddtc

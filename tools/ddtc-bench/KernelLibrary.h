//===- tools/ddtc-bench/KernelLibrary.h - Emitted kernels, loaded -*- C++ -*-===//
//
// The ddtc variant packs with the kernels `ddtc emit` writes for the file
// being measured, and the mpi-normalized variant builds its types with the
// emitted ddtc_NAME_build. Both come from one shared library: emitted and
// compiled once per file content into a cache directory, then loaded with
// dlopen on every rank. Its kernel table registers itself on loading
// through ddtc_rt_register_kernels, which this program defines (as the
// runtime library does), so a library built elsewhere (--kernels, e.g. by
// ddtc_generate(... SHARED)) is found the same way.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_BENCH_KERNELLIBRARY_H
#define DDTC_BENCH_KERNELLIBRARY_H

#include "ddtc/Runtime/KernelABI.h"

#include <mpi.h>

#include <map>
#include <string>

namespace ddtc::bench {

struct BenchOptions;

using BuildFn = int (*)(MPI_Datatype *);

class KernelLibrary {
public:
  KernelLibrary() = default;
  KernelLibrary(const KernelLibrary &) = delete;
  KernelLibrary &operator=(const KernelLibrary &) = delete;
  ~KernelLibrary();

  /// Makes (or finds in the cache) and loads the library for O.File, or
  /// loads O.KernelLibrary. Collective over MPI_COMM_WORLD: one rank per
  /// node emits and compiles, every rank loads. On failure, returns false
  /// on every rank with the reason in Err (the same text everywhere).
  bool load(const BenchOptions &O, std::string &Err);

  /// The kernel registered for the named type, or null.
  const ddtc_kernel *getKernel(const std::string &Name) const;
  /// ddtc_NAME_build, or null if the library has none (--kernels).
  BuildFn getBuild(const std::string &Name) const;
  /// Where the library was loaded from.
  const std::string &getPath() const { return Path; }

private:
  void *Handle = nullptr;
  std::string Path;
  std::map<std::string, const ddtc_kernel *> Kernels;
};

} // namespace ddtc::bench

#endif // DDTC_BENCH_KERNELLIBRARY_H

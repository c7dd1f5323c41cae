//===- lib/Runtime/KernelRegistry.h - Loaded kernel tables ------*- C++ -*-===//
//
// The kernels the runtime can bind: every table registered by an emitted
// file, whether it came from a library named in DDTC_KERNELS (registered
// by the library's constructor while dlopen runs) or was linked into the
// program (registered before main). Tables from another ABI or another
// version of ddtc are refused: their keys may mean something else.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_LIB_RUNTIME_KERNELREGISTRY_H
#define DDTC_LIB_RUNTIME_KERNELREGISTRY_H

#include "ddtc/IR/Type.h"
#include "ddtc/Runtime/KernelABI.h"

#include <atomic>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace ddtc {

/// One kernel with the library it came from.
struct LoadedKernel {
  const ddtc_kernel *Kernel = nullptr;
  std::string Library; ///< the file it was loaded from, or "(program)"
};

class KernelRegistry {
public:
  /// The registry of the process (the runtime is one per process).
  static KernelRegistry &get();

  /// Takes a table from an emitted file; refuses (with a warning) one of
  /// another ABI or ddtc version.
  void add(const ddtc_kernel_table *Table);

  /// Loads the kernel libraries of a colon-separated list. A library that
  /// cannot be loaded or holds no table is a one-line warning on stderr;
  /// the program runs on without it.
  void loadLibraries(const std::string &List, int Rank);

  /// The kernel whose key is Print, if any.
  const LoadedKernel *lookup(const Fingerprint &Print) const;
  /// The kernel emitted for exactly the description whose fingerprint is
  /// Given, if any: binding it needs no normalization.
  const LoadedKernel *lookupGiven(const Fingerprint &Given) const;
  /// Whether some kernel packs Size bytes per instance of extent Extent:
  /// only then can a type have a kernel, and is its key worth computing.
  bool hasShape(uint64_t Size, int64_t Extent) const;

  /// The libraries loaded and the number of kernels each gave, for the
  /// report.
  std::vector<std::pair<std::string, size_t>> getLibraries() const;
  bool empty() const;
  /// Grows with every table taken: what was bound before may bind
  /// otherwise after.
  uint64_t generation() const {
    return Generation.load(std::memory_order_acquire);
  }

private:
  std::atomic<uint64_t> Generation{0};
  mutable std::mutex Lock;
  std::map<std::pair<uint64_t, uint64_t>, LoadedKernel> Kernels;
  std::map<std::pair<uint64_t, uint64_t>, LoadedKernel> ByGiven;
  std::set<std::pair<uint64_t, int64_t>> Shapes;
  std::vector<std::pair<std::string, size_t>> Libraries;
  /// Where kernels linked into the program come from, in the report.
  static constexpr const char *ProgramName = "(program)";
  /// The library being loaded: its constructor registers while dlopen runs.
  std::string Loading = ProgramName;
  size_t TablesFromCurrent = 0;
  size_t KernelsFromCurrent = 0;
  int Rank = -1;
};

} // namespace ddtc

#endif // DDTC_LIB_RUNTIME_KERNELREGISTRY_H

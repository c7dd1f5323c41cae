//===- lib/Runtime/CachedKernels.h - Kernels of the kernel cache -*- C++ -*-===//
//
// The entries of the kernel cache (ddtc/Runtime/KernelCache.h) that this
// process may load: read once before MPI_Init, loaded one by one when a
// committed type's layout key has an entry and no loaded kernel. A type
// with no kernel of its size and extent anywhere is not even normalized,
// so the entries' names carry both.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_LIB_RUNTIME_CACHEDKERNELS_H
#define DDTC_LIB_RUNTIME_CACHEDKERNELS_H

#include "ddtc/IR/Type.h"

#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace ddtc {

class CachedKernels {
public:
  /// The entries of the process (the runtime is one per process).
  static CachedKernels &get();

  /// Reads the entries of the cache directory for this kernel ABI, ddtc
  /// version and CPU, once. What cannot be trusted (another owner,
  /// writable by others) is left out with a line in Warnings.
  void open(std::vector<std::string> &Warnings);
  /// Reads the entries added since (kernels compiled while the program
  /// runs, KernelCompiler.h). Entries already seen keep their state.
  void refresh();
  /// The rank in warnings from now on.
  void setRank(int R);

  /// Whether some entry packs Size bytes per instance of extent Extent.
  bool hasShape(uint64_t Size, int64_t Extent) const;
  /// Loads the entry of the key Print into the kernel registry, if there
  /// is one not tried before; true if a library was loaded. A failure is a
  /// warning, and the entry is not tried again.
  bool load(const Fingerprint &Print);

  /// The directory read ("" if there is none) and its counts, for the
  /// report.
  std::string directory() const;
  size_t entries() const;
  size_t loaded() const;

private:
  /// Adds the entries of Root's directories that can run here; what
  /// cannot be trusted is left out, with a line in Warnings where given.
  void scan(std::vector<std::string> *Warnings);

  struct Entry {
    std::string Path;
    bool Tried = false;
  };
  mutable std::mutex Lock;
  /// Held while a library loads: the registry attributes the tables it
  /// takes to the library being loaded.
  std::mutex LoadLock;
  bool Opened = false;
  int Rank = -1;
  std::string Root;
  std::map<std::pair<uint64_t, uint64_t>, Entry> Entries;
  std::set<std::pair<uint64_t, int64_t>> Shapes;
  size_t Loaded = 0;
};

} // namespace ddtc

#endif // DDTC_LIB_RUNTIME_CACHEDKERNELS_H

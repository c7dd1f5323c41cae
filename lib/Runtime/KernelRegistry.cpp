//===- lib/Runtime/KernelRegistry.cpp - Loaded kernel tables --------------===//
#include "KernelRegistry.h"

#include "RuntimeLog.h"

#include <dlfcn.h>

#include <cstring>

namespace ddtc {

KernelRegistry &KernelRegistry::get() {
  // Never destroyed: emitted code may register from a constructor of a
  // library that outlives static destruction order.
  static KernelRegistry *R = new KernelRegistry();
  return *R;
}

void KernelRegistry::add(const ddtc_kernel_table *Table) {
  std::lock_guard<std::mutex> G(Lock);
  std::string Source = Table->source ? Table->source : "?";
  if (Table->abi_version != DDTC_KERNEL_ABI) {
    warn(Rank, "kernel table of " + Source + " in " + Loading + " has ABI " +
                   std::to_string(Table->abi_version) +
                   ", this runtime reads ABI " +
                   std::to_string(DDTC_KERNEL_ABI) + "; not used");
    ++TablesFromCurrent;
    return;
  }
  if (!Table->ddtc_version ||
      std::strcmp(Table->ddtc_version, DDTC_VERSION) != 0) {
    warn(Rank, "kernel table of " + Source + " in " + Loading +
                   " was emitted by ddtc " +
                   (Table->ddtc_version ? Table->ddtc_version : "?") +
                   ", this runtime is ddtc " DDTC_VERSION
                   "; not used (emit it again)");
    ++TablesFromCurrent;
    return;
  }
  Generation.fetch_add(1, std::memory_order_release);
  for (size_t I = 0; I < Table->num_kernels; ++I) {
    const ddtc_kernel &K = Table->kernels[I];
    // Equal keys mean equal layouts: the first kernel of a key wins, but
    // a library the user names in DDTC_KERNELS wins over kernels compiled
    // into the program, which registered before main.
    auto [It, New] =
        Kernels.emplace(std::pair(uint64_t(K.key_hi), uint64_t(K.key_lo)),
                        LoadedKernel{&K, Loading});
    if (!New && It->second.Library == ProgramName && Loading != ProgramName)
      It->second = LoadedKernel{&K, Loading};
    auto [GIt, GNew] = ByGiven.emplace(
        std::pair(uint64_t(K.given_hi), uint64_t(K.given_lo)), It->second);
    if (!GNew && GIt->second.Library == ProgramName && Loading != ProgramName)
      GIt->second = It->second;
  }
  for (size_t I = 0; I < Table->num_kernels; ++I)
    Shapes.emplace(Table->kernels[I].size, Table->kernels[I].extent);
  ++TablesFromCurrent;
  KernelsFromCurrent += Table->num_kernels;
}

void KernelRegistry::loadLibraries(const std::string &List, int R) {
  {
    std::lock_guard<std::mutex> G(Lock);
    Rank = R;
  }
  size_t Start = 0;
  while (Start <= List.size()) {
    size_t End = List.find(':', Start);
    if (End == std::string::npos)
      End = List.size();
    std::string Path = List.substr(Start, End - Start);
    Start = End + 1;
    if (Path.empty())
      continue;
    {
      std::lock_guard<std::mutex> G(Lock);
      Loading = Path;
      TablesFromCurrent = KernelsFromCurrent = 0;
    }
    // RTLD_LOCAL: the ddtc_NAME_* functions of two libraries may share
    // names; the tables reach the runtime through the constructors.
    void *Handle = dlopen(Path.c_str(), RTLD_NOW | RTLD_LOCAL);
    std::lock_guard<std::mutex> G(Lock);
    if (!Handle) {
      const char *Why = dlerror();
      warn(Rank, "cannot load kernel library " + Path + ": " +
                     (Why ? Why : "unknown error") + "; running without it");
    } else if (TablesFromCurrent == 0) {
      warn(Rank, "kernel library " + Path +
                     " registered no kernel table (not built from `ddtc "
                     "emit` output, or from an incompatible one); running "
                     "without it");
    }
    if (Handle)
      Libraries.emplace_back(Path, KernelsFromCurrent);
    Loading = ProgramName;
  }
}

const LoadedKernel *KernelRegistry::lookup(const Fingerprint &Print) const {
  std::lock_guard<std::mutex> G(Lock);
  auto It = Kernels.find(std::pair(Print.Hi, Print.Lo));
  return It == Kernels.end() ? nullptr : &It->second;
}

const LoadedKernel *
KernelRegistry::lookupGiven(const Fingerprint &Given) const {
  std::lock_guard<std::mutex> G(Lock);
  auto It = ByGiven.find(std::pair(Given.Hi, Given.Lo));
  return It == ByGiven.end() ? nullptr : &It->second;
}

bool KernelRegistry::hasShape(uint64_t Size, int64_t Extent) const {
  std::lock_guard<std::mutex> G(Lock);
  return Shapes.count({Size, Extent}) != 0;
}

std::vector<std::pair<std::string, size_t>>
KernelRegistry::getLibraries() const {
  std::lock_guard<std::mutex> G(Lock);
  return Libraries;
}

bool KernelRegistry::empty() const {
  std::lock_guard<std::mutex> G(Lock);
  return Kernels.empty();
}

} // namespace ddtc

/// Called by every emitted file's constructor (KernelABI.h). Exported with
/// C linkage and default visibility: the emitted code refers to it weakly.
extern "C" __attribute__((visibility("default"))) void
ddtc_rt_register_kernels(const ddtc_kernel_table *Table) {
  if (Table)
    ddtc::KernelRegistry::get().add(Table);
}

//===- lib/Runtime/CachedKernels.cpp - Kernels of the kernel cache --------===//
#include "CachedKernels.h"

#include "KernelRegistry.h"
#include "RuntimeLog.h"

#include "ddtc/Runtime/KernelCache.h"
#include "ddtc/Runtime/SettingsStore.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>

namespace ddtc {

namespace {

/// The names in Dir, sorted (an entry's first directory wins, and the
/// order must not depend on the file system's).
std::vector<std::string> listDirectory(const std::string &Dir) {
  std::vector<std::string> Names;
  if (DIR *D = opendir(Dir.c_str())) {
    while (dirent *E = readdir(D))
      if (E->d_name[0] != '.')
        Names.emplace_back(E->d_name);
    closedir(D);
  }
  std::sort(Names.begin(), Names.end());
  return Names;
}

} // namespace

CachedKernels &CachedKernels::get() {
  static CachedKernels *C = new CachedKernels();
  return *C;
}

void CachedKernels::open(std::vector<std::string> &Warnings) {
  std::lock_guard<std::mutex> G(Lock);
  if (Opened)
    return;
  Opened = true;
  std::string Dir = cacheDirectory();
  if (Dir.empty())
    return;
  std::string Top = kernelCacheRoot(Dir, DDTC_VERSION);
  struct stat St {};
  if (stat(Top.c_str(), &St) != 0)
    return; // nothing cached for this ABI and version
  // Every library here is loaded into the program: a directory someone
  // else can write to is a way into it.
  for (const std::string &D : {Dir, Dir + "/kernels", Top})
    if (std::string Why = whyUntrusted(D, /*Directory=*/true); !Why.empty()) {
      Warnings.push_back("kernel cache '" + D + "' is " + Why + "; not used");
      return;
    }
  Root = Top;
  scan(&Warnings);
}

void CachedKernels::refresh() {
  std::lock_guard<std::mutex> G(Lock);
  if (!Root.empty())
    scan(nullptr);
}

void CachedKernels::scan(std::vector<std::string> *Warnings) {
  // Entries built for this CPU first, then for a CPU the user named, then
  // generic ones; entries for another CPU are not seen at all.
  std::vector<std::pair<int, std::string>> Targets;
  for (const std::string &Name : listDirectory(Root))
    if (int R = targetRank(targetOfDirectory(Name)); R >= 0)
      Targets.emplace_back(R, Name);
  std::stable_sort(
      Targets.begin(), Targets.end(),
      [](const auto &A, const auto &B) { return A.first < B.first; });
  for (const auto &[Rank, Name] : Targets) {
    std::string Sub = Root + "/" + Name;
    if (std::string Why = whyUntrusted(Sub, /*Directory=*/true); !Why.empty()) {
      if (Warnings)
        Warnings->push_back("kernel cache '" + Sub + "' is " + Why +
                            "; not used");
      continue;
    }
    for (const std::string &File : listDirectory(Sub)) {
      uint64_t Hi = 0, Lo = 0, Size = 0;
      int64_t Extent = 0;
      if (!parseEntryFileName(File, Hi, Lo, Size, Extent))
        continue;
      if (Entries.emplace(std::pair(Hi, Lo), Entry{Sub + "/" + File}).second)
        Shapes.emplace(Size, Extent);
    }
  }
}

void CachedKernels::setRank(int R) {
  std::lock_guard<std::mutex> G(Lock);
  Rank = R;
}

bool CachedKernels::hasShape(uint64_t Size, int64_t Extent) const {
  std::lock_guard<std::mutex> G(Lock);
  return Shapes.count({Size, Extent}) != 0;
}

bool CachedKernels::load(const Fingerprint &Print) {
  std::string Path;
  int R = -1;
  {
    std::lock_guard<std::mutex> G(Lock);
    auto It = Entries.find(std::pair(Print.Hi, Print.Lo));
    if (It == Entries.end() || It->second.Tried)
      return false;
    It->second.Tried = true;
    Path = It->second.Path;
    R = Rank;
  }
  // Checked again when loaded: the entry may have been replaced since.
  if (std::string Why = whyUntrusted(Path, /*Directory=*/false); !Why.empty()) {
    warn(R, "kernel cache entry " + Path + " is " + Why + "; not used");
    return false;
  }
  std::lock_guard<std::mutex> G(LoadLock);
  KernelRegistry::get().loadLibraries(Path, R);
  // Used now: the cache is kept to its size by removing the entries used
  // longest ago (`ddtc cache build --max-size`).
  utimensat(AT_FDCWD, Path.c_str(), nullptr, 0);
  std::lock_guard<std::mutex> H(Lock);
  ++Loaded;
  return true;
}

std::string CachedKernels::directory() const {
  std::lock_guard<std::mutex> G(Lock);
  return Root;
}

size_t CachedKernels::entries() const {
  std::lock_guard<std::mutex> G(Lock);
  return Entries.size();
}

size_t CachedKernels::loaded() const {
  std::lock_guard<std::mutex> G(Lock);
  return Loaded;
}

} // namespace ddtc

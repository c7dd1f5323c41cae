//===- tools/ddtc/CacheTrim.cpp - The kernel cache kept to a size ---------===//
#include "CacheTrim.h"

#include "ddtc/Runtime/KernelCache.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <vector>

namespace ddtc {

namespace {

namespace fs = std::filesystem;

/// One compiled library and the entries (hard links) that name it.
struct Library {
  uint64_t Bytes = 0;
  struct timespec Used = {};
  std::vector<std::string> Names;
};

} // namespace

TrimResult trimKernelCache(const std::string &KernelsDir, uint64_t MaxBytes,
                           const std::set<FileId> &Keep) {
  std::map<FileId, Library> Libraries;
  std::error_code EC;
  fs::recursive_directory_iterator It(KernelsDir, EC), End;
  for (; !EC && It != End; It.increment(EC)) {
    const fs::path &P = It->path();
    std::string Name = P.filename().string();
    // Staging directories of builds in progress are theirs.
    if (Name.rfind(".build-", 0) == 0) {
      It.disable_recursion_pending();
      continue;
    }
    uint64_t Hi, Lo, Size;
    int64_t Extent;
    struct stat St {};
    if (!parseEntryFileName(Name, Hi, Lo, Size, Extent) ||
        lstat(P.c_str(), &St) != 0 || !S_ISREG(St.st_mode))
      continue;
    Library &L = Libraries[{St.st_dev, St.st_ino}];
    L.Bytes = static_cast<uint64_t>(St.st_blocks) * 512;
    L.Used = St.st_mtim;
    L.Names.push_back(P.string());
  }
  TrimResult R;
  for (const auto &[Id, L] : Libraries)
    R.Bytes += L.Bytes;
  if (R.Bytes <= MaxBytes)
    return R;
  std::vector<const Library *> Oldest;
  for (const auto &[Id, L] : Libraries)
    if (!Keep.count(Id))
      Oldest.push_back(&L);
  std::sort(Oldest.begin(), Oldest.end(),
            [](const Library *A, const Library *B) {
              return std::pair(A->Used.tv_sec, A->Used.tv_nsec) <
                     std::pair(B->Used.tv_sec, B->Used.tv_nsec);
            });
  uint64_t Target = MaxBytes / 10 * 9;
  for (const Library *L : Oldest) {
    if (R.Bytes <= Target)
      break;
    // A process that loaded the library keeps its mapping; one that read
    // the index and loads it now finds no file and keeps its shape kernel.
    for (const std::string &N : L->Names)
      if (unlink(N.c_str()) == 0)
        ++R.Removed;
    R.Bytes -= L->Bytes;
  }
  return R;
}

} // namespace ddtc

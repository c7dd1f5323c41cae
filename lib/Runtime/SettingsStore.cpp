//===- lib/Runtime/SettingsStore.cpp - Settings measured per machine ------===//
#include "ddtc/Runtime/SettingsStore.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace ddtc {

std::string cacheDirectory() {
  if (const char *D = std::getenv("DDTC_CACHE"); D && *D)
    return D;
  if (const char *X = std::getenv("XDG_CACHE_HOME"); X && *X)
    return std::string(X) + "/ddtc";
  if (const char *H = std::getenv("HOME"); H && *H)
    return std::string(H) + "/.cache/ddtc";
  return "";
}

std::string storedSettingsPath(const std::string &Dir, const std::string &Node,
                               const std::string &Library) {
  // FNV-1a: the name need only tell identities apart; the file holds them
  // in full, and a reader compares those.
  uint64_t H = 0xcbf29ce484222325ull;
  std::string Key =
      Node + '\n' + Library + '\n' + std::to_string(SettingsVersion);
  for (unsigned char C : Key)
    H = (H ^ C) * 0x100000001b3ull;
  char Name[40];
  std::snprintf(Name, sizeof Name, "rt-settings-%016" PRIx64 ".conf", H);
  return Dir + "/" + Name;
}

std::string whyUntrusted(const std::string &Path, bool Directory) {
  struct stat St {};
  // A file is not followed: a symbolic link planted in the store could
  // point anywhere. A directory is (a cache directory linked to scratch
  // space is common); what it leads to is checked.
  if ((Directory ? stat(Path.c_str(), &St) : lstat(Path.c_str(), &St)) != 0)
    return errno == ENOENT ? "missing" : std::strerror(errno);
  if (Directory ? !S_ISDIR(St.st_mode) : !S_ISREG(St.st_mode))
    return Directory ? "not a directory" : "not a regular file";
  if (St.st_uid != geteuid())
    return "owned by uid " + std::to_string(St.st_uid) + ", not by this user";
  if (St.st_mode & S_IWOTH)
    return "writable by others";
  if (St.st_mode & S_IWGRP)
    return "writable by its group";
  return "";
}

bool makeTrustedDirectory(const std::string &Dir, std::string &Err) {
  // Each missing component is made private; existing ones are left as
  // they are (a home directory is the user's business), but the last must
  // be trustworthy itself.
  for (size_t Slash = Dir.find('/', 1);; Slash = Dir.find('/', Slash + 1)) {
    std::string Part = Dir.substr(0, Slash);
    if (mkdir(Part.c_str(), 0700) != 0 && errno != EEXIST) {
      Err = "cannot create '" + Part + "': " + std::strerror(errno);
      return false;
    }
    if (Slash == std::string::npos)
      break;
  }
  if (std::string Why = whyUntrusted(Dir, /*Directory=*/true); !Why.empty()) {
    Err = "'" + Dir + "' is " + Why;
    return false;
  }
  return true;
}

} // namespace ddtc

//===- lib/Runtime/KernelCacheLayout.cpp - Names in the kernel cache ------===//
#include "ddtc/Runtime/KernelCache.h"

#include "ddtc/Runtime/KernelABI.h"

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <fstream>

namespace ddtc {

namespace {

/// FNV-1a: names need only tell their inputs apart.
uint64_t hashText(std::string_view Text) {
  uint64_t H = 0xcbf29ce484222325ull;
  for (unsigned char C : Text)
    H = (H ^ C) * 0x100000001b3ull;
  return H;
}

std::string hex16(uint64_t V) {
  char Buf[17];
  std::snprintf(Buf, sizeof Buf, "%016" PRIx64, V);
  return Buf;
}

/// The value of a /proc/cpuinfo field of the first processor.
std::string cpuField(const std::string &Field) {
  std::ifstream In("/proc/cpuinfo");
  std::string Line;
  while (std::getline(In, Line)) {
    size_t Colon = Line.find(':');
    if (Colon == std::string::npos)
      continue;
    std::string Key = Line.substr(0, Colon);
    while (!Key.empty() && (Key.back() == ' ' || Key.back() == '\t'))
      Key.pop_back();
    if (Key == Field)
      return Line.substr(Colon + 1);
  }
  return "";
}

bool parseHex64(std::string_view Text, uint64_t &V) {
  if (Text.size() != 16)
    return false;
  V = 0;
  for (char C : Text) {
    int D = C >= '0' && C <= '9'   ? C - '0'
            : C >= 'a' && C <= 'f' ? C - 'a' + 10
                                   : -1;
    if (D < 0)
      return false;
    V = V << 4 | static_cast<uint64_t>(D);
  }
  return true;
}

} // namespace

std::string kernelCacheRoot(const std::string &CacheDir,
                            const std::string &Version) {
  return CacheDir + "/kernels/abi" + std::to_string(DDTC_KERNEL_ABI) + "-" +
         Version;
}

std::string nativeTarget() {
  // The model alone is not enough: a virtual machine may hide features of
  // the same processor, and -march=native compiles for what it is shown.
  std::string Cpu = cpuField("model name") + '\n' + cpuField("flags");
  return "native." + hex16(hashText(Cpu));
}

std::string targetOfMarch(const std::string &March) {
  if (March.empty())
    return "generic";
  if (March == "native")
    return nativeTarget();
  return March;
}

std::string entryDirectoryName(const std::string &Target,
                               const std::string &CompilerAndFlags) {
  return Target + "-" + hex16(hashText(CompilerAndFlags));
}

std::string targetOfDirectory(std::string_view Name) {
  size_t Dash = Name.rfind('-');
  uint64_t Hash = 0;
  if (Dash == std::string_view::npos || Dash == 0 ||
      !parseHex64(Name.substr(Dash + 1), Hash))
    return "";
  return std::string(Name.substr(0, Dash));
}

int targetRank(const std::string &Target) {
  if (Target.empty())
    return -1;
  if (Target == "generic")
    return 2;
  if (Target.rfind("native.", 0) == 0)
    return Target == nativeTarget() ? 0 : -1;
  return 1;
}

std::string entryFileName(uint64_t KeyHi, uint64_t KeyLo, uint64_t Size,
                          int64_t Extent) {
  return hex16(KeyHi) + hex16(KeyLo) + "." + std::to_string(Size) + "." +
         std::to_string(Extent) + ".so";
}

bool parseEntryFileName(std::string_view Name, uint64_t &KeyHi, uint64_t &KeyLo,
                        uint64_t &Size, int64_t &Extent) {
  if (Name.size() < 32 + 7 || Name.substr(Name.size() - 3) != ".so" ||
      Name[32] != '.' || !parseHex64(Name.substr(0, 16), KeyHi) ||
      !parseHex64(Name.substr(16, 16), KeyLo))
    return false;
  std::string Rest(Name.substr(33, Name.size() - 36));
  size_t Dot = Rest.find('.');
  if (Dot == std::string::npos || Dot == 0 || Dot + 1 == Rest.size())
    return false;
  std::string SizeText = Rest.substr(0, Dot), ExtentText = Rest.substr(Dot + 1);
  char *End = nullptr;
  if (SizeText[0] < '0' || SizeText[0] > '9')
    return false;
  Size = std::strtoull(SizeText.c_str(), &End, 10);
  if (*End)
    return false;
  Extent = std::strtoll(ExtentText.c_str(), &End, 10);
  return *End == '\0' && (ExtentText[0] == '-' ||
                          (ExtentText[0] >= '0' && ExtentText[0] <= '9'));
}

} // namespace ddtc

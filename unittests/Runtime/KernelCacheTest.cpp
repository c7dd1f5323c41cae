//===- unittests/Runtime/KernelCacheTest.cpp - Kernel cache names ---------===//
//
// The names of the kernel cache (ddtc/Runtime/KernelCache.h): what `ddtc
// cache build` writes, the runtime must read back, and nothing else.
//
//===----------------------------------------------------------------------===//
#include "ddtc/Runtime/KernelCache.h"
#include "ddtc/Runtime/KernelABI.h"

#include <gtest/gtest.h>

using namespace ddtc;

TEST(KernelCacheTest, EntryNamesRoundTrip) {
  std::string Name = entryFileName(0x0123456789abcdefull, 0xfedcba9876543210ull,
                                   9216, -384);
  EXPECT_EQ(Name, "0123456789abcdeffedcba9876543210.9216.-384.so");
  uint64_t Hi = 0, Lo = 0, Size = 0;
  int64_t Extent = 0;
  ASSERT_TRUE(parseEntryFileName(Name, Hi, Lo, Size, Extent));
  EXPECT_EQ(Hi, 0x0123456789abcdefull);
  EXPECT_EQ(Lo, 0xfedcba9876543210ull);
  EXPECT_EQ(Size, 9216u);
  EXPECT_EQ(Extent, -384);
}

TEST(KernelCacheTest, OtherNamesAreNotEntries) {
  uint64_t Hi, Lo, Size;
  int64_t Extent;
  for (const char *Name :
       {"0123456789abcdeffedcba9876543210.9216.384",      // no .so
        "0123456789abcdeffedcba987654321.9216.384.so",     // 31 digits
        "0123456789abcdeffedcba987654321g.9216.384.so",    // not hex
        "0123456789ABCDEFfedcba9876543210.9216.384.so",    // upper case
        "0123456789abcdeffedcba9876543210.9216.so",        // no extent
        "0123456789abcdeffedcba9876543210..384.so",        // no size
        "0123456789abcdeffedcba9876543210.-1.384.so",      // negative size
        "0123456789abcdeffedcba9876543210.9216.38x4.so",   // not a number
        ".build-12-0", "kernels.so"})
    EXPECT_FALSE(parseEntryFileName(Name, Hi, Lo, Size, Extent)) << Name;
}

TEST(KernelCacheTest, DirectoriesNameTheirTarget) {
  std::string Native = nativeTarget();
  EXPECT_EQ(Native.rfind("native.", 0), 0u);
  EXPECT_EQ(targetOfMarch(""), "generic");
  EXPECT_EQ(targetOfMarch("native"), Native);
  EXPECT_EQ(targetOfMarch("znver3"), "znver3");
  for (const std::string &T : {std::string("generic"), std::string("x86-64-v3"),
                               Native}) {
    std::string Dir = entryDirectoryName(T, "g++ 12\n -O2");
    EXPECT_EQ(targetOfDirectory(Dir), T);
    // Another compiler or other flags: another directory.
    EXPECT_NE(Dir, entryDirectoryName(T, "g++ 12\n -O3"));
  }
  EXPECT_EQ(targetOfDirectory("generic"), "");
  EXPECT_EQ(targetOfDirectory("generic-12"), "");
  EXPECT_EQ(targetOfDirectory("-0123456789abcdef"), "");
}

TEST(KernelCacheTest, OnlyTargetsThatRunHereAreRanked) {
  EXPECT_EQ(targetRank(nativeTarget()), 0);
  EXPECT_EQ(targetRank("znver3"), 1);
  EXPECT_EQ(targetRank("generic"), 2);
  EXPECT_EQ(targetRank(targetOfDirectory("compile.log")), -1);
  // -march=native on another processor may use instructions this one
  // lacks.
  std::string Other = nativeTarget();
  Other.back() = Other.back() == '0' ? '1' : '0';
  EXPECT_EQ(targetRank(Other), -1);
}

TEST(KernelCacheTest, RootNamesAbiAndVersion) {
  EXPECT_EQ(kernelCacheRoot("/c", "1.2.3"),
            "/c/kernels/abi" + std::to_string(DDTC_KERNEL_ABI) + "-1.2.3");
}

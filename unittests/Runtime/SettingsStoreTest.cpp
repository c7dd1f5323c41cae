//===- unittests/Runtime/SettingsStoreTest.cpp - The settings store --------===//
#include "ddtc/Runtime/SettingsStore.h"
#include "ddtc/Runtime/RuntimeSettings.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

using namespace ddtc;

namespace {

/// A fresh directory under the test's temporary directory, removed after.
class StoreTest : public ::testing::Test {
protected:
  void SetUp() override {
    char Template[] = "/tmp/ddtc-store-test-XXXXXX";
    ASSERT_NE(mkdtemp(Template), nullptr);
    Root = Template;
    for (const char *V : {"DDTC_CACHE", "XDG_CACHE_HOME", "HOME",
                          "DDTC_RT_CONFIG", "DDTC_RT_TYPED_BLOCKS"})
      unsetenv(V);
  }
  void TearDown() override {
    std::string Cmd = "rm -rf '" + Root + "'";
    ASSERT_EQ(std::system(Cmd.c_str()), 0);
  }
  void write(const std::string &Path, const std::string &Text,
             mode_t Mode = 0600) {
    std::ofstream(Path) << Text;
    chmod(Path.c_str(), Mode);
  }
  std::string storedFile(const std::string &Node, const std::string &Library,
                         const std::string &Settings,
                         int Version = SettingsVersion) {
    return "DDTC_RT_SETTINGS_VERSION=" + std::to_string(Version) +
           "\nDDTC_RT_NODE=" + Node + "\nDDTC_RT_MPI=" + Library + "\n" +
           Settings;
  }
  std::string Root;
};

} // namespace

TEST_F(StoreTest, CacheDirectoryFollowsTheConventions) {
  EXPECT_EQ(cacheDirectory(), "");
  setenv("HOME", "/home/u", 1);
  EXPECT_EQ(cacheDirectory(), "/home/u/.cache/ddtc");
  setenv("XDG_CACHE_HOME", "/x", 1);
  EXPECT_EQ(cacheDirectory(), "/x/ddtc");
  setenv("DDTC_CACHE", "/d", 1);
  EXPECT_EQ(cacheDirectory(), "/d");
}

TEST_F(StoreTest, OneFilePerNodeTypeAndLibrary) {
  std::string A = storedSettingsPath("/s", "x86_64, P, 2 CPUs", "MPICH 4.0.2");
  EXPECT_EQ(A, storedSettingsPath("/s", "x86_64, P, 2 CPUs", "MPICH 4.0.2"));
  EXPECT_NE(A, storedSettingsPath("/s", "x86_64, P, 4 CPUs", "MPICH 4.0.2"));
  EXPECT_NE(A, storedSettingsPath("/s", "x86_64, P, 2 CPUs", "MPICH 4.1"));
  // The separator is part of the key: moving text between the two parts
  // changes the name.
  EXPECT_NE(storedSettingsPath("/s", "ab", "c"),
            storedSettingsPath("/s", "a", "bc"));
  EXPECT_EQ(A.rfind("/s/rt-settings-", 0), 0u);
  EXPECT_EQ(A.substr(A.size() - 5), ".conf");
}

TEST_F(StoreTest, TrustsOnlyWhatNobodyElseCanWrite) {
  std::string F = Root + "/f";
  EXPECT_EQ(whyUntrusted(F, false), "missing");
  write(F, "x", 0600);
  EXPECT_EQ(whyUntrusted(F, false), "");
  chmod(F.c_str(), 0644);
  EXPECT_EQ(whyUntrusted(F, false), "");
  chmod(F.c_str(), 0620);
  EXPECT_EQ(whyUntrusted(F, false), "writable by its group");
  chmod(F.c_str(), 0602);
  EXPECT_EQ(whyUntrusted(F, false), "writable by others");
  EXPECT_EQ(whyUntrusted(F, true), "not a directory");
  // A link is not followed: it could point anywhere.
  std::string L = Root + "/link";
  ASSERT_EQ(symlink(F.c_str(), L.c_str()), 0);
  chmod(F.c_str(), 0600);
  EXPECT_EQ(whyUntrusted(L, false), "not a regular file");
}

TEST_F(StoreTest, MakesPrivateDirectories) {
  std::string D = Root + "/a/b/c", Err;
  ASSERT_TRUE(makeTrustedDirectory(D, Err)) << Err;
  struct stat St {};
  ASSERT_EQ(stat(D.c_str(), &St), 0);
  EXPECT_EQ(St.st_mode & 0777, 0700u);
  ASSERT_EQ(stat((Root + "/a").c_str(), &St), 0);
  EXPECT_EQ(St.st_mode & 0777, 0700u);
  chmod(D.c_str(), 0777);
  EXPECT_FALSE(makeTrustedDirectory(D, Err));
  EXPECT_NE(Err.find("writable by others"), std::string::npos) << Err;
}

TEST_F(StoreTest, ReadsTheStoredFileOfThisMachineOnly) {
  setenv("DDTC_CACHE", Root.c_str(), 1);
  std::string Path = storedSettingsPath(Root, "N", "L");
  RuntimeSettings S;
  EXPECT_TRUE(S.load("N", "L").empty());
  EXPECT_EQ(S.source(), RuntimeSettings::Source::Defaults);

  write(Path, storedFile("N", "L", "DDTC_RT_TYPED_BLOCKS=1K:8K\n"));
  EXPECT_TRUE(S.load("N", "L").empty());
  EXPECT_EQ(S.source(), RuntimeSettings::Source::Stored);
  EXPECT_EQ(S.path(), Path);
  ASSERT_NE(S.get("DDTC_RT_TYPED_BLOCKS"), nullptr);
  EXPECT_STREQ(S.get("DDTC_RT_TYPED_BLOCKS"), "1K:8K");
  // The environment wins over the file, as over a named one.
  setenv("DDTC_RT_TYPED_BLOCKS", "off", 1);
  EXPECT_STREQ(S.get("DDTC_RT_TYPED_BLOCKS"), "off");
  unsetenv("DDTC_RT_TYPED_BLOCKS");

  // Another library's file under this one's name (a hash collision, or
  // a file edited by hand), another version, a line it cannot read: one
  // warning each, and the defaults.
  for (const std::string &Text :
       {storedFile("N", "L2", "DDTC_RT_TYPED_BLOCKS=1K:8K\n"),
        storedFile("N", "L", "DDTC_RT_TYPED_BLOCKS=1K:8K\n",
                   SettingsVersion + 1),
        storedFile("N", "L", "garbage\n")}) {
    write(Path, Text);
    std::vector<std::string> W = S.load("N", "L");
    ASSERT_EQ(W.size(), 1u) << Text;
    EXPECT_NE(W[0].find("of another version, node type or MPI library"),
              std::string::npos);
    EXPECT_EQ(S.source(), RuntimeSettings::Source::Defaults);
    EXPECT_EQ(S.get("DDTC_RT_TYPED_BLOCKS"), nullptr);
  }

  write(Path, storedFile("N", "L", "DDTC_RT_TYPED_BLOCKS=1K:8K\n"), 0666);
  std::vector<std::string> W = S.load("N", "L");
  ASSERT_EQ(W.size(), 1u);
  EXPECT_NE(W[0].find("refused: the file is writable by others"),
            std::string::npos);
  EXPECT_EQ(S.get("DDTC_RT_TYPED_BLOCKS"), nullptr);
}

TEST_F(StoreTest, ANamedFileWins) {
  setenv("DDTC_CACHE", Root.c_str(), 1);
  write(storedSettingsPath(Root, "N", "L"),
        storedFile("N", "L", "DDTC_RT_TYPED_BLOCKS=1K:8K\n"));
  std::string Named = Root + "/named.conf";
  write(Named, "DDTC_RT_TYPED_BLOCKS=4K:64K\n");
  setenv("DDTC_RT_CONFIG", Named.c_str(), 1);
  RuntimeSettings S;
  EXPECT_TRUE(S.load("N", "L").empty());
  EXPECT_EQ(S.source(), RuntimeSettings::Source::Named);
  EXPECT_STREQ(S.get("DDTC_RT_TYPED_BLOCKS"), "4K:64K");
  // Measured elsewhere: used as named, with a warning.
  write(Named, storedFile("M", "L", "DDTC_RT_TYPED_BLOCKS=4K:64K\n"));
  std::vector<std::string> W = S.load("N", "L");
  ASSERT_EQ(W.size(), 1u);
  EXPECT_NE(W[0].find("measured on another node type or MPI library (M)"),
            std::string::npos);
  EXPECT_STREQ(S.get("DDTC_RT_TYPED_BLOCKS"), "4K:64K");
}

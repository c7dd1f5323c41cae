//===- test/Fuzz/StandaloneMain.cpp - Fuzz targets without libFuzzer ------===//
//
// In a build without -DDDTC_FUZZ=ON each fuzz target is linked with this
// main instead of libFuzzer's: it runs the target once on every file named
// (directories: every file in them), so that `check` replays the committed
// corpora -- the seeds and the minimized crashers of past campaigns -- with
// whatever compiler and sanitizers the build has (test/Fuzz/corpora.test).
//
//===----------------------------------------------------------------------===//
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size);

namespace fs = std::filesystem;

static bool runFile(const fs::path &Path) {
  std::ifstream In(Path, std::ios::binary);
  if (!In) {
    std::fprintf(stderr, "%s: cannot be read\n", Path.c_str());
    return false;
  }
  std::vector<char> Bytes((std::istreambuf_iterator<char>(In)),
                          std::istreambuf_iterator<char>());
  LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(Bytes.data()),
                         Bytes.size());
  return true;
}

int main(int Argc, char **Argv) {
  size_t Runs = 0;
  for (int I = 1; I < Argc; ++I) {
    // libFuzzer's flags (-runs=0, which makes a libFuzzer build run the
    // corpus only), so that one command line suits both builds.
    if (Argv[I][0] == '-')
      continue;
    std::error_code EC;
    if (fs::is_directory(Argv[I], EC)) {
      for (const fs::directory_entry &E : fs::directory_iterator(Argv[I]))
        if (E.is_regular_file()) {
          if (!runFile(E.path()))
            return 1;
          ++Runs;
        }
    } else {
      if (!runFile(Argv[I]))
        return 1;
      ++Runs;
    }
  }
  std::printf("%zu inputs run\n", Runs);
  return 0;
}

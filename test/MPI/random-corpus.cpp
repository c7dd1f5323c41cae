//===- test/MPI/random-corpus.cpp - Random types as a description file ----===//
//
// Writes N random types (ddtc/Testing/RandomType.h), named random0 ...,
// as a format v1 description file: the input of the emitted-code tests
// (test/MPI/emit-random-*.test, emit-sanitize.test, campaign.sh) and of
// test/Runtime/rt-random.test, which emit, compile and check them with
// ddtc-emit-check. One engine for the whole file, seeded with S, so that
// type I depends only on S and I; the same arguments give the same bytes on
// every platform.
//
// Usage:
//   ddtc-random-corpus N --seed S [--max-depth D] OUT.json
//
// Exit status 0 when written, 1 when OUT.json cannot be written, 2 on bad
// usage. Needs no MPI: checking is ddtc-emit-check's.
//
//===----------------------------------------------------------------------===//
#include "ddtc/Format/DescriptionWriter.h"
#include "ddtc/IR/Module.h"
#include "ddtc/IR/TypeContext.h"
#include "ddtc/Target/MPICHRules.h"
#include "ddtc/Testing/CommandLine.h"
#include "ddtc/Testing/RandomType.h"

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <optional>
#include <random>
#include <string>

using namespace ddtc;

namespace {

constexpr int ExitOk = 0, ExitFail = 1, ExitUsage = 2;

struct Options {
  std::optional<uint64_t> Count;
  std::optional<uint64_t> Seed;
  unsigned MaxDepth = RandomTypeOptions().MaxDepth;
  std::string Out;
};

void usage() {
  std::fprintf(stderr, "usage: ddtc-random-corpus N --seed S [--max-depth D] "
                       "OUT.json\n");
}

bool parseArgs(int Argc, char **Argv, Options &O) {
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    uint64_t V = 0;
    auto Value = [&] { return I + 1 < Argc && parseUnsigned(Argv[++I], V); };
    if (A == "--seed") {
      if (!Value())
        return false;
      O.Seed = V;
    } else if (A == "--max-depth") {
      if (!Value() || V > 64)
        return false;
      O.MaxDepth = static_cast<unsigned>(V);
    } else if (A.size() > 1 && A[0] == '-') {
      std::fprintf(stderr, "ddtc-random-corpus: unknown option %s\n",
                   A.c_str());
      return false;
    } else if (!O.Count) {
      if (!parseUnsigned(A.c_str(), V))
        return false;
      O.Count = V;
    } else if (O.Out.empty()) {
      O.Out = A;
    } else {
      return false;
    }
  }
  return O.Count && O.Seed && !O.Out.empty();
}

} // namespace

int main(int argc, char **argv) {
  Options O;
  if (!parseArgs(argc, argv, O)) {
    usage();
    return ExitUsage;
  }
  TypeContext Ctx(getMPICHRules());
  Module M(Ctx);
  RandomTypeOptions RO;
  RO.MaxDepth = O.MaxDepth;
  std::mt19937_64 Rng(*O.Seed);
  for (uint64_t I = 0; I < *O.Count; ++I)
    M.types().push_back(
        {"random" + std::to_string(I), randomType(Ctx, Rng, RO), {}});
  std::ofstream Out(O.Out, std::ios::binary | std::ios::trunc);
  Out << writeDescription(M);
  if (!Out.flush()) {
    std::fprintf(stderr, "ddtc-random-corpus: cannot write %s\n",
                 O.Out.c_str());
    return ExitFail;
  }
  return ExitOk;
}

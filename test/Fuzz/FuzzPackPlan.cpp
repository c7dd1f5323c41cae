//===- test/Fuzz/FuzzPackPlan.cpp - Fuzzing the code generator's plan -----===//
//
// The pack plan (lib/CodeGen/PackPlan.cpp) of a valid type decoded from
// the bytes, and of its normal form, is interpreted in-process the way
// PackEmitter.cpp prints it (ddtc/Testing/PlanInterpreter.h) into the byte
// ranges pack copies, in packed order; for two instances, they must be the
// typemap's byte runs (TypemapWalker), byte for byte. Every plan shape
// the emitter can produce is reached by some type: small tiling and
// unrolling thresholds make the decoded types exercise them.
//
//===----------------------------------------------------------------------===//
#include "FuzzInput.h"

#include "ddtc/CodeGen/PackPlan.h"
#include "ddtc/IR/TextForm.h"
#include "ddtc/Passes/Normalizer.h"
#include "ddtc/Target/MPICHRules.h"
#include "ddtc/Testing/PlanInterpreter.h"

#include <cstdio>
#include <cstdlib>

using namespace ddtc;

namespace {

void check(const Type *T, const Type *Shown) {
  constexpr uint64_t Instances = 2;
  PlanOptions Options;
  Options.TileMinPages = 1; // tile every transpose the planner finds
  Options.PageBytes = 64;
  Options.TileColumns = 3;
  Options.TileRows = 2;
  PackPlan Plan(Options);
  std::vector<ByteBlock> Planned =
      interpretPlan(Plan.getKernel(T), T->extent(), Instances);
  std::vector<ByteBlock> Walked = typemapBytes(T, Instances);
  if (Planned != Walked) {
    size_t I = 0;
    while (I < Planned.size() && I < Walked.size() && Planned[I] == Walked[I])
      ++I;
    auto Show = [](const std::vector<ByteBlock> &V, size_t I) {
      return I < V.size() ? std::to_string(V[I].Offset) + "+" +
                                std::to_string(V[I].Length)
                          : std::string("end");
    };
    std::fprintf(stderr,
                 "fuzz-pack-plan: the plan packs other bytes than the typemap\n"
                 "  type: %s\n  range %zu: plan %s, typemap %s\n",
                 printType(Shown).c_str(), I, Show(Planned, I).c_str(),
                 Show(Walked, I).c_str());
    std::abort();
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  TypeContext Ctx(getMPICHRules());
  fuzz::ByteReader In(Data, Size);
  const Type *T = fuzz::decodeType(Ctx, In, /*Depth=*/4);
  // Kept to what one input can walk in well under a millisecond.
  if (T->getLayout().Blocks.Count > 4096 || T->size() > (int64_t(1) << 20))
    return 0;
  check(T, T);
  Normalizer Norm(Ctx);
  const Type *N = Norm.normalize(T);
  if (N->getLayout().Blocks.Count <= 4096)
    check(N, T);
  return 0;
}

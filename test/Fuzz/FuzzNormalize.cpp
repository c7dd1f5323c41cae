//===- test/Fuzz/FuzzNormalize.cpp - Fuzzing normalization ----------------===//
//
// A valid type decoded from the bytes (FuzzInput.h) is normalized: the
// normal form verifies, is equivalent to the type by ddtc's own checker
// (typemap, lb and extent) and is never costlier; normalizing it again
// changes nothing.
//
//===----------------------------------------------------------------------===//
#include "FuzzInput.h"

#include "ddtc/IR/Equivalence.h"
#include "ddtc/IR/TextForm.h"
#include "ddtc/IR/Verifier.h"
#include "ddtc/Passes/Normalizer.h"
#include "ddtc/Passes/PassManager.h"
#include "ddtc/Target/MPICHRules.h"

#include <cstdio>
#include <cstdlib>

using namespace ddtc;

static void fail(const char *What, const Type *T, const Type *N,
                 const std::string &Detail = "") {
  std::fprintf(stderr, "fuzz-normalize: %s\n  type:   %s\n  normal: %s\n  %s\n",
               What, printType(T).c_str(), N ? printType(N).c_str() : "-",
               Detail.c_str());
  std::abort();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  TypeContext Ctx(getMPICHRules());
  fuzz::ByteReader In(Data, Size);
  const Type *T = fuzz::decodeType(Ctx, In, /*Depth=*/4);
  Normalizer Norm(Ctx);
  const Type *N = Norm.normalize(T);
  if (Error E = verifyType(N, Ctx.getRules()))
    fail("the normal form does not verify", T, N, E.message());
  EquivalenceResult R =
      checkEquivalent(T, N, 1, true, PassManager::verifyRuns(T, N));
  if (!R.Equivalent)
    fail("the normal form is not equivalent", T, N, R.Difference);
  if (T->isCheaperThan(N))
    fail("the normal form is costlier", T, N);
  if (Norm.normalize(N) != N)
    fail("normalizing the normal form changes it", T, N,
         printType(Norm.normalize(N)));
  return 0;
}

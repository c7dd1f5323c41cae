//===- lib/IR/Equivalence.cpp - Typemap equivalence check -----------------===//
#include "ddtc/IR/Equivalence.h"

#include "ddtc/IR/TypemapWalker.h"

namespace ddtc {

namespace {

std::string describe(const TypemapRun &R) {
  return std::string(getPredefinedInfo(R.Basic).Name) + " at " +
         std::to_string(R.Offset) + " (" + std::to_string(R.Length) + " bytes)";
}

EquivalenceResult differ(std::string What) { return {false, std::move(What)}; }

} // namespace

EquivalenceResult checkEquivalent(const Type *A, const Type *B, uint64_t Count,
                                  bool CheckBounds, uint64_t MaxRuns) {
  if (A == B)
    return {};
  if (CheckBounds) {
    if (A->lb() != B->lb())
      return differ("lb " + std::to_string(A->lb()) + " vs " +
                    std::to_string(B->lb()));
    if (A->extent() != B->extent())
      return differ("extent " + std::to_string(A->extent()) + " vs " +
                    std::to_string(B->extent()));
  }
  // Cheap necessary conditions before walking.
  if (A->size() != B->size())
    return differ("size " + std::to_string(A->size()) + " vs " +
                  std::to_string(B->size()));
  if (A->getLayout().Elements != B->getLayout().Elements)
    return differ("typemap entries " + std::to_string(A->getLayout().Elements) +
                  " vs " + std::to_string(B->getLayout().Elements));

  TypemapWalker WA(A, Count, WalkMode::Typed), WB(B, Count, WalkMode::Typed);
  TypemapRun RA, RB;
  for (uint64_t Index = 0;; ++Index) {
    if (Index == MaxRuns) {
      // Too long to walk: the rest must at least agree symbolically.
      const TypeLayout &LA = A->getLayout(), &LB = B->getLayout();
      if (!(LA.Blocks == LB.Blocks) || A->trueLb() != B->trueLb() ||
          A->trueExtent() != B->trueExtent() ||
          LA.UniformBasic != LB.UniformBasic)
        return differ("contiguous blocks or true bounds differ");
      EquivalenceResult R;
      R.Complete = false;
      return R;
    }
    bool HaveA = WA.next(RA), HaveB = WB.next(RB);
    if (!HaveA && !HaveB)
      return {};
    if (HaveA != HaveB)
      return differ("run " + std::to_string(Index) + ": " +
                    (HaveA ? describe(RA) : "end") + " vs " +
                    (HaveB ? describe(RB) : "end"));
    if (!(RA == RB))
      return differ("run " + std::to_string(Index) + ": " + describe(RA) +
                    " vs " + describe(RB));
  }
}

} // namespace ddtc

//===- lib/Analysis/Risks.cpp - What may make a type slow -----------------===//
//
// One small function per risk; findRisks runs them in the order the report
// lists them.
//
//===----------------------------------------------------------------------===//
#include "ddtc/Analysis/Risks.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <unordered_set>

namespace ddtc {

namespace {

/// Risk thresholds. Blocks below TinyBlockBytes cost more in per-block work
/// than in copying; an index list is "long" from LongListEntries on.
constexpr double TinyBlockBytes = 16;
constexpr uint64_t MinBlocksForTiny = 8;
constexpr size_t LongListEntries = 64;
/// GL1 is reported when the message needs at most this fraction of the
/// copies count x T takes.
constexpr double GL1Ratio = 0.8;

std::string str(uint64_t V) { return std::to_string(V); }
std::string str(int64_t V) { return std::to_string(V); }

std::string ratio(uint64_t A, uint64_t B) {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "%.1fx", B ? double(A) / double(B) : 0.0);
  return Buf;
}

/// Calls F on every node of T's DAG once (expansions of subarray/darray
/// included, as the engine sees them).
void forEachNode(const Type *T, const std::function<void(const Type *)> &F) {
  std::unordered_set<const Type *> Seen;
  std::vector<const Type *> Work{T};
  while (!Work.empty()) {
    const Type *N = Work.back();
    Work.pop_back();
    if (!Seen.insert(N).second)
      continue;
    F(N);
    for (const Type *Op : N->getOperands())
      Work.push_back(Op);
    if (N->getExpansion())
      Work.push_back(N->getExpansion());
  }
}

/// Nesting of constructors that make loops: resized and dup only change
/// bounds or names, subarray/darray count as what they expand to.
unsigned loopLevels(const Type *T) {
  switch (T->getKind()) {
  case TypeKind::Predefined:
    return 0;
  case TypeKind::Resized:
  case TypeKind::Dup:
    return loopLevels(T->getOldType());
  case TypeKind::Subarray:
  case TypeKind::Darray:
    return loopLevels(T->getExpansion());
  default: {
    unsigned Deepest = 0;
    for (const Type *Op : T->getOperands())
      Deepest = std::max(Deepest, loopLevels(Op));
    return Deepest + 1;
  }
  }
}

void checkNormalForm(const Type *Given, const Type *Normal,
                     const std::string &NormalText, const MPIFormAdvice &Advice,
                     std::vector<Risk> &Out) {
  bool Rewrite = !Advice.FormText.empty();
  if (!Normal->isCheaperThan(Given) && !Rewrite)
    return;
  const TypeLayout &G = Given->getLayout(), &N = Normal->getLayout();
  std::string Gain;
  if (G.Pieces > N.Pieces)
    Gain = str(G.Pieces - N.Pieces) + " fewer copy pieces, ";
  Gain +=
      "description " + (G.Cost >= N.Cost ? ratio(G.Cost, N.Cost) + " smaller"
                                         : ratio(N.Cost, G.Cost) + " larger");
  // A type as cheap as its normal form is still worth rewriting for a
  // library whose engine is faster on another description of it.
  std::string Message =
      Normal->isCheaperThan(Given)
          ? "not in normal form: " + str(G.Pieces) + " copy pieces, cost " +
                str(G.Cost) + " as given; " + str(N.Pieces) + " pieces, cost " +
                str(N.Cost) + " normalized (" + Gain + ")"
          : "as cheap as its normal form (" + str(G.Pieces) +
                " copy pieces, cost " + str(G.Cost) + ")";
  char Speed[32];
  std::snprintf(Speed, sizeof Speed, "%.1fx", Advice.PackGain);
  if (Rewrite) {
    Out.push_back({"GL4",
                   Message + "; " + Advice.Engine + " is modelled to " +
                       (Advice.SendsOnly
                            ? "send (the program's only use, point to point) "
                            : "pack ") +
                       "the " + Advice.Origin + " form " + Speed + " faster",
                   "describe it as its " + Advice.Origin +
                       " form (ddtc emit "
                       "writes the MPI calls, ddtc_NAME_build): " +
                       Advice.FormText});
    return;
  }
  Out.push_back({"GL4", Message,
                 "keep it for " + Advice.Engine +
                     " (no form is modelled 1.3x faster there); normal form "
                     "for other libraries: " +
                     NormalText});
}

void checkCountMerge(const Type *Given, std::vector<Risk> &Out) {
  const TypeLayout &L = Given->getLayout();
  // A dense type (instances tile memory) is one block at any count, and
  // engines copy it so (MPICH: one memcpy): nothing to merge.
  if (L.Size == 0 || L.Blocks.Count == 0 || L.isDense())
    return;
  // Blocks merge across instances: count x T copies each instance's blocks
  // apart, one type for the whole message copies the merged ones. Report
  // a real difference only.
  BlockSummary Two = repeatBlocks(L.Blocks, 2, L.extent());
  if (double(Two.Count) > GL1Ratio * 2.0 * double(L.Blocks.Count))
    return;
  Out.push_back(
      {"GL1",
       "consecutive instances touch: 2 instances have " + str(Two.Count) +
           " contiguous blocks, not " + str(2 * L.Blocks.Count) +
           "; count x T copies the blocks of each instance apart, one type "
           "for the whole message copies the merged blocks",
       "describe the message as one type: ddtc normalize --count N FILE "
       "(N = the count you send)"});
}

void checkAlignmentPadding(const Type *Given, std::vector<Risk> &Out) {
  // The first padded struct found is reported: one is enough to act on.
  bool Found = false;
  forEachNode(Given, [&](const Type *T) {
    auto *S = dyn_cast<StructType>(T);
    if (Found || !S || T->size() == 0)
      return;
    // The upper bound before MPICH rounds the extent up to the alignment.
    int64_t Ub = INT64_MIN;
    for (size_t I = 0; I < S->getTypes().size(); ++I) {
      int64_t Bl = S->getBlockLengths()[I];
      const Type *Old = S->getTypes()[I];
      if (Bl == 0)
        continue;
      int64_t Ext = Old->extent();
      Ub = std::max(Ub, S->getDisplacements()[I] + Old->ub() +
                            (Ext > 0 ? (Bl - 1) * Ext : 0));
    }
    int64_t Pad = T->ub() - Ub;
    const BlockSummary &B = T->getLayout().Blocks;
    bool LooksDense =
        B.Count == 1 && B.First.Offset == T->lb() && B.First.end() == Ub;
    if (Pad <= 0 || !LooksDense)
      return;
    Found = true;
    Out.push_back(
        {"alignment-padding",
         "a struct whose data is contiguous (" + str(Ub - T->lb()) +
             " bytes) has its extent padded to " + str(T->extent()) +
             " bytes (alignment " + str(T->getLayout().Align) +
             "): count > 1 leaves a " + str(Pad) +
             "-byte gap after every instance and copies one block each",
         "if the C struct has no such padding (packed, or sizeof is " +
             str(Ub - T->lb()) + "), resize: MPI_Type_create_resized(T, " +
             str(T->lb()) + ", " + str(Ub - T->lb()) + ", &T2)"});
  });
}

void checkTinyBlocks(const Type *Normal, std::vector<Risk> &Out) {
  const TypeLayout &L = Normal->getLayout();
  if (L.Blocks.Count < MinBlocksForTiny)
    return;
  double Mean = double(L.Size) / double(L.Blocks.Count);
  if (Mean >= TinyBlockBytes)
    return;
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "%.1f", Mean);
  Out.push_back({"tiny-blocks",
                 str(L.Blocks.Count) + " contiguous blocks of " + Buf +
                     " bytes on average: per-block work, not copying, "
                     "dominates packing",
                 "keep data sent together adjacent in memory (e.g. structure "
                 "of arrays), or pack with code specialized for the block "
                 "size (ddtc emit)"});
}

void checkKernelDepth(const Type *Normal, const LibraryRules &Rules,
                      std::vector<Risk> &Out) {
  std::string Engine(Rules.getEngineName());
  unsigned Levels = loopLevels(Normal);
  if (Levels > Rules.getMaxKernelLevels())
    Out.push_back({"deep-tree",
                   "the normal form nests " + std::to_string(Levels) +
                       " constructor levels; " + Engine +
                       " generates pack kernels for at most " +
                       std::to_string(Rules.getMaxKernelLevels()) +
                       " and runs deeper types through its generic path",
                   "pack with ddtc emit, whose loops are specialized at any "
                   "depth"});
  bool HasStruct = false;
  forEachNode(Normal, [&](const Type *T) { HasStruct |= isa<StructType>(T); });
  if (HasStruct)
    Out.push_back({"struct",
                   "the normal form contains a struct: " + Engine +
                       " has no generated kernel for it and packs it with its "
                       "interpreter",
                   "the struct is the cheapest description of this layout; "
                   "pack with ddtc emit to avoid the interpreter"});
}

size_t longestList(const Type *T) {
  size_t Longest = 0;
  forEachNode(T, [&](const Type *N) {
    if (isa<IndexedType>(N) || isa<IndexedBlockType>(N) || isa<StructType>(N))
      Longest = std::max(Longest, N->getListLength());
  });
  return Longest;
}

void checkIndexLists(const Type *Given, const Type *Normal,
                     const std::string &NormalText, std::vector<Risk> &Out) {
  size_t Given_ = longestList(Given), Normal_ = longestList(Normal);
  if (Given_ < LongListEntries || Normal_ * 2 > Given_)
    return;
  Out.push_back({"long-index-list",
                 "an index list of " + std::to_string(Given_) +
                     " entries describes a regular layout (" +
                     (Normal_ ? "the normal form's longest list has " +
                                    std::to_string(Normal_) + " entries"
                              : std::string("the normal form needs no list")) +
                     "): the engine reads every entry on every pack",
                 "describe it as its normal form: " + NormalText});
}

void checkTlb(const Type *Normal, std::vector<Risk> &Out) {
  bool Found = false;
  forEachNode(Normal, [&](const Type *T) {
    if (Found)
      return;
    int64_t Reps = 0, Stride = 0;
    if (auto *V = dyn_cast<VectorType>(T)) {
      Reps = V->getCount();
      Stride = V->getByteStride();
    } else if (auto *C = dyn_cast<ContiguousType>(T)) {
      Reps = C->getCount();
      Stride = C->getOldType()->extent();
    }
    if (Reps < 2)
      return;
    const Type *Inner = T->getOldType();
    const TypeLayout &I = Inner->getLayout();
    // Pages one copy of the inner pattern touches: at most one per block.
    uint64_t Pages = std::min<uint64_t>(
        I.Blocks.Count, uint64_t(I.trueExtent() / PageBytes + 1));
    // The copies interleave: the outer loop comes back to pages the inner
    // one touched (a transpose), after they may have left the TLB.
    bool Interleaved = std::llabs(Stride) < I.trueExtent();
    if (Pages < TlbEntries || !Interleaved)
      return;
    Found = true;
    Out.push_back(
        {"tlb-pressure",
         "each of " + str(Reps) +
             " interleaved copies of an inner pattern "
             "touches about " +
             str(Pages) + " pages, more than the " + str(TlbEntries) +
             " entries of a typical data TLB: pages are "
             "evicted before they are used up (Byna, Gropp, Sun, Thakur, IEEE "
             "Cluster 2003)",
         "pack in tiles of at most " + str(TlbEntries / 2) +
             " pages (cache blocking), or store the data in the order it is "
             "sent"});
  });
}

} // namespace

std::vector<Risk> findRisks(const Type *Given, const Type *Normal,
                            const std::string &NormalText,
                            const MPIFormAdvice &Advice,
                            const LibraryRules &Rules) {
  std::vector<Risk> Out;
  checkNormalForm(Given, Normal, NormalText, Advice, Out);
  checkCountMerge(Given, Out);
  checkAlignmentPadding(Given, Out);
  checkTinyBlocks(Normal, Out);
  checkKernelDepth(Normal, Rules, Out);
  checkIndexLists(Given, Normal, NormalText, Out);
  checkTlb(Normal, Out);
  return Out;
}

} // namespace ddtc

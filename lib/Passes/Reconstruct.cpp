//===- lib/Passes/Reconstruct.cpp - Optimal trees from typemaps -----------===//
//
// Flattens a typemap into blocks, asks the planners (BlockPlan.h) for the
// cheapest plan and has the builder (PlanBuilder.h) build it. The planners
// see the typemap five ways: as its maximal runs, with the components of
// pair types regrouped into pairs, with the runs of either cut to their
// common length (where copies of a chunk touch, their runs join) and, if
// short, cut to single elements; where a cut is copies of one chunk, with
// its runs merged again within each group of copies; and, through
// ElementSequence.h, as copies of each element of the given and the
// rebuilt trees.
//
//===----------------------------------------------------------------------===//
#include "ddtc/Passes/Reconstruct.h"

#include "BlockPlan.h"
#include "ElementSequence.h"
#include "PlanBuilder.h"
#include "ddtc/IR/TypemapWalker.h"
#include "ddtc/Passes/PassRegistry.h"

#include <algorithm>
#include <numeric>
#include <optional>

namespace ddtc {

using recon::Block;
using recon::Plan;

namespace {

/// The typemap of Count instances of T as maximal typed blocks, or nothing
/// if it has more than Max blocks.
std::optional<std::vector<Block>> flatten(const Type *T, uint64_t Count,
                                          uint64_t Max) {
  uint64_t Estimate;
  if (__builtin_mul_overflow(T->getLayout().Blocks.Count, Count, &Estimate) ||
      Estimate > Max)
    return std::nullopt;
  std::vector<Block> Blocks;
  // Estimate counts merged byte blocks: typed ones are as many or more.
  Blocks.reserve(Estimate);
  TypemapWalker Walker(T, Count, WalkMode::Typed);
  for (TypemapRun Run; Walker.next(Run);) {
    if (Blocks.size() == Max)
      return std::nullopt;
    Blocks.push_back(
        {Run.Offset, Run.Length / recon::elementSize(Run.Basic), Run.Basic});
  }
  return Blocks;
}

/// Blocks with the elements of pair type Pair regrouped: wherever the last
/// element of a run of its first component and the first of a run of its
/// second sit at the pair's offsets, the two become one element of the
/// pair, and pairs one pair extent apart one block. The typemap is the same
/// entry for entry (a pair type is its two components), so the planners
/// can rebuild `MPI_DOUBLE_INT` and its kind instead of a struct of a
/// double and an int. Nothing, if no pair forms.
std::optional<std::vector<Block>> regroupPairs(std::span<const Block> B,
                                               PredefinedId Pair) {
  const PredefinedInfo &P = getPredefinedInfo(Pair);
  const PredefinedComponent &First = P.Components[0], &Second = P.Components[1];
  int64_t FirstSize = recon::elementSize(First.Basic);
  int64_t SecondSize = recon::elementSize(Second.Basic);
  std::vector<Block> Out;
  auto Append = [&](const Block &X) {
    if (!Out.empty() && Out.back().Basic == X.Basic) {
      int64_t End;
      if (!__builtin_mul_overflow(Out.back().Count, recon::elementSize(X.Basic),
                                  &End) &&
          !__builtin_add_overflow(End, Out.back().Offset, &End) &&
          End == X.Offset) {
        Out.back().Count += X.Count;
        return;
      }
    }
    Out.push_back(X);
  };
  // Where block I's last element is the first component of a pair whose
  // second is block I + 1's first element: that element's offset.
  auto PairAt = [&](size_t I) -> std::optional<int64_t> {
    int64_t Last, Partner;
    if (B[I].Basic != First.Basic || I + 1 == B.size() ||
        B[I + 1].Basic != Second.Basic ||
        __builtin_mul_overflow(B[I].Count - 1, FirstSize, &Last) ||
        __builtin_add_overflow(Last, B[I].Offset, &Last) ||
        __builtin_add_overflow(Last, Second.Offset - First.Offset, &Partner) ||
        B[I + 1].Offset != Partner)
      return std::nullopt;
    return Last;
  };
  // Most typemaps hold no pair: find the first before copying anything.
  size_t Start = 0;
  while (Start < B.size() && !PairAt(Start))
    ++Start;
  if (Start == B.size())
    return std::nullopt;
  Out.reserve(B.size());
  Out.assign(B.begin(), B.begin() + Start);
  for (size_t I = Start; I < B.size(); ++I) {
    const Block &Cur = B[I];
    std::optional<int64_t> Last = PairAt(I);
    if (!Last) {
      Append(Cur);
      continue;
    }
    if (Cur.Count > 1)
      Append({Cur.Offset, Cur.Count - 1, Cur.Basic});
    Append({*Last - First.Offset, 1, Pair});
    const Block &Next = B[++I];
    if (Next.Count > 1)
      Append({Next.Offset + SecondSize, Next.Count - 1, Next.Basic});
  }
  return Out;
}

/// The blocks with every run cut into blocks of G elements, G the greatest
/// common divisor of the run lengths, or single elements if ToElements.
/// Where copies of a tree touch (the last element of one copy next to the
/// first of the next) the typemap joins their runs, and the planners,
/// which never split a block, cannot see the copies; cut to the common
/// length, they can. Cut to elements, a row of elements can be a copy of
/// one element resized to leave the gap after it, placed by the element's
/// lb (`vector(2, 5, 25, resized(-400, 40, indexed_block(4, [-50],
/// MPI_COMPLEX)))`: rows of 4 of 5 complex numbers; the runs uncut give
/// the same rows as sub-chunks resized to their step, SegmentDP). Nothing
/// if no run is longer than G (than 1) or the cut sequence would exceed
/// MaxBlocks.
std::optional<std::vector<Block>> cutRuns(std::span<const Block> B,
                                          size_t MaxBlocks, bool ToElements,
                                          int64_t OpaqueExtent) {
  int64_t G = 0;
  for (const Block &X : B)
    G = std::gcd(G, X.Count);
  if (ToElements) {
    if (G == 1)
      return std::nullopt;
    G = 1;
  }
  uint64_t Cut = 0;
  for (const Block &X : B)
    Cut += uint64_t(X.Count / G);
  if (Cut == B.size() || Cut > MaxBlocks)
    return std::nullopt;
  std::vector<Block> Out;
  Out.reserve(Cut);
  for (const Block &X : B) {
    int64_t Step = G * recon::elementSize(X.Basic, OpaqueExtent);
    for (int64_t K = 0; K < X.Count / G; ++K)
      Out.push_back({X.Offset + K * Step, G, X.Basic});
  }
  return Out;
}

/// Where a cut sequence is copies of one chunk (k blocks, each copy the
/// last moved by one stride), its runs merged again within every window of
/// d copies, for each d dividing the number of copies whose windows merge
/// something: copies of a chunk whose own runs touch (`contiguous(3,
/// indexed([1, 2], [-4, 1], X))`, whose copies join the runs between them)
/// and groups of copies described as one list (`contiguous(6,
/// hindexed([1, 1, 2, 1, 1], ...))`, twelve copies of three doubles whose
/// last touches the next copy's first) are then blocks the planners can
/// repeat. The typemap's maximal runs merge across the windows too, so the
/// planners saw neither. Copies at arbitrary translations are grouped
/// too, where no stride repeats a chunk or a smaller chunk than the
/// stride's (`hindexed([3, 2], [...], contiguous(2, hindexed([2, 2], [-47,
/// 10], X)))`: the two inner copies touch, and so do the outer ones,
/// three back to back). At most MaxGroupings sequences per chunk length,
/// smallest d first.
std::vector<std::vector<Block>> mergeWithinCopies(std::span<const Block> C,
                                                  size_t MaxGroupings,
                                                  int64_t OpaqueExtent) {
  std::vector<std::vector<Block>> Out;
  size_t N = C.size();
  // Offsets of one typemap, but far apart ones may differ by more than
  // an int64_t holds: such a difference is no stride.
  auto Distance = [](int64_t A, int64_t B, int64_t &D) {
    return !__builtin_sub_overflow(A, B, &D);
  };
  auto isPeriod = [&](size_t K) {
    int64_t Stride = 0, D = 0;
    if (!Distance(C[K].Offset, C[0].Offset, Stride))
      return false;
    for (size_t I = 0; I + K < N; ++I)
      if (!C[I + K].sameShape(C[I]) ||
          !Distance(C[I + K].Offset, C[I].Offset, D) || D != Stride)
        return false;
    return true;
  };
  // Or copies at arbitrary translations (a list of copies of a list):
  // each chunk of K blocks the first moved by its own distance.
  auto isChain = [&](size_t K) {
    for (size_t I = K; I < N; I += K) {
      int64_t Shift = 0, D = 0;
      if (!Distance(C[I].Offset, C[0].Offset, Shift))
        return false;
      for (size_t J = 0; J < K; ++J)
        if (!C[I + J].sameShape(C[J]) ||
            !Distance(C[I + J].Offset, C[J].Offset, D) || D != Shift)
          return false;
    }
    return true;
  };
  auto smallest = [&](auto Holds) {
    size_t K = 1;
    while (K < N && (N % K != 0 || !Holds(K)))
      ++K;
    return K;
  };
  // Groups of D copies of a chunk of K blocks, their runs merged within
  // each group.
  auto Group = [&](size_t K) {
    size_t Copies = N / K;
    for (size_t D = 1, Made = 0; D < Copies && Made < MaxGroupings; ++D) {
      if (Copies % D != 0)
        continue;
      std::vector<Block> M;
      M.reserve(N);
      for (size_t I = 0; I < N; ++I) {
        const Block &X = C[I];
        if (I % (D * K) != 0 && !M.empty() && M.back().Basic == X.Basic &&
            M.back().Offset + M.back().Count *
                                  recon::elementSize(X.Basic, OpaqueExtent) ==
                X.Offset)
          M.back().Count += X.Count;
        else
          M.push_back(X);
      }
      if (M.size() != N) {
        Out.push_back(std::move(M));
        ++Made;
      }
    }
  };
  // The copies at one stride, and the smaller chunk copied at arbitrary
  // translations where there is one (copies of a list of copies: the
  // stride repeats the outer copies, the translations the inner ones).
  size_t Period = smallest(isPeriod), Chain = smallest(isChain);
  if (Period < N)
    Group(Period);
  if (Chain < Period)
    Group(Chain);
  return Out;
}

/// Sequences, and each cut to a common run length, where the dynamic
/// program plans it: copies that touch, one run in the typemap, can be
/// cheaper as copies. Pairs too: copies of an indexed list of
/// MPI_SHORT_INT join their pairs, as copies of one of MPI_INT join their
/// ints; and copies of an element (OpaqueExtent its extent) whose runs
/// join across copies. A cut merged again within copies can come back as
/// the sequence it was cut from, or as another cut's merge: each sequence
/// is planned once.
void addCutsAndMerges(std::vector<std::vector<Block>> &Sequences,
                      const ReconstructOptions &Options, int64_t OpaqueExtent) {
  auto Add = [&Sequences](std::vector<Block> &&S) {
    if (std::find(Sequences.begin(), Sequences.end(), S) == Sequences.end())
      Sequences.push_back(std::move(S));
  };
  for (size_t I = 0, E = Sequences.size(); I < E; ++I) {
    if (Sequences[I].size() > Options.DPBlocks)
      continue;
    for (bool ToElements : {false, true}) {
      std::optional<std::vector<Block>> C =
          cutRuns(Sequences[I],
                  ToElements ? Options.ElementCutBlocks : Options.DPBlocks,
                  ToElements, OpaqueExtent);
      if (!C)
        continue;
      for (std::vector<Block> &M : mergeWithinCopies(*C, 4, OpaqueExtent))
        Add(std::move(M));
      Add(std::move(*C));
    }
  }
}

/// X is a struct of at least two copies of members with data (a struct of
/// one copy of one member is that member placed: its members' normal
/// forms are the typemap's, planned already).
bool hasSeveralMembers(const Type *X) {
  auto *S = dyn_cast<StructType>(X);
  if (!S)
    return false;
  int64_t Copies = 0;
  for (size_t I = 0; I < S->getTypes().size() && Copies < 2; ++I)
    if (S->getTypes()[I]->size() != 0)
      Copies += S->getBlockLengths()[I];
  return Copies >= 2;
}

} // namespace

const Type *Reconstructor::rebuild(const Type *T, uint64_t Count,
                                   bool KeepBounds) {
  std::optional<std::vector<Block>> Blocks = flatten(T, Count, flatBudget(T));
  if (!Blocks || Blocks->empty())
    return nullptr;
  // The typemap as basic blocks, and as blocks of each pair type whose
  // components it holds at the pair's offsets (MPI_2INT is two ints: as
  // ints its copies merge, which is always cheaper).
  std::vector<std::vector<Block>> Sequences;
  std::vector<bool> Present(NumPredefined);
  for (const Block &X : *Blocks)
    Present[static_cast<unsigned>(X.Basic)] = true;
  for (PredefinedId Pair :
       {PredefinedId::FloatInt, PredefinedId::DoubleInt, PredefinedId::LongInt,
        PredefinedId::ShortInt, PredefinedId::LongDoubleInt}) {
    const PredefinedInfo &P = getPredefinedInfo(Pair);
    if (!Present[static_cast<unsigned>(P.Components[0].Basic)] ||
        !Present[static_cast<unsigned>(P.Components[1].Basic)])
      continue;
    if (std::optional<std::vector<Block>> R = regroupPairs(*Blocks, Pair))
      Sequences.push_back(std::move(*R));
  }
  Sequences.insert(Sequences.begin(), std::move(*Blocks));
  addCutsAndMerges(Sequences, Options, /*OpaqueExtent=*/0);
  recon::PlannerLimits Limits{Options.DPBlocks, Options.StructWindow};
  // reconstruct() keeps T unless the rebuilt tree is at least as cheap. A
  // built tree's total cost is its description size (not below its plan's
  // predicted cost: struct padding only adds a resized) plus its pieces
  // (not below the typemap's maximal blocks), so plans predicted above
  // this budget lose to T. (Canonicalization can still lower a built
  // tree; on long sequences, the only ones pruned, PruneByGivenTest checks
  // that the pruning changes no normal form.)
  uint64_t Budget = UINT64_MAX;
  if (KeepBounds && Options.PruneByGiven) {
    const TypeLayout &L = T->getLayout();
    if (L.totalCost() != UINT64_MAX)
      Budget =
          L.totalCost() > L.Blocks.Count ? L.totalCost() - L.Blocks.Count : 0;
  }
  const Type *Best = nullptr;
  bool Hopeless = false;
  for (const std::vector<Block> &Seq : Sequences) {
    std::vector<Plan> Plans = recon::planBlocks(Seq, Limits, Budget);
    Hopeless |= Plans.empty();
    recon::buildBest(Ctx, Canon, Seq, nullptr, Plans, T, KeepBounds, Best);
  }
  if (Best || !Hopeless)
    return Best;
  // Nothing that could have been built would have beaten T.
  ++Pruned;
  return T;
}

const Type *Reconstructor::improveByElements(const Type *From, const Type *Best,
                                             const Type *Floor,
                                             ElementSequences &Seen) {
  // Each tree found is a new source of elements (its leaves are normal
  // forms of elements, which may hold elements of their own); every win
  // goes strictly down the total order, and a few rounds are all that
  // random types of depth 6 take.
  std::vector<const Type *> Sources{From};
  for (size_t I = 0; I < Sources.size() && I < 8; ++I)
    for (const Type *E : recon::findElements(Sources[I])) {
      bool Basic = isa<PredefinedType>(E) &&
                   cast<PredefinedType>(E)->getInfo().isBasic();
      for (recon::CopyRuns Runs :
           {recon::CopyRuns::Merged, recon::CopyRuns::AsListed,
            recon::CopyRuns::MergedPerCopy}) {
        // Merged copies of a basic type are the typemap's blocks.
        if (Runs == recon::CopyRuns::Merged && Basic)
          continue;
        std::optional<std::vector<Block>> Seq =
            recon::elementBlocks(Sources[I], E, Runs, Options.ElementBlocks);
        // Copies of a basic type kept apart that are the typemap's blocks
        // all the same (the maximal runs are these blocks with the ones
        // that touch merged: as many blocks, none touched), planned by
        // rebuild() already; or a sequence planned already.
        if (!Seq || (Basic && Seq->size() == From->getLayout().Blocks.Count))
          continue;
        // One copy of E is E placed: its normal form would be planned
        // again from E's typemap, as long as the whole (WRF_x_sa, one
        // member of 8,554 blocks: twice the time), for no other normal
        // form in the uniqueness test.
        if (Seq->size() == 1 && Seq->front().Count == 1)
          continue;
        if (std::any_of(Seen.begin(), Seen.end(), [&](const auto &S) {
              return S.first == E && S.second == *Seq;
            }))
          continue;
        const Type *X = rebuildFromElement(Sources[I], E, *Seq);
        Seen.emplace_back(E, std::move(*Seq));
        if (X && X->precedes(Best) && (!Floor || X->isCheaperThan(Floor))) {
          Best = X;
          Sources.push_back(X);
        }
      }
    }
  return Best;
}

const Type *Reconstructor::rebuildFromElement(const Type *T, const Type *E,
                                              std::span<const Block> Seq) {
  // The element as its own normal form: equivalent descriptions of T
  // reach E's layout through different trees.
  const Type *Leaf = reconstruct(E);
  recon::PlannerLimits Limits{Options.DPBlocks, Options.StructWindow,
                              E->extent()};
  // Copies of E whose runs join across copies of a node above, cut and
  // merged again within copies, as rebuild() does for basic blocks.
  std::vector<std::vector<Block>> Sequences{
      std::vector<Block>(Seq.begin(), Seq.end())};
  addCutsAndMerges(Sequences, Options, E->extent());
  const Type *Best = nullptr;
  for (const std::vector<Block> &S : Sequences)
    recon::buildBest(Ctx, Canon, S, Leaf, recon::planBlocks(S, Limits), T,
                     /*KeepBounds=*/true, Best);
  return Best;
}

uint64_t Reconstructor::flatBudget(const Type *T) const {
  uint64_t PerInput;
  if (__builtin_mul_overflow(distinctDescriptionSize(T),
                             Options.FlatBlocksPerInt, &PerInput))
    PerInput = UINT64_MAX;
  return std::min(Options.MaxFlatBlocks,
                  std::max(Options.MinFlatBlocks, PerInput));
}

const Type *Reconstructor::rebuildOperands(const Type *T) {
  return Ctx.mapOperands(T, [this](const Type *Op) { return reconstruct(Op); });
}

const Type *Reconstructor::listNestedRuns(const Type *T) {
  if (isa<PredefinedType>(T) || T->getOperands().empty())
    return T;
  const Type *Old = T->getOperands().front();
  bool ListOfLists = (isa<IndexedType>(T) || isa<IndexedBlockType>(T) ||
                      isa<VectorType>(T) || isa<ContiguousType>(T)) &&
                     !isa<PredefinedType>(Old);
  if (ListOfLists) {
    std::optional<std::vector<Block>> Runs =
        flatten(T, 1, Options.ElementBlocks);
    if (Runs && !Runs->empty() &&
        std::all_of(Runs->begin(), Runs->end(), [&](const Block &B) {
          return B.Basic == Runs->front().Basic;
        })) {
      std::vector<int64_t> Counts, Offsets;
      for (const Block &B : *Runs) {
        Counts.push_back(B.Count);
        Offsets.push_back(B.Offset);
      }
      Expected<const Type *> List = Ctx.getHIndexed(
          Counts, Offsets, Ctx.getPredefined(Runs->front().Basic));
      if (List && !(*List)->hasSameBounds(T))
        List = Ctx.getResized(T->lb(), T->extent(), *List);
      if (List)
        return *List;
      (void)List.takeError();
    }
  }
  return Ctx.mapOperands(T,
                         [this](const Type *Op) { return listNestedRuns(Op); });
}

const Type *Reconstructor::reconstruct(const Type *T) {
  if (auto It = Memo.find(T); It != Memo.end())
    return It->second;
  // A type without data is left to the canonicalizer (bounds-only).
  const Type *R = T->size() == 0 ? T : rebuild(T, 1, /*KeepBounds=*/true);
  if (!R)
    R = rebuildOperands(T);
  R = Canon.canonicalize(R);
  // Copies of one derived type (ElementSequence.h): first the elements of
  // the rebuilt tree, which every description of the layout reaches, then
  // those of the given tree, which must do strictly better to count: a
  // tie goes to the tree every description finds. And a struct's members
  // in their own normal forms: the planners choose a struct's pieces
  // together, each member alone may do better; a given struct the
  // planners do not beat keeps its members' normal forms, however each
  // member was written. Members and operands are planned again, so short
  // typemaps only: a long one's operands are as long.
  bool Short = T->getLayout().Blocks.Count <= Options.DPBlocks;
  const Type *GivenOperands = nullptr; // T with its operands' normal forms
  auto OperandsOfGiven = [&] {
    if (!GivenOperands)
      GivenOperands = Canon.canonicalize(rebuildOperands(T));
    return GivenOperands;
  };
  if (T->size() != 0) {
    ElementSequences Seen;
    R = improveByElements(R, R, nullptr, Seen);
    if (Short && hasSeveralMembers(R))
      if (const Type *O = Canon.canonicalize(rebuildOperands(R));
          O->precedes(R))
        R = O;
    const Type *Typemap = R;
    R = improveByElements(T, R, R, Seen);
    if (Short && hasSeveralMembers(T) && T != R) {
      if (const Type *O = OperandsOfGiven();
          O->isCheaperThan(Typemap) && O->precedes(R))
        R = O;
      // A member copied many times is best with the fewest pieces, its
      // nested lists as their runs (one per run, however often copied),
      // which its normal form alone, judged once, need not have: the
      // given struct with them listed, as a flattened description of it
      // already is.
      if (const Type *L = listNestedRuns(T); L != T)
        if (const Type *O = Canon.canonicalize(L);
            O->isCheaperThan(Typemap) && O->precedes(R))
          R = O;
    }
  }
  // The planners are exact only within their budgets and their candidate
  // families (docs/normalization.md): never hand back something costlier.
  // Where the given tree wins, its operands may still have cheaper normal
  // forms (a struct member written as a nested list and the same member
  // flattened meet below a struct the planners do not beat).
  if (T->isCheaperThan(R)) {
    ++KeptAsGiven;
    R = T;
    if (Short && T->size() != 0 && !T->getOperands().empty())
      if (const Type *O = OperandsOfGiven(); O->precedes(T))
        R = O;
  }
  Memo[T] = R;
  return R;
}

Expected<const Type *> Reconstructor::reconstructMessage(const Type *T,
                                                         uint64_t Count) {
  if (T->size() == 0 || Count == 0)
    return Ctx.getStruct({}, {}, {});
  const Type *R = rebuild(T, Count, /*KeepBounds=*/false);
  if (!R)
    return makeError("the message has more than " +
                     std::to_string(flatBudget(T)) +
                     " blocks; too large to reconstruct");
  return Canon.canonicalize(R);
}

namespace {

class ReconstructPass : public Pass {
public:
  std::string_view getName() const override {
    return getPassInfo(PassId::Reconstruct).Name;
  }
  bool run(Module &M) override {
    Reconstructor R(M.getContext());
    return rewriteTypes(M, [&](const Type *T) { return R.reconstruct(T); });
  }
};

} // namespace

std::unique_ptr<Pass> createReconstructPass() {
  return std::make_unique<ReconstructPass>();
}

} // namespace ddtc

//===- lib/Passes/LatticePlanner.cpp - Plans for long block sequences -----===//
//
// The DP is quadratic, so long sequences are first taken apart the way
// regular data is built:
//
//  1. Repetition (Kalany & Traeff): for the divisors q of the block count,
//     smallest first, test whether the sequence is m/q translated copies
//     of its first q blocks -- O(m) per divisor, usually a few steps before
//     the first mismatch. The chunk is planned recursively, so a hidden
//     k-dimensional lattice comes back as k nested vectors.
//  2. Lattice pieces: otherwise the sequence is cut greedily into maximal
//     two-level lattice prefixes (rows of equal blocks at one stride,
//     repeated at one translation) -- a vector of vectors plus remainders.
//     Short irregular stretches between them are merged; the pieces become
//     a struct, unless one index list over everything is cheaper.
//
// Segments short enough go to the exact DP.
//
//===----------------------------------------------------------------------===//
#include "BlockPlan.h"

#include <algorithm>
#include <cassert>

namespace ddtc::recon {

namespace {

/// Pieces shorter than this are not worth a struct entry of their own. A
/// larger bound would spare the dynamic program the short stretches that
/// chance patterns cut random lists into (two equal gaps one block apart,
/// every hundred blocks or so of a sorted list), but types made of many
/// short lattices then lose their best form: four nested indexed_blocks
/// with repeated displacements (62,605 blocks) were rebuilt at cost 3,994
/// with a bound of 4 and left at 24 + 78,125 pieces with a bound of 16.
constexpr size_t MinRegularPiece = 4;

void shiftIndices(Plan &P, size_t By) {
  P.Begin += By;
  P.End += By;
  for (Plan &C : P.Children)
    shiftIndices(C, By);
}

std::vector<size_t> divisorsAscending(size_t M) {
  std::vector<size_t> Low, High;
  for (size_t D = 1; D * D <= M; ++D)
    if (M % D == 0) {
      Low.push_back(D);
      if (D != M / D)
        High.push_back(M / D);
    }
  Low.insert(Low.end(), High.rbegin(), High.rend());
  return Low;
}

class LargePlanner {
public:
  LargePlanner(std::span<const Block> B, const PlannerLimits &L) : B(B), L(L) {}

  /// Budget: see planBlocks; it bounds the plan of the whole sequence only.
  Plan plan(size_t I, size_t J, bool NeedsPlacement,
            uint64_t Budget = UINT64_MAX);
  /// The pieces at the top were not planned because no struct of them
  /// fits the budget, and the index list that stands in for them does not
  /// fit it either.
  bool overBudget() const { return OverBudget; }

private:
  bool translationAt(size_t T, size_t Q, int64_t &D) const {
    return B[T].sameShape(B[T + Q]) &&
           !__builtin_sub_overflow(B[T + Q].Offset, B[T].Offset, &D);
  }
  /// Blocks matched from I + Q on, where each block repeats the one Q
  /// before it at the translation of block I + Q.
  size_t matchedAfter(size_t I, size_t Q, size_t J) const;
  int64_t extentOf(size_t I, size_t J) const;
  Plan leaf(size_t I, size_t J) const;
  Plan lattice(size_t T, size_t A, size_t Rows) const;
  Plan repetition(size_t I, size_t M, size_t Q);
  Plan pieces(size_t I, size_t J, uint64_t Budget);
  /// A stretch of the sequence that pieces() plans on its own.
  struct Cut {
    size_t From, To;
    bool Merged;            ///< short irregular pieces glued together
    size_t A = 0, Rows = 0; ///< a lattice piece: its row length and rows
  };
  /// Whether a struct of these pieces is, once built and canonicalized,
  /// never cheaper than its plan predicts.
  bool budgetHolds(std::span<const Cut> Cuts) const;

  std::span<const Block> B;
  PlannerLimits L;
  bool OverBudget = false;
};

size_t LargePlanner::matchedAfter(size_t I, size_t Q, size_t J) const {
  int64_t D0;
  if (I + Q >= J || !translationAt(I, Q, D0))
    return 0;
  size_t U = I + Q;
  for (int64_t D; U < J && translationAt(U - Q, Q, D) && D == D0;)
    ++U;
  return U - (I + Q);
}

int64_t LargePlanner::extentOf(size_t I, size_t J) const {
  int64_t Lo = B[I].Offset, Hi = B[I].Offset;
  for (size_t T = I; T < J; ++T) {
    Lo = std::min(Lo, B[T].Offset);
    Hi = std::max(Hi, B[T].Offset + B[T].Count * elementSize(B[T].Basic));
  }
  int64_t E;
  return __builtin_sub_overflow(Hi, Lo, &E) ? -1 : E;
}

Plan LargePlanner::leaf(size_t I, size_t J) const {
  size_t M = J - I;
  bool SameShape = true, SameBasic = true;
  for (size_t T = I + 1; T < J; ++T) {
    SameShape &= B[T].sameShape(B[I]);
    SameBasic &= B[T].Basic == B[I].Basic;
  }
  Plan P;
  P.Begin = I;
  P.End = J;
  if (SameShape || SameBasic) {
    P.Kind = SameShape ? PlanKind::IndexBlock : PlanKind::Indexed;
    P.Cost = SameShape ? indexBlockCost(M) : indexedCost(M);
    return P;
  }
  // Mixed basic types: a struct of the blocks.
  P.Kind = PlanKind::Struct;
  P.Cost = getConstructorCost(TypeKind::Struct, M);
  for (size_t T = I; T < J; ++T)
    P.Children.push_back(Plan::make(PlanKind::Single, T, T + 1));
  return P;
}

/// Rows copies, at one translation, of a row of A equal blocks at one
/// stride (A >= 2), starting at block T: the plan the dynamic program
/// finds for it, without running it (a row of 200 blocks is 40,000 cells).
/// A row is one vector, cheaper than any other candidate of the DP; rows
/// back-to-back are a contiguous of it, others an hvector of it (the DP's
/// Contig and Repeat, with the same costs).
Plan LargePlanner::lattice(size_t T, size_t A, size_t Rows) const {
  Plan Row = Plan::make(PlanKind::Arith, T, T + A, VectorCost);
  Row.Reps = A;
  Row.Stride = B[T + 1].Offset - B[T].Offset;
  if (Rows == 1)
    return Row;
  Plan P = Plan::make(PlanKind::Repeat, T, T + A * Rows, Row.Cost + VectorCost);
  P.Reps = Rows;
  P.Stride = B[T + A].Offset - B[T].Offset;
  if (P.Stride == extentOf(T, T + A)) {
    P.Kind = PlanKind::Contig;
    P.Cost = Row.Cost + ContiguousCost;
  }
  P.Children.push_back(std::move(Row));
  return P;
}

Plan LargePlanner::repetition(size_t I, size_t M, size_t Q) {
  Plan P;
  P.Begin = I;
  P.End = I + M;
  P.Reps = M / Q;
  P.Stride = B[I + Q].Offset - B[I].Offset; // checked by matchedAfter
  if (Q == 1) {
    P.Kind = PlanKind::Arith;
    P.Cost = VectorCost;
    return P;
  }
  Plan Chunk = plan(I, I + Q, /*NeedsPlacement=*/false);
  if (Chunk.Kind != PlanKind::Struct && P.Stride == extentOf(I, I + Q)) {
    P.Kind = PlanKind::Contig;
    P.Cost = Chunk.Cost + ContiguousCost;
  } else if (Chunk.Kind == PlanKind::Contig) {
    P.Kind = PlanKind::VectorBl;
    P.BlockLen = Chunk.Reps;
    P.Cost = Chunk.Children.front().Cost + VectorCost;
    P.Children.push_back(std::move(Chunk.Children.front()));
    return P;
  } else {
    P.Kind = PlanKind::Repeat;
    P.Cost = Chunk.Cost + VectorCost;
  }
  P.Children.push_back(std::move(Chunk));
  return P;
}

bool LargePlanner::budgetHolds(std::span<const Cut> Cuts) const {
  // The budget compares predicted costs with the given description's, but
  // the caller canonicalizes what is built. Two rewrites can make a struct
  // of pieces cheaper than its plan: struct-to-hindexed, when every piece
  // is the same tree (copies of one chunk at arbitrary translations, which
  // the pieces do not plan), and merged copies of a chunk whose struct
  // extent was padded beyond its span (a pair type, or blocks off the
  // element grid). Lists of one basic type on its grid, in pieces that
  // are not all alike, have neither.
  PredefinedId Basic = B[Cuts.front().From].Basic;
  int64_t Size = elementSize(Basic);
  if (!getPredefinedInfo(Basic).isBasic())
    return false;
  for (size_t T = Cuts.front().From; T < Cuts.back().To; ++T)
    if (B[T].Basic != Basic ||
        (B[T].Offset - B[Cuts.front().From].Offset) % Size)
      return false;
  auto Alike = [&](const Cut &X, const Cut &Y) {
    if (X.To - X.From != Y.To - Y.From)
      return false;
    for (size_t K = 0; K < X.To - X.From; ++K)
      if (!B[X.From + K].sameShape(B[Y.From + K]) ||
          B[X.From + K].Offset - B[X.From].Offset !=
              B[Y.From + K].Offset - B[Y.From].Offset)
        return false;
    return true;
  };
  // Single blocks are struct entries of the basic type itself, whatever
  // their length.
  auto Same = [&](const Cut &X) {
    size_t Len = X.To - X.From, Len0 = Cuts.front().To - Cuts.front().From;
    return (Len == 1 && Len0 == 1) || Alike(X, Cuts.front());
  };
  return !std::all_of(Cuts.begin(), Cuts.end(), Same);
}

Plan LargePlanner::pieces(size_t I, size_t J, uint64_t Budget) {
  // Greedy maximal lattice prefixes: a row of A equal blocks at one stride,
  // then as many whole copies of that row as follow at one translation.
  std::vector<Cut> Cuts;
  for (size_t T = I; T < J;) {
    size_t A = 1 + matchedAfter(T, 1, J);
    size_t Rows = 1 + matchedAfter(T, A, J) / A;
    size_t End = T + A * Rows;
    bool Short = End - T < MinRegularPiece;
    if (Short && !Cuts.empty() && Cuts.back().Merged)
      Cuts.back().To = End;
    else if (Short)
      Cuts.push_back({T, End, true});
    else
      Cuts.push_back({T, End, false, A, Rows});
    T = End;
  }

  // One index list over everything wins ties. A sorted random list is cut
  // into stretches of a hundred blocks or so, each worth a DP run, and
  // when its blocks are all alike the struct loses to that list: if a
  // lower bound on the struct's cost already reaches the list's, skip the
  // pieces. Each piece's term is at most its plan's cost (exact for
  // leaves and lattices, the DP's bound for the stretches it plans, 0 for
  // longer pieces), so the returned plan is the same. A bound above the
  // caller's budget skips them too: the struct would lose to the given
  // description, and so does the list -- where canonicalization cannot
  // make the built struct cheaper than its plan (budgetHolds).
  auto IsStretch = [&](const Cut &C) {
    size_t Len = C.To - C.From;
    return Len >= 2 && Len <= L.DPBlocks && (C.Merged || C.A < 2);
  };
  auto PlanPiece = [&](const Cut &C) {
    size_t Len = C.To - C.From;
    // A long irregular stretch would be cut the same way again: list it.
    return Len == 1 ? Plan::make(PlanKind::Single, C.From, C.To)
           : C.Merged && Len > L.DPBlocks ? leaf(C.From, C.To)
           : !C.Merged && C.A >= 2 && Len <= L.DPBlocks
               ? lattice(C.From, C.A, C.Rows)
               : plan(C.From, C.To, false);
  };
  std::vector<Plan> Pieces(Cuts.size());
  std::vector<char> Planned(Cuts.size(), 0);
  Plan Whole = leaf(I, J);
  if (Whole.Kind != PlanKind::Struct) {
    if (Budget != UINT64_MAX && !budgetHolds(Cuts))
      Budget = UINT64_MAX;
    uint64_t Bound = StructBaseCost;
    auto Hopeless = [&] { return Bound >= Whole.Cost || Bound > Budget; };
    std::vector<uint64_t> Lower(Cuts.size(), 0);
    for (size_t K = 0; K < Cuts.size() && !Hopeless(); ++K) {
      const Cut &C = Cuts[K];
      if (C.To - C.From > 1)
        Lower[K] = IsStretch(C)
                       ? segmentDPLowerBound(B.subspan(C.From, C.To - C.From))
                   : C.Merged ? leaf(C.From, C.To).Cost
                   : C.A >= 2 && C.To - C.From <= L.DPBlocks
                       ? lattice(C.From, C.A, C.Rows).Cost
                       : 0;
      Bound += StructEntryCost + Lower[K];
    }
    // Where the bounds fall short, plan the stretches until the pieces
    // cannot win or all are planned (the plans are kept): first those with
    // the most room between their bound and their own index list (which
    // the program's plan never exceeds) per unit of the program's work,
    // quadratic in the length. On a clustered list of 10^6 blocks that
    // plans 28% of the work before the bound passes the budget; longest
    // first planned 64%.
    if (!Hopeless()) {
      std::vector<size_t> Order;
      std::vector<double> Room(Cuts.size(), 0);
      for (size_t K = 0; K < Cuts.size(); ++K) {
        const Cut &C = Cuts[K];
        if (!IsStretch(C))
          continue;
        Order.push_back(K);
        uint64_t Upper = leaf(C.From, C.To).Cost;
        double Len = double(C.To - C.From);
        Room[K] = double(Upper - std::min(Upper, Lower[K])) / (Len * Len);
      }
      std::stable_sort(Order.begin(), Order.end(),
                       [&](size_t X, size_t Y) { return Room[X] > Room[Y]; });
      for (size_t K : Order) {
        if (Hopeless())
          break;
        Pieces[K] = PlanPiece(Cuts[K]);
        Planned[K] = 1;
        assert(Pieces[K].Cost >= Lower[K] && "segmentDPLowerBound is wrong");
        Bound += Pieces[K].Cost - Lower[K];
      }
    }
    if (Hopeless()) {
      OverBudget = Bound > Budget && Whole.Cost > Budget;
      return Whole;
    }
  }

  Plan S;
  S.Kind = PlanKind::Struct;
  S.Begin = I;
  S.End = J;
  S.Cost = StructBaseCost;
  for (size_t K = 0; K < Cuts.size(); ++K) {
    const Cut &C = Cuts[K];
    Plan Piece = Planned[K] ? std::move(Pieces[K]) : PlanPiece(C);
    S.Cost += StructEntryCost + (C.To - C.From == 1 ? 0 : Piece.Cost);
    S.Children.push_back(std::move(Piece));
  }
  if (Whole.Kind != PlanKind::Struct && Whole.Cost <= S.Cost)
    return Whole;
  return S;
}

Plan LargePlanner::plan(size_t I, size_t J, bool NeedsPlacement,
                        uint64_t Budget) {
  size_t M = J - I;
  if (M <= L.DPBlocks) {
    Plan P =
        std::move(planSegmentDP(B.subspan(I, M), L, NeedsPlacement).front());
    shiftIndices(P, I);
    return P;
  }
  for (size_t Q : divisorsAscending(M))
    if (Q < M && matchedAfter(I, Q, J) == M - Q)
      return repetition(I, M, Q);
  return pieces(I, J, Budget);
}

} // namespace

std::vector<Plan> planBlocks(std::span<const Block> Blocks,
                             const PlannerLimits &L, uint64_t Budget) {
  bool NeedsPlacement = Blocks.front().Offset != 0;
  if (Blocks.size() <= L.DPBlocks)
    return planSegmentDP(Blocks, L, NeedsPlacement);
  assert(Blocks.front().Basic != OpaqueElement && "the DP's alone");
  LargePlanner Planner(Blocks, L);
  Plan P = Planner.plan(0, Blocks.size(), NeedsPlacement, Budget);
  std::vector<Plan> One;
  if (!Planner.overBudget())
    One.push_back(std::move(P));
  return One;
}

} // namespace ddtc::recon

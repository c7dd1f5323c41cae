//===- lib/Passes/SegmentDP.cpp - Cheapest tree for a block sequence ------===//
//
// The dynamic program of Ganian, Kalany, Szeider and Traeff (IPDPS 2016):
// the cheapest description of every consecutive segment of the block
// sequence, built from the cheapest descriptions of shorter segments.
//
//   single      one block: its basic type, or contiguous(count, basic)
//   arith       m equal blocks at one stride: one vector
//   repeat      r copies of segment [i, i+q) translated by a constant:
//               hvector(r, 1, stride, chunk) -- or contiguous(r, chunk)
//               when the copies sit at the chunk's extent, or
//               vector(r, b, stride, sub) when the chunk is itself b
//               back-to-back copies of a sub-segment
//   index chunk r copies of a chunk at arbitrary translations:
//               hindexed_block(b, displacements, chunk or sub)
//   indexed chunk  the same, in runs of back-to-back copies of varying
//               length: hindexed(run lengths, displacements, chunk)
//   leaves      hindexed_block / hindexed over the blocks
//   struct      consecutive pieces, a shortest path over cut points
//
// Repetition is tested in O(1): for every period q, Period[q][t] counts the
// positions from t on where block t+q has block t's shape and lies at the
// same distance as at t. Segment [i, i+r*q) is r translated copies of its
// first q blocks exactly when Period[q][i] >= (r-1)*q; Chain[q][i] counts
// the copies of [i, i+q) that follow each other, each a translate of the
// one before at any distance; Breaks[q][t] counts the copies along that
// chain that do not start where the previous one ends (its extent). Struct
// nodes inside the table span at most StructWindow blocks; the top level may
// cut anywhere. Time O(n^2 (d(n)^2 + window)), memory O(n^2).
//
//===----------------------------------------------------------------------===//
#include "BlockPlan.h"

#include <algorithm>
#include <cassert>
#include <deque>
#include <limits>
#include <optional>

namespace ddtc::recon {

int64_t elementSize(PredefinedId Basic) {
  // The extent: copies of a pair type sit that far apart (for a basic
  // type it is the size).
  return getPredefinedInfo(Basic).Extent;
}

bool Plan::isShiftable() const {
  switch (Kind) {
  case PlanKind::IndexChunk:
  case PlanKind::IndexedChunk:
  case PlanKind::IndexBlock:
  case PlanKind::Indexed:
  case PlanKind::Struct:
    return true;
  case PlanKind::Repeat:
  case PlanKind::Contig:
  case PlanKind::VectorBl:
    return Children.front().isShiftable();
  case PlanKind::Single:
  case PlanKind::Arith:
    return false;
  }
  return false;
}

namespace {

constexpr uint32_t Inf = std::numeric_limits<uint32_t>::max();

uint32_t plus(uint32_t A, uint32_t B) {
  uint64_t S = uint64_t(A) + B;
  return A == Inf || B == Inf || S >= Inf ? Inf : uint32_t(S);
}

/// The index-list costs of BlockPlan.h in the table's width (M < 2^16).
uint32_t indexBlockCost32(size_t M) { return uint32_t(indexBlockCost(M)); }
uint32_t indexedCost32(size_t M) { return uint32_t(indexedCost(M)); }

struct Cell {
  uint32_t Cost = Inf;
  PlanKind Kind = PlanKind::Single;
  uint16_t P =
      0; ///< repeat, contig: chunk length; vector_bl: chunk; struct: cut - i
  uint16_t Q = 0; ///< vector_bl, index_chunk: sub-chunk length (0: none)
};

class SegmentDP {
public:
  SegmentDP(std::span<const Block> Blocks, const PlannerLimits &L)
      : B(Blocks), N(Blocks.size()), W(L.StructWindow), Limits(L) {
    assert(N >= 1 && N <= std::numeric_limits<uint16_t>::max());
  }

  /// The best plans for the whole sequence, cheapest predicted first: the
  /// table's, one leaf, and the best top-level struct. The caller builds
  /// them and compares real costs (struct padding can add a resized).
  std::vector<Plan> solve(bool NeedsPlacement);

private:
  size_t index(size_t I, size_t J) const {
    return I * (2 * N - I + 1) / 2 + (J - I - 1);
  }
  const Cell &cell(size_t I, size_t J) const { return Table[index(I, J)]; }
  /// Cost of [I, J) as a struct piece: a single block costs nothing beyond
  /// its entry (the entry's blocklength counts the elements).
  uint32_t pieceCost(size_t I, size_t J) const {
    return J - I == 1 ? 0 : cell(I, J).Cost;
  }
  /// Blocks after I in the arithmetic run that starts at I.
  size_t Period1(size_t I) const {
    return I + 1 < N ? std::min<size_t>(Period[1][I], N - 1 - I) : 0;
  }
  int64_t translation(size_t I, size_t Q) const {
    return B[I + Q].Offset - B[I].Offset;
  }

  void computePeriods();
  void computeBreaks();
  /// Copies among the R-1 steps of the chain of [I, I+Q) that are not
  /// back to back.
  size_t breaksIn(size_t I, size_t Q, size_t R) const {
    size_t Last = I + (R - 1) * Q;
    return Breaks[Q][I] - (Last < N - Q ? Breaks[Q][Last] : 0);
  }
  void computeRuns();
  void computeDivisors();
  void fillTable();
  Cell bestFor(size_t I, size_t J, const std::vector<int64_t> &RowExt);
  void topLevelStruct(uint32_t &Cost, std::vector<uint16_t> &Cut);

  Plan extract(size_t I, size_t J) const;
  Plan extractPieces(size_t I, size_t J, size_t LastCut,
                     const auto &CutOf) const;

  std::span<const Block> B;
  size_t N, W;
  const PlannerLimits &Limits;
  Cell *Table = nullptr;
  std::vector<std::vector<uint32_t>> Period, Chain, Breaks;
  std::vector<uint32_t> SameShape, SameBasic;
  /// Ends[t]: the byte just past block t.
  std::vector<int64_t> Ends;
  /// The chunk lengths Q >= 2, longest first, of which at least two copies
  /// follow each other from the row's block I (Chain[Q][I] >= 2): the only
  /// ones bestFor can repeat, usually none in an irregular list.
  std::vector<uint32_t> RowChain;
  /// RunBefore[j]: blocks of the arithmetic run (equal blocks, one stride)
  /// that ends just before block j.
  std::vector<uint32_t> RunBefore;
  std::vector<std::vector<uint32_t>> Divisors;
  /// Best partition of [i, i+k) into struct pieces, k <= W: its cost (the
  /// entries, without the struct's own 1) and the start of its last piece.
  std::vector<uint32_t> PartCost;
  std::vector<uint16_t> PartCut;
};

void SegmentDP::computePeriods() {
  Ends.resize(N);
  for (size_t U = 0; U < N; ++U)
    Ends[U] = B[U].Offset + B[U].Count * Limits.sizeOf(B[U].Basic);
  Period.resize(N / 2 + 1);
  for (size_t Q = 1; Q <= N / 2; ++Q) {
    std::vector<uint32_t> &R = Period[Q];
    R.assign(N - Q, 0);
    int64_t NextD = 0;
    for (size_t T = N - Q; T-- > 0;) {
      int64_t D;
      bool Ok = B[T].sameShape(B[T + Q]) &&
                !__builtin_sub_overflow(B[T + Q].Offset, B[T].Offset, &D);
      if (!Ok) {
        R[T] = 0;
        continue;
      }
      R[T] = T + 1 < N - Q && R[T + 1] && NextD == D ? R[T + 1] + 1 : 1;
      NextD = D;
    }
  }
  Chain.resize(N / 2 + 1);
  for (size_t Q = 1; Q <= N / 2; ++Q) {
    std::vector<uint32_t> &C = Chain[Q];
    C.assign(N - Q + 1, 1);
    for (size_t T = N - Q + 1; T-- > 0;)
      if (T + 2 * Q <= N && Period[Q][T] >= Q)
        C[T] = C[T + Q] + 1;
  }
  computeBreaks();
}

void SegmentDP::computeBreaks() {
  Breaks.resize(N / 2 + 1);
  std::vector<int64_t> Ext(N);
  for (size_t Q = 1; Q <= N / 2; ++Q) {
    // Only chains of copies read Breaks[Q] (breaksIn); an irregular list
    // has none at most lengths.
    if (std::all_of(Chain[Q].begin(), Chain[Q].end(),
                    [](uint32_t C) { return C < 2; }))
      continue;
    // The natural extent of every window [t, t+Q): a sliding minimum of
    // offsets and maximum of ends (monotonic queues), O(N) per Q.
    std::deque<size_t> Lo, Hi;
    for (size_t U = 0; U < N; ++U) {
      while (!Lo.empty() && B[Lo.back()].Offset >= B[U].Offset)
        Lo.pop_back();
      Lo.push_back(U);
      while (!Hi.empty() && Ends[Hi.back()] <= Ends[U])
        Hi.pop_back();
      Hi.push_back(U);
      if (U + 1 < Q)
        continue;
      size_t T = U + 1 - Q;
      while (Lo.front() < T)
        Lo.pop_front();
      while (Hi.front() < T)
        Hi.pop_front();
      int64_t E;
      Ext[T] =
          __builtin_sub_overflow(Ends[Hi.front()], B[Lo.front()].Offset, &E)
              ? -1
              : E;
    }
    std::vector<uint32_t> &S = Breaks[Q];
    S.assign(N - Q, 0);
    for (size_t T = N - Q; T-- > 0;) {
      int64_t D;
      bool BackToBack =
          !__builtin_sub_overflow(B[T + Q].Offset, B[T].Offset, &D) &&
          D == Ext[T];
      S[T] = (BackToBack ? 0 : 1) + (T + Q < N - Q ? S[T + Q] : 0);
    }
  }
}

void SegmentDP::computeRuns() {
  RunBefore.assign(N + 1, 0);
  for (size_t J = 1; J <= N; ++J) {
    // Block J-1 extends the run ending at J-1 if it repeats block J-2 at
    // the stride of that run.
    size_t T = J - 1;
    if (T == 0)
      RunBefore[J] = 1;
    else if (RunBefore[J - 1] == 1)
      RunBefore[J] = Period[1][T - 1] ? 2 : 1;
    else
      RunBefore[J] =
          Period[1][T - 1] && Period[1][T - 2] >= 2 ? RunBefore[J - 1] + 1 : 1;
  }
  SameShape.assign(N + 1, 0);
  SameBasic.assign(N + 1, 0);
  for (size_t T = N; T-- > 0;) {
    bool More = T + 1 < N;
    SameShape[T] = More && B[T + 1].sameShape(B[T]) ? SameShape[T + 1] + 1 : 1;
    SameBasic[T] =
        More && B[T + 1].Basic == B[T].Basic ? SameBasic[T + 1] + 1 : 1;
  }
}

void SegmentDP::computeDivisors() {
  // Divisors[m]: the r in [2, m/2] dividing m (copies of a chunk of m/r >= 2).
  Divisors.assign(N + 1, {});
  for (uint32_t R = 2; R <= N / 2; ++R)
    for (size_t M = 2 * R; M <= N; M += R)
      Divisors[M].push_back(R);
}

Cell SegmentDP::bestFor(size_t I, size_t J,
                        const std::vector<int64_t> &RowExt) {
  size_t M = J - I;
  Cell Best;
  // Candidates are tried in a fixed order and only a strictly cheaper one
  // replaces the current best: ties go to the earlier, simpler constructor,
  // which makes the normal form a function of the typemap alone.
  auto Consider = [&](PlanKind K, uint32_t Cost, size_t P = 0, size_t Q = 0) {
    if (Cost < Best.Cost)
      Best = {Cost, K, uint16_t(P), uint16_t(Q)};
  };

  if (M == 1) {
    Consider(PlanKind::Single, B[I].Count == 1 ? 0 : ContiguousCost);
    return Best;
  }
  if (Period[1][I] >= M - 1) {
    // Copies of one block at one stride: a vector, whose own cost is the
    // least any plan of two or more blocks has (every other constructor
    // costs more or holds a vector), so nothing below can be strictly
    // cheaper. Returning here keeps long arithmetic progressions -- a
    // column of 2,048 rows, every such cell of its table -- from trying
    // every repetition of every divisor (1 s for vector(2048, 1, 3,
    // MPI_INT)).
    Consider(PlanKind::Arith, VectorCost);
    return Best;
  }

  // R copies of a chunk of Q blocks, R ascending: by Divisors[M], or by
  // the row's chain lengths when they are fewer (the same pairs, in the
  // same order).
  auto Repeats = [&](uint32_t R, size_t Q) {
    const Cell &Chunk = cell(I, I + Q);
    if (Chunk.Cost == Inf)
      return;
    // Regular: the copies also sit at one stride.
    bool Regular = Period[Q][I] >= (R - 1) * Q;
    int64_t Stride = translation(I, Q);
    if (Regular && Chunk.Kind != PlanKind::Struct && Stride == RowExt[Q])
      Consider(PlanKind::Contig, plus(Chunk.Cost, ContiguousCost), Q);
    if (Regular)
      Consider(PlanKind::Repeat, plus(Chunk.Cost, VectorCost), Q);
    Consider(PlanKind::IndexChunk, plus(Chunk.Cost, indexBlockCost32(R)), Q);
    // Runs of back-to-back copies of varying length: one hindexed entry
    // per run (needs the chunk's natural extent: no struct padding).
    if (Chunk.Kind != PlanKind::Struct)
      Consider(PlanKind::IndexedChunk,
               plus(Chunk.Cost, indexedCost32(1 + breaksIn(I, Q, R))), Q);
    // The chunk as b back-to-back copies of a sub-segment: the blocklength
    // describes them (vector(r, b, stride, sub), hindexed_block(b, ...)).
    // Sub-chunks one step apart with a gap between them (rows of 4 of 5
    // elements) are copies of the sub-chunk resized to the step, at the
    // price of the resized: the gap inside the chunk, not only at the top.
    for (uint32_t Bl : Divisors[Q]) {
      size_t P = Q / Bl;
      if (Period[P][I] < (Bl - 1) * P)
        continue;
      int64_t Step = translation(I, P);
      bool Gap = Step != RowExt[P];
      if (Gap && (Bl < 2 || Step <= RowExt[P]))
        continue;
      const Cell &Sub = cell(I, I + P);
      if (Sub.Cost == Inf || Sub.Kind == PlanKind::Struct)
        continue;
      uint32_t Element = plus(Sub.Cost, Gap ? ResizedCost : 0);
      if (Regular)
        Consider(PlanKind::VectorBl, plus(Element, VectorCost), Q, P);
      Consider(PlanKind::IndexChunk, plus(Element, indexBlockCost32(R)), Q, P);
    }
  };
  if (RowChain.size() < Divisors[M].size()) {
    for (uint32_t Q : RowChain)
      if (2 * Q <= M && M % Q == 0 && Chain[Q][I] >= M / Q)
        Repeats(uint32_t(M / Q), Q);
  } else {
    for (uint32_t R : Divisors[M])
      if (size_t Q = M / R; Chain[Q][I] >= R)
        Repeats(R, Q);
  }

  if (SameShape[I] >= M)
    Consider(PlanKind::IndexBlock, indexBlockCost32(M));
  else if (SameBasic[I] >= M)
    Consider(PlanKind::Indexed, indexedCost32(M));

  if (M <= W) {
    for (size_t T = I + 1; T < J; ++T) {
      uint32_t C = plus(plus(PartCost[I * (W + 1) + (T - I)], StructEntryCost),
                        pieceCost(T, J));
      Consider(PlanKind::Struct, plus(C, 1), T - I);
    }
  } else {
    // Longer segments: a struct of a regular run and the rest, the run
    // taken from either end (a vector plus remainder; the rest may be a
    // struct again).
    size_t Cuts[] = {I + 1 + Period1(I), J - std::min(M, size_t(RunBefore[J]))};
    for (size_t T : Cuts) {
      if (T <= I || T >= J)
        continue;
      uint32_t C = plus(
          plus(plus(pieceCost(I, T), pieceCost(T, J)), 2 * StructEntryCost), 1);
      Consider(PlanKind::Struct, C, T - I);
    }
  }
  return Best;
}

void SegmentDP::fillTable() {
  // Every cell is written before it is read (rows from the last block,
  // each from its shortest segment), so the storage is reused as it is:
  // allocating and clearing a table per stretch of a long list cost more
  // than filling it.
  static thread_local std::vector<Cell> Storage;
  if (Storage.size() < N * (N + 1) / 2)
    Storage.resize(N * (N + 1) / 2);
  Table = Storage.data();
  PartCost.assign(N * (W + 1), Inf);
  PartCut.assign(N * (W + 1), 0);
  std::vector<int64_t> RowExt(N + 1, 0);
  // Row by row from the last block: a segment needs shorter segments that
  // start at the same block (this row, already done) or later (done).
  for (size_t I = N; I-- > 0;) {
    RowChain.clear();
    for (size_t Q = std::min(N / 2, N - I); Q >= 2; --Q)
      if (Chain[Q][I] >= 2)
        RowChain.push_back(uint32_t(Q));
    int64_t MinOff = std::numeric_limits<int64_t>::max();
    int64_t MaxEnd = std::numeric_limits<int64_t>::min();
    for (size_t J = I + 1; J <= N; ++J) {
      MinOff = std::min(MinOff, B[J - 1].Offset);
      MaxEnd = std::max(MaxEnd, Ends[J - 1]);
      int64_t Ext;
      RowExt[J - I] = __builtin_sub_overflow(MaxEnd, MinOff, &Ext) ? -1 : Ext;
      Cell C = bestFor(I, J, RowExt);
      Table[index(I, J)] = C;
      size_t M = J - I;
      if (M <= W) {
        // Partition of [I, J) into pieces: one piece, or the struct's.
        uint32_t One = plus(StructEntryCost, pieceCost(I, J));
        uint32_t &PC = PartCost[I * (W + 1) + M];
        uint16_t &Cut = PartCut[I * (W + 1) + M];
        PC = One;
        Cut = 0;
        for (size_t T = I + 1; T < J; ++T) {
          uint32_t Split =
              plus(plus(PartCost[I * (W + 1) + (T - I)], StructEntryCost),
                   pieceCost(T, J));
          if (Split < PC) {
            PC = Split;
            Cut = uint16_t(T - I);
          }
        }
      }
    }
  }
}

void SegmentDP::topLevelStruct(uint32_t &Cost, std::vector<uint16_t> &Cut) {
  // Shortest path over cut points 0 = c0 < c1 < ... < ck = N, an edge
  // [a, b) costing one struct entry plus the piece's tree.
  std::vector<uint32_t> Dist(N + 1, Inf);
  Cut.assign(N + 1, 0);
  Dist[0] = 0;
  // Relaxed from each cut point in turn (Dist[T] is final once all
  // earlier points are done), along the table's rows; every Dist[J] still
  // sees its candidates by ascending T, the first of equal cost winning.
  for (size_t T = 0; T < N; ++T)
    for (size_t J = T + 1; J <= N; ++J) {
      uint32_t C = plus(plus(Dist[T], StructEntryCost), pieceCost(T, J));
      if (C < Dist[J]) {
        Dist[J] = C;
        Cut[J] = uint16_t(T);
      }
    }
  Cost = plus(Dist[N], StructBaseCost);
}

Plan SegmentDP::extract(size_t I, size_t J) const {
  const Cell &C = cell(I, J);
  Plan P;
  P.Kind = C.Kind;
  P.Begin = I;
  P.End = J;
  P.Cost = C.Cost;
  size_t M = J - I;
  switch (C.Kind) {
  case PlanKind::Single:
  case PlanKind::IndexBlock:
  case PlanKind::Indexed:
    break;
  case PlanKind::Arith:
    P.Reps = M;
    P.Stride = translation(I, 1);
    break;
  case PlanKind::Repeat:
  case PlanKind::Contig:
    P.Reps = M / C.P;
    P.Stride = translation(I, C.P);
    P.Children.push_back(extract(I, I + C.P));
    break;
  case PlanKind::VectorBl:
    P.Reps = M / C.P;
    P.BlockLen = C.P / C.Q;
    P.Stride = translation(I, C.P);
    P.SubStride = translation(I, C.Q);
    P.Children.push_back(extract(I, I + C.Q));
    break;
  case PlanKind::IndexChunk:
    P.Reps = M / C.P;
    P.ChunkLen = C.P;
    P.BlockLen = C.Q ? C.P / C.Q : 1;
    P.SubStride = C.Q && C.Q < C.P ? translation(I, C.Q) : 0;
    P.Children.push_back(extract(I, I + (C.Q ? C.Q : C.P)));
    break;
  case PlanKind::IndexedChunk:
    P.Reps = M / C.P;
    P.ChunkLen = C.P;
    P.Children.push_back(extract(I, I + C.P));
    break;
  case PlanKind::Struct:
    // Beyond the window a struct has two pieces: [I, I+P) and the rest.
    P = extractPieces(I, J, I + C.P, [&](size_t A, size_t Bnd) {
      return M > W ? A : A + PartCut[A * (W + 1) + (Bnd - A)];
    });
    P.Cost = C.Cost;
    break;
  }
  return P;
}

/// A struct plan over [I, J) whose last piece starts at LastCut; CutOf(I, T)
/// gives the start of the last piece of the best partition of [I, T).
Plan SegmentDP::extractPieces(size_t I, size_t J, size_t LastCut,
                              const auto &CutOf) const {
  Plan P;
  P.Kind = PlanKind::Struct;
  P.Begin = I;
  P.End = J;
  std::vector<std::pair<size_t, size_t>> Pieces{{LastCut, J}};
  for (size_t End = LastCut; End > I;) {
    size_t Start = CutOf(I, End);
    Pieces.push_back({Start, End});
    End = Start;
  }
  uint64_t Cost = StructBaseCost;
  for (auto It = Pieces.rbegin(); It != Pieces.rend(); ++It) {
    Plan Piece = It->second - It->first == 1
                     ? Plan::make(PlanKind::Single, It->first, It->second)
                     : extract(It->first, It->second);
    Cost += StructEntryCost + (Piece.size() == 1 ? 0 : Piece.Cost);
    P.Children.push_back(std::move(Piece));
  }
  P.Cost = Cost;
  return P;
}

std::vector<Plan> SegmentDP::solve(bool NeedsPlacement) {
  computePeriods();
  computeRuns();
  computeDivisors();
  fillTable();

  // The table's best, placed if it must be and cannot absorb the offset.
  std::vector<Plan> Candidates{extract(0, N)};
  auto IsRepetition = [](const Plan &P) {
    return (P.Kind == PlanKind::Repeat || P.Kind == PlanKind::Contig ||
            P.Kind == PlanKind::VectorBl) &&
           !P.Children.empty();
  };
  if (NeedsPlacement) {
    // Copies at one stride, which must be placed, are also copies at
    // translations, which take the offset: hindexed_block(b, [d0, d1, ...],
    // chunk) for (h)vector(r, b, stride, chunk) placed by
    // hindexed_block(1, [d], ...), cheaper for few copies. The table ties
    // the two without placement and keeps the vector. Where the chunk
    // takes the offset itself (an index list), the chunk at 0 can still
    // be cheaper (contiguous(4, X) against indexed_block(4, [d], X)): the
    // listed copies are offered either way.
    // So is every level of a chain of repetitions below the top: copies
    // at translations there make the levels above it shiftable too (two
    // back-to-back copies of a vector 150 bytes apart, the table's
    // hvector(2, 2, -150, vector(...)), as hindexed_block(2, [d0, d1],
    // vector(...)) under a vector of such pairs).
    size_t Depth = 0;
    for (const Plan *L = &Candidates.front(); IsRepetition(*L);
         L = &L->Children.front())
      ++Depth;
    for (size_t D = 0; D < Depth; ++D) {
      Plan Listed = Candidates.front();
      Plan *Level = &Listed;
      for (size_t K = 0; K < D; ++K)
        Level = &Level->Children.front();
      if (Level->Kind == PlanKind::Contig)
        continue; // back to back: placing it costs what listing does
      uint64_t Reps = Level->Reps;
      Level->BlockLen = Level->Kind == PlanKind::VectorBl ? Level->BlockLen : 1;
      Level->Kind = PlanKind::IndexChunk;
      Level->ChunkLen = Level->size() / Reps;
      Listed.Cost = Listed.Cost - VectorCost + indexBlockCost32(Reps);
      Candidates.push_back(std::move(Listed));
    }
  }
  if (NeedsPlacement && !Candidates.front().isShiftable()) {
    Candidates.front().Cost += PlacementCost;
    // The table keeps one plan per segment, chosen without placement: a
    // repeated chunk whose plan is a vector (blocks that descend, say)
    // ties with the chunk's index list, or beats it by less than the
    // placement, but only the list takes the offset for free. The same
    // repetitions of the list, unplaced (the chunk at the bottom of a
    // chain of repetitions: a repetition of a shiftable chunk is
    // shiftable).
    Plan Alt = Candidates.front();
    Plan *Chain = &Alt;
    while (IsRepetition(*Chain) && IsRepetition(Chain->Children.front()))
      Chain = &Chain->Children.front();
    if (IsRepetition(*Chain)) {
      Plan &Chunk = Chain->Children.front();
      size_t M = Chunk.size();
      std::optional<Plan> List;
      if (SameShape[Chunk.Begin] >= M)
        List = Plan::make(PlanKind::IndexBlock, Chunk.Begin, Chunk.End,
                          indexBlockCost32(M));
      else if (SameBasic[Chunk.Begin] >= M)
        List = Plan::make(PlanKind::Indexed, Chunk.Begin, Chunk.End,
                          indexedCost32(M));
      if (List && M >= 2) {
        Alt.Cost = Alt.Cost - PlacementCost - Chunk.Cost + List->Cost;
        Chunk = std::move(*List);
        Candidates.push_back(std::move(Alt));
      }
    }
  }

  // A leaf over everything takes the offset for free.
  if (SameShape[0] >= N || SameBasic[0] >= N) {
    bool Uniform = SameShape[0] >= N;
    Candidates.push_back(
        Plan::make(Uniform ? PlanKind::IndexBlock : PlanKind::Indexed, 0, N,
                   Uniform ? indexBlockCost32(N) : indexedCost32(N)));
  }

  // A struct of pieces cut anywhere (the table limits struct nodes to
  // short segments; at the top the cuts are free).
  if (N >= 2) {
    uint32_t StructCost;
    std::vector<uint16_t> Cut;
    topLevelStruct(StructCost, Cut);
    if (StructCost != Inf)
      Candidates.push_back(extractPieces(
          0, N, Cut[N], [&](size_t, size_t End) { return size_t(Cut[End]); }));
  }
  // Copies of a chunk that tile the type's extent are built as
  // contiguous(r, resized(chunk)) (buildBest in PlanBuilder.cpp), cheaper
  // than the hvector the table prices them as; two copies tie in the table
  // with one list over everything, which it may keep, and the tiled form
  // would never be built. So the copies of the shortest period over all
  // blocks are offered whatever the table chose (a period of one block is
  // an arithmetic run, which the table always offers).
  for (size_t Q = 2; Q <= N / 2; ++Q) {
    if (N % Q || Period[Q][0] < N - Q)
      continue;
    const Plan &Top = Candidates.front();
    if (cell(0, Q).Cost != Inf &&
        !(Top.Kind == PlanKind::Repeat && Top.Reps == N / Q)) {
      Plan P = Plan::make(PlanKind::Repeat, 0, N,
                          plus(cell(0, Q).Cost, VectorCost));
      P.Reps = N / Q;
      P.Stride = translation(0, Q);
      P.Children.push_back(extract(0, Q));
      if (NeedsPlacement && !P.isShiftable())
        P.Cost += PlacementCost;
      Candidates.push_back(std::move(P));
    }
    break;
  }
  std::stable_sort(
      Candidates.begin(), Candidates.end(),
      [](const Plan &A, const Plan &B) { return A.Cost < B.Cost; });
  return Candidates;
}

} // namespace

std::vector<Plan> planSegmentDP(std::span<const Block> Blocks,
                                const PlannerLimits &L, bool NeedsPlacement) {
  return SegmentDP(Blocks, L).solve(NeedsPlacement);
}

// The lower bound. Say position u (the step from block u to block u+1)
// matches at lag q when it repeats position u-q: blocks u and u+1 have the
// shapes of blocks u-q and u+1-q and lie the same distance apart. The
// saving of a plan over n blocks is n + 3 - its cost, n + 3 being the cost
// of an indexed_block over them (by getConstructorCost: hindexed_block(n)
// n + 3, hindexed(n) 2n + 2, struct of P entries 3P + 1, vector 5,
// contiguous 3; BlockPlan.h). Costs add up over the tree, a chunk counted once,
// so the saving is the sum of one term per node:
//
//   index_block leaf                   0
//   indexed leaf over m blocks         1 - m
//   struct of P >= 2 pieces            2 - 2 (single pieces) - 6 (others)
//   arith over m blocks                m - 2
//   repeat, r copies of q blocks       (r-1)q - 5
//   contig                             (r-1)q - 3
//   vector_bl, r copies of b subs of p (r-1)q - 1 + (b-1)p - 1 - 3
//   index_chunk, R copies of q blocks  (R-1)(q-1) - 4
//     made of b subs of p blocks       (R-1)(q-1) + (b-1)p - 1 - 3
//   indexed_chunk in k runs            (R-1)(q-1) + R - 2k - 3
//
// (q >= 2 and p >= 2: the table repeats chunks of at least two blocks.)
// Every positive term is paid for by matching positions the node's copies
// reproduce, after its first chunk (or first sub): an arith run over
// [a, a+m) by the m - 2 positions [a+1, a+m-1), all matching at lag 1; a
// repeat or contig of [a, a+rq) by the (r-1)q - 1 positions [a+q, a+rq-1),
// all matching at lag q; a vector_bl by those and by the (b-1)p - 1
// positions [a+p, a+q-1) matching at lag p inside the first chunk; an
// index_chunk by the q - 1 positions inside each copy after the first,
// matching at lag q, plus, with subs, the positions [a+p, a+q-1); an
// indexed_chunk by those inside copies and the at least R - 2k positions
// between two back-to-back copies that follow another such position.
// So a node's term is at most its arith run's length, or else the sum,
// over one or two "parts" -- positions matching at one lag q >= 2 -- of
// (part size - 1) for a first part and (part size - 2) for a second:
// a one-part node takes 2 to 4 from its part, a two-part node 3 from
// both. A node whose term is positive has a first part of at least 3
// positions (contig (r-1)q - 1 > 2; the others more; a two-part node's
// first part has at least q - 1 >= 3, its chunk being b >= 2 subs of
// p >= 2). Parts are runs of consecutive matching positions, but for
// the chunks at arbitrary translations, whose copies' insides (runs of at
// least q - 1) are one unmatched position apart. Call a chain at lag q a
// lone run, or runs each of at least q - 1 positions, one apart: every
// part lies within one chain. Nodes claim disjoint positions (a chunk's
// nodes lie in its first copy, struct pieces do not overlap), every part
// in a chain takes at least 1 from its size, and a chain of 1 or 2
// positions holds no first part, so it gives nothing. Hence
//
//   cost >= n + 3 - (positions matching at lag 1)
//               - sum over q in [2, n/2] and chains K at lag q, |K| >= 3,
//                 of (|K| - 1).
//
// Shape changes add to it. Say a position is matched when it matches at
// some lag in [1, n/2], and call a shape change (blocks u and u+1 differ
// in shape) free when it is not matched and, for no lag q >= 2, are the
// q - 1 positions after it all matched at lag q. Take the lowest node
// holding blocks u and u+1 of a free change. Not an index_block or arith
// leaf (their blocks share one shape); not a repetition node, where u
// would lie in a copy after the first (matched at lag q), or between two
// copies of q blocks or subs of p, where the q - 1 (p - 1) positions
// inside the next copy (sub) all match at lag q (p >= 2). So it is
// an indexed leaf, whose term charges each of its m - 1 inner positions
// 1, or a struct, whose term charges each of its P - 1 boundaries 2
// (2 - 2s - 6o <= 2 - 2P). Free changes are unmatched and claim no
// saving, so
//
//   cost >= n + 3 + (free shape changes) - (the savings above).
//
// In a random list matches at lag q >= 2 come alone (two within 2 steps at
// one lag are rare), so the bound is within a few units of the cheapest
// plan without repetition when its blocks share one shape, and a sorted
// list whose blocks sometimes touch (runs of two lengths) pays its shape
// changes.
uint64_t segmentDPLowerBound(std::span<const Block> Blocks) {
  size_t N = Blocks.size();
  assert(N >= 2);
  std::vector<int64_t> Gap(N - 1);
  for (size_t U = 0; U + 1 < N; ++U)
    if (__builtin_sub_overflow(Blocks[U + 1].Offset, Blocks[U].Offset, &Gap[U]))
      return 0; // an equal gap could not be told from an overflow
  auto Matches = [&](size_t U, size_t Q) {
    return Gap[U] == Gap[U - Q] && Blocks[U].sameShape(Blocks[U - Q]) &&
           Blocks[U + 1].sameShape(Blocks[U + 1 - Q]);
  };
  // Matched[u]: position u matches at some lag in [1, n/2]. Opens[u]: for
  // some lag q >= 2, the q - 1 positions after u all match at lag q (u may
  // end a copy of q blocks and the next copy begin).
  std::vector<char> Matched(N - 1, 0), Opens(N - 1, 0);
  uint64_t Saving = 0;
  for (size_t U = 1; U + 1 < N; ++U)
    if (Matches(U, 1)) {
      ++Saving;
      Matched[U] = 1;
    }
  for (size_t Q = 2; Q <= N / 2; ++Q) {
    // Runs of consecutive matches at lag Q, found from the top down, and
    // the chains they form (runs one position apart, all of at least
    // Q - 1 positions, or a lone run).
    size_t Chain = 0, Run = 0, Above = 0, AboveLen = 0;
    auto EndChain = [&] {
      if (Chain >= 3)
        Saving += Chain - 1;
      Chain = 0;
    };
    auto AddRun = [&](size_t Start, size_t Len) {
      if (!(Chain && Above == Start + Len + 1 && AboveLen >= Q - 1 &&
            Len >= Q - 1))
        EndChain();
      Chain += Len;
      Above = Start;
      AboveLen = Len;
    };
    for (size_t U = N - 1; U-- > 0;) {
      Opens[U] |= Run >= Q - 1; // Run: the matches from U + 1 on
      if (U >= Q && Matches(U, Q)) {
        Matched[U] = 1;
        ++Run;
      } else if (Run) {
        AddRun(U + 1, Run);
        Run = 0;
      }
    }
    EndChain();
  }
  // Free shape changes (the second part of the argument above).
  uint64_t Changes = 0;
  for (size_t U = 0; U + 1 < N; ++U)
    Changes += !Blocks[U].sameShape(Blocks[U + 1]) && !Matched[U] && !Opens[U];
  uint64_t Leaf = indexBlockCost(N) + Changes;
  return Saving >= Leaf ? 0 : Leaf - Saving;
}

} // namespace ddtc::recon

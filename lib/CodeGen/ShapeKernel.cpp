//===- lib/CodeGen/ShapeKernel.cpp - A pack plan run as data --------------===//
//
// The executor mirrors what PackEmitter.cpp prints for the same plan: a
// node's copy is its runs or its segments in order, a segment's element is
// one block (a dense child) or Reps instances of the child's node, and a
// byte range splits over the same structure (the emitted prelude's
// rangeOf/rangeOfTable/rangeRuns). Addresses are formed as the emitted code
// forms them, base pointer plus byte displacement, so that a struct of
// absolute addresses works from MPI_BOTTOM.
//
//===----------------------------------------------------------------------===//
#include "ddtc/CodeGen/ShapeKernel.h"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <unordered_map>

namespace ddtc {

namespace {

/// Moves N bytes between the typed buffer and the packed stream; N is a
/// constant in the specialized loops, which the compiler turns into
/// register moves.
template <bool Pack> inline void xfer(char *Typed, char *Packed, size_t N) {
  if (Pack)
    std::memcpy(Packed, Typed, N);
  else
    std::memcpy(Typed, Packed, N);
}

/// Hides a typed address from the vectorizer (the emitted prelude's
/// keepScalar, PlanOptions::ScalarMinStride): small moves far apart cannot
/// be loaded as vectors, and -O3 would build the vectors through the
/// stack.
inline void keepScalar(char *&E) {
#if defined(__GNUC__) || defined(__clang__)
  __asm__("" : "+r"(E));
#endif
}

/// The N of a loop whose elements, of a size no loop is compiled for,
/// are moved in 16-byte pieces (xferPieces).
constexpr size_t Pieces = ~size_t(0);

/// The sizes xferPieces moves. Below 128 bytes a memcpy call per block
/// costs more than the copy (blocks of 28 bytes: 9 GB/s by memcpy calls,
/// 31 GB/s in pieces); from 128 up glibc's memcpy, with its wider moves, is
/// faster than 16-byte pieces (blocks of 200 bytes: 36 against 26 GB/s).
constexpr size_t MinPieces = 9, MaxPieces = 127;

/// Moves N bytes, MinPieces <= N <= MaxPieces, in 8- or 16-byte moves of
/// constant size, the last one overlapping the one before where N is not
/// a multiple: a block of 28 bytes is two moves, not a call into memcpy,
/// as emitted code, with 28 a literal, moves it. The overlap writes the
/// same bytes twice, within the block.
template <bool Pack>
inline void xferPieces(char *Typed, char *Packed, size_t N) {
  char *To = Pack ? Packed : Typed;
  const char *From = Pack ? Typed : Packed;
  if (N < 16) {
    std::memcpy(To, From, 8);
    std::memcpy(To + N - 8, From + N - 8, 8);
    return;
  }
  for (size_t I = 0; I + 16 < N; I += 16)
    std::memcpy(To + I, From + I, 16);
  std::memcpy(To + N - 16, From + N - 16, 16);
}

using Seg = ShapeKernel::Seg;

/// The dense elements [K0, K1) of S, N bytes each (N == 0: the size read
/// from S, a memcpy call per element; N == Pieces: that size, moved by
/// xferPieces).
template <bool Pack, size_t N, bool Strided, bool Scalar>
char *denseLoop(const Seg &S, char *Base, char *P, uint64_t K0, uint64_t K1) {
  constexpr bool Sized = N != 0 && N != Pieces;
  const size_t Bytes = Sized ? N : static_cast<size_t>(S.Reps) * S.ChildSize;
  char *B = Base + S.ChildLb;
  if (Strided) {
    const int64_t Stride = S.Stride;
    char *E = B + (S.Disp0 + static_cast<int64_t>(K0) * Stride);
#pragma GCC unroll 8
    for (uint64_t K = K0; K < K1; ++K) {
      char *At = E;
      if (Scalar)
        keepScalar(At);
      if constexpr (N == Pieces)
        xferPieces<Pack>(At, P, Bytes);
      else
        xfer<Pack>(At, P, Bytes);
      P += Bytes;
      E += Stride;
    }
  } else {
    const int64_t *D = S.Disps;
    for (uint64_t K = K0; K < K1; ++K) {
      char *At = B + D[K];
      if (Scalar)
        keepScalar(At);
      if constexpr (N == Pieces)
        xferPieces<Pack>(At, P, Bytes);
      else
        xfer<Pack>(At, P, Bytes);
      P += Bytes;
    }
  }
  return P;
}

/// The element sizes with a loop of their own: the sizes of the basic
/// types and of short blocks of them, which are most of the small blocks
/// of real types. Below 128 bytes a memcpy call per element costs more
/// than the copy: NAS_LU_y's 40-byte and WRF_y_vec's 64-byte blocks packed
/// at 0.86x MPICH and 0.7x emitted code that way (docs/performance.md,
/// "The price of parameters"). The other sizes below 128 are moved in
/// pieces.
constexpr size_t SpecializedSizes[] = {1,  2,  4,  8,  12, 16,
                                       24, 32, 40, 48, 64, 128};

template <bool Pack, bool Strided, bool Scalar>
ShapeKernel::LoopFn pickLoop(uint64_t Bytes, bool &Specialized) {
  Specialized = true;
  switch (Bytes) {
  case 1:
    return &denseLoop<Pack, 1, Strided, Scalar>;
  case 2:
    return &denseLoop<Pack, 2, Strided, Scalar>;
  case 4:
    return &denseLoop<Pack, 4, Strided, Scalar>;
  case 8:
    return &denseLoop<Pack, 8, Strided, Scalar>;
  case 12:
    return &denseLoop<Pack, 12, Strided, Scalar>;
  case 16:
    return &denseLoop<Pack, 16, Strided, Scalar>;
  case 24:
    return &denseLoop<Pack, 24, Strided, Scalar>;
  case 32:
    return &denseLoop<Pack, 32, Strided, Scalar>;
  case 40:
    return &denseLoop<Pack, 40, Strided, Scalar>;
  case 48:
    return &denseLoop<Pack, 48, Strided, Scalar>;
  case 64:
    return &denseLoop<Pack, 64, Strided, Scalar>;
  case 128:
    return &denseLoop<Pack, 128, Strided, Scalar>;
  }
  static_assert(std::size(SpecializedSizes) == 12, "one case per size");
  if (Bytes >= MinPieces && Bytes <= MaxPieces)
    return &denseLoop<Pack, Pieces, Strided, Scalar>;
  Specialized = false;
  return &denseLoop<Pack, 0, Strided, Scalar>;
}

template <bool Pack>
ShapeKernel::LoopFn pickLoop(uint64_t Bytes, bool Strided, bool Scalar,
                             bool &Specialized) {
  if (Strided)
    return Scalar ? pickLoop<Pack, true, true>(Bytes, Specialized)
                  : pickLoop<Pack, true, false>(Bytes, Specialized);
  return Scalar ? pickLoop<Pack, false, true>(Bytes, Specialized)
                : pickLoop<Pack, false, false>(Bytes, Specialized);
}

/// The tile nest of a transpose, or of planes in flight (PackPlan's
/// Tiling; PackEmitter.cpp's printTileNest prints the same loops): columns
/// [CA, CB) in tiles of TileColumns x TileRows, each block N bytes (N == 0:
/// the size read from T). Column c's blocks are consecutive in the packed
/// stream, so a block's packed place follows from (c, r) and the order of
/// the copies does not show (planTiling made the blocks disjoint).
template <bool Pack, size_t N, bool Scalar>
char *tileNest(const Tiling &T, char *B, char *P, uint64_t CA, uint64_t CB) {
  const size_t Bytes = N ? N : static_cast<size_t>(T.BlockBytes);
  const uint64_t Rows = T.Rows;
  const int64_t RowStride = T.RowStride;
  const uint64_t ColumnBytes = Rows * Bytes;
  char *Origin = B + T.Offset;
  for (uint64_t C0 = CA; C0 < CB; C0 += T.TileColumns) {
    const uint64_t C1 = std::min<uint64_t>(C0 + T.TileColumns, CB);
    for (uint64_t R0 = 0; R0 < Rows; R0 += T.TileRows) {
      const uint64_t R1 = std::min<uint64_t>(R0 + T.TileRows, Rows);
      for (uint64_t C = C0; C < C1; ++C) {
        char *E = Origin + static_cast<int64_t>(C) * T.ColumnStride +
                  static_cast<int64_t>(R0) * RowStride;
        char *Q = P + (C - CA) * ColumnBytes + R0 * Bytes;
        // A column of a tile is a few rows: unrolled, its exit is not
        // mispredicted at every column.
#pragma GCC unroll 8
        for (uint64_t R = R0; R < R1; ++R) {
          char *At = E;
          if (Scalar)
            keepScalar(At);
          xfer<Pack>(At, Q, Bytes);
          E += RowStride;
          Q += Bytes;
        }
      }
    }
  }
  return P + (CB - CA) * ColumnBytes;
}

/// Planes in flight (a tile one row high): row r of TileColumns planes at
/// a time, one small block each, so that the planes' rows stream in
/// together; the nest above with its one-row loop taken out, which costs
/// more than the copy of a block of 8 bytes.
template <bool Pack, size_t N, bool Scalar>
char *planesNest(const Tiling &T, char *B, char *P, uint64_t CA, uint64_t CB) {
  const size_t Bytes = N ? N : static_cast<size_t>(T.BlockBytes);
  const uint64_t Rows = T.Rows;
  const int64_t RowStride = T.RowStride, ColumnStride = T.ColumnStride;
  const uint64_t ColumnBytes = Rows * Bytes;
  char *Origin = B + T.Offset;
  for (uint64_t C0 = CA; C0 < CB; C0 += T.TileColumns) {
    const uint64_t C1 = std::min<uint64_t>(C0 + T.TileColumns, CB);
    char *Row = Origin + static_cast<int64_t>(C0) * ColumnStride;
    char *Q0 = P + (C0 - CA) * ColumnBytes;
    for (uint64_t R = 0; R < Rows; ++R) {
      char *E = Row;
      char *Q = Q0;
      for (uint64_t C = C0; C < C1; ++C) {
        char *At = E;
        if (Scalar)
          keepScalar(At);
        xfer<Pack>(At, Q, Bytes);
        E += ColumnStride;
        Q += ColumnBytes;
      }
      Row += RowStride;
      Q0 += Bytes;
    }
  }
  return P + (CB - CA) * ColumnBytes;
}

template <bool Pack, bool Scalar, bool Planes>
ShapeKernel::TileFn pickTile(int64_t Bytes) {
#define DDTC_NEST(N)                                                           \
  (Planes ? &planesNest<Pack, N, Scalar> : &tileNest<Pack, N, Scalar>)
  switch (Bytes) {
  case 4:
    return DDTC_NEST(4);
  case 8:
    return DDTC_NEST(8);
  case 16:
    return DDTC_NEST(16);
  case 32:
    return DDTC_NEST(32);
  case 64:
    return DDTC_NEST(64);
  }
  return DDTC_NEST(0);
#undef DDTC_NEST
}

template <bool Pack> ShapeKernel::TileFn pickTile(const Tiling &T) {
  if (T.Planes && T.TileRows == 1)
    return T.Scalar ? pickTile<Pack, true, true>(T.BlockBytes)
                    : pickTile<Pack, false, true>(T.BlockBytes);
  return T.Scalar ? pickTile<Pack, true, false>(T.BlockBytes)
                  : pickTile<Pack, false, false>(T.BlockBytes);
}

/// Copies one run of Bytes (a constant where the node's runs share one).
template <bool Pack>
inline void copyRun(char *Typed, char *P, uint64_t Bytes, int64_t Common) {
  switch (Common) {
  case 4:
    return xfer<Pack>(Typed, P, 4);
  case 8:
    return xfer<Pack>(Typed, P, 8);
  case 16:
    return xfer<Pack>(Typed, P, 16);
  default:
    return xfer<Pack>(Typed, P, Bytes);
  }
}

} // namespace

void ShapeKernel::setLoops(Seg &S) {
  S.Loop[0] = S.Loop[1] = nullptr;
  if (!S.Dense || !S.Reps)
    return;
  bool Specialized = false;
  uint64_t Bytes = static_cast<uint64_t>(S.Reps) * S.ChildSize;
  // Small moves a line or four moves apart, or from a table: kept scalar,
  // as PlanOptions::ScalarMinStride keeps the emitted loops.
  uint64_t AbsStride = S.Stride < 0 ? 0 - static_cast<uint64_t>(S.Stride)
                                    : static_cast<uint64_t>(S.Stride);
  bool Scalar = Bytes <= 16 &&
                (!S.Strided || AbsStride >= std::min<uint64_t>(64, 4 * Bytes));
  S.Loop[1] = pickLoop<true>(Bytes, S.Strided, Scalar, Specialized);
  S.Loop[0] = pickLoop<false>(Bytes, S.Strided, Scalar, Specialized);
  SpecializedLoops += Specialized;
}

uint32_t ShapeKernel::addNode(const Kernel &K) {
  Node N;
  N.Size = static_cast<uint64_t>(K.size());
  switch (K.Shape) {
  case KernelShape::Empty:
    N.IsRuns = true;
    break;
  case KernelShape::Block:
  case KernelShape::Runs:
    N.IsRuns = true;
    N.First = static_cast<uint32_t>(Runs.size());
    N.Num = static_cast<uint32_t>(K.Runs.size());
    N.RunBytes = K.Runs.empty() ? 0 : K.Runs[0].Length;
    for (const ByteBlock &R : K.Runs) {
      Runs.push_back({R.Offset, static_cast<uint64_t>(R.Length)});
      if (R.Length != N.RunBytes)
        N.RunBytes = 0;
    }
    break;
  case KernelShape::Loops: {
    // The children first, so that this node's segments are consecutive.
    std::vector<uint32_t> Children;
    for (const Segment &S : K.Segments)
      Children.push_back(S.DenseChild ? 0 : addNode(*S.ChildKernel));
    N.First = static_cast<uint32_t>(Segs.size());
    N.Num = static_cast<uint32_t>(K.Segments.size());
    for (size_t I = 0; I < K.Segments.size(); ++I) {
      const Segment &S = K.Segments[I];
      Seg G;
      G.Count = S.Count;
      G.Strided = S.Strided;
      G.Disp0 = S.Disp0;
      G.Stride = S.Stride;
      if (!S.Strided) {
        Tables.push_back(std::make_unique<std::vector<int64_t>>(S.Disps));
        G.Disps = Tables.back()->data();
      }
      G.Reps = S.Reps;
      G.ChildSize = static_cast<uint64_t>(S.Child->size());
      if (!S.uniformReps()) {
        Tables.push_back(std::make_unique<std::vector<int64_t>>(S.RepsList));
        G.RepsList = Tables.back()->data();
        auto Starts = std::make_unique<std::vector<uint64_t>>();
        Starts->reserve(S.RepsList.size() + 1);
        Starts->push_back(0);
        for (int64_t R : S.RepsList)
          Starts->push_back(Starts->back() +
                            static_cast<uint64_t>(R) * G.ChildSize);
        G.Starts = Starts->data();
        StartTables.push_back(std::move(Starts));
      }
      G.Dense = S.DenseChild;
      G.ChildLb = S.Child->lb();
      G.ChildExtent = S.Child->extent();
      G.Child = Children[I];
      G.PackedStart = S.PackedStart;
      G.PackedSize = S.PackedSize;
      setLoops(G);
      Segs.push_back(G);
    }
    if (K.tiled()) {
      N.Tile = static_cast<int32_t>(Tiles.size());
      Tiles.push_back(
          {K.Tile, {pickTile<false>(K.Tile), pickTile<true>(K.Tile)}});
    }
    break;
  }
  }
  Nodes.push_back(N);
  return static_cast<uint32_t>(Nodes.size() - 1);
}

std::unique_ptr<ShapeKernel> ShapeKernel::build(const Type *T,
                                                const PlanOptions &Options) {
  assert(T->size() > 0 && "a type without data has nothing to pack");
  PackPlan Plan(Options);
  std::unique_ptr<ShapeKernel> SK(new ShapeKernel());
  SK->Size = static_cast<uint64_t>(T->size());
  SK->Extent = T->extent();
  const Kernel &K = Plan.getKernel(T);
  SK->Root = SK->addNode(K);
  // Instances of one block each: the message is a segment of dense
  // elements, one specialized loop over the instances.
  const Node &R = SK->Nodes[SK->Root];
  Seg &M = SK->Message;
  M.Strided = true;
  M.Stride = SK->Extent;
  M.Reps = 1;
  M.Child = SK->Root;
  M.ChildExtent = SK->Extent;
  if (R.IsRuns && R.Num == 1) {
    SK->MessageDense = true;
    M.Dense = true;
    M.ChildLb = SK->Runs[R.First].Offset;
    M.ChildSize = SK->Runs[R.First].Length;
    SK->setLoops(M);
  }
  return SK;
}

template <bool Pack>
char *ShapeKernel::copyNode(const Node &N, char *B, char *P) const {
  if (N.IsRuns) {
    for (uint32_t I = 0; I < N.Num; ++I) {
      const Run &R = Runs[N.First + I];
      copyRun<Pack>(B + R.Offset, P, R.Length, N.RunBytes);
      P += R.Length;
    }
    return P;
  }
  if (N.Tile >= 0) {
    const TileNest &T = Tiles[static_cast<size_t>(N.Tile)];
    return T.Copy[Pack](T.T, B, P, 0, T.T.Columns);
  }
  for (uint32_t I = 0; I < N.Num; ++I)
    P = copySeg<Pack>(Segs[N.First + I], B, P);
  return P;
}

template <bool Pack>
char *ShapeKernel::copySeg(const Seg &S, char *B, char *P) const {
  if (S.Loop[Pack])
    return S.Loop[Pack](S, B, P, 0, S.Count);
  if (S.Dense) {
    // Elements of different lengths: a block of Reps(k) children each.
    for (uint64_t K = 0; K < S.Count; ++K) {
      uint64_t Bytes = static_cast<uint64_t>(S.RepsList[K]) * S.ChildSize;
      xfer<Pack>(B + (S.dispAt(K) + S.ChildLb), P, Bytes);
      P += Bytes;
    }
    return P;
  }
  const Node &C = Nodes[S.Child];
  for (uint64_t K = 0; K < S.Count; ++K) {
    char *E = B + S.dispAt(K);
    for (int64_t R = 0, Reps = S.repsAt(K); R < Reps; ++R)
      P = copyNode<Pack>(C, E + R * S.ChildExtent, P);
  }
  return P;
}

template <bool Pack>
char *ShapeKernel::rangeNode(const Node &N, char *B, char *P, uint64_t Lo,
                             uint64_t Hi) const {
  if (Lo == 0 && Hi == N.Size)
    return copyNode<Pack>(N, B, P);
  if (N.IsRuns) {
    uint64_t At = 0;
    for (uint32_t I = 0; I < N.Num && At < Hi; ++I) {
      const Run &R = Runs[N.First + I];
      uint64_t A = Lo > At ? Lo - At : 0;
      uint64_t Z = std::min(Hi - At, R.Length);
      if (A < Z) {
        xfer<Pack>(B + (R.Offset + static_cast<int64_t>(A)), P, Z - A);
        P += Z - A;
      }
      At += R.Length;
    }
    return P;
  }
  if (N.Tile >= 0) {
    // The whole columns of the range by the tile nest (a piece of a
    // pipelined message is as fast as the whole), the partial ones at
    // either end in typemap order by the node's one segment.
    const TileNest &T = Tiles[static_cast<size_t>(N.Tile)];
    const Seg &S = Segs[N.First];
    uint64_t ColumnBytes = T.T.Rows * static_cast<uint64_t>(T.T.BlockBytes);
    uint64_t CA = (Lo + ColumnBytes - 1) / ColumnBytes, CB = Hi / ColumnBytes;
    if (CA >= CB)
      return rangeSeg<Pack>(S, B, P, Lo, Hi);
    if (Lo < CA * ColumnBytes)
      P = rangeSeg<Pack>(S, B, P, Lo, CA * ColumnBytes);
    P = T.Copy[Pack](T.T, B, P, CA, CB);
    if (CB * ColumnBytes < Hi)
      P = rangeSeg<Pack>(S, B, P, CB * ColumnBytes, Hi);
    return P;
  }
  for (uint32_t I = 0; I < N.Num; ++I) {
    const Seg &S = Segs[N.First + I];
    uint64_t Start = S.PackedStart, End = S.PackedStart + S.PackedSize;
    if (Lo >= End || Hi <= Start)
      continue;
    P = rangeSeg<Pack>(S, B, P, Lo > Start ? Lo - Start : 0,
                       std::min(Hi, End) - Start);
  }
  return P;
}

template <bool Pack>
char *ShapeKernel::rangeSeg(const Seg &S, char *B, char *P, uint64_t Lo,
                            uint64_t Hi) const {
  if (Lo == 0 && Hi == S.PackedSize)
    return copySeg<Pack>(S, B, P);
  // The element holding byte Lo.
  uint64_t K = 0;
  uint64_t ElementBytes =
      S.Reps ? static_cast<uint64_t>(S.Reps) * S.ChildSize : 0;
  if (ElementBytes)
    K = Lo / ElementBytes;
  else
    K = static_cast<uint64_t>(
            std::upper_bound(S.Starts, S.Starts + S.Count + 1, Lo) - S.Starts) -
        1;
  while (Lo < Hi) {
    uint64_t Start = S.elementStart(K);
    uint64_t End = ElementBytes ? Start + ElementBytes : S.Starts[K + 1];
    uint64_t A = Lo - Start, Z = std::min(Hi, End) - Start;
    if (A == 0 && Z == End - Start && S.Loop[Pack]) {
      // Whole elements from K on: the segment's own loop.
      uint64_t Whole = (Hi - Start) / ElementBytes;
      P = S.Loop[Pack](S, B, P, K, K + Whole);
      K += Whole;
      Lo = Start + Whole * ElementBytes;
      continue;
    }
    char *E = B + S.dispAt(K);
    if (S.Dense) {
      xfer<Pack>(E + (S.ChildLb + static_cast<int64_t>(A)), P, Z - A);
      P += Z - A;
    } else {
      // Copies R of the child hold bytes [R * size, (R + 1) * size).
      const Node &C = Nodes[S.Child];
      for (uint64_t R = A / S.ChildSize; R * S.ChildSize < Z; ++R) {
        uint64_t CA = R * S.ChildSize;
        P = rangeNode<Pack>(C, E + static_cast<int64_t>(R) * S.ChildExtent, P,
                            A > CA ? A - CA : 0, std::min(Z - CA, S.ChildSize));
      }
    }
    Lo = Start + Z;
    ++K;
  }
  return P;
}

template <bool Pack>
char *ShapeKernel::message(char *Typed, size_t Count, char *Packed) const {
  if (MessageDense)
    return Message.Loop[Pack](Message, Typed, Packed, 0, Count);
  const Node &R = Nodes[Root];
  for (size_t I = 0; I < Count; ++I)
    Packed =
        copyNode<Pack>(R, Typed + static_cast<int64_t>(I) * Extent, Packed);
  return Packed;
}

template <bool Pack>
size_t ShapeKernel::messageRange(char *Typed, size_t Count, size_t First,
                                 size_t Last, char *Packed) const {
  uint64_t Total = static_cast<uint64_t>(Count) * Size;
  Last = std::min<uint64_t>(Last, Total);
  if (First >= Last)
    return 0;
  char *P = Packed;
  uint64_t I = First / Size, Lo = First % Size;
  const Node &R = Nodes[Root];
  auto Instance = [&](uint64_t J) {
    return Typed + static_cast<int64_t>(J) * Extent;
  };
  if (Lo != 0 || Last - First < Size) {
    uint64_t Hi = std::min<uint64_t>(Size, Lo + (Last - First));
    P = rangeNode<Pack>(R, Instance(I), P, Lo, Hi);
    First += Hi - Lo;
    ++I;
  }
  uint64_t Whole = (Last - First) / Size;
  if (Whole) {
    if (MessageDense) {
      P = Message.Loop[Pack](Message, Typed, P, I, I + Whole);
    } else {
      for (uint64_t J = I; J < I + Whole; ++J)
        P = copyNode<Pack>(R, Instance(J), P);
    }
    I += Whole;
    First += Whole * Size;
  }
  if (First < Last)
    P = rangeNode<Pack>(R, Instance(I), P, 0, Last - First);
  return static_cast<size_t>(P - Packed);
}

namespace {
char *bytes(const void *P) {
  return const_cast<char *>(static_cast<const char *>(P));
}
} // namespace

void ShapeKernel::pack(const void *Typed, size_t Count, void *Packed) const {
  message<true>(bytes(Typed), Count, bytes(Packed));
}

void ShapeKernel::unpack(const void *Packed, size_t Count, void *Typed) const {
  message<false>(bytes(Typed), Count, bytes(Packed));
}

size_t ShapeKernel::packRange(const void *Typed, size_t Count, size_t First,
                              size_t Last, void *Packed) const {
  return messageRange<true>(bytes(Typed), Count, First, Last, bytes(Packed));
}

size_t ShapeKernel::unpackRange(const void *Packed, size_t Count, size_t First,
                                size_t Last, void *Typed) const {
  return messageRange<false>(bytes(Typed), Count, First, Last, bytes(Packed));
}

} // namespace ddtc

//===- unittests/CodeGen/ShapeKernelTest.cpp ------------------------------===//
//
// The executor of pack plans (ddtc/CodeGen/ShapeKernel.h) against the
// typemap walker, on random types and their normal forms, in both
// directions: pack must write the walker's bytes in its order; unpack must
// write what the walker's unpack writes and nothing else (the buffer around
// the typemap is checked too); pack_range and unpack_range, at random
// [first, last), must be the same slice of those. The oracle against MPICH
// is test/Runtime/rt-shape.test.
//
//===----------------------------------------------------------------------===//
#include "ddtc/CodeGen/ShapeKernel.h"
#include "ddtc/IR/TypeContext.h"
#include "ddtc/IR/TypemapWalker.h"
#include "ddtc/Passes/Normalizer.h"
#include "ddtc/Target/MPICHRules.h"
#include "ddtc/Testing/RandomType.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <vector>

using namespace ddtc;

namespace {

/// A typed buffer holding Count instances of T, with a margin on each side
/// that no copy may touch.
struct TypedBuffer {
  std::vector<unsigned char> Bytes;
  int64_t Origin = 0; ///< index of the instance's address 0 in Bytes
  static constexpr int64_t Margin = 64;

  TypedBuffer(const Type *T, uint64_t Count, std::mt19937_64 &Rng) {
    int64_t Lo = 0, Hi = 0;
    TypemapWalker W(T, Count, WalkMode::Bytes);
    for (TypemapRun R; W.next(R);) {
      Lo = std::min(Lo, R.Offset);
      Hi = std::max(Hi, R.Offset + R.Length);
    }
    Origin = Margin - Lo;
    Bytes.resize(static_cast<size_t>(Hi - Lo + 2 * Margin));
    for (size_t I = 0; I < Bytes.size(); I += 8) {
      uint64_t Word = Rng();
      std::memcpy(&Bytes[I], &Word, std::min<size_t>(8, Bytes.size() - I));
    }
  }
  char *base() { return reinterpret_cast<char *>(Bytes.data()) + Origin; }
};

/// The walker's copy of packed bytes [First, Last) between Typed and
/// Packed (which holds those bytes only).
void walkerCopy(const Type *T, uint64_t Count, char *Typed, char *Packed,
                uint64_t First, uint64_t Last, bool Pack) {
  TypemapWalker W(T, Count, WalkMode::Bytes);
  uint64_t At = 0;
  for (TypemapRun R; At < Last && W.next(R); At += R.Length) {
    uint64_t Len = static_cast<uint64_t>(R.Length);
    uint64_t A = First > At ? First - At : 0;
    uint64_t Z = std::min(Last - At, Len);
    if (A >= Z)
      continue;
    char *T = Typed + R.Offset + static_cast<int64_t>(A);
    char *P = Packed + (At + A - First);
    if (Pack)
      std::memcpy(P, T, Z - A);
    else
      std::memcpy(T, P, Z - A);
  }
}

/// Checks K against the walker for Count instances of T, with Ranges
/// random byte ranges.
void check(const ShapeKernel &K, const Type *T, uint64_t Count,
           std::mt19937_64 &Rng, unsigned Ranges) {
  SCOPED_TRACE("count " + std::to_string(Count));
  uint64_t Bytes = Count * static_cast<uint64_t>(T->size());
  TypedBuffer Typed(T, Count, Rng);

  std::vector<char> Want(Bytes + 1, 0x5a), Got(Bytes + 1, 0x5a);
  walkerCopy(T, Count, Typed.base(), Want.data(), 0, Bytes, true);
  K.pack(Typed.base(), Count, Got.data());
  ASSERT_EQ(Want, Got) << "pack";

  // Unpack fresh bytes over the typed buffer's old contents.
  std::vector<char> Fresh(Bytes);
  for (char &C : Fresh)
    C = static_cast<char>(Rng());
  TypedBuffer WantTyped = Typed, GotTyped = Typed;
  walkerCopy(T, Count, WantTyped.base(), Fresh.data(), 0, Bytes, false);
  K.unpack(Fresh.data(), Count, GotTyped.base());
  ASSERT_EQ(WantTyped.Bytes, GotTyped.Bytes) << "unpack";

  for (unsigned I = 0; I < Ranges && Bytes > 0; ++I) {
    uint64_t First = Rng() % (Bytes + 1), Last = Rng() % (Bytes + 1);
    if (First > Last)
      std::swap(First, Last);
    // Some ranges past the end: clipped.
    uint64_t Asked = I % 5 == 0 ? Last + 7 : Last;
    SCOPED_TRACE("range [" + std::to_string(First) + ", " +
                 std::to_string(Asked) + ")");
    std::vector<char> Piece(Asked - First + 1, 0x33);
    size_t N = K.packRange(Typed.base(), Count, First, Asked, Piece.data());
    uint64_t Expect = std::min(Asked, Bytes) - First;
    ASSERT_EQ(N, Expect);
    ASSERT_EQ(0, std::memcmp(Piece.data(), Want.data() + First, N));
    ASSERT_EQ(Piece[N], 0x33) << "pack_range wrote past its bytes";

    TypedBuffer W2 = Typed, G2 = Typed;
    walkerCopy(T, Count, W2.base(), Fresh.data() + First, First, First + N,
               false);
    ASSERT_EQ(
        K.unpackRange(Fresh.data() + First, Count, First, Asked, G2.base()), N);
    ASSERT_EQ(W2.Bytes, G2.Bytes) << "unpack_range";
  }
}

TEST(ShapeKernelTest, RandomTypesAndNormalFormsMatchTheWalker) {
  std::mt19937_64 Rng(20260047);
  RandomTypeOptions Options;
  Options.MaxCount = 12;
  unsigned Checked = 0;
  for (unsigned I = 0; I < 600; ++I) {
    TypeContext Ctx(getMPICHRules());
    const Type *T = randomType(Ctx, Rng, Options);
    if (T->size() == 0)
      continue;
    Normalizer N(Ctx);
    for (const Type *Form : {T, N.normalize(T)}) {
      SCOPED_TRACE("type " + std::to_string(I));
      std::unique_ptr<ShapeKernel> K = ShapeKernel::build(Form);
      ASSERT_EQ(K->size(), static_cast<uint64_t>(T->size()));
      ASSERT_EQ(K->extent(), T->extent());
      check(*K, Form, 1 + Rng() % 4, Rng, 8);
      if (HasFailure())
        return;
    }
    ++Checked;
  }
  EXPECT_GT(Checked, 400u);
}

TEST(ShapeKernelTest, TilesTransposesAndPlanes) {
  TypeContext Ctx(getMPICHRules());
  const Type *Double = Ctx.getPredefined(PredefinedId::Double);
  const Type *Int = Ctx.getPredefined(PredefinedId::Int);
  std::mt19937_64 Rng(3);
  // Tiles smaller than the transposes, so that the last tile of either
  // side is partial, and tiling from the first page on.
  PlanOptions Small;
  Small.TileMinPages = 1;
  Small.TileColumns = 3;
  Small.TileRows = 2;
  struct Case {
    const Type *T;
    const char *What;
  };
  // 512 x 512 doubles, column by column: a column of 512 rows a page apart.
  const Type *Column = *Ctx.getVector(512, 1, 512, Double);
  const Type *Big = *Ctx.getContiguous(512, *Ctx.getResized(0, 8, Column));
  // 7 columns of 5 blocks of 2 ints (16 bytes), rows 40 ints apart,
  // columns 3 ints apart: a transpose of blocks larger than a move, with
  // gaps between the columns.
  const Type *Pairs = *Ctx.getHVector(7, 1, 12, *Ctx.getVector(5, 2, 40, Int));
  // The same columns as blocks of 12 bytes (no specialized nest).
  const Type *Odd = *Ctx.getHVector(7, 1, 12, *Ctx.getVector(5, 3, 40, Int));
  for (Case C : {Case{Big, "512 x 512 doubles"}, Case{Pairs, "16-byte blocks"},
                 Case{Odd, "12-byte blocks"}}) {
    SCOPED_TRACE(C.What);
    for (const PlanOptions &O : {PlanOptions(), Small}) {
      std::unique_ptr<ShapeKernel> K = ShapeKernel::build(C.T, O);
      if (&O == &Small || C.T == Big) {
        EXPECT_EQ(K->tiledNodes(), 1u);
      }
      check(*K, C.T, 2, Rng, 48);
    }
  }
  // Planes in flight: 10 planes of 20 rows a page apart, 4 planes at a
  // time (the last two a partial group).
  const Type *Planes =
      *Ctx.getHVector(10, 1, 1 << 18, *Ctx.getVector(20, 1, 1024, Double));
  PlanOptions InFlight;
  InFlight.PlanesInFlight = 4;
  std::unique_ptr<ShapeKernel> K = ShapeKernel::build(Planes, InFlight);
  EXPECT_EQ(K->tiledNodes(), 1u);
  check(*K, Planes, 2, Rng, 48);
}

TEST(ShapeKernelTest, RandomTransposesInRandomTiles) {
  // Columns of rows of blocks, of random sizes, strides (either sign) and
  // gaps, and through a resized extent as normalization writes them;
  // tiled from the first page on in tiles of random size: the nest and the
  // ranges around it against the walker.
  std::mt19937_64 Rng(20261129);
  unsigned Tiled = 0;
  for (unsigned I = 0; I < 300; ++I) {
    SCOPED_TRACE("transpose " + std::to_string(I));
    TypeContext Ctx(getMPICHRules());
    const Type *Elem =
        Ctx.getPredefined(Rng() % 2 ? PredefinedId::Double : PredefinedId::Int);
    int64_t E = Elem->size();
    int64_t Block = 1 + static_cast<int64_t>(Rng() % 3);
    int64_t Rows = 2 + static_cast<int64_t>(Rng() % 30);
    int64_t Columns = 2 + static_cast<int64_t>(Rng() % 30);
    int64_t ColumnStride = (Block + static_cast<int64_t>(Rng() % 2)) * E;
    int64_t RowStride = (Columns - 1) * ColumnStride + Block * E +
                        static_cast<int64_t>(Rng() % 3) * E;
    if (Rng() % 3 == 0)
      RowStride = -RowStride;
    const Type *Column = *Ctx.getHVector(Rows, Block, RowStride, Elem);
    const Type *T =
        Rng() % 2 ? *Ctx.getHVector(Columns, 1, ColumnStride, Column)
                  : *Ctx.getContiguous(
                        Columns, *Ctx.getResized(0, ColumnStride, Column));
    PlanOptions O;
    O.TileMinPages = 1;
    O.TileColumns = 1 + static_cast<unsigned>(Rng() % 5);
    O.TileRows = 1 + static_cast<unsigned>(Rng() % 5);
    std::unique_ptr<ShapeKernel> K = ShapeKernel::build(T, O);
    Tiled += K->tiledNodes();
    check(*K, T, 1 + Rng() % 3, Rng, 16);
    if (HasFailure())
      return;
  }
  EXPECT_GT(Tiled, 100u);
}

TEST(ShapeKernelTest, SpecializesTheLoopsOfSmallDenseElements) {
  TypeContext Ctx(getMPICHRules());
  const Type *Int = Ctx.getPredefined(PredefinedId::Int);
  const Type *Double = Ctx.getPredefined(PredefinedId::Double);
  std::mt19937_64 Rng(1);
  // 100 ints 3 ints apart: one strided loop of 4-byte moves.
  const Type *V = *Ctx.getVector(100, 1, 3, Int);
  std::unique_ptr<ShapeKernel> K = ShapeKernel::build(V);
  EXPECT_EQ(K->loops(), 1u);
  EXPECT_EQ(K->specializedLoops(), 1u);
  check(*K, V, 3, Rng, 32);
  // Blocks of 5 doubles (40 bytes): specialized too.
  const Type *F = *Ctx.getVector(100, 5, 7, Double);
  K = ShapeKernel::build(F);
  EXPECT_EQ(K->specializedLoops(), 1u);
  check(*K, F, 2, Rng, 32);
  // Blocks of 7 ints (28 bytes), a size with no loop of its own: moved in
  // pieces of constant size, no memcpy call.
  const Type *W = *Ctx.getVector(100, 7, 9, Int);
  K = ShapeKernel::build(W);
  EXPECT_EQ(K->loops(), 1u);
  EXPECT_EQ(K->specializedLoops(), 1u);
  check(*K, W, 2, Rng, 32);
  // Blocks of 200 doubles (1,600 bytes): a memcpy per element.
  const Type *L = *Ctx.getVector(10, 200, 201, Double);
  K = ShapeKernel::build(L);
  EXPECT_EQ(K->specializedLoops(), 0u);
  check(*K, L, 2, Rng, 32);
}

// Every block size moved in pieces (9 to 127 bytes, those with loops of
// their own among them), 128, and the first beyond, strided and from a table,
// against the walker: the overlapping last piece writes nothing outside a
// block, in the packed stream or the typed buffer.
TEST(ShapeKernelTest, BlocksOfEverySizeMovedInPieces) {
  TypeContext Ctx(getMPICHRules());
  const Type *Char = Ctx.getPredefined(PredefinedId::Char);
  std::mt19937_64 Rng(92);
  for (int64_t B = 9; B <= 129; ++B) {
    SCOPED_TRACE("block of " + std::to_string(B) + " bytes");
    // Enough blocks for loops (a type of a few blocks is copied run by
    // run); the list's gaps vary, so it stays a table.
    const Type *V = *Ctx.getVector(40, B, B + 3, Char);
    std::vector<int64_t> Disps;
    for (int64_t K = 0; K < 40; ++K)
      Disps.push_back(K * (B + 3) + K * K % 3);
    const Type *I = *Ctx.getIndexedBlock(B, Disps, Char);
    for (const Type *T : {V, I}) {
      std::unique_ptr<ShapeKernel> K = ShapeKernel::build(T);
      EXPECT_EQ(K->specializedLoops(), B <= 128 ? 1u : 0u);
      check(*K, T, 2, Rng, 4);
      if (HasFailure())
        return;
    }
  }
}

TEST(ShapeKernelTest, IndexListsOfVaryingLengthsAndNestedChildren) {
  TypeContext Ctx(getMPICHRules());
  const Type *Int = Ctx.getPredefined(PredefinedId::Int);
  std::mt19937_64 Rng(2);
  // An indexed type with random lengths and displacements (a table of
  // lengths and one of displacements), each block a vector (a child that
  // is not dense), instances a resized extent apart.
  std::vector<int64_t> Lengths, Disps;
  for (int64_t I = 0, At = 0; I < 300; ++I) {
    Lengths.push_back(static_cast<int64_t>(Rng() % 4));
    Disps.push_back(At);
    At += Lengths.back() + static_cast<int64_t>(Rng() % 3);
  }
  const Type *Pair = *Ctx.getVector(2, 1, 2, Int);
  const Type *L = *Ctx.getIndexed(Lengths, Disps, Pair);
  for (const Type *T : {L, *Ctx.getIndexed(Lengths, Disps, Int)}) {
    std::unique_ptr<ShapeKernel> K = ShapeKernel::build(T);
    check(*K, T, 3, Rng, 64);
  }
}

} // namespace

//===- unittests/Passes/LayoutKeyTest.cpp ---------------------------------===//
//
// The key of generated kernels: equal for equivalent descriptions and for
// translations (the true lb then tells the offset), also of random types
// whose own description is cheaper than the normal form would be,
// different for types that are not equivalent, absent for types with
// nothing to pack.
//
//===----------------------------------------------------------------------===//
#include "ddtc/Passes/LayoutKey.h"
#include "ddtc/Target/MPICHRules.h"
#include "ddtc/Testing/RandomType.h"

#include <gtest/gtest.h>

#include <ostream>

using namespace ddtc;

// Readable failures: keys as `ddtc emit` prints them.
namespace ddtc {
void PrintTo(const Fingerprint &F, std::ostream *OS) { *OS << formatKey(F); }
void PrintTo(const LayoutKey &K, std::ostream *OS) {
  *OS << formatKey(K.Print) << " (true lb " << K.TrueLb << ")";
}
} // namespace ddtc

namespace {

const Type *ok(Expected<const Type *> T) {
  EXPECT_TRUE(static_cast<bool>(T)) << (T ? "" : T.takeError().message());
  return T ? *T : nullptr;
}

class LayoutKeyTest : public ::testing::Test {
protected:
  LayoutKey key(const Type *T) {
    std::optional<LayoutKey> K = computeLayoutKey(N, Ctx, T);
    EXPECT_TRUE(K.has_value());
    return K.value_or(LayoutKey{});
  }
  /// T moved by D bytes as a program using MPI_BOTTOM builds it: a struct
  /// of one member at an absolute address.
  const Type *moveByStruct(const Type *T, int64_t D) {
    int64_t One[] = {1}, Disp[] = {D};
    const Type *Types[] = {T};
    return ok(Ctx.getStruct(One, Disp, Types));
  }
  const Type *moveByHIndexed(const Type *T, int64_t D) {
    int64_t One[] = {1}, Disp[] = {D};
    return ok(Ctx.getHIndexed(One, Disp, T));
  }

  TypeContext Ctx{getMPICHRules()};
  Normalizer N{Ctx};
  const Type *Int = Ctx.getPredefined(PredefinedId::Int);
  const Type *Double = Ctx.getPredefined(PredefinedId::Double);
};

TEST_F(LayoutKeyTest, EquivalentDescriptionsShareTheKey) {
  // Four ints at a stride of two ints, five ways.
  LayoutKey V = key(ok(Ctx.getVector(4, 1, 2, Int)));
  int64_t Disps[] = {0, 2, 4, 6};
  EXPECT_EQ(V, key(ok(Ctx.getIndexedBlock(1, Disps, Int))));
  int64_t ByteDisps[] = {0, 8, 16, 24};
  EXPECT_EQ(V, key(ok(Ctx.getHIndexedBlock(1, ByteDisps, Int))));
  EXPECT_EQ(V, key(ok(Ctx.getHVector(4, 1, 8, ok(Ctx.getContiguous(1, Int))))));
  int64_t Ones[] = {1, 1, 1, 1};
  const Type *Ints[] = {Int, Int, Int, Int};
  EXPECT_EQ(V, key(ok(Ctx.getStruct(Ones, ByteDisps, Ints))));
  EXPECT_EQ(V.TrueLb, 0);

  // Blocks of two ints every five: a vector, an hvector of contiguous,
  // tiled contiguous pieces, an indexed.
  LayoutKey B = key(ok(Ctx.getVector(3, 2, 5, Int)));
  const Type *Tile = ok(Ctx.getResized(0, 20, ok(Ctx.getContiguous(2, Int))));
  EXPECT_EQ(B, key(ok(Ctx.getResized(0, 48, ok(Ctx.getContiguous(3, Tile))))));
  EXPECT_EQ(B,
            key(ok(Ctx.getHVector(3, 1, 20, ok(Ctx.getContiguous(2, Int))))));
  int64_t Two[] = {2, 2, 2}, At[] = {0, 5, 10};
  EXPECT_EQ(B, key(ok(Ctx.getIndexed(Two, At, Int))));
  EXPECT_NE(V.Print, B.Print);
}

TEST_F(LayoutKeyTest, TranslationsShareTheKey) {
  const Type *T = ok(Ctx.getVector(4, 1, 2, Int));
  LayoutKey K = key(T);
  for (int64_t D : {int64_t(1000000), int64_t(-1000000), int64_t(3)}) {
    for (const Type *Moved : {moveByStruct(T, D), moveByHIndexed(T, D)}) {
      LayoutKey M = key(Moved);
      EXPECT_EQ(M.Print, K.Print);
      EXPECT_EQ(M.TrueLb, K.TrueLb + D);
    }
  }
  // A struct of absolute addresses of two members and its relative form.
  int64_t Bl[] = {1, 2}, Rel[] = {0, 16}, Abs[] = {1000000, 1000016};
  const Type *Types[] = {Double, Int};
  LayoutKey R = key(ok(Ctx.getStruct(Bl, Rel, Types)));
  LayoutKey A = key(ok(Ctx.getStruct(Bl, Abs, Types)));
  EXPECT_EQ(R.Print, A.Print);
  EXPECT_EQ(A.TrueLb - R.TrueLb, 1000000);
  // A type whose data starts above its lb (resized), moved.
  const Type *Shifted = ok(Ctx.getResized(-8, 64, T));
  EXPECT_EQ(key(moveByStruct(Shifted, 4096)).Print, key(Shifted).Print);
}

TEST_F(LayoutKeyTest, NonEquivalentTypesDiffer) {
  const Type *T = ok(Ctx.getVector(4, 1, 2, Int));
  LayoutKey K = key(T);
  // Another extent, another basic type, another displacement.
  EXPECT_NE(K.Print, key(ok(Ctx.getResized(0, 64, T))).Print);
  EXPECT_NE(
      K.Print,
      key(ok(Ctx.getVector(4, 1, 2, Ctx.getPredefined(PredefinedId::Float))))
          .Print);
  int64_t Disps[] = {0, 2, 4, 7};
  EXPECT_NE(K.Print, key(ok(Ctx.getIndexedBlock(1, Disps, Int))).Print);
  // The lb relative to the data counts: resized moves the bounds, not the
  // data, so it is not a translation.
  EXPECT_NE(key(ok(Ctx.getResized(0, 32, T))).Print,
            key(ok(Ctx.getResized(-4, 32, T))).Print);
}

TEST_F(LayoutKeyTest, NoKeyWithoutData) {
  EXPECT_FALSE(computeLayoutKey(N, Ctx, ok(Ctx.getContiguous(0, Int))));
  int64_t None[] = {0};
  EXPECT_FALSE(computeLayoutKey(N, Ctx, ok(Ctx.getIndexed(None, None, Int))));
  EXPECT_FALSE(computeLayoutKey(
      N, Ctx, ok(Ctx.getResized(0, 16, ok(Ctx.getContiguous(0, Int))))));
}

TEST_F(LayoutKeyTest, NoKeyWhenTheTranslationOverflows) {
  // The data 20 bytes below 0, the ub near INT64_MAX: moving the data to 0
  // moves the ub past INT64_MAX.
  int64_t One[] = {1}, Below[] = {-20};
  const Type *Data = ok(Ctx.getHIndexed(One, Below, Int));
  const Type *Wide = ok(Ctx.getResized(-10, INT64_MAX, Data));
  EXPECT_FALSE(computeLayoutKey(N, Ctx, Wide));
  // A mere translation to INT64_MIN is peeled off rather than negated: the
  // key is its operand's.
  int64_t Min[] = {INT64_MIN};
  LayoutKey K = key(ok(Ctx.getHIndexed(One, Min, Int)));
  EXPECT_EQ(K.Print, key(Int).Print);
  EXPECT_EQ(K.TrueLb, INT64_MIN);
}

TEST_F(LayoutKeyTest, KeyIsTheFlatListsOwnFingerprint) {
  // vector(4, 1, 2, MPI_INT) listed flat: its four ints as runs of one,
  // with its bounds. The key is that list's fingerprint as written, not
  // that of a normal form of it (kernel ABI 4), and the value is pinned:
  // test/CodeGen/kernel-table.test finds it in an emitted kernel table.
  const Type *V = ok(Ctx.getVector(4, 1, 2, Int));
  int64_t Ones[] = {1, 1, 1, 1}, Disps[] = {0, 8, 16, 24};
  const Type *Ints[] = {Int, Int, Int, Int};
  const Type *Flat =
      ok(Ctx.getResized(0, 28, ok(Ctx.getStruct(Ones, Disps, Ints))));
  LayoutKey K = key(V);
  EXPECT_EQ(K.Print, Flat->getFingerprint());
  EXPECT_EQ(formatKey(K.Print), "d335dc0963e9371c8fc766fc9ea43a5c");
  EXPECT_EQ(K.TrueLb, 0);
}

TEST_F(LayoutKeyTest, FormatIsThirtyTwoHexDigits) {
  EXPECT_EQ(formatKey({0x0123456789abcdefull, 0xfedcba9876543210ull}),
            "0123456789abcdeffedcba9876543210");
  EXPECT_EQ(formatKey({0, 1}), "00000000000000000000000000000001");
}

TEST_F(LayoutKeyTest, RandomTypesKeepTheirKeyUnderTranslation) {
  std::mt19937_64 Rng(2024);
  int Keyed = 0;
  for (int I = 0; I < 400; ++I) {
    const Type *T = randomType(Ctx, Rng);
    std::optional<LayoutKey> K = computeLayoutKey(N, Ctx, T);
    if (T->size() == 0) {
      EXPECT_FALSE(K);
      continue;
    }
    ASSERT_TRUE(K) << "type " << I;
    ++Keyed;
    int64_t D = int64_t(Rng() % 2000000) - 1000000;
    for (const Type *Moved : {moveByStruct(T, D), moveByHIndexed(T, D)}) {
      std::optional<LayoutKey> M = computeLayoutKey(N, Ctx, Moved);
      ASSERT_TRUE(M) << "type " << I;
      EXPECT_EQ(M->Print, K->Print) << "type " << I << " moved by " << D;
      EXPECT_EQ(M->TrueLb, K->TrueLb + D) << "type " << I;
    }
  }
  EXPECT_GT(Keyed, 200);
}

} // namespace

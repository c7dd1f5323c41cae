//===- unittests/IR/TypeContextTest.cpp -----------------------------------===//
//
// Hash-consing, argument checks, overflow diagnostics and the library
// rules of the context. (Sizes and bounds are checked against MPICH itself
// by test/MPI.)
//
//===----------------------------------------------------------------------===//
#include "ddtc/IR/TypeContext.h"
#include "ddtc/IR/Verifier.h"
#include "ddtc/Target/MPICHRules.h"

#include <gtest/gtest.h>

#include <type_traits>

using namespace ddtc;

namespace {

const Type *ok(Expected<const Type *> T) {
  EXPECT_TRUE(static_cast<bool>(T)) << (T ? "" : T.takeError().message());
  return T ? *T : nullptr;
}

std::string err(Expected<const Type *> T) {
  EXPECT_FALSE(static_cast<bool>(T));
  return T ? "" : T.takeError().message();
}

TEST(TypeContextTest, StructurallyEqualTypesAreOneNode) {
  TypeContext Ctx(getMPICHRules());
  const Type *Int = Ctx.getPredefined(PredefinedId::Int);
  const Type *A = ok(Ctx.getVector(3, 2, 5, Int));
  const Type *B = ok(Ctx.getVector(3, 2, 5, Int));
  const Type *C = ok(Ctx.getHVector(3, 2, 20, Int));
  EXPECT_EQ(A, B);
  EXPECT_NE(A, C); // same typemap, different description
  size_t Nodes = Ctx.getNumNodes();
  int64_t Bl[] = {1, 2}, Disp[] = {0, 4};
  const Type *I1 = ok(Ctx.getIndexed(Bl, Disp, A));
  const Type *I2 = ok(Ctx.getIndexed(Bl, Disp, B));
  EXPECT_EQ(I1, I2);
  EXPECT_EQ(Ctx.getNumNodes(), Nodes + 1);
}

TEST(TypeContextTest, RejectsWhatMPIRejects) {
  TypeContext Ctx(getMPICHRules());
  const Type *Int = Ctx.getPredefined(PredefinedId::Int);
  EXPECT_EQ(err(Ctx.getContiguous(-1, Int)),
            "field 'count': must be non-negative, got -1");
  int64_t Bl[] = {1, -2}, Disp[] = {0, 4};
  EXPECT_EQ(err(Ctx.getIndexed(Bl, Disp, Int)),
            "field 'blocklengths[1]': must be non-negative, got -2");
  int64_t Sizes[] = {4, 4}, Sub[] = {2, 5}, Starts[] = {0, 0};
  EXPECT_EQ(err(Ctx.getSubarray(Sizes, Sub, Starts, ArrayOrder::C, Int)),
            "field 'subsizes[1]': must be between 1 and sizes[1] = 4, got 5");
  int64_t G[] = {10}, D[] = {static_cast<int64_t>(Distribution::Block)},
          A[] = {2}, P[] = {4};
  EXPECT_EQ(err(Ctx.getDarray(4, 0, G, D, A, P, ArrayOrder::C, Int)),
            "field 'dargs[0]': blocks of 2 on 4 processes do not cover "
            "gsizes[0] = 10");
  int64_t P3[] = {3};
  int64_t Dflt[] = {DefaultDarg};
  EXPECT_EQ(err(Ctx.getDarray(4, 0, G, D, Dflt, P3, ArrayOrder::C, Int)),
            "field 'psizes': the process grid does not have size = 4 "
            "processes");
}

TEST(TypeContextTest, OverflowIsADiagnostic) {
  TypeContext Ctx(getMPICHRules());
  const Type *Double = Ctx.getPredefined(PredefinedId::Double);
  EXPECT_EQ(err(Ctx.getContiguous(INT64_MAX / 4, Double)),
            "field 'count': the type's size or bounds overflow 64 bits");
  const Type *Big = ok(Ctx.getContiguous(INT64_MAX / 16, Double));
  EXPECT_NE(err(Ctx.getVector(3, 1, 2, Big)), "");
  EXPECT_NE(err(Ctx.getResized(INT64_MAX, 2, Double)), "");
  // Bounds that fit, an extent that does not: every kind checks ub - lb.
  const Type *Byte = Ctx.getPredefined(PredefinedId::Byte);
  const std::vector<int64_t> Far = {-5000000000000000000, 5000000000000000000};
  EXPECT_EQ(err(Ctx.getHIndexedBlock(1, Far, Byte)),
            "field 'displacements': the type's extent (ub - lb) overflows "
            "64 bits");
  // Two adjacent blocks whose lengths add up beyond 2^63: rejected, and
  // the blocks are not merged first (UB found by fuzz-pack-plan).
  const std::vector<int64_t> Halves = {int64_t(1) << 62, int64_t(1) << 62};
  const std::vector<int64_t> Adjacent = {0, int64_t(1) << 62};
  EXPECT_NE(err(Ctx.getHIndexed(Halves, Adjacent, Byte)), "");
  EXPECT_EQ(err(Ctx.getHVector(2, 1, INT64_MIN + 1, Byte)),
            "field 'stride': the type's extent (ub - lb) overflows 64 bits");
}

TEST(TypeContextTest, TrillionEntriesAreMeasuredSymbolically) {
  TypeContext Ctx(getMPICHRules());
  const Type *Int = Ctx.getPredefined(PredefinedId::Int);
  const Type *Row = ok(Ctx.getVector(1000000, 1, 2, Int));
  const Type *All = ok(Ctx.getContiguous(1000000, Row));
  const TypeLayout &L = All->getLayout();
  EXPECT_EQ(L.Elements, 1000000000000ull);
  EXPECT_EQ(L.Size, 4000000000000ll);
  // A vector's extent ends with its last element, so the last int of one
  // row touches the first of the next: 10^6 - 1 pairs merge.
  EXPECT_EQ(L.Blocks.Count, 1000000000000ull - 999999);
  EXPECT_EQ(L.Blocks.minLength(), 4);
  EXPECT_EQ(L.Blocks.maxLength(), 8);
  EXPECT_FALSE(verifyType(All, Ctx.getRules()));
}

/// The rules of a library that pads every struct and keeps every type as
/// an object of its own.
class PadEveryStruct final : public LibraryRules {
public:
  std::string_view getEngineName() const override { return "test"; }
  const void *getZeroLengthIdentity() const override { return nullptr; }
  const void *getPredefinedIdentity(PredefinedId) const override {
    return nullptr;
  }
  const void *getReducedIdentity(TypeKind, std::span<const int64_t>,
                                 std::span<const Type *const>,
                                 std::span<const int64_t>,
                                 std::span<const int64_t>) const override {
    return nullptr;
  }
  bool isHIndexedStruct(std::span<const Type *const>) const override {
    return false;
  }
  unsigned getMaxKernelLevels() const override { return 0; }
};

// Whoever creates a context names the library: the IR has no rules of its
// own to fall back on.
static_assert(!std::is_default_constructible_v<TypeContext>);

TEST(TypeContextTest, LayoutsFollowTheContextsRules) {
  // Two doubles 12 bytes apart: MPICH builds the struct as an hindexed,
  // whose extent is 20; padded to the alignment, it is 24.
  int64_t Bl[] = {1, 1}, Disp[] = {0, 12};
  TypeContext MPICH(getMPICHRules());
  const Type *D = MPICH.getPredefined(PredefinedId::Double);
  const Type *Same[] = {D, D};
  const Type *Hindexed = ok(MPICH.getStruct(Bl, Disp, Same));
  EXPECT_EQ(Hindexed->extent(), 20);

  PadEveryStruct Rules;
  TypeContext Padding(Rules);
  EXPECT_EQ(&Padding.getRules(), &Rules);
  const Type *PD = Padding.getPredefined(PredefinedId::Double);
  const Type *PSame[] = {PD, PD};
  const Type *Padded = ok(Padding.getStruct(Bl, Disp, PSame));
  EXPECT_EQ(Padded->extent(), 24);
  // The verifier recomputes layouts with the rules it is given.
  EXPECT_FALSE(verifyType(Padded, Padding.getRules()));
  EXPECT_TRUE(static_cast<bool>(verifyType(Padded, MPICH.getRules())));
}

TEST(TypeContextTest, DepthIsBounded) {
  TypeContext Ctx(getMPICHRules());
  const Type *T = Ctx.getPredefined(PredefinedId::Char);
  for (unsigned I = 0; I < MaxTypeDepth; ++I)
    T = ok(Ctx.getDup(T));
  EXPECT_EQ(T->getLayout().Depth, MaxTypeDepth);
  EXPECT_EQ(err(Ctx.getDup(T)), "types nested more than 1024 levels deep");
}

} // namespace

//===- unittests/IR/VerifierTest.cpp --------------------------------------===//
//
// Every invariant the verifier lists (lib/IR/Verifier.cpp) can fail: each
// test builds a node that breaks one of them behind the context's checks
// (TypeContext::createUncheckedForTesting) and sees verifyType name it.
// The context itself never makes such nodes; the other tests show that.
//
//===----------------------------------------------------------------------===//
#include "ddtc/IR/Verifier.h"
#include "ddtc/IR/TypeContext.h"
#include "ddtc/Target/MPICHRules.h"

#include <gtest/gtest.h>

#include <optional>

using namespace ddtc;

namespace {

class VerifierTest : public ::testing::Test {
protected:
  TypeContext Ctx{getMPICHRules()};
  const Type *Int = Ctx.getPredefined(PredefinedId::Int);

  const Type *valid(Expected<const Type *> T) {
    EXPECT_TRUE(static_cast<bool>(T));
    return T ? *T : nullptr;
  }
  /// A copy of Good with its arguments, operands, expansion or layout
  /// replaced.
  const Type *variant(const Type *Good, std::vector<int64_t> Ints,
                      std::vector<const Type *> Operands,
                      std::optional<TypeLayout> Layout = std::nullopt) {
    TypeLayout L = Layout.value_or(Good->getLayout());
    // A node that is its own identity: so is the copy.
    if (L.Identity == Good)
      L.Identity = nullptr;
    return Ctx.createUncheckedForTesting(Good->getKind(), std::move(Ints),
                                         std::move(Operands),
                                         Good->getExpansion(), L);
  }
  const Type *withLayout(const Type *Good, TypeLayout L) {
    return variant(Good, {Good->getInts().begin(), Good->getInts().end()},
                   {Good->getOperands().begin(), Good->getOperands().end()}, L);
  }
  /// The verifier's message for T (empty if it passes).
  std::string message(const Type *T) {
    Error E = verifyType(T, Ctx.getRules());
    return E ? E.message() : "";
  }
};

TEST_F(VerifierTest, ValidNodesPass) {
  const Type *V = valid(Ctx.getVector(3, 2, 5, Int));
  EXPECT_EQ(message(V), "");
  // The copy the test path makes of a valid node is valid too: the
  // failures below come from what each test breaks.
  EXPECT_EQ(message(variant(V, {3, 2, 5}, {Int})), "");
}

TEST_F(VerifierTest, Shape) {
  const Type *V = valid(Ctx.getVector(3, 2, 5, Int));
  EXPECT_NE(message(variant(V, {3, 2}, {Int}))
                .find("integer arguments do not match the kind"),
            std::string::npos);
  EXPECT_NE(message(variant(V, {3, 2, 5}, {Int, Int}))
                .find("wrong number of type operands"),
            std::string::npos);
  EXPECT_NE(message(variant(V, {3, 2, 5}, {nullptr})).find("null operand"),
            std::string::npos);
  const Type *S = valid(Ctx.getStruct(std::vector<int64_t>{1, 1},
                                      std::vector<int64_t>{0, 8},
                                      std::vector<const Type *>{Int, Int}));
  EXPECT_NE(message(variant(S, {1, 1, 0, 8}, {Int}))
                .find("wrong number of type operands"),
            std::string::npos);
}

TEST_F(VerifierTest, Domains) {
  const Type *C = valid(Ctx.getContiguous(2, Int));
  EXPECT_NE(message(variant(C, {-2}, {Int})).find("field 'count' out of range"),
            std::string::npos);
  const Type *A = valid(
      Ctx.getSubarray(std::vector<int64_t>{4, 4}, std::vector<int64_t>{2, 2},
                      std::vector<int64_t>{1, 1}, ArrayOrder::C, Int));
  std::vector<int64_t> Ints(A->getInts().begin(), A->getInts().end());
  Ints[0] = 7; // the order
  EXPECT_NE(message(variant(A, Ints, {Int})).find("field 'order' out of range"),
            std::string::npos);
}

TEST_F(VerifierTest, Expansion) {
  const Type *A =
      valid(Ctx.getSubarray(std::vector<int64_t>{4}, std::vector<int64_t>{2},
                            std::vector<int64_t>{1}, ArrayOrder::C, Int));
  std::vector<int64_t> Ints(A->getInts().begin(), A->getInts().end());
  EXPECT_NE(
      message(Ctx.createUncheckedForTesting(TypeKind::Subarray, Ints, {Int},
                                            nullptr, A->getLayout()))
          .find("missing expansion"),
      std::string::npos);
  const Type *C = valid(Ctx.getContiguous(2, Int));
  EXPECT_NE(
      message(Ctx.createUncheckedForTesting(TypeKind::Contiguous, {2}, {Int},
                                            A->getExpansion(), C->getLayout()))
          .find("unexpected expansion"),
      std::string::npos);
}

TEST_F(VerifierTest, Depth) {
  const Type *C = valid(Ctx.getContiguous(2, Int));
  TypeLayout L = C->getLayout();
  L.Depth = 5;
  EXPECT_NE(message(withLayout(C, L)).find("wrong depth"), std::string::npos);
  // Consistent depths, but deeper than the IR admits.
  TypeLayout Deep = C->getLayout();
  Deep.Depth = MaxTypeDepth;
  const Type *Operand = withLayout(C, Deep);
  TypeLayout Top = Deep;
  Top.Depth = MaxTypeDepth + 1;
  Top.Cost = Deep.Cost + 2; // dup: 1 + one operand
  Top.Identity = Operand;
  const Type *Dup =
      Ctx.createUncheckedForTesting(TypeKind::Dup, {}, {Operand}, nullptr, Top);
  EXPECT_NE(message(Dup).find("wrong depth"), std::string::npos)
      << message(Dup);
}

TEST_F(VerifierTest, StaleLayout) {
  const Type *C = valid(Ctx.getContiguous(2, Int));
  TypeLayout L = C->getLayout();
  L.Size = 12;
  EXPECT_NE(message(withLayout(C, L))
                .find("cached layout differs from the recomputed one"),
            std::string::npos);
  // A layout that no longer computes: the count of a contiguous whose
  // size overflows 64 bits.
  const Type *Big = variant(C, {int64_t(1) << 62}, {Int});
  EXPECT_NE(message(Big).find("layout no longer computes"), std::string::npos);
}

TEST_F(VerifierTest, InconsistentLayouts) {
  // An operand whose layout claims data but no blocks: its parent, which
  // recomputes the same layout from it, is reported first (the verifier
  // looks at a node before its operands).
  TypeLayout L = Int->getLayout();
  L.Blocks = BlockSummary();
  const Type *Bad = Ctx.createUncheckedForTesting(
      TypeKind::Predefined, {static_cast<int64_t>(PredefinedId::Int)}, {},
      nullptr, L);
  TypeLayout D = L;
  D.Depth = 1;
  D.Cost = 2; // dup's own cost: 1 + one operand
  D.Identity = L.Identity;
  const Type *Dup =
      Ctx.createUncheckedForTesting(TypeKind::Dup, {}, {Bad}, nullptr, D);
  EXPECT_NE(message(Dup).find("inconsistent size, elements and blocks"),
            std::string::npos)
      << message(Dup);

  // Blocks of length zero.
  TypeLayout E = Int->getLayout();
  E.Blocks.First.Length = E.Blocks.Last.Length = 0;
  const Type *Empty = Ctx.createUncheckedForTesting(
      TypeKind::Predefined, {static_cast<int64_t>(PredefinedId::Int)}, {},
      nullptr, E);
  TypeLayout DE = E;
  DE.Depth = 1;
  DE.Cost = 2;
  const Type *DupEmpty =
      Ctx.createUncheckedForTesting(TypeKind::Dup, {}, {Empty}, nullptr, DE);
  EXPECT_NE(message(DupEmpty).find("empty block"), std::string::npos)
      << message(DupEmpty);
}

} // namespace

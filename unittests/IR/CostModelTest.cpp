//===- unittests/IR/CostModelTest.cpp -------------------------------------===//
//
// The cost model of docs/normalization.md, checked against numbers worked
// out by hand from its text: the description cost of each constructor
// (one per argument, lists per element, one per call), its sum over a
// tree, the copy pieces of its example, and the order on pairs whose
// answer the definition gives directly.
//
//===----------------------------------------------------------------------===//
#include "ddtc/IR/Module.h"
#include "ddtc/IR/TextForm.h"
#include "ddtc/IR/TypeContext.h"
#include "ddtc/Target/MPICHRules.h"

#include <gtest/gtest.h>

using namespace ddtc;

namespace {

class CostModelTest : public ::testing::Test {
protected:
  TypeContext Ctx{getMPICHRules()};
  Module M{Ctx};

  const Type *parse(const std::string &Expr) {
    Module One(Ctx);
    if (Error E = parseModule("type t = " + Expr, One)) {
      ADD_FAILURE() << E.message();
      return Ctx.getPredefined(PredefinedId::Int);
    }
    return One.types().front().T;
  }
  uint64_t cost(const std::string &Expr) {
    return parse(Expr)->getLayout().Cost;
  }
  /// First comes before Second in the total order, and not the reverse.
  static void expectPrecedes(const Type *First, const Type *Second) {
    EXPECT_TRUE(First->precedes(Second)) << printType(First);
    EXPECT_FALSE(Second->precedes(First)) << printType(Second);
  }
};

TEST_F(CostModelTest, ConstructorCostsFollowTheDocumentedFormula) {
  for (size_t N = 0; N <= 5; ++N) {
    EXPECT_EQ(getConstructorCost(TypeKind::Indexed, N), 2 + 2 * N);
    EXPECT_EQ(getConstructorCost(TypeKind::HIndexed, N), 2 + 2 * N);
    EXPECT_EQ(getConstructorCost(TypeKind::IndexedBlock, N), 3 + N);
    EXPECT_EQ(getConstructorCost(TypeKind::HIndexedBlock, N), 3 + N);
    EXPECT_EQ(getConstructorCost(TypeKind::Struct, N), 1 + 3 * N);
  }
  EXPECT_EQ(getConstructorCost(TypeKind::Predefined, 0), 0u);
  EXPECT_EQ(getConstructorCost(TypeKind::Contiguous, 0), 3u);
  EXPECT_EQ(getConstructorCost(TypeKind::Vector, 0), 5u);
  EXPECT_EQ(getConstructorCost(TypeKind::HVector, 0), 5u);
  EXPECT_EQ(getConstructorCost(TypeKind::Resized, 0), 4u);
  EXPECT_EQ(getConstructorCost(TypeKind::Dup, 0), 2u);
}

TEST_F(CostModelTest, NodeCostsAreTheirCallsPlusTheirOperands) {
  EXPECT_EQ(cost("MPI_DOUBLE"), 0u);
  EXPECT_EQ(cost("contiguous(count=4, oldtype=MPI_INT)"), 3u);
  EXPECT_EQ(cost("vector(count=3, blocklength=1, stride=2, oldtype=MPI_INT)"),
            5u);
  EXPECT_EQ(cost("hvector(count=3, blocklength=1, stride=8, oldtype=MPI_INT)"),
            5u);
  EXPECT_EQ(cost("indexed(blocklengths=[1, 2, 1], displacements=[0, 4, 9], "
                 "oldtype=MPI_INT)"),
            8u);
  EXPECT_EQ(cost("hindexed_block(blocklength=2, displacements=[0, 40], "
                 "oldtype=MPI_INT)"),
            5u);
  EXPECT_EQ(cost("struct(blocklengths=[1, 1], displacements=[0, 8], "
                 "types=[MPI_INT, MPI_DOUBLE])"),
            7u);
  EXPECT_EQ(cost("resized(lb=0, extent=16, oldtype=MPI_INT)"), 4u);
  EXPECT_EQ(cost("dup(oldtype=MPI_INT)"), 2u);
  // A tree: 3 + 5.
  EXPECT_EQ(cost("contiguous(count=2, oldtype=vector(count=3, blocklength=1, "
                 "stride=2, oldtype=MPI_INT))"),
            8u);
  // A shared subtree counts once per use: 1 + 3 * 2 + 5 + 5.
  const char *V = "vector(count=3, blocklength=1, stride=2, oldtype=MPI_INT)";
  EXPECT_EQ(cost(std::string("struct(blocklengths=[1, 1], displacements=[0, "
                             "100], types=[") +
                 V + ", " + V + "])"),
            17u);
}

TEST_F(CostModelTest, PiecesOfTheDocumentedExample) {
  // 64 instances of two blocks that touch across instances: 65 blocks of
  // the message, but the engine copies each instance's two blocks apart.
  const TypeLayout &L =
      parse("contiguous(count=64, oldtype=resized(lb=0, extent=88, "
            "oldtype=indexed(blocklengths=[9, 11], displacements=[0, 11], "
            "oldtype=MPI_INT)))")
          ->getLayout();
  EXPECT_EQ(L.Pieces, 128u);
  EXPECT_EQ(L.Blocks.Count, 65u);
  EXPECT_EQ(L.totalCost(), L.Cost + 128);
}

TEST_F(CostModelTest, CheaperMeansFewerUnitsThenFewerPieces) {
  // contiguous: 3 + 1 piece; the same ints as a vector of touching
  // blocks (copied as one): 5 + 1.
  const Type *Contig = parse("contiguous(count=4, oldtype=MPI_INT)");
  const Type *Touching =
      parse("vector(count=2, blocklength=2, stride=2, oldtype=MPI_INT)");
  ASSERT_EQ(Touching->getLayout().Pieces, 1u);
  EXPECT_TRUE(Contig->isCheaperThan(Touching));
  EXPECT_FALSE(Touching->isCheaperThan(Contig));

  // Equal sums (5 + 3 and 7 + 1): the one with fewer pieces is cheaper
  // although its description is larger.
  const Type *Strided =
      parse("vector(count=3, blocklength=1, stride=2, oldtype=MPI_INT)");
  const Type *Padded = parse(
      "resized(lb=0, extent=12, oldtype=contiguous(count=3, oldtype=MPI_INT))");
  ASSERT_EQ(Strided->getLayout().totalCost(), 8u);
  ASSERT_EQ(Padded->getLayout().totalCost(), 8u);
  EXPECT_TRUE(Padded->isCheaperThan(Strided));
  EXPECT_FALSE(Strided->isCheaperThan(Padded));
  EXPECT_FALSE(Strided->isCheaperThan(Strided));
  // The canonicalizer's order refines this one, it does not replace it.
  expectPrecedes(Padded, Strided);
}

TEST_F(CostModelTest, CostTiesGoToTheSimplerKind) {
  // The same cost and pieces (5 + 3): neither is cheaper, the vector is
  // simpler than the hvector.
  const Type *V =
      parse("vector(count=3, blocklength=1, stride=2, oldtype=MPI_INT)");
  const Type *H =
      parse("hvector(count=3, blocklength=1, stride=8, oldtype=MPI_INT)");
  EXPECT_FALSE(V->isCheaperThan(H));
  EXPECT_FALSE(H->isCheaperThan(V));
  expectPrecedes(V, H);
  EXPECT_FALSE(V->precedes(V));

  // A struct of one entry and the hindexed of it: 4 + 5 both.
  const Type *S =
      parse(std::string("struct(blocklengths=[2], displacements=[8], "
                        "types=[") +
            "vector(count=3, blocklength=1, stride=2, oldtype=MPI_INT)])");
  const Type *HI = parse(
      "hindexed(blocklengths=[2], displacements=[8], oldtype=vector(count=3, "
      "blocklength=1, stride=2, oldtype=MPI_INT))");
  ASSERT_EQ(S->getLayout().Cost, HI->getLayout().Cost);
  expectPrecedes(HI, S);

  // Cost comes first: a cheaper struct beats a costlier vector.
  const Type *Small = parse("struct(blocklengths=[1], displacements=[0], "
                            "types=[MPI_INT])");
  expectPrecedes(Small, V);
}

TEST_F(CostModelTest, KindRanksAreStrictlyIncreasingFromPredefinedToDup) {
  const TypeKind Order[] = {
      TypeKind::Predefined, TypeKind::Contiguous,   TypeKind::Vector,
      TypeKind::HVector,    TypeKind::IndexedBlock, TypeKind::HIndexedBlock,
      TypeKind::Indexed,    TypeKind::HIndexed,     TypeKind::Struct,
      TypeKind::Resized,    TypeKind::Subarray,     TypeKind::Darray,
      TypeKind::Dup};
  for (size_t I = 1; I < std::size(Order); ++I)
    EXPECT_LT(getKindRank(Order[I - 1]), getKindRank(Order[I]))
        << getKindName(Order[I]);
}

TEST_F(CostModelTest, TheTotalOrderComparesArgumentsThenOperands) {
  // Same costs and kind: the arguments decide, lexicographically.
  const Type *A = parse("indexed_block(blocklength=2, displacements=[0, 5], "
                        "oldtype=MPI_INT)");
  const Type *B = parse("indexed_block(blocklength=2, displacements=[0, 6], "
                        "oldtype=MPI_INT)");
  expectPrecedes(A, B);
  EXPECT_EQ(compareTypes(A, A), std::strong_ordering::equal);
  // Same arguments: the operands decide, predefined types by name.
  const Type *F =
      parse("vector(count=3, blocklength=1, stride=2, oldtype=MPI_FLOAT)");
  const Type *I =
      parse("vector(count=3, blocklength=1, stride=2, oldtype=MPI_INT)");
  expectPrecedes(F, I);
}

} // namespace

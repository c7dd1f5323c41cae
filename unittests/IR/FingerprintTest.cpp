//===- unittests/IR/FingerprintTest.cpp -----------------------------------===//
//
// The structural fingerprint of nodes: the same in every context (hence in
// every process), different when any argument differs, and fixed across
// versions of ddtc -- kernel libraries are keyed by it, so the pinned values
// below may change only together with a deliberate change of the algorithm.
//
//===----------------------------------------------------------------------===//
#include "ddtc/IR/TypeContext.h"
#include "ddtc/Target/MPICHRules.h"
#include "ddtc/Testing/RandomType.h"

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <set>

using namespace ddtc;

namespace {

const Type *ok(Expected<const Type *> T) {
  EXPECT_TRUE(static_cast<bool>(T)) << (T ? "" : T.takeError().message());
  return T ? *T : nullptr;
}

/// vector(4, 1, 2, MPI_INT) and a struct holding it: the pinned examples.
const Type *pinnedVector(TypeContext &Ctx) {
  return ok(Ctx.getVector(4, 1, 2, Ctx.getPredefined(PredefinedId::Int)));
}

const Type *pinnedStruct(TypeContext &Ctx) {
  int64_t Bl[] = {1, 3}, Disp[] = {-8, 40};
  const Type *Types[] = {pinnedVector(Ctx),
                         Ctx.getPredefined(PredefinedId::Double)};
  return ok(Ctx.getStruct(Bl, Disp, Types));
}

/// Every node reachable from T, once.
void collect(const Type *T, std::set<const Type *> &Seen) {
  if (!Seen.insert(T).second)
    return;
  for (const Type *Op : T->getOperands())
    collect(Op, Seen);
  if (T->getExpansion())
    collect(T->getExpansion(), Seen);
}

TEST(FingerprintTest, PinnedValues) {
  // If this fails, the fingerprint algorithm changed: every kernel library
  // built before no longer matches. Make the change deliberately (and say
  // so in the release notes), then update the values. They were checked
  // against an independent transcription of the algorithm described in
  // TypeFingerprint.cpp.
  TypeContext Ctx(getMPICHRules());
  const Fingerprint &Int =
      Ctx.getPredefined(PredefinedId::Int)->getFingerprint();
  EXPECT_EQ(Int.Hi, 0x76156959ff917c2cull);
  EXPECT_EQ(Int.Lo, 0x2105a0611e3c4f37ull);
  const Fingerprint &Vec = pinnedVector(Ctx)->getFingerprint();
  EXPECT_EQ(Vec.Hi, 0xb16852c4727b214cull);
  EXPECT_EQ(Vec.Lo, 0x9450567fb1de7023ull);
  const Fingerprint &Str = pinnedStruct(Ctx)->getFingerprint();
  EXPECT_EQ(Str.Hi, 0x63e5f3fd4ae2e38cull);
  EXPECT_EQ(Str.Lo, 0x390d9c68a63c8859ull);
}

TEST(FingerprintTest, HashIsTheLowWord) {
  TypeContext Ctx(getMPICHRules());
  const Type *T = pinnedStruct(Ctx);
  EXPECT_EQ(T->getHash(), static_cast<size_t>(T->getFingerprint().Lo));
}

TEST(FingerprintTest, SameInEveryContext) {
  // The second context creates other nodes first, so that its nodes are
  // at other addresses and were created in another order.
  TypeContext A(getMPICHRules()), B(getMPICHRules());
  std::mt19937_64 Noise(99);
  for (int I = 0; I < 50; ++I)
    randomType(B, Noise);
  EXPECT_EQ(pinnedStruct(A)->getFingerprint(),
            pinnedStruct(B)->getFingerprint());

  std::mt19937_64 RngA(7), RngB(7);
  for (int I = 0; I < 500; ++I) {
    const Type *TA = randomType(A, RngA);
    const Type *TB = randomType(B, RngB);
    ASSERT_EQ(TA->getFingerprint(), TB->getFingerprint()) << "type " << I;
  }
}

TEST(FingerprintTest, DistinctNodesHaveDistinctFingerprints) {
  TypeContext Ctx(getMPICHRules());
  std::set<const Type *> Nodes;
  for (unsigned I = 0; I < NumPredefined; ++I)
    collect(Ctx.getPredefined(static_cast<PredefinedId>(I)), Nodes);
  std::mt19937_64 Rng(11);
  for (int I = 0; I < 2000; ++I)
    collect(randomType(Ctx, Rng), Nodes);
  std::map<Fingerprint, const Type *> ByPrint;
  for (const Type *T : Nodes) {
    auto [It, New] = ByPrint.emplace(T->getFingerprint(), T);
    EXPECT_TRUE(New) << "two nodes share a fingerprint";
  }
  // Both halves separate the nodes on their own.
  std::set<uint64_t> His, Los;
  for (const Type *T : Nodes) {
    His.insert(T->getFingerprint().Hi);
    Los.insert(T->getFingerprint().Lo);
  }
  EXPECT_EQ(His.size(), Nodes.size());
  EXPECT_EQ(Los.size(), Nodes.size());
}

TEST(FingerprintTest, EveryArgumentCounts) {
  TypeContext Ctx(getMPICHRules());
  const Type *Int = Ctx.getPredefined(PredefinedId::Int);
  const Type *Float = Ctx.getPredefined(PredefinedId::Float);
  const Type *Vec = pinnedVector(Ctx);
  Fingerprint P = Vec->getFingerprint();
  // Each argument of the vector changed alone.
  EXPECT_NE(P, ok(Ctx.getVector(5, 1, 2, Int))->getFingerprint());
  EXPECT_NE(P, ok(Ctx.getVector(4, 2, 2, Int))->getFingerprint());
  EXPECT_NE(P, ok(Ctx.getVector(4, 1, 3, Int))->getFingerprint());
  EXPECT_NE(P, ok(Ctx.getVector(4, 1, 2, Float))->getFingerprint());
  // The same integers under another kind.
  EXPECT_NE(P, ok(Ctx.getHVector(4, 1, 2, Int))->getFingerprint());
  // Types of the same typemap are still different nodes: the fingerprint
  // describes the tree, and LayoutKey normalizes first.
  EXPECT_NE(Int->getFingerprint(),
            Ctx.getPredefined(PredefinedId::Int32)->getFingerprint());

  // Lists: a changed, swapped, added or dropped element.
  int64_t Bl[] = {1, 2}, Disp[] = {0, 8};
  Fingerprint I = ok(Ctx.getIndexed(Bl, Disp, Int))->getFingerprint();
  int64_t Bl2[] = {2, 1};
  EXPECT_NE(I, ok(Ctx.getIndexed(Bl2, Disp, Int))->getFingerprint());
  int64_t Disp2[] = {0, 9};
  EXPECT_NE(I, ok(Ctx.getIndexed(Bl, Disp2, Int))->getFingerprint());
  int64_t Bl3[] = {1, 2, 0}, Disp3[] = {0, 8, 0};
  EXPECT_NE(I, ok(Ctx.getIndexed(Bl3, Disp3, Int))->getFingerprint());
  EXPECT_NE(I, ok(Ctx.getIndexed(std::span(Bl, 1), std::span(Disp, 1), Int))
                   ->getFingerprint());
  // The same integers split differently between the lists of the
  // indexed_block (blocklength, displacements) and the indexed.
  int64_t Flat[] = {1, 2, 0, 8};
  EXPECT_NE(
      ok(Ctx.getIndexedBlock(1, std::span(Flat + 1, 3), Int))->getFingerprint(),
      ok(Ctx.getHIndexedBlock(1, std::span(Flat + 1, 3), Int))
          ->getFingerprint());

  // Operands: order and identity.
  int64_t SBl[] = {1, 1}, SDisp[] = {0, 8};
  const Type *IF[] = {Int, Float}, *FI[] = {Float, Int};
  EXPECT_NE(ok(Ctx.getStruct(SBl, SDisp, IF))->getFingerprint(),
            ok(Ctx.getStruct(SBl, SDisp, FI))->getFingerprint());

  // Every integer argument of random types, changed by one where the
  // result is still valid.
  std::mt19937_64 Rng(5);
  int Changed = 0;
  for (int N = 0; N < 300; ++N) {
    const Type *T = randomType(Ctx, Rng);
    std::vector<int64_t> Ints(T->getInts().begin(), T->getInts().end());
    std::vector<const Type *> Ops(T->getOperands().begin(),
                                  T->getOperands().end());
    if (T->getKind() == TypeKind::Predefined)
      continue;
    for (size_t K = 0; K < Ints.size(); ++K) {
      std::vector<int64_t> Mutated = Ints;
      ++Mutated[K];
      Expected<const Type *> U = Ctx.get(T->getKind(), Mutated, Ops);
      if (!U) {
        (void)U.takeError();
        continue;
      }
      ++Changed;
      EXPECT_NE(T->getFingerprint(), (*U)->getFingerprint());
    }
  }
  EXPECT_GT(Changed, 300);
}

} // namespace

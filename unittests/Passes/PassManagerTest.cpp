//===- unittests/Passes/PassManagerTest.cpp -------------------------------===//
//
// The pass manager's check of a pass result, which `normalize` runs
// through PassManager::run and `analyze` through
// Normalizer::normalizeChecked: a pass that changes a typemap is an error
// naming the pass and the type on both paths, and a pass that reports no
// change is not checked.
//
//===----------------------------------------------------------------------===//
#include "ddtc/Passes/PassManager.h"
#include "ddtc/Passes/Normalizer.h"
#include "ddtc/Target/MPICHRules.h"
#include "ddtc/Testing/RandomType.h"

#include <gtest/gtest.h>

using namespace ddtc;

namespace {

/// A broken pass: replaces every type by Replacement, and says it did so
/// only if Honest.
class ReplacePass : public Pass {
public:
  ReplacePass(const Type *Replacement, bool Honest)
      : Replacement(Replacement), Honest(Honest) {}
  std::string_view getName() const override { return "replace"; }
  bool run(Module &M) override {
    bool Changed = rewriteTypes(M, [&](const Type *) { return Replacement; });
    return Honest && Changed;
  }

private:
  const Type *Replacement;
  bool Honest;
};

class PassManagerTest : public ::testing::Test {
protected:
  TypeContext Ctx{getMPICHRules()};
  const Type *Int = Ctx.getPredefined(PredefinedId::Int);
  const Type *Double = Ctx.getPredefined(PredefinedId::Double);
};

TEST_F(PassManagerTest, ABrokenPassIsReportedByNameAndType) {
  Module M(Ctx);
  M.types().push_back({"t", Int, {}});
  PassManager PM;
  PM.add(std::make_unique<ReplacePass>(Double, /*Honest=*/true));
  Error E = PM.run(M);
  ASSERT_TRUE(static_cast<bool>(E));
  std::string Message = E.message();
  EXPECT_NE(Message.find("pass 'replace' changed the typemap of type 't'"),
            std::string::npos)
      << Message;

  std::vector<PassManager::PartialCheck> Partial;
  Error Direct =
      PassManager::checkPassResult("replace", "t", Int, Double, Ctx.getRules(),
                                   /*Equivalence=*/true, Partial);
  ASSERT_TRUE(static_cast<bool>(Direct));
  EXPECT_EQ(Direct.message(), Message);
}

TEST_F(PassManagerTest, APassThatChangedNothingIsNotChecked) {
  // The pass manager believes Pass::run: a pass that says it changed
  // nothing is not verified (and one that lies gets away with it, which
  // is why passes report honestly through rewriteTypes).
  Module M(Ctx);
  M.types().push_back({"t", Int, {}});
  PassManager PM;
  PM.add(std::make_unique<ReplacePass>(Double, /*Honest=*/false));
  EXPECT_FALSE(static_cast<bool>(PM.run(M)));
  EXPECT_EQ(M.types().front().T, Double);
}

TEST_F(PassManagerTest, AnEquivalentResultPasses) {
  std::vector<PassManager::PartialCheck> Partial;
  const Type *Contig = *Ctx.getContiguous(1, Int);
  EXPECT_FALSE(static_cast<bool>(PassManager::checkPassResult(
      "canonicalize", "t", Contig, Int, Ctx.getRules(), /*Equivalence=*/true,
      Partial)));
  EXPECT_TRUE(Partial.empty());
}

TEST_F(PassManagerTest, CheckedNormalFormsAreTheNormalForms) {
  std::mt19937_64 Rng(13);
  Normalizer Checked(Ctx), Plain(Ctx);
  std::vector<PassManager::PartialCheck> Partial;
  for (int I = 0; I < 300; ++I) {
    const Type *T = randomType(Ctx, Rng);
    Expected<const Type *> N = Checked.normalizeChecked(T, "t", Partial);
    ASSERT_TRUE(static_cast<bool>(N)) << N.takeError().message();
    EXPECT_EQ(*N, Plain.normalize(T));
  }
  EXPECT_TRUE(Partial.empty());
}

} // namespace

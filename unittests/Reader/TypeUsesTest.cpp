//===- unittests/Reader/TypeUsesTest.cpp ----------------------------------===//
//
// A trace's x-uses: counts, which calls are point-to-point transfers, and
// malformed entries named.
//
//===----------------------------------------------------------------------===//
#include "ddtc/Reader/TypeUses.h"

#include <gtest/gtest.h>

using namespace ddtc;

namespace {

NamedType withUses(const std::string &Json) {
  NamedType N;
  N.Name = "halo";
  N.Extras.push_back({"x-uses", Json});
  return N;
}

TEST(TypeUsesTest, PointToPointOnly) {
  Expected<TypeUses> U = readTypeUses(withUses(
      R"([{"op": "MPI_Isend", "count": 2, "calls": 10, "bytes": 80},
          {"op": "MPI_Recv_c", "count": 2, "calls": 5, "bytes": 40},
          {"op": "MPI_Sendrecv", "count": 7, "calls": 1, "bytes": 70},
          {"op": "MPI_Pack_size", "count": 1000, "calls": 1, "bytes": 0}])"));
  ASSERT_TRUE(bool(U));
  EXPECT_TRUE(U->PointToPointOnly);
  // The size query is not a use: its count is not compared.
  EXPECT_EQ(U->Counts, (std::map<int64_t, uint64_t>{{2, 15}, {7, 1}}));
  EXPECT_EQ(U->countsToCompare(), (std::vector<uint64_t>{2, 7}));
}

TEST(TypeUsesTest, CallsThatPackWholeAreNotTransfers) {
  for (const char *Op : {"MPI_Bsend", "MPI_Sendrecv_replace", "MPI_Bcast",
                         "MPI_Pack", "MPI_Unpack_c", "MPI_Put", "MPI_Alltoallw"}) {
    EXPECT_FALSE(isPointToPointTransfer(Op)) << Op;
    Expected<TypeUses> U = readTypeUses(withUses(
        std::string(R"([{"op": "MPI_Send", "count": 1}, {"op": ")") + Op +
        R"(", "count": 1}])"));
    ASSERT_TRUE(bool(U));
    EXPECT_FALSE(U->PointToPointOnly) << Op;
  }
  for (const char *Op : {"MPI_Send", "MPI_Issend_c", "MPI_Imrecv", "MPI_Isendrecv"})
    EXPECT_TRUE(isPointToPointTransfer(Op)) << Op;
}

TEST(TypeUsesTest, NoUses) {
  NamedType N;
  N.Name = "t";
  Expected<TypeUses> U = readTypeUses(N);
  ASSERT_TRUE(bool(U));
  EXPECT_TRUE(U->empty());
  EXPECT_FALSE(U->PointToPointOnly);
  // Only size queries: no uses either.
  U = readTypeUses(withUses(R"([{"op": "MPI_Pack_size", "count": 3}])"));
  ASSERT_TRUE(bool(U));
  EXPECT_TRUE(U->empty());
  EXPECT_FALSE(U->PointToPointOnly);
}

TEST(TypeUsesTest, ManyCountsKeepTheEndsAndTheCommonest) {
  std::string Json = "[";
  for (int C = 1; C <= 20; ++C)
    Json += std::string(C > 1 ? ", " : "") + R"({"op": "MPI_Send", "count": )" +
            std::to_string(C) + R"(, "calls": )" + std::to_string(C == 9 ? 99 : 1) +
            "}";
  Json += "]";
  Expected<TypeUses> U = readTypeUses(withUses(Json));
  ASSERT_TRUE(bool(U));
  std::vector<uint64_t> C = U->countsToCompare(4);
  EXPECT_EQ(C, (std::vector<uint64_t>{1, 2, 9, 20}));
}

TEST(TypeUsesTest, MalformedUsesNameTheTypeAndField) {
  for (const char *Bad : {R"({"op": "MPI_Send"})", R"([{"op": "MPI_Send"}])",
                          R"([{"op": "MPI_Send", "count": "2"}])",
                          R"([{"op": "MPI_Send", "count": 2, "calls": -1}])"}) {
    Expected<TypeUses> U = readTypeUses(withUses(Bad));
    ASSERT_FALSE(bool(U)) << Bad;
    EXPECT_NE(U.takeError().message().find("type 'halo': field 'x-uses'"),
              std::string::npos)
        << Bad;
  }
}

} // namespace

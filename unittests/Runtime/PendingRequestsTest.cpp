//===- unittests/Runtime/PendingRequestsTest.cpp - Requests in flight -----===//
//
// The table of substituted non-blocking calls, driven by real requests of a
// singleton MPI process (messages to itself on MPI_COMM_SELF): a receive is
// unpacked exactly once, by the call that claimed it; a handle shared by
// several entries (MPICH's completed sends) gives each caller its own; a
// freed request still lands; a cancelled receive writes nothing; every
// packed buffer goes back to the pool.
//
//===----------------------------------------------------------------------===//
#include "PendingRequests.h"
#include "BufferPool.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <cstring>
#include <numeric>
#include <vector>

using namespace ddtc;

namespace {

/// A kernel for "every other int of 2*N": packs the even elements. The
/// binding's Size and Extent describe one instance of N such ints.
constexpr size_t IntsPerInstance = 4;

void packEven(const void *In, size_t Count, void *Out) {
  const int *I = static_cast<const int *>(In);
  int *O = static_cast<int *>(Out);
  for (size_t K = 0; K < Count * IntsPerInstance; ++K)
    O[K] = I[2 * K];
}
void unpackEven(const void *In, size_t Count, void *Out) {
  const int *I = static_cast<const int *>(In);
  int *O = static_cast<int *>(Out);
  for (size_t K = 0; K < Count * IntsPerInstance; ++K)
    O[2 * K] = I[K];
}

const ddtc_kernel EvenKernel = {"even",
                                0,
                                0,
                                0,
                                0,
                                0,
                                IntsPerInstance * sizeof(int),
                                2 * IntsPerInstance * sizeof(int),
                                packEven,
                                unpackEven,
                                nullptr,
                                nullptr};

BindingRef evenBinding() {
  auto B = std::make_shared<Binding>();
  B->Kernel = &EvenKernel;
  B->Size = EvenKernel.size;
  B->Extent = EvenKernel.extent;
  return B;
}

/// A receive of Count instances into User, packed by the runtime: the
/// request, with its entry added to Table.
MPI_Request postReceive(PendingRequests &Table, std::vector<int> &User,
                        size_t Count, int Tag) {
  Pending P;
  P.IsReceive = true;
  P.Bytes = Count * EvenKernel.size;
  P.Packed = static_cast<char *>(BufferPool::get().acquire(P.Bytes));
  P.UserBuffer = User.data();
  P.Count = static_cast<MPI_Count>(Count);
  P.B = evenBinding();
  MPI_Request R = MPI_REQUEST_NULL;
  EXPECT_EQ(MPI_Irecv(P.Packed, static_cast<int>(P.Bytes), MPI_PACKED, 0, Tag,
                      MPI_COMM_SELF, &R),
            MPI_SUCCESS);
  Table.add(R, std::move(P));
  return R;
}

/// The packed form of Count instances whose elements are 1, 2, 3, ...
std::vector<int> packedValues(size_t Count) {
  std::vector<int> V(Count * IntsPerInstance);
  std::iota(V.begin(), V.end(), 1);
  return V;
}

/// What User must hold after unpacking packedValues(Count): the values at
/// the even positions, the odd ones untouched (-1).
std::vector<int> unpackedValues(size_t Count) {
  std::vector<int> V(2 * Count * IntsPerInstance, -1);
  for (size_t K = 0; K < Count * IntsPerInstance; ++K)
    V[2 * K] = static_cast<int>(K + 1);
  return V;
}

/// Sends the packed form of Count instances to this process with Tag.
void sendPackedValues(size_t Count, int Tag) {
  std::vector<int> Sent = packedValues(Count);
  MPI_Send(Sent.data(), static_cast<int>(Sent.size() * sizeof(int)), MPI_PACKED,
           0, Tag, MPI_COMM_SELF);
}

/// R completed as a completion wrapper completes it: the handle R had
/// before MPI reset it, and the status, whose MPI_ERROR is preset since a
/// single completion may leave it unset.
struct Completed {
  MPI_Request Handle;
  MPI_Status Status;
};
Completed waitFor(MPI_Request &R) {
  Completed C{R, {}};
  C.Status.MPI_ERROR = MPI_SUCCESS;
  EXPECT_EQ(MPI_Wait(&R, &C.Status), MPI_SUCCESS);
  return C;
}

} // namespace

TEST(PendingRequestsTest, NothingPendingClaimsNothing) {
  PendingRequests Table;
  EXPECT_TRUE(Table.empty());
  EXPECT_FALSE(Table.claim(MPI_REQUEST_NULL));
  EXPECT_FALSE(Table.hasOrphans());
}

TEST(PendingRequestsTest, ReceiveIsUnpackedOnceByItsClaimer) {
  int64_t Outstanding = BufferPool::get().outstanding();
  PendingRequests Table;
  const size_t Count = 3;
  std::vector<int> User(2 * Count * IntsPerInstance, -1);
  MPI_Request R = postReceive(Table, User, Count, 1);
  EXPECT_EQ(Table.size(), 1u);

  std::optional<Pending> P = Table.claim(R);
  ASSERT_TRUE(P);
  // Claimed: a second completion call (another thread) does not get it.
  EXPECT_FALSE(Table.claim(R));
  // MPI_Test with flag false gives the claim back.
  Table.unclaim(R, P->Serial);
  P = Table.claim(R);
  ASSERT_TRUE(P);

  sendPackedValues(Count, 1);
  auto [Handle, Status] = waitFor(R);
  Table.finish(Handle, *P, Status, MPI_SUCCESS);
  EXPECT_EQ(User, unpackedValues(Count));
  EXPECT_TRUE(Table.empty());
  EXPECT_EQ(BufferPool::get().outstanding(), Outstanding);

  // Finishing again (a stale claim) changes nothing.
  std::fill(User.begin(), User.end(), -1);
  Table.finish(Handle, *P, Status, MPI_SUCCESS);
  EXPECT_EQ(User, std::vector<int>(User.size(), -1));
}

TEST(PendingRequestsTest, ShortMessageUnpacksWhatArrived) {
  PendingRequests Table;
  const size_t Count = 3;
  std::vector<int> User(2 * Count * IntsPerInstance, -1);
  MPI_Request R = postReceive(Table, User, Count, 2);
  std::optional<Pending> P = Table.claim(R);
  ASSERT_TRUE(P);
  // Two instances of the three posted.
  sendPackedValues(2, 2);
  auto [Handle, Status] = waitFor(R);
  Table.finish(Handle, *P, Status, MPI_SUCCESS);
  std::vector<int> Expected = unpackedValues(2);
  Expected.resize(User.size(), -1);
  EXPECT_EQ(User, Expected);
}

TEST(PendingRequestsTest, SharedHandleGivesEachCallerItsOwnEntry) {
  int64_t Outstanding = BufferPool::get().outstanding();
  PendingRequests Table;
  // MPICH answers every send that completed at once with one handle: two
  // entries under one request value, told apart by serial.
  MPI_Request Shared = MPI_REQUEST_NULL;
  std::vector<int> Data(8, 7);
  MPI_Isend(Data.data(), 8, MPI_INT, 0, 3, MPI_COMM_SELF, &Shared);
  for (int I = 0; I < 2; ++I) {
    Pending P;
    P.Bytes = 64;
    P.Packed = static_cast<char *>(BufferPool::get().acquire(P.Bytes));
    Table.add(Shared, std::move(P));
  }
  std::optional<Pending> A = Table.claim(Shared);
  std::optional<Pending> B = Table.claim(Shared);
  ASSERT_TRUE(A && B);
  EXPECT_NE(A->Serial, B->Serial);
  EXPECT_FALSE(Table.claim(Shared));

  std::vector<int> Got(8);
  MPI_Recv(Got.data(), 8, MPI_INT, 0, 3, MPI_COMM_SELF, MPI_STATUS_IGNORE);
  auto [Handle, Status] = waitFor(Shared);
  Table.finish(Handle, *A, Status, MPI_SUCCESS);
  EXPECT_EQ(Table.size(), 1u);
  Table.finish(Handle, *B, Status, MPI_SUCCESS);
  EXPECT_TRUE(Table.empty());
  EXPECT_EQ(BufferPool::get().outstanding(), Outstanding);
}

TEST(PendingRequestsTest, FreedReceiveStillLands) {
  int64_t Outstanding = BufferPool::get().outstanding();
  PendingRequests Table;
  const size_t Count = 2;
  std::vector<int> User(2 * Count * IntsPerInstance, -1);
  MPI_Request R = postReceive(Table, User, Count, 4);
  // MPI_Request_free: the program lets go of the request, the runtime
  // keeps it.
  std::optional<Pending> P = Table.claim(R);
  ASSERT_TRUE(P);
  Table.orphan(R, *P);
  EXPECT_TRUE(Table.hasOrphans());
  EXPECT_EQ(Table.size(), 1u);
  // Not arrived yet: testing leaves it.
  Table.settleOrphans(/*Wait=*/false);
  EXPECT_TRUE(Table.hasOrphans());
  EXPECT_EQ(User, std::vector<int>(User.size(), -1));

  sendPackedValues(Count, 4);
  Table.settleOrphans(/*Wait=*/true);
  EXPECT_FALSE(Table.hasOrphans());
  EXPECT_TRUE(Table.empty());
  EXPECT_EQ(User, unpackedValues(Count));
  EXPECT_EQ(BufferPool::get().outstanding(), Outstanding);
}

TEST(PendingRequestsTest, CancelledReceiveWritesNothing) {
  int64_t Outstanding = BufferPool::get().outstanding();
  PendingRequests Table;
  const size_t Count = 2;
  std::vector<int> User(2 * Count * IntsPerInstance, -1);
  MPI_Request R = postReceive(Table, User, Count, 5);
  std::optional<Pending> P = Table.claim(R);
  ASSERT_TRUE(P);
  MPI_Cancel(&R);
  auto [Handle, Status] = waitFor(R);
  int Cancelled = 0;
  MPI_Test_cancelled(&Status, &Cancelled);
  ASSERT_TRUE(Cancelled);
  Table.finish(Handle, *P, Status, MPI_SUCCESS);
  EXPECT_EQ(User, std::vector<int>(User.size(), -1));
  EXPECT_TRUE(Table.empty());
  EXPECT_EQ(BufferPool::get().outstanding(), Outstanding);
}

TEST(PendingRequestsTest, FailedReceiveWritesNothing) {
  PendingRequests Table;
  const size_t Count = 1;
  std::vector<int> User(2 * Count * IntsPerInstance, -1);
  MPI_Request R = postReceive(Table, User, Count, 6);
  std::optional<Pending> P = Table.claim(R);
  ASSERT_TRUE(P);
  sendPackedValues(Count, 6);
  auto [Handle, Status] = waitFor(R);
  // An error the completion call reported (MPI_ERR_IN_STATUS): the
  // program's buffer is not written.
  Status.MPI_ERROR = MPI_ERR_TRUNCATE;
  Table.finish(Handle, *P, Status, MPI_ERR_IN_STATUS);
  EXPECT_EQ(User, std::vector<int>(User.size(), -1));
  EXPECT_TRUE(Table.empty());
}

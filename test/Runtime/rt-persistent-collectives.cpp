//===- test/Runtime/rt-persistent-collectives.cpp - MPI 4's persistent collectives ===//
//
// An MPI program that creates, for every type of a description file, each
// persistent collective of MPI 4 (MPI_Bcast_init, ..., the neighborhood
// ones on a periodic 2-D Cartesian grid), starts it twice with other data
// in the buffers each time -- MPI_Start and MPI_Wait, then MPI_Startall
// and an MPI_Test loop -- and prints a digest of the receive buffer after
// each start. The runtime's tests run it plain and under libddtc_rt.so and
// compare the outputs: a start must pack the data the buffers hold when it
// starts, not when the request was created, and unpack at each completion.
//
// Also: alltoall in place, and an alltoall on a type the
// program frees between the creation of the request and its starts (MPI
// keeps a type in use by a request valid, MPI-4 §5.1.7).
//
// Usage: rt-persistent-collectives [--count N] FILE...
// Output: `RANK OP TYPE DIGEST` lines, in a fixed order.
//
//===----------------------------------------------------------------------===//
#include "ExchangeSupport.h"

#include "ddtc/IR/Module.h"
#include "ddtc/IR/TypeContext.h"
#include "ddtc/MPI/PredefinedHandles.h"
#include "ddtc/MPI/TypeBuilder.h"
#include "ddtc/Target/MPICHRules.h"

#include <mpi.h>

#include <cstdlib>

using namespace ddtc;
using namespace rtexchange;

namespace {

/// Starts the persistent collective Q twice, filling the send and receive
/// buffers with other patterns before each start, and reports the receive
/// buffer after each; then frees Q.
template <typename SendBuffer, typename ReceiveBuffer>
void startTwice(const std::string &Op, const std::string &Name, MPI_Request &Q,
                SendBuffer *S, ReceiveBuffer &R, uint64_t Salt) {
  for (int Round = 0; Round < 2; ++Round) {
    uint64_t Fill = Salt + 7919 * static_cast<uint64_t>(Round);
    if (S)
      S->fill(Fill + 1);
    R.fill(Fill + 2);
    if (Round == 0) {
      MPI_Start(&Q);
      MPI_Wait(&Q, MPI_STATUS_IGNORE);
    } else {
      MPI_Startall(1, &Q);
      for (int Done = 0; !Done;)
        MPI_Test(&Q, &Done, MPI_STATUS_IGNORE);
    }
    report((Op + "#" + std::to_string(Round)).c_str(), Name, R.digest());
  }
  MPI_Request_free(&Q);
}

/// The persistent collectives of one type; Next is the type after it in the
/// file (the w-forms' second type).
class PersistentCollectives {
public:
  PersistentCollectives(const CommittedType &A, const CommittedType &Next,
                        int Count)
      : A(A), Next(Next), Count(Count) {}

  void run() {
    // Receiving into instances that overlap is erroneous (MPI-4 §3.2.2).
    if (overlaps(A.T, A.get(),
                 std::max<uint64_t>(uint64_t(Count) * Size, 12))) {
      report("persistent", A.Name, "skipped: instances overlap");
      return;
    }
    rooted();
    vectors();
    everyToEvery();
    neighbors();
    freedType();
  }

private:
  /// The w-forms also receive the next type: not where its instances
  /// overlap.
  bool nextOverlaps(const char *Op) {
    if (!overlaps(Next.T, Next.get(), 4))
      return false;
    report(Op, A.Name, "skipped: instances of the next type overlap");
    return true;
  }
  uint64_t salt(int Op) const { return uint64_t(Rank) * 100000 + Op * 10; }
  TypedBuffer buffer(int64_t N) const {
    return TypedBuffer(A.T, A.get(), N, 0);
  }
  void start(const char *Op, MPI_Request &Q, TypedBuffer *S, TypedBuffer &R,
             int Salt) {
    startTwice(Op, A.Name, Q, S, R, salt(Salt));
  }

  void rooted() {
    MPI_Request Q;
    {
      TypedBuffer B = buffer(Count);
      MPI_Bcast_init(B.base(), Count, A.get(), 0, Comm, MPI_INFO_NULL, &Q);
      start("bcast-init", Q, nullptr, B, 1);
    }
    // MPICH 4.0.2's own MPI_Gather_init and MPI_Scatter_init give wrong
    // results, with or without ddtc (pmodels/mpich#7078, #7550): the runtime
    // substitutes them as the others, but there is nothing to compare.
  }

  /// Rank r's piece of the v-forms is (r + 1) % 3 instances; pieces lie an
  /// instance apart.
  void vectors() {
    std::vector<int> Counts, Displs;
    int At = 0;
    for (int R = 0; R < Size; ++R) {
      Counts.push_back((R + 1) % 3);
      Displs.push_back(At);
      At += Counts.back() + 1;
    }
    int Mine = Counts[static_cast<size_t>(Rank)];
    int Root = 0;
    MPI_Request Q;
    {
      TypedBuffer S = buffer(std::max(Mine, 1)), R = buffer(At);
      MPI_Gatherv_init(S.base(), Mine, A.get(), R.base(), Counts.data(),
                       Displs.data(), A.get(), Root, Comm, MPI_INFO_NULL, &Q);
      start("gatherv-init", Q, &S, R, 10);
    }
    {
      TypedBuffer S = buffer(At), R = buffer(std::max(Mine, 1));
      MPI_Scatterv_init(S.base(), Counts.data(), Displs.data(), A.get(),
                        R.base(), Mine, A.get(), Root, Comm, MPI_INFO_NULL, &Q);
      start("scatterv-init", Q, &S, R, 11);
    }
    {
      TypedBuffer S = buffer(std::max(Mine, 1)), R = buffer(At);
      MPI_Allgatherv_init(S.base(), Mine, A.get(), R.base(), Counts.data(),
                          Displs.data(), A.get(), Comm, MPI_INFO_NULL, &Q);
      start("allgatherv-init", Q, &S, R, 12);
    }
  }

  void everyToEvery() {
    int64_t All = int64_t(Count) * Size;
    MPI_Request Q;
    // And MPICH 4.0.2's MPI_Allgather_init on a power of two ranks (its
    // recursive doubling).
    if ((Size & (Size - 1)) != 0) {
      TypedBuffer S = buffer(Count), R = buffer(All);
      MPI_Allgather_init(S.base(), Count, A.get(), R.base(), Count, A.get(),
                         Comm, MPI_INFO_NULL, &Q);
      start("allgather-init", Q, &S, R, 20);
    }
    {
      TypedBuffer S = buffer(All), R = buffer(All);
      MPI_Alltoall_init(S.base(), Count, A.get(), R.base(), Count, A.get(),
                        Comm, MPI_INFO_NULL, &Q);
      start("alltoall-init", Q, &S, R, 21);
    }
    {
      // In place: each start sends what the receive buffer holds then.
      TypedBuffer R = buffer(All);
      MPI_Alltoall_init(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, R.base(), Count,
                        A.get(), Comm, MPI_INFO_NULL, &Q);
      start("alltoall-init-in-place", Q, nullptr, R, 22);
    }
    // Rank r sends (r + 2j) % 3 instances to rank j.
    std::vector<int> SCounts, RCounts, SDispls, RDispls;
    int SAt = 0, RAt = 0;
    for (int J = 0; J < Size; ++J) {
      SCounts.push_back((Rank + 2 * J) % 3);
      RCounts.push_back((J + 2 * Rank) % 3);
      SDispls.push_back(SAt);
      RDispls.push_back(RAt);
      SAt += SCounts.back() + 1;
      RAt += RCounts.back() + 1;
    }
    {
      TypedBuffer S = buffer(SAt), R = buffer(RAt);
      MPI_Alltoallv_init(S.base(), SCounts.data(), SDispls.data(), A.get(),
                         R.base(), RCounts.data(), RDispls.data(), A.get(),
                         Comm, MPI_INFO_NULL, &Q);
      start("alltoallv-init", Q, &S, R, 23);
    }
    if (nextOverlaps("alltoallw-init"))
      return;
    // The w-form: (r + j) % 3 instances of this type or (r + j odd) the
    // next one between ranks r and j.
    std::vector<const CommittedType *> Types;
    std::vector<int> Counts;
    std::vector<MPI_Datatype> Handles;
    for (int J = 0; J < Size; ++J) {
      Types.push_back((Rank + J) % 2 ? &Next : &A);
      Counts.push_back((Rank + J) % 3);
      Handles.push_back(Types.back()->get());
    }
    RegionBuffer S(Types, Counts, 0), R(Types, Counts, 0);
    std::vector<int> SD(S.Displs.begin(), S.Displs.end());
    std::vector<int> RD(R.Displs.begin(), R.Displs.end());
    MPI_Alltoallw_init(S.base(), Counts.data(), SD.data(), Handles.data(),
                       R.base(), Counts.data(), RD.data(), Handles.data(), Comm,
                       MPI_INFO_NULL, &Q);
    startTwice("alltoallw-init", A.Name, Q, &S, R, salt(24));
  }

  /// On a periodic 2-D Cartesian grid: four neighbors, block k received
  /// from the neighbor block k^1 is sent to.
  void neighbors() {
    MPI_Comm Cart;
    int Dims[2] = {0, 0}, Periods[2] = {1, 1};
    MPI_Dims_create(Size, 2, Dims);
    MPI_Cart_create(Comm, 2, Dims, Periods, 0, &Cart);
    const int N = 4;
    MPI_Request Q;
    {
      TypedBuffer S = buffer(Count), R = buffer(int64_t(Count) * N);
      MPI_Neighbor_allgather_init(S.base(), Count, A.get(), R.base(), Count,
                                  A.get(), Cart, MPI_INFO_NULL, &Q);
      start("neighbor-allgather-init", Q, &S, R, 30);
    }
    {
      TypedBuffer S = buffer(int64_t(Count) * N),
                  R = buffer(int64_t(Count) * N);
      MPI_Neighbor_alltoall_init(S.base(), Count, A.get(), R.base(), Count,
                                 A.get(), Cart, MPI_INFO_NULL, &Q);
      start("neighbor-alltoall-init", Q, &S, R, 31);
    }
    // Pieces of one dimension have the same count and type, so that they
    // match whichever way the grid wraps.
    std::vector<int> Same(N, Count), Counts, Displs, SameDispls;
    std::vector<const CommittedType *> Types;
    std::vector<MPI_Datatype> Handles;
    int At = 0, SameAt = 0;
    for (int K = 0; K < N; ++K) {
      Counts.push_back(K / 2 % 3 + 1);
      Displs.push_back(At);
      SameDispls.push_back(SameAt);
      At += Counts.back() + 1;
      SameAt += Count + 1;
      Types.push_back(K / 2 % 2 ? &Next : &A);
      Handles.push_back(Types.back()->get());
    }
    {
      TypedBuffer S = buffer(Count), R = buffer(SameAt);
      MPI_Neighbor_allgatherv_init(S.base(), Count, A.get(), R.base(),
                                   Same.data(), SameDispls.data(), A.get(),
                                   Cart, MPI_INFO_NULL, &Q);
      start("neighbor-allgatherv-init", Q, &S, R, 32);
    }
    {
      TypedBuffer S = buffer(At), R = buffer(At);
      MPI_Neighbor_alltoallv_init(
          S.base(), Counts.data(), Displs.data(), A.get(), R.base(),
          Counts.data(), Displs.data(), A.get(), Cart, MPI_INFO_NULL, &Q);
      start("neighbor-alltoallv-init", Q, &S, R, 33);
    }
    if (!nextOverlaps("neighbor-alltoallw-init")) {
      RegionBuffer S(Types, Counts, 0), R(Types, Counts, 0);
      MPI_Neighbor_alltoallw_init(S.base(), Counts.data(), S.Displs.data(),
                                  Handles.data(), R.base(), Counts.data(),
                                  R.Displs.data(), Handles.data(), Cart,
                                  MPI_INFO_NULL, &Q);
      startTwice("neighbor-alltoallw-init", A.Name, Q, &S, R, salt(34));
    }
    MPI_Comm_free(&Cart);
  }

  /// A request on a type the program frees before starting it.
  void freedType() {
    MPI_Datatype Dup;
    MPI_Type_dup(A.get(), &Dup);
    MPI_Type_commit(&Dup);
    int64_t All = int64_t(Count) * Size;
    TypedBuffer S = buffer(All), R = buffer(All);
    MPI_Request Q;
    MPI_Alltoall_init(S.base(), Count, Dup, R.base(), Count, Dup, Comm,
                      MPI_INFO_NULL, &Q);
    MPI_Type_free(&Dup);
    start("alltoall-init-freed-type", Q, &S, R, 40);
  }

  const CommittedType &A, &Next;
  int Count;
};

int run(int Argc, char **Argv) {
  int Count = 2;
  std::vector<std::string> Paths;
  for (int I = 1; I < Argc; ++I) {
    std::string Arg = Argv[I];
    if (Arg == "--count" && I + 1 < Argc)
      Count = std::atoi(Argv[++I]);
    else
      Paths.push_back(Arg);
  }
  if (Paths.empty() || Count < 1) {
    std::fprintf(stderr,
                 "usage: rt-persistent-collectives [--count N] FILE...\n");
    return 2;
  }
  std::string Missing;
  std::vector<MPI_Datatype> Predefined = makeHandleTable(Missing);
  MpiBuilder Builder(Predefined);
  TypeContext Ctx(getMPICHRules());
  std::vector<std::unique_ptr<Module>> Modules;
  std::vector<CommittedType> Types;
  if (!commitFiles("rt-persistent-collectives", Paths, Ctx, Builder, Modules, Types))
    return 1;
  for (size_t I = 0; I < Types.size(); ++I)
    PersistentCollectives(Types[I], Types[(I + 1) % Types.size()], Count).run();
  return 0;
}

} // namespace

int main(int Argc, char **Argv) { return runProgram(Argc, Argv, run); }

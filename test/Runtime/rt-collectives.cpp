//===- test/Runtime/rt-collectives.cpp - Collectives whose results are compared ===//
//
// An MPI program that does, for every type of a description file, every
// collective the runtime substitutes, on all ranks, and prints a digest of
// every receive buffer, gaps included (ExchangeSupport.h). The runtime's
// tests run it plain and under libddtc_rt.so and compare the outputs: a
// substituted collective must not change one byte.
//
// Operations (I-forms: the non-blocking call, completed by MPI_Wait, and
// by an MPI_Test loop for ialltoall):
//   gather, igather, gather-in-place             from the first and last rank
//   scatter, iscatter, scatter-in-place          ... as root
//   gatherv, igatherv, scatterv, iscatterv       rank r's piece (r+1)%3
//                                                instances, pieces an
//                                                instance apart
//   iallgather, allgatherv, iallgatherv, allgatherv-in-place
//   ibcast
//   alltoall, ialltoall, alltoall-in-place
//   alltoallv, ialltoallv, alltoallv-in-place    (r+2j)%3 instances r to j
//   alltoallw, ialltoallw, alltoallw-in-place    the type and the next one
//                                                of the file, by peer,
//                                                (r+j)%3 instances
//   neighbor-*: allgather, allgatherv, alltoall, alltoallv, alltoallw and
//   their I-forms, on a periodic 2-D Cartesian grid (cart-) and on a
//   distributed graph whose rank r sends to r+1 and r+2 (graph-)
// Receive operations into instances that overlap are erroneous (MPI-4
// §3.2.2) and skipped with a line saying so.
//
// Usage: rt-collectives [--count N] FILE...
// Output: `RANK OP TYPE DIGEST` lines, in a fixed order.
//
//===----------------------------------------------------------------------===//
#include "ExchangeSupport.h"

#include "ddtc/IR/Module.h"
#include "ddtc/IR/TypeContext.h"
#include "ddtc/MPI/PredefinedHandles.h"
#include "ddtc/MPI/TypeBuilder.h"
#include "ddtc/Reader/ReadFile.h"
#include "ddtc/Target/MPICHRules.h"

#include <mpi.h>

#include <cstdlib>
#include <numeric>

using namespace ddtc;
using namespace rtexchange;

namespace {

/// The collectives of one type; Next is the type after it in the file
/// (the w-forms' second type).
class Collectives {
public:
  Collectives(const CommittedType &A, const CommittedType &Next, int Count)
      : A(A), Next(Next), Count(Count) {}

  void run() {
    rooted();
    vectors();
    everyToEvery();
    wForms();
    neighbors();
  }

private:
  TypedBuffer buffer(int64_t N, int Op, int Kind) const {
    return TypedBuffer(A.T, A.get(), N, static_cast<uint64_t>(Rank) * 1000 +
                                        Op * 10 + Kind);
  }
  bool overlapping(int64_t N) const {
    return overlaps(A.T, A.get(), static_cast<uint64_t>(N));
  }
  void skipped(const char *Op) { report(Op, A.Name, "skipped: instances overlap"); }
  static void wait(MPI_Request &R) { MPI_Wait(&R, MPI_STATUS_IGNORE); }

  void rooted() {
    int64_t All = int64_t(Count) * Size;
    for (int Root : {0, Size - 1}) {
      std::string Name = A.Name + "@" + std::to_string(Root);
      bool IsRoot = Rank == Root;
      if (overlapping(All)) {
        skipped("gather");
        continue;
      }
      for (int Kind = 0; Kind < 3; ++Kind) {
        const char *Op[] = {"gather", "igather", "gather-in-place"};
        TypedBuffer S = buffer(Count, 10 + Kind, 1);
        TypedBuffer R = buffer(All, 10 + Kind, 2);
        if (Kind == 0) {
          MPI_Gather(S.base(), Count, A.get(), R.base(), Count, A.get(), Root, Comm);
        } else if (Kind == 1) {
          MPI_Request Q;
          MPI_Igather(S.base(), Count, A.get(), R.base(), Count, A.get(), Root, Comm,
                      &Q);
          wait(Q);
        } else {
          MPI_Gather(IsRoot ? MPI_IN_PLACE : S.base(), Count, A.get(), R.base(),
                     Count, A.get(), Root, Comm);
        }
        report(Op[Kind], Name, IsRoot ? R.digest() : "sent");
      }
      for (int Kind = 0; Kind < 3; ++Kind) {
        const char *Op[] = {"scatter", "iscatter", "scatter-in-place"};
        TypedBuffer S = buffer(All, 20 + Kind, 1);
        TypedBuffer R = buffer(Count, 20 + Kind, 2);
        if (Kind == 0) {
          MPI_Scatter(S.base(), Count, A.get(), R.base(), Count, A.get(), Root, Comm);
        } else if (Kind == 1) {
          MPI_Request Q;
          MPI_Iscatter(S.base(), Count, A.get(), R.base(), Count, A.get(), Root, Comm,
                       &Q);
          wait(Q);
        } else {
          MPI_Scatter(S.base(), Count, A.get(), IsRoot ? MPI_IN_PLACE : R.base(),
                      Count, A.get(), Root, Comm);
        }
        report(Op[Kind], Name, (IsRoot ? S.digest() + " " : "") + R.digest());
      }
      TypedBuffer B = buffer(Count, 30, IsRoot ? 1 : 2);
      MPI_Request Q;
      MPI_Ibcast(B.base(), Count, A.get(), Root, Comm, &Q);
      wait(Q);
      report("ibcast", Name, B.digest());
    }
  }

  /// Rank R's piece of the v-forms, and the pieces an instance apart.
  static int pieceOf(int R) { return (R + 1) % 3; }
  std::vector<int> pieceCounts() const {
    std::vector<int> C(static_cast<size_t>(Size));
    for (int R = 0; R < Size; ++R)
      C[static_cast<size_t>(R)] = pieceOf(R);
    return C;
  }
  static std::vector<int> displsOf(const std::vector<int> &Counts) {
    std::vector<int> D(Counts.size());
    int At = 0;
    for (size_t I = 0; I < Counts.size(); ++I) {
      D[I] = At;
      At += Counts[I] + 1;
    }
    return D;
  }
  static int64_t spanOf(const std::vector<int> &Counts) {
    return std::accumulate(Counts.begin(), Counts.end(), int64_t(0)) +
           int64_t(Counts.size());
  }

  void vectors() {
    std::vector<int> Counts = pieceCounts(), Displs = displsOf(Counts);
    int64_t Span = spanOf(Counts);
    int Mine = pieceOf(Rank);
    if (overlapping(Span)) {
      skipped("gatherv");
      return;
    }
    int Root = Size - 1;
    bool IsRoot = Rank == Root;
    for (int Kind = 0; Kind < 2; ++Kind) {
      const char *Op[] = {"gatherv", "igatherv"};
      TypedBuffer S = buffer(std::max(Mine, 1), 40 + Kind, 1);
      TypedBuffer R = buffer(Span, 40 + Kind, 2);
      MPI_Request Q = MPI_REQUEST_NULL;
      if (Kind == 0)
        MPI_Gatherv(S.base(), Mine, A.get(), R.base(), Counts.data(),
                    Displs.data(), A.get(), Root, Comm);
      else
        MPI_Igatherv(S.base(), Mine, A.get(), R.base(), Counts.data(),
                     Displs.data(), A.get(), Root, Comm, &Q);
      wait(Q);
      report(Op[Kind], A.Name, IsRoot ? R.digest() : "sent");
    }
    for (int Kind = 0; Kind < 2; ++Kind) {
      const char *Op[] = {"scatterv", "iscatterv"};
      TypedBuffer S = buffer(Span, 42 + Kind, 1);
      TypedBuffer R = buffer(std::max(Mine, 1), 42 + Kind, 2);
      MPI_Request Q = MPI_REQUEST_NULL;
      if (Kind == 0)
        MPI_Scatterv(S.base(), Counts.data(), Displs.data(), A.get(), R.base(),
                     Mine, A.get(), Root, Comm);
      else
        MPI_Iscatterv(S.base(), Counts.data(), Displs.data(), A.get(), R.base(),
                      Mine, A.get(), Root, Comm, &Q);
      wait(Q);
      report(Op[Kind], A.Name, R.digest());
    }
    for (int Kind = 0; Kind < 3; ++Kind) {
      const char *Op[] = {"allgatherv", "iallgatherv", "allgatherv-in-place"};
      TypedBuffer S = buffer(std::max(Mine, 1), 44 + Kind, 1);
      TypedBuffer R = buffer(Span, 44 + Kind, 2);
      MPI_Request Q = MPI_REQUEST_NULL;
      if (Kind == 0)
        MPI_Allgatherv(S.base(), Mine, A.get(), R.base(), Counts.data(),
                       Displs.data(), A.get(), Comm);
      else if (Kind == 1)
        MPI_Iallgatherv(S.base(), Mine, A.get(), R.base(), Counts.data(),
                        Displs.data(), A.get(), Comm, &Q);
      else
        MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, R.base(),
                       Counts.data(), Displs.data(), A.get(), Comm);
      wait(Q);
      report(Op[Kind], A.Name, R.digest());
    }
    TypedBuffer S = buffer(Count, 47, 1);
    TypedBuffer R = buffer(int64_t(Count) * Size, 47, 2);
    MPI_Request Q;
    MPI_Iallgather(S.base(), Count, A.get(), R.base(), Count, A.get(), Comm, &Q);
    wait(Q);
    report("iallgather", A.Name, R.digest());
  }

  void everyToEvery() {
    int64_t All = int64_t(Count) * Size;
    if (overlapping(All)) {
      skipped("alltoall");
      return;
    }
    for (int Kind = 0; Kind < 3; ++Kind) {
      const char *Op[] = {"alltoall", "ialltoall", "alltoall-in-place"};
      TypedBuffer S = buffer(All, 50 + Kind, 1);
      TypedBuffer R = buffer(All, 50 + Kind, 2);
      if (Kind == 0) {
        MPI_Alltoall(S.base(), Count, A.get(), R.base(), Count, A.get(), Comm);
      } else if (Kind == 1) {
        MPI_Request Q;
        MPI_Ialltoall(S.base(), Count, A.get(), R.base(), Count, A.get(), Comm, &Q);
        for (int Done = 0; !Done;)
          MPI_Test(&Q, &Done, MPI_STATUS_IGNORE);
      } else {
        MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, R.base(), Count, A.get(),
                     Comm);
      }
      report(Op[Kind], A.Name, R.digest());
    }
    // Rank r sends (r + 2j) % 3 instances to rank j.
    std::vector<int> SCounts(static_cast<size_t>(Size)), RCounts(SCounts);
    for (int J = 0; J < Size; ++J) {
      SCounts[static_cast<size_t>(J)] = (Rank + 2 * J) % 3;
      RCounts[static_cast<size_t>(J)] = (J + 2 * Rank) % 3;
    }
    std::vector<int> SDispls = displsOf(SCounts), RDispls = displsOf(RCounts);
    // In place, the counts of both directions must agree.
    std::vector<int> Same(static_cast<size_t>(Size));
    for (int J = 0; J < Size; ++J)
      Same[static_cast<size_t>(J)] = (Rank + J) % 3;
    std::vector<int> SameDispls = displsOf(Same);
    for (int Kind = 0; Kind < 3; ++Kind) {
      const char *Op[] = {"alltoallv", "ialltoallv", "alltoallv-in-place"};
      TypedBuffer S = buffer(spanOf(SCounts), 53 + Kind, 1);
      TypedBuffer R = buffer(spanOf(Kind == 2 ? Same : RCounts), 53 + Kind, 2);
      MPI_Request Q = MPI_REQUEST_NULL;
      if (Kind == 0)
        MPI_Alltoallv(S.base(), SCounts.data(), SDispls.data(), A.get(), R.base(),
                      RCounts.data(), RDispls.data(), A.get(), Comm);
      else if (Kind == 1)
        MPI_Ialltoallv(S.base(), SCounts.data(), SDispls.data(), A.get(),
                       R.base(), RCounts.data(), RDispls.data(), A.get(), Comm,
                       &Q);
      else
        MPI_Alltoallv(MPI_IN_PLACE, nullptr, nullptr, MPI_DATATYPE_NULL,
                      R.base(), Same.data(), SameDispls.data(), A.get(), Comm);
      wait(Q);
      report(Op[Kind], A.Name, R.digest());
    }
  }

  /// The w-forms: between ranks r and j, (r + j) % 3 instances of this
  /// type or (r + j odd) the next one.
  void wForms() {
    if (overlapping(2) || overlaps(Next.T, Next.get(), 2)) {
      skipped("alltoallw");
      return;
    }
    std::vector<const CommittedType *> Types;
    std::vector<int> Counts;
    for (int J = 0; J < Size; ++J) {
      Types.push_back((Rank + J) % 2 ? &Next : &A);
      Counts.push_back((Rank + J) % 3);
    }
    std::vector<MPI_Datatype> Handles;
    for (const CommittedType *T : Types)
      Handles.push_back(T->get());
    for (int Kind = 0; Kind < 3; ++Kind) {
      const char *Op[] = {"alltoallw", "ialltoallw", "alltoallw-in-place"};
      RegionBuffer S(Types, Counts, Rank * 1000 + 60 + Kind);
      RegionBuffer R(Types, Counts, Rank * 1000 + 65 + Kind);
      std::vector<int> SD(S.Displs.begin(), S.Displs.end());
      std::vector<int> RD(R.Displs.begin(), R.Displs.end());
      MPI_Request Q = MPI_REQUEST_NULL;
      if (Kind == 0)
        MPI_Alltoallw(S.base(), Counts.data(), SD.data(), Handles.data(),
                      R.base(), Counts.data(), RD.data(), Handles.data(),
                      Comm);
      else if (Kind == 1)
        MPI_Ialltoallw(S.base(), Counts.data(), SD.data(), Handles.data(),
                       R.base(), Counts.data(), RD.data(), Handles.data(),
                       Comm, &Q);
      else
        MPI_Alltoallw(MPI_IN_PLACE, nullptr, nullptr, nullptr, R.base(),
                      Counts.data(), RD.data(), Handles.data(), Comm);
      wait(Q);
      report(Op[Kind], A.Name, R.digest());
    }
  }

  void neighbors() {
    if (overlapping(int64_t(Count) * 4) || overlaps(Next.T, Next.get(), 2)) {
      skipped("neighbor");
      return;
    }
    MPI_Comm Cart, Graph;
    int Dims[2] = {0, 0}, Periods[2] = {1, 1};
    MPI_Dims_create(Size, 2, Dims);
    MPI_Cart_create(Comm, 2, Dims, Periods, 0, &Cart);
    int Out[2] = {(Rank + 1) % Size, (Rank + 2) % Size};
    int In[2] = {(Rank + Size - 1) % Size, (Rank + 2 * Size - 2) % Size};
    MPI_Dist_graph_create_adjacent(Comm, 2, In, MPI_UNWEIGHTED, 2, Out,
                                   MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &Graph);
    // A Cartesian rank receives its block k from the neighbor it sends
    // block k^1 to; pieces of one dimension alike match either way.
    neighborhood("cart-", Cart, 4, [](int K) { return K / 2; },
                 [](int K) { return K / 2; });
    neighborhood("graph-", Graph, 2, [](int K) { return K; },
                 [](int K) { return K; });
    MPI_Comm_free(&Cart);
    MPI_Comm_free(&Graph);
  }

  /// The neighborhood collectives on C of N in- and out-neighbors; piece
  /// k sent and received has SendKey(k) / ReceiveKey(k), whose parity
  /// chooses the type and whose value mod 3 the count of the v- and
  /// w-forms.
  using KeyFn = int (*)(int);
  void neighborhood(const std::string &Prefix, MPI_Comm C, int N,
                    KeyFn SendKey, KeyFn ReceiveKey) {
    std::string Name = A.Name;
    for (int Kind = 0; Kind < 2; ++Kind) {
      std::string Op = Prefix + (Kind ? "ineighbor-allgather" : "neighbor-allgather");
      TypedBuffer S = buffer(Count, 70 + Kind, 1);
      TypedBuffer R = buffer(int64_t(Count) * N, 70 + Kind, 2);
      MPI_Request Q = MPI_REQUEST_NULL;
      if (Kind == 0)
        MPI_Neighbor_allgather(S.base(), Count, A.get(), R.base(), Count, A.get(), C);
      else
        MPI_Ineighbor_allgather(S.base(), Count, A.get(), R.base(), Count, A.get(), C,
                                &Q);
      wait(Q);
      report(Op.c_str(), Name, R.digest());
    }
    for (int Kind = 0; Kind < 2; ++Kind) {
      std::string Op = Prefix + (Kind ? "ineighbor-alltoall" : "neighbor-alltoall");
      TypedBuffer S = buffer(int64_t(Count) * N, 72 + Kind, 1);
      TypedBuffer R = buffer(int64_t(Count) * N, 72 + Kind, 2);
      MPI_Request Q = MPI_REQUEST_NULL;
      if (Kind == 0)
        MPI_Neighbor_alltoall(S.base(), Count, A.get(), R.base(), Count, A.get(), C);
      else
        MPI_Ineighbor_alltoall(S.base(), Count, A.get(), R.base(), Count, A.get(), C,
                               &Q);
      wait(Q);
      report(Op.c_str(), Name, R.digest());
    }
    // The v-forms: every rank sends one count to every neighbor in
    // allgatherv, so its pieces all have Count instances.
    std::vector<int> Same(static_cast<size_t>(N), Count);
    std::vector<int> SameDispls = displsOf(Same);
    std::vector<int> SCounts, RCounts;
    for (int K = 0; K < N; ++K) {
      SCounts.push_back(SendKey(K) % 3);
      RCounts.push_back(ReceiveKey(K) % 3);
    }
    std::vector<int> SDispls = displsOf(SCounts), RDispls = displsOf(RCounts);
    for (int Kind = 0; Kind < 2; ++Kind) {
      std::string Op = Prefix + (Kind ? "ineighbor-allgatherv" : "neighbor-allgatherv");
      TypedBuffer S = buffer(Count, 74 + Kind, 1);
      TypedBuffer R = buffer(spanOf(Same), 74 + Kind, 2);
      MPI_Request Q = MPI_REQUEST_NULL;
      if (Kind == 0)
        MPI_Neighbor_allgatherv(S.base(), Count, A.get(), R.base(), Same.data(),
                                SameDispls.data(), A.get(), C);
      else
        MPI_Ineighbor_allgatherv(S.base(), Count, A.get(), R.base(), Same.data(),
                                 SameDispls.data(), A.get(), C, &Q);
      wait(Q);
      report(Op.c_str(), Name, R.digest());
    }
    for (int Kind = 0; Kind < 2; ++Kind) {
      std::string Op = Prefix + (Kind ? "ineighbor-alltoallv" : "neighbor-alltoallv");
      TypedBuffer S = buffer(spanOf(SCounts), 76 + Kind, 1);
      TypedBuffer R = buffer(spanOf(RCounts), 76 + Kind, 2);
      MPI_Request Q = MPI_REQUEST_NULL;
      if (Kind == 0)
        MPI_Neighbor_alltoallv(S.base(), SCounts.data(), SDispls.data(), A.get(),
                               R.base(), RCounts.data(), RDispls.data(), A.get(),
                               C);
      else
        MPI_Ineighbor_alltoallv(S.base(), SCounts.data(), SDispls.data(), A.get(),
                                R.base(), RCounts.data(), RDispls.data(), A.get(),
                                C, &Q);
      wait(Q);
      report(Op.c_str(), Name, R.digest());
    }
    std::vector<const CommittedType *> STypes, RTypes;
    std::vector<MPI_Datatype> SH, RH;
    for (int K = 0; K < N; ++K) {
      STypes.push_back(SendKey(K) % 2 ? &Next : &A);
      RTypes.push_back(ReceiveKey(K) % 2 ? &Next : &A);
      SH.push_back(STypes.back()->get());
      RH.push_back(RTypes.back()->get());
    }
    for (int Kind = 0; Kind < 2; ++Kind) {
      std::string Op = Prefix + (Kind ? "ineighbor-alltoallw" : "neighbor-alltoallw");
      RegionBuffer S(STypes, SCounts, Rank * 1000 + 78 + Kind);
      RegionBuffer R(RTypes, RCounts, Rank * 1000 + 80 + Kind);
      MPI_Request Q = MPI_REQUEST_NULL;
      if (Kind == 0)
        MPI_Neighbor_alltoallw(S.base(), SCounts.data(), S.Displs.data(),
                               SH.data(), R.base(), RCounts.data(),
                               R.Displs.data(), RH.data(), C);
      else
        MPI_Ineighbor_alltoallw(S.base(), SCounts.data(), S.Displs.data(),
                                SH.data(), R.base(), RCounts.data(),
                                R.Displs.data(), RH.data(), C, &Q);
      wait(Q);
      report(Op.c_str(), Name, R.digest());
    }
  }

  const CommittedType &A, &Next;
  int Count;
};

/// Collectives on a type of no data with counts above zero (the
/// description files' types of no data are left out above): nothing moves,
/// and the buffers stay as they were.
void zeroSize() {
  MPI_Datatype Empty;
  MPI_Type_contiguous(0, MPI_INT, &Empty);
  MPI_Type_commit(&Empty);
  std::vector<int> Buf(static_cast<size_t>(4 * Size), Rank + 1);
  MPI_Bcast(Buf.data(), 3, Empty, 0, Comm);
  std::vector<int> Counts(static_cast<size_t>(Size), 2), Displs(Counts.size());
  std::vector<MPI_Datatype> Types(Counts.size(), Empty);
  std::vector<int> Out(Buf.size(), -1);
  MPI_Alltoallw(Buf.data(), Counts.data(), Displs.data(), Types.data(),
                Out.data(), Counts.data(), Displs.data(), Types.data(), Comm);
  MPI_Allgather(Buf.data(), 2, Empty, Out.data(), 2, Empty, Comm);
  report("zero-size", "contiguous0",
         std::to_string(Buf[0]) + " " + std::to_string(Out[0]));
  MPI_Type_free(&Empty);
}

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
    std::fprintf(stderr, "usage: rt-collectives [--count N] FILE...\n");
    return 2;
  }
  std::string Missing;
  std::vector<MPI_Datatype> Predefined = makeHandleTable(Missing);
  MpiBuilder Builder(Predefined);
  TypeContext Ctx(getMPICHRules());
  std::vector<std::unique_ptr<Module>> Modules;
  std::vector<CommittedType> Types;
  if (!commitFiles("rt-collectives", Paths, Ctx, Builder, Modules, Types))
    return 1;
  zeroSize();
  for (size_t I = 0; I < Types.size(); ++I)
    Collectives(Types[I], Types[(I + 1) % Types.size()], Count).run();
  return 0;
}

} // namespace

int main(int Argc, char **Argv) { return runProgram(Argc, Argv, run); }

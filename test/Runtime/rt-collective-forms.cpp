//===- test/Runtime/rt-collective-forms.cpp - Every form of every collective ===//
//
// An MPI program that makes, for every type of a description file, each
// collective the runtime substitutes in its three forms -- blocking,
// non-blocking (completed by MPI_Wait) and MPI 4's persistent one, started
// twice with other data in the buffers each time (MPI_Start and MPI_Wait,
// then MPI_Startall and an MPI_Test loop) -- and prints a digest of the
// receive buffer after each. With --large-count it calls MPI 4's `_c`
// functions instead (MPI_Bcast_c, MPI_Ibcast_c, MPI_Bcast_init_c, ...),
// whose output must be the same. The runtime's tests run it plain and
// under libddtc_rt.so and compare the outputs: a start must pack the data
// the buffers hold when it starts, not when the request was created, and
// unpack at each completion.
//
// Operations: bcast (root 0); gather, scatter, gatherv, scatterv (root 0 and
// the last rank; rank r's piece of the v-forms (r + 1) % 3 instances,
// pieces an instance apart); allgather, allgatherv; alltoall, alltoallv,
// alltoallw (between ranks r and j, (r + j) % 3 instances of the type or
// (r + j odd) the next one of the file); alltoall in place; the
// neighborhood ones on a periodic 2-D Cartesian grid; and a persistent
// alltoall on a type the program frees between the creation of the request
// and its starts (MPI keeps a type in use by a request valid, MPI-4
// §5.1.7). MPICH 4.0.2's own MPI_Gather_init and MPI_Scatter_init, and its
// MPI_Allgather_init on a power of two ranks, give wrong results with or
// without ddtc (pmodels/mpich#7078, #7550): those persistent forms are left
// out, the runtime substitutes them as the others.
//
// Usage: rt-collective-forms [--large-count] [--count N] FILE...
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
#include <type_traits>

using namespace ddtc;
using namespace rtexchange;

namespace {

/// MPI's three forms of one collective, whose arguments are Args and then
/// a request, or an info and a request.
template <typename... Args> struct Forms {
  int (*Blocking)(Args...);
  int (*Started)(Args..., MPI_Request *);
  int (*Initialized)(Args..., MPI_Info, MPI_Request *);
};

template <typename... Args>
Forms<Args...>
formsOf(int (*Blocking)(Args...),
        std::type_identity_t<int (*)(Args..., MPI_Request *)> Started,
        std::type_identity_t<int (*)(Args..., MPI_Info, MPI_Request *)> Init) {
  return {Blocking, Started, Init};
}

/// The int forms or the `_c` ones, by the count type.
template <typename CountT, typename IntForms, typename LargeForms>
auto pick(IntForms Int, [[maybe_unused]] LargeForms Large) {
  if constexpr (std::is_same_v<CountT, int>)
    return Int;
  else
    return Large;
}

#define FORMS(CountT, F, IF)                                                   \
  pick<CountT>(formsOf(F, IF, F##_init), formsOf(F##_c, IF##_c, F##_init_c))

/// The displacements that go with counts of CountT.
template <typename CountT>
using DisplOf = std::conditional_t<std::is_same_v<CountT, int>, int, MPI_Aint>;

/// Which forms an operation runs.
enum class Run { All, NotPersistent };

/// The collectives of one type with counts of CountT; Next is the type
/// after it in the file (the w-forms' second type).
template <typename CountT> class Collectives {
  using Displ = DisplOf<CountT>;

public:
  Collectives(const CommittedType &A, const CommittedType &Next, int Count)
      : A(A), Next(Next), Count(Count) {}

  void run() {
    // Receiving into instances that overlap is erroneous (MPI-4 §3.2.2).
    if (overlaps(A.T, A.get(),
                 std::max<uint64_t>(uint64_t(Count) * Size, 12))) {
      report("collectives", A.Name, "skipped: instances overlap");
      return;
    }
    rooted();
    everyToEvery();
    neighbors();
    freedType();
  }

private:
  TypedBuffer buffer(int64_t N) const {
    return TypedBuffer(A.T, A.get(), N, 0);
  }

  /// Makes the collective of Fs on Args in each form Which asks for:
  /// blocking, non-blocking, persistent started twice; fills the send and
  /// receive buffers with other patterns before each, and reports the
  /// receive buffer after each.
  template <typename FormsT, typename SendBuffer, typename ReceiveBuffer,
            typename... Vals>
  void forms(const std::string &Op, FormsT Fs, SendBuffer *S, ReceiveBuffer &R,
             Run Which, Vals... Args) {
    uint64_t Salt = uint64_t(Rank) * 100000 + Serial++ * 100;
    auto Fill = [&](int Round) {
      if (S)
        S->fill(Salt + 10 * Round + 1);
      R.fill(Salt + 10 * Round + 2);
    };
    Fill(0);
    Fs.Blocking(Args...);
    report(Op.c_str(), A.Name, R.digest());
    Fill(1);
    MPI_Request Q;
    Fs.Started(Args..., &Q);
    MPI_Wait(&Q, MPI_STATUS_IGNORE);
    report(("i" + Op).c_str(), A.Name, R.digest());
    if (Which == Run::NotPersistent)
      return;
    Fs.Initialized(Args..., MPI_INFO_NULL, &Q);
    for (int Round = 0; Round < 2; ++Round) {
      Fill(2 + Round);
      if (Round == 0) {
        MPI_Start(&Q);
        MPI_Wait(&Q, MPI_STATUS_IGNORE);
      } else {
        MPI_Startall(1, &Q);
        for (int Done = 0; !Done;)
          MPI_Test(&Q, &Done, MPI_STATUS_IGNORE);
      }
      report((Op + "-init#" + std::to_string(Round)).c_str(), A.Name,
             R.digest());
    }
    MPI_Request_free(&Q);
  }

  /// Rank r's piece of the v-forms is (r + 1) % 3 instances; pieces lie an
  /// instance apart.
  void rooted() {
    CountT N = Count;
    int64_t All = int64_t(Count) * Size;
    {
      TypedBuffer B = buffer(Count);
      forms("bcast", FORMS(CountT, MPI_Bcast, MPI_Ibcast),
            static_cast<TypedBuffer *>(nullptr), B, Run::All, B.base(), N,
            A.get(), 0, Comm);
    }
    std::vector<CountT> Counts;
    std::vector<Displ> Displs;
    int At = 0;
    for (int R = 0; R < Size; ++R) {
      Counts.push_back((R + 1) % 3);
      Displs.push_back(At);
      At += (R + 1) % 3 + 1;
    }
    CountT Mine = Counts[static_cast<size_t>(Rank)];
    for (int Root : {0, Size - 1}) {
      std::string At0 = "@" + std::to_string(Root);
      {
        TypedBuffer S = buffer(Count), R = buffer(All);
        forms("gather" + At0, FORMS(CountT, MPI_Gather, MPI_Igather), &S, R,
              Run::NotPersistent, S.base(), N, A.get(), R.base(), N, A.get(),
              Root, Comm);
      }
      {
        TypedBuffer S = buffer(All), R = buffer(Count);
        forms("scatter" + At0, FORMS(CountT, MPI_Scatter, MPI_Iscatter), &S, R,
              Run::NotPersistent, S.base(), N, A.get(), R.base(), N, A.get(),
              Root, Comm);
      }
      {
        TypedBuffer S = buffer(std::max<int64_t>(Mine, 1)), R = buffer(At);
        forms("gatherv" + At0, FORMS(CountT, MPI_Gatherv, MPI_Igatherv), &S, R,
              Run::All, S.base(), Mine, A.get(), R.base(), Counts.data(),
              Displs.data(), A.get(), Root, Comm);
      }
      {
        TypedBuffer S = buffer(At), R = buffer(std::max<int64_t>(Mine, 1));
        forms("scatterv" + At0, FORMS(CountT, MPI_Scatterv, MPI_Iscatterv), &S,
              R, Run::All, S.base(), Counts.data(), Displs.data(), A.get(),
              R.base(), Mine, A.get(), Root, Comm);
      }
    }
    TypedBuffer S = buffer(std::max<int64_t>(Mine, 1)), R = buffer(At);
    forms("allgatherv", FORMS(CountT, MPI_Allgatherv, MPI_Iallgatherv), &S, R,
          Run::All, S.base(), Mine, A.get(), R.base(), Counts.data(),
          Displs.data(), A.get(), Comm);
  }

  void everyToEvery() {
    CountT N = Count;
    int64_t All = int64_t(Count) * Size;
    {
      // The persistent form is wrong on a power of two ranks (above).
      TypedBuffer S = buffer(Count), R = buffer(All);
      forms("allgather", FORMS(CountT, MPI_Allgather, MPI_Iallgather), &S, R,
            (Size & (Size - 1)) ? Run::All : Run::NotPersistent, S.base(), N,
            A.get(), R.base(), N, A.get(), Comm);
    }
    {
      TypedBuffer S = buffer(All), R = buffer(All);
      forms("alltoall", FORMS(CountT, MPI_Alltoall, MPI_Ialltoall), &S, R,
            Run::All, S.base(), N, A.get(), R.base(), N, A.get(), Comm);
    }
    {
      // In place: each call, and each start, sends what the receive buffer
      // holds then.
      TypedBuffer R = buffer(All);
      forms("alltoall-in-place", FORMS(CountT, MPI_Alltoall, MPI_Ialltoall),
            static_cast<TypedBuffer *>(nullptr), R, Run::All, MPI_IN_PLACE,
            CountT(0), MPI_DATATYPE_NULL, R.base(), N, A.get(), Comm);
    }
    // Rank r sends (r + 2j) % 3 instances to rank j.
    std::vector<CountT> SCounts, RCounts;
    std::vector<Displ> SDispls, RDispls;
    int SAt = 0, RAt = 0;
    for (int J = 0; J < Size; ++J) {
      SCounts.push_back((Rank + 2 * J) % 3);
      RCounts.push_back((J + 2 * Rank) % 3);
      SDispls.push_back(SAt);
      RDispls.push_back(RAt);
      SAt += (Rank + 2 * J) % 3 + 1;
      RAt += (J + 2 * Rank) % 3 + 1;
    }
    {
      TypedBuffer S = buffer(SAt), R = buffer(RAt);
      forms("alltoallv", FORMS(CountT, MPI_Alltoallv, MPI_Ialltoallv), &S, R,
            Run::All, S.base(), SCounts.data(), SDispls.data(), A.get(),
            R.base(), RCounts.data(), RDispls.data(), A.get(), Comm);
    }
    if (nextOverlaps("alltoallw"))
      return;
    std::vector<const CommittedType *> Types;
    std::vector<int> Counts;
    std::vector<MPI_Datatype> Handles;
    for (int J = 0; J < Size; ++J) {
      Types.push_back((Rank + J) % 2 ? &Next : &A);
      Counts.push_back((Rank + J) % 3);
      Handles.push_back(Types.back()->get());
    }
    RegionBuffer S(Types, Counts, 0), R(Types, Counts, 0);
    std::vector<CountT> WCounts(Counts.begin(), Counts.end());
    std::vector<Displ> SD(S.Displs.begin(), S.Displs.end());
    std::vector<Displ> RD(R.Displs.begin(), R.Displs.end());
    forms("alltoallw", FORMS(CountT, MPI_Alltoallw, MPI_Ialltoallw), &S, R,
          Run::All, S.base(), WCounts.data(), SD.data(), Handles.data(),
          R.base(), WCounts.data(), RD.data(), Handles.data(), Comm);
  }

  /// On a periodic 2-D Cartesian grid: four neighbors, block k received
  /// from the neighbor block k^1 is sent to, so pieces of one dimension
  /// have the same count and type and match whichever way the grid wraps.
  void neighbors() {
    MPI_Comm Cart;
    int Dims[2] = {0, 0}, Periods[2] = {1, 1};
    MPI_Dims_create(Size, 2, Dims);
    MPI_Cart_create(Comm, 2, Dims, Periods, 0, &Cart);
    const int K = 4;
    CountT N = Count;
    {
      TypedBuffer S = buffer(Count), R = buffer(int64_t(Count) * K);
      forms("neighbor-allgather",
            FORMS(CountT, MPI_Neighbor_allgather, MPI_Ineighbor_allgather), &S,
            R, Run::All, S.base(), N, A.get(), R.base(), N, A.get(), Cart);
    }
    {
      TypedBuffer S = buffer(int64_t(Count) * K),
                  R = buffer(int64_t(Count) * K);
      forms("neighbor-alltoall",
            FORMS(CountT, MPI_Neighbor_alltoall, MPI_Ineighbor_alltoall), &S, R,
            Run::All, S.base(), N, A.get(), R.base(), N, A.get(), Cart);
    }
    std::vector<CountT> Same(K, N), Counts;
    std::vector<Displ> Displs, SameDispls;
    std::vector<int> WCounts;
    std::vector<const CommittedType *> Types;
    std::vector<MPI_Datatype> Handles;
    int At = 0, SameAt = 0;
    for (int I = 0; I < K; ++I) {
      Counts.push_back(I / 2 % 3 + 1);
      WCounts.push_back(I / 2 % 3 + 1);
      Displs.push_back(At);
      SameDispls.push_back(SameAt);
      At += I / 2 % 3 + 2;
      SameAt += Count + 1;
      Types.push_back(I / 2 % 2 ? &Next : &A);
      Handles.push_back(Types.back()->get());
    }
    {
      TypedBuffer S = buffer(Count), R = buffer(SameAt);
      forms("neighbor-allgatherv",
            FORMS(CountT, MPI_Neighbor_allgatherv, MPI_Ineighbor_allgatherv),
            &S, R, Run::All, S.base(), N, A.get(), R.base(), Same.data(),
            SameDispls.data(), A.get(), Cart);
    }
    {
      TypedBuffer S = buffer(At), R = buffer(At);
      forms("neighbor-alltoallv",
            FORMS(CountT, MPI_Neighbor_alltoallv, MPI_Ineighbor_alltoallv), &S,
            R, Run::All, S.base(), Counts.data(), Displs.data(), A.get(),
            R.base(), Counts.data(), Displs.data(), A.get(), Cart);
    }
    if (!nextOverlaps("neighbor-alltoallw")) {
      RegionBuffer S(Types, WCounts, 0), R(Types, WCounts, 0);
      forms("neighbor-alltoallw",
            FORMS(CountT, MPI_Neighbor_alltoallw, MPI_Ineighbor_alltoallw), &S,
            R, Run::All, S.base(), Counts.data(), S.Displs.data(),
            Handles.data(), R.base(), Counts.data(), R.Displs.data(),
            Handles.data(), Cart);
    }
    MPI_Comm_free(&Cart);
  }

  /// A persistent request on a type the program frees before its starts.
  void freedType() {
    MPI_Datatype Dup;
    MPI_Type_dup(A.get(), &Dup);
    MPI_Type_commit(&Dup);
    CountT N = Count;
    int64_t All = int64_t(Count) * Size;
    TypedBuffer S = buffer(All), R = buffer(All);
    auto Init = FORMS(CountT, MPI_Alltoall, MPI_Ialltoall).Initialized;
    MPI_Request Q;
    Init(S.base(), N, Dup, R.base(), N, Dup, Comm, MPI_INFO_NULL, &Q);
    MPI_Type_free(&Dup);
    for (int Round = 0; Round < 2; ++Round) {
      S.fill(uint64_t(Rank) * 100000 + 99000 + Round);
      MPI_Start(&Q);
      MPI_Wait(&Q, MPI_STATUS_IGNORE);
      report(("alltoall-init-freed-type#" + std::to_string(Round)).c_str(),
             A.Name, R.digest());
    }
    MPI_Request_free(&Q);
  }

  /// The w-forms also receive the next type: not where its instances
  /// overlap.
  bool nextOverlaps(const char *Op) {
    if (!overlaps(Next.T, Next.get(), 4))
      return false;
    report(Op, A.Name, "skipped: instances of the next type overlap");
    return true;
  }

  const CommittedType &A, &Next;
  int Count;
  uint64_t Serial = 0;
};

int run(int Argc, char **Argv) {
  int Count = 2;
  bool LargeCount = false;
  std::vector<std::string> Paths;
  for (int I = 1; I < Argc; ++I) {
    std::string Arg = Argv[I];
    if (Arg == "--count" && I + 1 < Argc)
      Count = std::atoi(Argv[++I]);
    else if (Arg == "--large-count")
      LargeCount = true;
    else
      Paths.push_back(Arg);
  }
  if (Paths.empty() || Count < 1) {
    std::fprintf(stderr, "usage: rt-collective-forms [--large-count] "
                         "[--count N] FILE...\n");
    return 2;
  }
  std::string Missing;
  std::vector<MPI_Datatype> Predefined = makeHandleTable(Missing);
  MpiBuilder Builder(Predefined);
  TypeContext Ctx(getMPICHRules());
  std::vector<std::unique_ptr<Module>> Modules;
  std::vector<CommittedType> Types;
  if (!commitFiles("rt-collective-forms", Paths, Ctx, Builder, Modules, Types))
    return 1;
  for (size_t I = 0; I < Types.size(); ++I) {
    const CommittedType &A = Types[I], &Next = Types[(I + 1) % Types.size()];
    if (LargeCount)
      Collectives<MPI_Count>(A, Next, Count).run();
    else
      Collectives<int>(A, Next, Count).run();
  }
  return 0;
}

} // namespace

int main(int Argc, char **Argv) { return runProgram(Argc, Argv, run); }

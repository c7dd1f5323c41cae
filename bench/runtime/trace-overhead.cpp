//===- bench/runtime/trace-overhead.cpp - Cost per call of the preloads ---===//
//
// A plain MPI program (it knows nothing of ddtc) that times MPI calls in a
// loop; run it with and without LD_PRELOAD=libddtc_trace.so and compare
// (trace-overhead.sh does both and prints the difference, the tracing cost
// per call, which docs/runtime.md reports):
//
//   pack-derived      MPI_Pack of one vector(4, 1, 2, MPI_INT): one traced
//                     use per call
//   pack-predefined   MPI_Pack of 4 MPI_INT: the wrappers' fast path
//   isend-irecv       MPI_Irecv + MPI_Isend + MPI_Waitall of the vector to
//                     self: two traced uses per iteration
//   commit-free       MPI_Type_vector + MPI_Type_commit + MPI_Type_free:
//                     the tracer decodes the type at each commit
//
// Each case runs Reps times; the median time per iteration is printed as
// `CASE NS` (nanoseconds), one line per case.
//
// With --paired it measures the wrappers of whichever library is preloaded
// (libddtc_rt.so, libddtc_trace.so) within one process instead: the same
// MPI_Isend + MPI_Recv + MPI_Wait to self, of 4 MPI_INT (predefined) and of
// a contiguous(4, MPI_INT) (derived, which the runtime passes through), the
// same through persistent requests (MPI_Start twice, MPI_Waitall), and
// MPI_Gather, MPI_Scatter, MPI_Alltoall, MPI_Alltoallw on MPI_COMM_SELF and
// MPI_Neighbor_alltoallw on a periodic ring of one process, of the
// contiguous type, through the MPI_ names (the wrappers) and the PMPI_
// names (MPI itself) in alternation, and prints `CASE WRAPPED DIRECT OVERHEAD`,
// the overhead being the median of the paired differences. This VM runs whole
// processes in a slower or faster mode for seconds at a time
// (docs/performance.md), which differences between two launches cannot tell
// from a wrapper's cost; differences within one process, a few milliseconds
// apart, can.
//
//===----------------------------------------------------------------------===//
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace {

double median(std::vector<double> V) {
  std::sort(V.begin(), V.end());
  return V[V.size() / 2];
}

/// Nanoseconds per iteration of Body, run Iterations times.
template <class Fn> double perIterationNs(long Iterations, Fn Body) {
  auto Start = std::chrono::steady_clock::now();
  for (long I = 0; I < Iterations; ++I)
    Body();
  std::chrono::duration<double, std::nano> D =
      std::chrono::steady_clock::now() - Start;
  return D.count() / static_cast<double>(Iterations);
}

double medianNs(long Iterations, int Reps, const std::function<void()> &Body) {
  std::vector<double> Times;
  for (int R = 0; R < Reps; ++R)
    Times.push_back(perIterationNs(Iterations, Body));
  return median(std::move(Times));
}

/// --paired: the wrappers' cost measured within the process, call by
/// call: each case's body through the MPI_ names (Wrapped) or the PMPI_
/// names, alternately.
void paired(long Iterations) {
  MPI_Datatype Contig;
  MPI_Type_contiguous(4, MPI_INT, &Contig);
  MPI_Type_commit(&Contig);
  // A ring of one process: both neighbours of the Cartesian topology are
  // the process itself.
  MPI_Comm Ring;
  int Dims[1] = {1}, Periodic[1] = {1};
  MPI_Cart_create(MPI_COMM_SELF, 1, Dims, Periodic, 0, &Ring);
  int In[8] = {1, 2, 3, 4, 5, 6, 7, 8}, Out[8];
  int Counts[2] = {1, 1};
  int Displs[2] = {0, 16};
  MPI_Aint Bytes[2] = {0, 16};
  MPI_Datatype Types[2] = {Contig, Contig};
  const int Pairs = 41;
  struct Case {
    const char *Name;
    std::function<void(bool)> Body;
  };
  auto exchange = [&](int Count, MPI_Datatype T) {
    return [&In, &Out, Count, T](bool Wrapped) {
      MPI_Request Req;
      if (Wrapped) {
        MPI_Isend(In, Count, T, 0, 0, MPI_COMM_SELF, &Req);
        MPI_Recv(Out, Count, T, 0, 0, MPI_COMM_SELF, MPI_STATUS_IGNORE);
        MPI_Wait(&Req, MPI_STATUS_IGNORE);
      } else {
        PMPI_Isend(In, Count, T, 0, 0, MPI_COMM_SELF, &Req);
        PMPI_Recv(Out, Count, T, 0, 0, MPI_COMM_SELF, MPI_STATUS_IGNORE);
        PMPI_Wait(&Req, MPI_STATUS_IGNORE);
      }
    };
  };
  // Persistent requests, made through the wrappers for the wrapped
  // starts and through MPI for the direct ones.
  MPI_Request Made[2][2];
  for (int W = 0; W < 2; ++W) {
    (W ? MPI_Recv_init : PMPI_Recv_init)(Out, 1, Contig, 0, 1, MPI_COMM_SELF,
                                         &Made[W][0]);
    (W ? MPI_Send_init : PMPI_Send_init)(In, 1, Contig, 0, 1, MPI_COMM_SELF,
                                         &Made[W][1]);
  }
  std::vector<Case> Cases = {
      {"exchange-predefined", exchange(4, MPI_INT)},
      {"exchange-derived", exchange(1, Contig)},
      {"persistent-derived",
       [&](bool W) {
         (W ? MPI_Start : PMPI_Start)(&Made[W][0]);
         (W ? MPI_Start : PMPI_Start)(&Made[W][1]);
         (W ? MPI_Waitall : PMPI_Waitall)(2, Made[W], MPI_STATUSES_IGNORE);
       }},
      {"gather-derived",
       [&](bool W) {
         (W ? MPI_Gather : PMPI_Gather)(In, 1, Contig, Out, 1, Contig, 0,
                                        MPI_COMM_SELF);
       }},
      {"scatter-derived",
       [&](bool W) {
         (W ? MPI_Scatter : PMPI_Scatter)(In, 1, Contig, Out, 1, Contig, 0,
                                          MPI_COMM_SELF);
       }},
      {"alltoall-derived",
       [&](bool W) {
         (W ? MPI_Alltoall : PMPI_Alltoall)(In, 1, Contig, Out, 1, Contig,
                                            MPI_COMM_SELF);
       }},
      {"alltoallw-derived",
       [&](bool W) {
         (W ? MPI_Alltoallw : PMPI_Alltoallw)(In, Counts, Displs, Types, Out,
                                              Counts, Displs, Types,
                                              MPI_COMM_SELF);
       }},
      {"neighbor-derived", [&](bool W) {
         (W ? MPI_Neighbor_alltoallw : PMPI_Neighbor_alltoallw)(
             In, Counts, Bytes, Types, Out, Counts, Bytes, Types, Ring);
       }}};
  for (const Case &C : Cases) {
    std::vector<double> Wrapped, Direct, Diff;
    for (int P = 0; P < Pairs; ++P) {
      // Alternating which goes first cancels a drift within the pair.
      bool WrappedFirst = P % 2 == 0;
      double A = perIterationNs(Iterations, [&] { C.Body(WrappedFirst); });
      double B = perIterationNs(Iterations, [&] { C.Body(!WrappedFirst); });
      Wrapped.push_back(WrappedFirst ? A : B);
      Direct.push_back(WrappedFirst ? B : A);
      Diff.push_back(Wrapped.back() - Direct.back());
    }
    std::printf("%-20s %8.1f %8.1f %8.1f\n", C.Name, median(Wrapped),
                median(Direct), median(Diff));
  }
  for (auto &Requests : Made)
    for (MPI_Request &R : Requests)
      MPI_Request_free(&R);
  MPI_Comm_free(&Ring);
  MPI_Type_free(&Contig);
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  if (argc > 1 && std::string(argv[1]) == "--paired") {
    paired(argc > 2 ? std::atol(argv[2]) : 20000);
    MPI_Finalize();
    return 0;
  }
  long Iterations = argc > 1 ? std::atol(argv[1]) : 1000000;
  const int Reps = 7;

  MPI_Datatype Vec;
  MPI_Type_vector(4, 1, 2, MPI_INT, &Vec);
  MPI_Type_commit(&Vec);
  int In[16] = {1, 2, 3, 4, 5, 6, 7, 8}, Out[16], Recv[16];
  int Size = static_cast<int>(sizeof(Out));

  auto report = [](const char *Name, double Ns) {
    std::printf("%-16s %8.1f\n", Name, Ns);
  };
  report("pack-derived", medianNs(Iterations, Reps, [&] {
           int Position = 0;
           MPI_Pack(In, 1, Vec, Out, Size, &Position, MPI_COMM_SELF);
         }));
  report("pack-predefined", medianNs(Iterations, Reps, [&] {
           int Position = 0;
           MPI_Pack(In, 4, MPI_INT, Out, Size, &Position, MPI_COMM_SELF);
         }));
  report("isend-irecv", medianNs(Iterations / 4, Reps, [&] {
           MPI_Request Reqs[2];
           MPI_Status Statuses[2];
           MPI_Irecv(Recv, 1, Vec, 0, 0, MPI_COMM_SELF, &Reqs[0]);
           MPI_Isend(In, 1, Vec, 0, 0, MPI_COMM_SELF, &Reqs[1]);
           MPI_Waitall(2, Reqs, Statuses);
         }));
  report("commit-free", medianNs(Iterations / 20, Reps, [&] {
           MPI_Datatype T;
           MPI_Type_vector(4, 1, 2, MPI_INT, &T);
           MPI_Type_commit(&T);
           MPI_Type_free(&T);
         }));

  MPI_Type_free(&Vec);
  MPI_Finalize();
  return 0;
}

//===- bench/trace-overhead.cpp - What libddtc_trace.so costs per call ----===//
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
//===----------------------------------------------------------------------===//
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

namespace {

double medianNs(long Iterations, int Reps, const std::function<void()> &Body) {
  std::vector<double> Times;
  for (int R = 0; R < Reps; ++R) {
    auto Start = std::chrono::steady_clock::now();
    for (long I = 0; I < Iterations; ++I)
      Body();
    std::chrono::duration<double, std::nano> D =
        std::chrono::steady_clock::now() - Start;
    Times.push_back(D.count() / static_cast<double>(Iterations));
  }
  std::sort(Times.begin(), Times.end());
  return Times[Times.size() / 2];
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
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

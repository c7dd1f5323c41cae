//===- bench/runtime/sparse-nests.cpp - Faces: typed or packed ------------===//
//
// The measurement behind the runtime's sparse-blocks rule (docs/runtime.md,
// "Sparse blocks"): round trips between two ranks of a face of doubles --
// hvector(Planes, 1, PlaneStride, vector(Rows, 1, Stride, MPI_DOUBLE)), as
// NAS MG's x faces are built -- sent two ways, alternating within one
// process, so that the VM's slower and faster periods fall on both alike:
//
//   typed    MPI_Send/MPI_Recv of the type: MPI's pipelined engine
//   packed   a copy loop packs it into a buffer, sent as the runtime sends
//            packed bytes in its split window (two blocks of MPI_BYTE, the
//            last 64 bytes apart), and a copy loop unpacks it
//
// over a grid of row strides (8 to 1 row per 4 KiB page) and face sizes
// (2,048 to 32,768 doubles). Prints per face the pages its span covers,
// the median round trip of each way in microseconds over ROUNDS rounds,
// and typed / packed (above 1: packing wins).
//
//   mpiexec.mpich -n 2 build/bench/ddtc-sparse-nests [ROUNDS]
//
//===----------------------------------------------------------------------===//
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

struct Face {
  int Planes, Rows;
  long Stride;      ///< between rows, in doubles
  long PlaneStride; ///< between planes, in bytes
};

double median(std::vector<double> V) {
  std::sort(V.begin(), V.end());
  return V[V.size() / 2];
}

class Exchange {
public:
  Exchange(const Face &F, int Rank)
      : F(F), Other(1 - Rank), First(Rank == 0),
        Span(static_cast<long>(F.Planes - 1) * F.PlaneStride +
             static_cast<long>(F.Rows - 1) * F.Stride * 8 + 8),
        Bytes(static_cast<long>(F.Planes) * F.Rows * 8), Data(Span, 1),
        Packed(Bytes + 64) {
    MPI_Datatype Row;
    MPI_Type_vector(F.Rows, 1, static_cast<int>(F.Stride), MPI_DOUBLE, &Row);
    MPI_Type_create_hvector(F.Planes, 1, F.PlaneStride, Row, &Typed);
    MPI_Type_commit(&Typed);
    MPI_Type_free(&Row);
    // The runtime's split send: the same bytes, the last 64 past a gap.
    int Lengths[2] = {static_cast<int>(Bytes - 64), 64};
    MPI_Aint Displs[2] = {0, Bytes};
    MPI_Type_create_hindexed(2, Lengths, Displs, MPI_BYTE, &Split);
    MPI_Type_commit(&Split);
  }
  ~Exchange() {
    MPI_Type_free(&Typed);
    MPI_Type_free(&Split);
  }
  long pages() const { return Span / 4096 + 1; }
  long blocks() const { return static_cast<long>(F.Planes) * F.Rows; }

  /// Microseconds per round trip over Iters round trips.
  double roundTrip(bool Pack, int Iters) {
    MPI_Barrier(MPI_COMM_WORLD);
    double T0 = MPI_Wtime();
    for (int I = 0; I < Iters; ++I)
      for (bool Sending : {First, !First})
        Pack ? packed(Sending) : typed(Sending);
    return (MPI_Wtime() - T0) / Iters * 1e6;
  }

private:
  void typed(bool Sending) {
    if (Sending)
      MPI_Send(Data.data(), 1, Typed, Other, 0, MPI_COMM_WORLD);
    else
      MPI_Recv(Data.data(), 1, Typed, Other, 0, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  }
  void packed(bool Sending) {
    char *Buf = Packed.data();
    if (Sending) {
      double *Out = reinterpret_cast<double *>(Buf);
      for (int P = 0; P < F.Planes; ++P) {
        const char *Plane = Data.data() + P * F.PlaneStride;
        for (int R = 0; R < F.Rows; ++R)
          std::memcpy(Out++, Plane + R * F.Stride * 8, 8);
      }
      std::memcpy(Buf + Bytes, Buf + Bytes - 64, 64);
      MPI_Send(Buf, 1, Split, Other, 0, MPI_COMM_WORLD);
    } else {
      MPI_Recv(Buf, 1, Split, Other, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      std::memcpy(Buf + Bytes - 64, Buf + Bytes, 64);
      const double *In = reinterpret_cast<const double *>(Buf);
      for (int P = 0; P < F.Planes; ++P) {
        char *Plane = Data.data() + P * F.PlaneStride;
        for (int R = 0; R < F.Rows; ++R)
          std::memcpy(Plane + R * F.Stride * 8, In++, 8);
      }
    }
  }

  Face F;
  int Other;
  bool First;
  long Span, Bytes;
  std::vector<char> Data, Packed;
  MPI_Datatype Typed, Split;
};

} // namespace

int main(int Argc, char **Argv) {
  MPI_Init(&Argc, &Argv);
  int Rank, Size;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &Size);
  int Rounds = Argc > 1 ? std::max(1, std::atoi(Argv[1])) : 11;
  if (Size != 2) {
    if (Rank == 0)
      std::fprintf(stderr, "ddtc-sparse-nests: needs 2 ranks\n");
    MPI_Finalize();
    return 1;
  }
  if (Rank == 0)
    std::printf("%7s %6s %6s %7s %7s %10s %10s %7s\n", "stride", "planes",
                "rows", "blocks", "pages", "typed_us", "packed_us", "speedup");
  for (long Stride : {65, 130, 258, 514})
    for (auto [Planes, Rows] :
         {std::pair{32, 64}, {64, 64}, {64, 128}, {128, 128}, {256, 128}}) {
      // Planes of Rows + 2 rows, as NAS MG's faces have a ghost row each side.
      Face F{Planes, Rows, Stride, (Rows + 2) * Stride * 8};
      Exchange X(F, Rank);
      X.roundTrip(false, 3); // first touch and MPI's first use, untimed
      X.roundTrip(true, 3);
      std::vector<double> Typed, Packed;
      for (int R = 0; R < Rounds; ++R) {
        Typed.push_back(X.roundTrip(false, 20));
        Packed.push_back(X.roundTrip(true, 20));
      }
      if (Rank == 0) {
        double T = median(Typed), P = median(Packed);
        std::printf("%7ld %6d %6d %7ld %7ld %10.1f %10.1f %7.2f\n", Stride * 8,
                    Planes, Rows, X.blocks(), X.pages(), T, P, T / P);
      }
    }
  MPI_Finalize();
  return 0;
}

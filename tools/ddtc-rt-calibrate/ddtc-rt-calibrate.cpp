//===- tools/ddtc-rt-calibrate/ddtc-rt-calibrate.cpp - Runtime settings ---===//
//
// `mpiexec -n 2 ddtc-rt-calibrate -o rt.conf` measures, between the two
// ranks where it runs, the two choices of libddtc_rt.so that depend on the
// machine and the MPI library rather than on the type (docs/runtime.md,
// "Settings file and calibration"), and writes them as a settings file
// for DDTC_RT_CONFIG:
//
//   DDTC_RT_SPLIT_SEND   the sizes at which the runtime's packed bytes go
//                        faster as two blocks than as one contiguous run
//                        (a contiguous message above the eager limit waits
//                        for a rendezvous; "Split sends");
//   DDTC_RT_TYPED_BLOCKS the block and message sizes above which MPI's own
//                        engine, pipelining its packing with the transfer,
//                        beats packing with a kernel and sending the bytes
//                        ("Large blocks in large messages").
//
// Each choice is a pair of round trips compared at each size: the two
// variants alternate within a round (which goes first alternates too),
// every measurement is the median of nrep round trips after a barrier
// (seed 000's method), and the result is the median over rounds. A
// variant wins where its median is at least Margin faster and loses where
// the other's is; a setting covers the sizes from a win on to the last
// size before a loss, so that a tie (where the choice costs nothing)
// does not end it where the noise happens to fall.
//
//===----------------------------------------------------------------------===//
#include "TypedRules.h"

#include "ddtc/MPI/MPISupport.h"
#include "ddtc/MPI/SplitSend.h"
#include "ddtc/Support/ByteSize.h"

#include <mpi.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <string>
#include <unistd.h>
#include <vector>

using namespace ddtc;

namespace {

/// A variant must be this much faster (median against median) to win.
constexpr double Margin = 0.95;

struct Options {
  std::string Output; // "" for stdout
  int Rounds = 11;
  bool Quick = false;
};

int Rank = 0;

void progress(const std::string &What) {
  if (Rank == 0)
    std::fprintf(stderr, "\rddtc-rt-calibrate: %-60s", What.c_str());
}

int nrepFor(uint64_t Bytes) {
  return Bytes <= 64 * 1024 ? 100 : Bytes <= 1024 * 1024 ? 50 : 20;
}

/// Rank 0's median of Nrep round trips: rank 0 sends, then receives;
/// rank 1 receives, then sends.
double roundTrip(int Nrep, const std::function<void()> &Send,
                 const std::function<void()> &Recv) {
  auto Trip = [&] {
    if (Rank == 0) {
      Send();
      Recv();
    } else {
      Recv();
      Send();
    }
  };
  for (int I = 0; I < 3; ++I)
    Trip();
  PMPI_Barrier(MPI_COMM_WORLD);
  std::vector<double> T(Nrep);
  for (int I = 0; I < Nrep; ++I) {
    double Start = PMPI_Wtime();
    Trip();
    T[I] = PMPI_Wtime() - Start;
  }
  std::nth_element(T.begin(), T.begin() + Nrep / 2, T.end());
  return T[Nrep / 2] * 1e6;
}

/// Packed bytes to the other rank as the runtime sends them: in two
/// blocks where Split, else one contiguous run.
void sendPacked(char *Buf, uint64_t Bytes, bool Split) {
  SplitSends::Wire W =
      Split ? SplitSends::get().wire(Buf, Bytes)
            : SplitSends::Wire{static_cast<MPI_Count>(Bytes), MPI_PACKED};
  PMPI_Send(Buf, static_cast<int>(W.Count), W.Type, 1 - Rank, 0,
            MPI_COMM_WORLD);
}

void recvPacked(char *Buf, uint64_t Bytes) {
  PMPI_Recv(Buf, static_cast<int>(Bytes), MPI_PACKED, 1 - Rank, 0,
            MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

double median(std::vector<double> V) {
  std::nth_element(V.begin(), V.begin() + V.size() / 2, V.end());
  return V[V.size() / 2];
}

/// The medians over rounds of two variants, alternating.
std::pair<double, double> compare(int Rounds, const std::function<double()> &A,
                                  const std::function<double()> &B) {
  std::vector<double> TA, TB;
  for (int R = 0; R < Rounds; ++R) {
    if (R % 2 == 0) {
      TA.push_back(A());
      TB.push_back(B());
    } else {
      TB.push_back(B());
      TA.push_back(A());
    }
  }
  return {median(TA), median(TB)};
}

/// The split window: (Lo, Hi], or Hi = 0 for off.
std::pair<uint64_t, uint64_t> calibrateSplit(const Options &O,
                                             std::vector<std::string> &Table) {
  std::vector<uint64_t> Sizes =
      O.Quick ? std::vector<uint64_t>{16 << 10, 64 << 10}
              : std::vector<uint64_t>{8256,     16 << 10,  24 << 10, 32 << 10,
                                      48 << 10, 64 << 10,  128 << 10,
                                      256 << 10, 512 << 10, 1 << 20, 2 << 20,
                                      4 << 20};
  std::vector<char> Buf((4 << 20) + SplitSends::Gap + 64, 1);
  std::vector<bool> Wins, Loses;
  Table.push_back("# split sends: round trip of packed bytes, us (median of " +
                  std::to_string(O.Rounds) + " rounds)");
  Table.push_back("#   bytes  contiguous  two-blocks");
  for (uint64_t S : Sizes) {
    progress("split sends, " + formatByteSize(S));
    int Nrep = nrepFor(S);
    auto Recv = [&] { recvPacked(Buf.data(), S); };
    auto Contiguous = [&] {
      return roundTrip(Nrep, [&] { sendPacked(Buf.data(), S, false); }, Recv);
    };
    auto Split = [&] {
      return roundTrip(Nrep, [&] { sendPacked(Buf.data(), S, true); }, Recv);
    };
    auto [TC, TS] = compare(O.Rounds, Contiguous, Split);
    Wins.push_back(TS < Margin * TC);
    Loses.push_back(Margin * TS > TC);
    char Line[128];
    std::snprintf(Line, sizeof Line, "# %8llu  %10.2f  %10.2f%s",
                  static_cast<unsigned long long>(S), TC, TS,
                  Wins.back() ? "  two blocks" : "");
    Table.push_back(Line);
  }
  // From the first size where two blocks win up to the last before they
  // lose: sizes where neither wins by the margin cost nothing either way,
  // and letting them end the window would make it end wherever the noise
  // put a tie.
  size_t First = 0;
  while (First < Sizes.size() && !Wins[First])
    ++First;
  if (First == Sizes.size())
    return {0, 0};
  size_t Last = First;
  while (Last + 1 < Sizes.size() && !Loses[Last + 1])
    ++Last;
  while (!Wins[Last]) // end on a size measured to win
    --Last;
  uint64_t Lo = First == 0 ? 8192 : Sizes[First - 1];
  return {Lo, Sizes[Last]};
}

/// Typed blocks: the rules for DDTC_RT_TYPED_BLOCKS (none for off).
std::vector<TypedRule> calibrateTyped(const Options &O,
                                      std::pair<uint64_t, uint64_t> Window,
                                      std::vector<std::string> &Table) {
  std::vector<uint64_t> Blocks =
      O.Quick ? std::vector<uint64_t>{1024}
              : std::vector<uint64_t>{256, 384, 512, 1024, 4096};
  std::vector<uint64_t> Sizes =
      O.Quick ? std::vector<uint64_t>{64 << 10}
              : std::vector<uint64_t>{16 << 10, 32 << 10, 64 << 10,
                                      128 << 10, 256 << 10, 1 << 20};
  Table.push_back("# large blocks: round trip, us (median of " +
                  std::to_string(O.Rounds) +
                  " rounds); packed: a copy per block on each side, the "
                  "bytes sent as the runtime sends them");
  Table.push_back("#   block     bytes      packed     typed");
  uint64_t MaxBytes = Sizes.back();
  std::vector<char> Typed(2 * MaxBytes, 1), Packed(MaxBytes + SplitSends::Gap);
  std::vector<std::vector<Outcome>> Outcomes(Blocks.size());
  for (size_t BI = 0; BI < Blocks.size(); ++BI) {
    uint64_t B = Blocks[BI];
    for (uint64_t S : Sizes) {
      progress("large blocks, " + formatByteSize(B) + " in " + formatByteSize(S));
      uint64_t N = S / B;
      MPI_Datatype T;
      // N blocks of B bytes of doubles, a block's length apart.
      PMPI_Type_vector(static_cast<int>(N), static_cast<int>(B / 8),
                       static_cast<int>(B / 4), MPI_DOUBLE, &T);
      PMPI_Type_commit(&T);
      int Nrep = nrepFor(S);
      auto TypedTrip = [&] {
        return roundTrip(
            Nrep,
            [&] { PMPI_Send(Typed.data(), 1, T, 1 - Rank, 0, MPI_COMM_WORLD); },
            [&] {
              PMPI_Recv(Typed.data(), 1, T, 1 - Rank, 0, MPI_COMM_WORLD,
                        MPI_STATUS_IGNORE);
            });
      };
      bool Split = S > Window.first && S <= Window.second;
      auto PackedTrip = [&] {
        auto Send = [&] {
          for (uint64_t K = 0; K < N; ++K)
            std::memcpy(Packed.data() + K * B, Typed.data() + 2 * K * B, B);
          sendPacked(Packed.data(), S, Split);
        };
        auto Recv = [&] {
          recvPacked(Packed.data(), S);
          for (uint64_t K = 0; K < N; ++K)
            std::memcpy(Typed.data() + 2 * K * B, Packed.data() + K * B, B);
        };
        return roundTrip(Nrep, Send, Recv);
      };
      auto [TP, TT] = compare(O.Rounds, PackedTrip, TypedTrip);
      PMPI_Type_free(&T);
      Outcome R = TT < Margin * TP   ? Outcome::TypedWins
                  : Margin * TT > TP ? Outcome::TypedLoses
                                     : Outcome::Tie;
      Outcomes[BI].push_back(R);
      char Line[128];
      std::snprintf(Line, sizeof Line, "# %7s  %8s  %10.2f  %8.2f%s",
                    formatByteSize(B).c_str(), formatByteSize(S).c_str(), TP,
                    TT, R == Outcome::TypedWins ? "  typed" : "");
      Table.push_back(Line);
    }
  }
  return deriveTypedRules(Blocks, Sizes, Outcomes);
}

std::string hostName() {
  char H[256] = {};
  gethostname(H, sizeof H - 1);
  return H;
}

int usage(const char *Message) {
  if (Rank == 0)
    std::fprintf(stderr,
                 "ddtc-rt-calibrate: %s\nusage: mpiexec -n 2 ddtc-rt-calibrate "
                 "[-o FILE] [--rounds N] [--quick]\n",
                 Message);
  return 2;
}

int run(int Argc, char **Argv) {
  Options O;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    if (A == "-o" && I + 1 < Argc)
      O.Output = Argv[++I];
    else if (A == "--rounds" && I + 1 < Argc)
      O.Rounds = std::atoi(Argv[++I]);
    else if (A == "--quick")
      O.Quick = true;
    else if (A == "-h" || A == "--help") {
      if (Rank == 0)
        std::printf("ddtc-rt-calibrate: measures the settings of "
                    "libddtc_rt.so for this machine and MPI library\n"
                    "usage: mpiexec -n 2 ddtc-rt-calibrate [-o FILE] "
                    "[--rounds N] [--quick]\n");
      return 0;
    }
    else
      return usage(("unknown argument '" + A + "'").c_str());
  }
  if (O.Rounds < 1 || O.Rounds > 1000)
    return usage("--rounds takes 1 to 1000");
  int Size = 0;
  PMPI_Comm_size(MPI_COMM_WORLD, &Size);
  if (Size != 2)
    return usage(("runs on 2 ranks (mpiexec -n 2), not " +
                  std::to_string(Size))
                     .c_str());
  if (O.Quick)
    O.Rounds = std::min(O.Rounds, 3);
  // Every size gets a type of two blocks; the runtime's window is what
  // this program measures.
  SplitSends::get().configure("64:1G");

  std::vector<std::string> Table;
  std::pair<uint64_t, uint64_t> Window = calibrateSplit(O, Table);
  // Both ranks send the same way in the second part: rank 0 decided.
  uint64_t W[2] = {Window.first, Window.second};
  PMPI_Bcast(W, 2, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  Window = {W[0], W[1]};
  std::vector<TypedRule> TypedBlocks = calibrateTyped(O, Window, Table);
  SplitSends::get().release();
  if (Rank == 0)
    std::fprintf(stderr, "\r%80s\r", "");
  if (Rank != 0)
    return 0;

  std::time_t Now = std::time(nullptr);
  char Date[64];
  std::strftime(Date, sizeof Date, "%Y-%m-%d %H:%M UTC", std::gmtime(&Now));
  std::string Text;
  Text += "# libddtc_rt.so settings for " + hostName() + ", measured by "
          "ddtc-rt-calibrate on " + Date + "\n";
  Text += "# MPI library: " + mpiLibraryVersion() + "\n";
  Text += "# Use: DDTC_RT_CONFIG=this-file (docs/runtime.md); the "
          "environment overrides a line.\n";
  for (const std::string &L : Table)
    Text += L + "\n";
  Text += "DDTC_RT_SPLIT_SEND=" +
          (Window.second ? formatByteSize(Window.first) + ":" +
                               formatByteSize(Window.second)
                         : std::string("off")) +
          "\n";
  Text += "DDTC_RT_TYPED_BLOCKS=" +
          formatTypedRules(TypedBlocks.data(), TypedBlocks.size(),
                           /*Suffixes=*/true) +
          "\n";
  if (O.Output.empty()) {
    std::fputs(Text.c_str(), stdout);
    return 0;
  }
  FILE *F = std::fopen(O.Output.c_str(), "w");
  if (!F || std::fputs(Text.c_str(), F) < 0 || std::fclose(F) != 0) {
    std::fprintf(stderr, "ddtc-rt-calibrate: cannot write '%s': %s\n",
                 O.Output.c_str(), std::strerror(errno));
    return 1;
  }
  return 0;
}

} // namespace

int main(int Argc, char **Argv) {
  MPI_Init(&Argc, &Argv);
  PMPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  int Rc = run(Argc, Argv);
  // A failure on rank 0 (the file) is the run's: every rank exits with it.
  PMPI_Bcast(&Rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return Rc;
}

//===- tools/ddtc-rt-calibrate/ddtc-rt-calibrate.cpp - Runtime settings ---===//
//
// `mpiexec -n 2 ddtc-rt-calibrate -o rt.conf` measures, between the two
// ranks where it runs, the two choices of libddtc_rt.so that depend on the
// machine and the MPI library rather than on the type (docs/runtime.md,
// "Settings"), and writes them as a settings file for DDTC_RT_CONFIG, or
// with --store into the store the runtime reads by itself (the runtime
// runs `ddtc-rt-calibrate --auto --store` where it finds nothing there).
// Ranks on one node measure the settings for messages within a node;
// ranks on two nodes, those for messages between nodes (DDTC_RT_REMOTE_):
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
// the other's is. The split window covers the sizes from a win on to the
// last size before a loss, so that a tie (where the choice costs nothing)
// does not end it where the noise happens to fall; a typed-blocks rule
// counts a tie for MPI (TypedRules.h), and the packed path wins a
// large-blocks probe only by PackedMargin.
//
// What is measured must be the machine's: a rank that waited for a CPU
// longer than --max-wait of the time (other processes on its cores;
// CpuWait.h) makes the whole measurement void, and nothing is written.
//
//===----------------------------------------------------------------------===//
#include "CpuWait.h"
#include "SettingsMerge.h"
#include "TypedRules.h"

#include "ddtc/MPI/MPISupport.h"
#include "ddtc/MPI/MachineIdentity.h"
#include "ddtc/MPI/SplitSend.h"
#include "ddtc/Runtime/RuntimeSettings.h"
#include "ddtc/Runtime/RuntimeSupport.h"
#include "ddtc/Runtime/SettingsStore.h"
#include "ddtc/Support/ByteSize.h"
#include "ddtc/Support/UsageStatus.h"

#include <CLI/CLI.hpp>
#include <mpi.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unistd.h>
#include <vector>

using namespace ddtc;

namespace {

/// A variant must be this much faster (median against median) to win.
constexpr double Margin = 0.95;

/// How much faster the packed path must be to win a large-blocks probe.
/// The probe is packing's best case: its blocks come from a buffer the
/// ping-pong keeps in cache and are copied with memcpy, where a program's
/// come from wherever its arrays lie. On this project's machine NAS_MG_y's
/// 1 KiB blocks packed ran at 0.65x of MPICH in DDTBench where the probe
/// of 1 KiB blocks tied; a smaller gain is not one a program can count on.
constexpr double PackedMargin = 0.85;

/// How much is measured: the sizes probed, rounds and round trips.
enum class Profile {
  Full,  // the default: every size, 11 rounds
  Auto,  // what the runtime runs at MPI_Init: fewer sizes, a few seconds
  Quick, // a smoke test
};

struct Options {
  std::string Output; // "" for stdout
  int Rounds = 11;
  Profile Depth = Profile::Full;
  bool Store = false;
  bool Show = false;
  double Budget = 0; ///< seconds; 0: none
  /// The most of its time, in percent, a rank may have waited for a CPU
  /// for the measurement to count (CpuWait.h).
  double MaxWait = 5;
};

int Rank = 0;

/// When the measurement must stop (--budget), in PMPI_Wtime's seconds; 0
/// for never. A measurement that takes several times its usual time is
/// sharing the node's cores with other work, and what it would store is
/// the contention's, not the machine's.
double Deadline = 0;

/// Thrown on every rank when the budget is spent.
struct OverBudget {};

/// The exit status of a measurement stopped by its budget (the runtime
/// says why in its warning).
constexpr int BusyStatus = 3;

/// The exit status of a measurement whose ranks waited for a CPU longer
/// than --max-wait allows: other work shared their cores.
constexpr int ContendedStatus = 4;

/// Ends the measurement on every rank alike once the budget is spent:
/// rank 0's clock decides, so that no rank waits for a partner that
/// stopped.
void checkBudget() {
  if (Deadline == 0)
    return;
  int Stop = Rank == 0 && PMPI_Wtime() > Deadline;
  PMPI_Bcast(&Stop, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (Stop)
    throw OverBudget{};
}

void progress(const std::string &What) {
  // A line that rewrites itself, for a terminal; not into a log.
  static const bool Terminal = isatty(2);
  if (Rank == 0 && Terminal)
    std::fprintf(stderr, "\rddtc-rt-calibrate: %-60s", What.c_str());
}

int nrepFor(uint64_t Bytes, Profile Depth) {
  if (Depth == Profile::Auto)
    return Bytes <= 64 * 1024 ? 60 : Bytes <= 1024 * 1024 ? 20 : 8;
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
    checkBudget();
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
  std::vector<uint64_t> Sizes;
  switch (O.Depth) {
  case Profile::Quick:
    Sizes = {16 << 10, 64 << 10};
    break;
  // Sizes on either side of the eager limits of the common libraries on
  // one node (Open MPI's shared memory: 4 KiB with its header; MPICH with
  // UCX: 8 KiB), where a contiguous message starts to wait for a
  // rendezvous and two blocks may not.
  case Profile::Auto:
    Sizes = {3072,      4000,      4160,     6144,     8192,
             8256,      16 << 10,  32 << 10, 64 << 10, 128 << 10,
             256 << 10, 512 << 10, 1 << 20,  2 << 20};
    break;
  case Profile::Full:
    Sizes = {3072,      4000,      4160,     6144,     8192,     8256,
             16 << 10,  24 << 10,  32 << 10, 48 << 10, 64 << 10, 128 << 10,
             256 << 10, 512 << 10, 1 << 20,  2 << 20,  4 << 20};
    break;
  }
  std::vector<char> Buf((4 << 20) + SplitSends::Gap + 64, 1);
  std::vector<bool> Wins, Loses;
  Table.push_back("# split sends: round trip of packed bytes, us (median of " +
                  std::to_string(O.Rounds) + " rounds)");
  Table.push_back("#   bytes  contiguous  two-blocks");
  for (uint64_t S : Sizes) {
    progress("split sends, " + formatByteSize(S));
    int Nrep = nrepFor(S, O.Depth);
    auto Recv = [&] { recvPacked(Buf.data(), S); };
    auto Contiguous = [&] {
      return roundTrip(
          Nrep, [&] { sendPacked(Buf.data(), S, false); }, Recv);
    };
    auto Split = [&] {
      return roundTrip(
          Nrep, [&] { sendPacked(Buf.data(), S, true); }, Recv);
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
  // The window starts above the largest size measured below the first
  // that wins (at the smallest size measured, if that one wins).
  uint64_t Lo = First == 0 ? Sizes[0] - 1 : Sizes[First - 1];
  return {Lo, Sizes[Last]};
}

/// Typed blocks: the rules for DDTC_RT_TYPED_BLOCKS (none for off).
std::vector<TypedRule> calibrateTyped(const Options &O,
                                      std::pair<uint64_t, uint64_t> Window,
                                      std::vector<std::string> &Table) {
  std::vector<uint64_t> Blocks, Sizes;
  switch (O.Depth) {
  case Profile::Quick:
    Blocks = {1024};
    Sizes = {64 << 10};
    break;
  case Profile::Auto:
    Blocks = {256, 1024, 4096};
    Sizes = {16 << 10, 64 << 10, 256 << 10, 1 << 20};
    break;
  case Profile::Full:
    Blocks = {256, 384, 512, 1024, 4096};
    Sizes = {16 << 10, 32 << 10, 64 << 10, 128 << 10, 256 << 10, 1 << 20};
    break;
  }
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
      progress("large blocks, " + formatByteSize(B) + " in " +
               formatByteSize(S));
      uint64_t N = S / B;
      MPI_Datatype T;
      // N blocks of B bytes of doubles, a block's length apart.
      PMPI_Type_vector(static_cast<int>(N), static_cast<int>(B / 8),
                       static_cast<int>(B / 4), MPI_DOUBLE, &T);
      PMPI_Type_commit(&T);
      int Nrep = nrepFor(S, O.Depth);
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
      Outcome R = TT < Margin * TP         ? Outcome::TypedWins
                  : PackedMargin * TT > TP ? Outcome::TypedLoses
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

/// Reads the command line into O; -1 to go on, else the exit status (0 for
/// --help, 2 for a usage error, said by rank 0 only: every rank reaches the
/// same verdict).
int parseOptions(int Argc, char **Argv, Options &O) {
  CLI::App App{"ddtc-rt-calibrate: measures the settings of libddtc_rt.so for "
               "this machine and MPI library (mpiexec -n 2; --show on one "
               "process)",
               "ddtc-rt-calibrate"};
  auto *Output =
      App.add_option("-o", O.Output, "write the settings file to FILE");
  App.add_flag("--store", O.Store,
               "write it into the store the runtime reads by itself; a "
               "measurement stored there once is confirmed by this one (where "
               "they differ, the choice that leaves more to MPI), one "
               "confirmed already is replaced")
      ->excludes(Output);
  bool Auto = false, Quick = false;
  auto *AutoFlag =
      App.add_flag("--auto", Auto, "the runtime's shorter measurement");
  App.add_flag("--quick", Quick, "a smoke test: two sizes, at most 3 rounds")
      ->excludes(AutoFlag);
  App.add_option("--rounds", O.Rounds,
                 "rounds each comparison takes the median of (default 11)")
      ->check(CLI::Range(1, 1000));
  App.add_option("--budget", O.Budget,
                 "stop without a result if the measurement takes longer "
                 "than this many seconds (a busy node)")
      ->check(CLI::Range(0.001, 86400.0));
  App.add_option("--max-wait", O.MaxWait,
                 "write nothing if a rank waited for a CPU longer than this "
                 "percentage of the time (other work on its cores; "
                 "default 5, 100 to keep any measurement)")
      ->check(CLI::Range(0.0, 100.0));
  App.add_flag("--show", O.Show,
               "print the settings the runtime would use here, and where "
               "from; measures nothing");
  try {
    App.parse(Argc, Argv);
  } catch (const CLI::ParseError &E) {
    return usageStatus(App, E, Rank);
  }
  if (Auto)
    O.Depth = Profile::Auto;
  if (Quick)
    O.Depth = Profile::Quick;
  return -1;
}

int usage(const std::string &Message) {
  if (Rank == 0)
    std::fprintf(stderr,
                 "ddtc-rt-calibrate: %s\nRun with --help for more "
                 "information.\n",
                 Message.c_str());
  return 2;
}

/// What a stored file holds besides this measurement's placement, and what
/// it holds of that placement (within a node, or between nodes where
/// Remote): a measurement stored there is merged with it or replaces it.
struct StoredFile {
  /// The lines of the other placement (DDTC_RT_REMOTE_ lines for a
  /// measurement within a node, the others for one between nodes), kept.
  std::string OtherLines;
  /// How many measurements this placement's settings combine (0: none).
  int Measurements = 0;
  SplitWindow Window{0, 0};
  std::vector<TypedRule> Rules;
  /// The file's first line, which says when and where it was measured.
  std::string Header;
};

/// Reads the stored file for the identity Id as the runtime reads it
/// (RuntimeSettings); a file that cannot be trusted or read, or is of
/// another version or identity, holds nothing (it is replaced).
StoredFile readStored(bool Remote, const MachineIdentity &Id) {
  StoredFile Stored;
  RuntimeSettings File;
  File.loadStored(Id.Node, Id.Library);
  if (File.source() != RuntimeSettings::Source::Stored)
    return Stored;
  std::ifstream In(File.path());
  if (std::string First; std::getline(In, First) && First.starts_with("#"))
    Stored.Header = First;
  for (const auto &[Name, Value] : File.fileValues())
    if (Name.starts_with("DDTC_RT_REMOTE_") != Remote &&
        Name != "DDTC_RT_SETTINGS_VERSION" && Name != "DDTC_RT_NODE" &&
        Name != "DDTC_RT_MPI")
      Stored.OtherLines += Name + "=" + Value + "\n";
  std::string Prefix = Remote ? "DDTC_RT_REMOTE_" : "DDTC_RT_";
  std::string Split = File.fileValue(Prefix + "SPLIT_SEND");
  TypedRule Rules[MaxTypedRules];
  size_t N = 0;
  uint64_t Lo = 0, Hi = 0;
  bool Off = Split == "off";
  if ((Off || parseByteSizePair(Split, Lo, Hi)) &&
      parseTypedRules(File.fileValue(Prefix + "TYPED_BLOCKS"), Rules, N)) {
    Stored.Measurements = File.measurements(Remote);
    Stored.Window = Off ? SplitWindow{0, 0} : SplitWindow{Lo, Hi};
    Stored.Rules.assign(Rules, Rules + N);
  }
  return Stored;
}

std::string windowText(SplitWindow W) {
  return W.second ? formatByteSize(W.first) + ":" + formatByteSize(W.second)
                  : std::string("off");
}

std::string rulesText(const std::vector<TypedRule> &Rules) {
  return formatTypedRules(Rules.data(), Rules.size(), /*Suffixes=*/true);
}

/// --show: the settings the runtime would use here and where they come
/// from, without measuring.
int show() {
  if (Rank != 0)
    return 0;
  MachineIdentity Id = machineIdentity();
  RuntimeSettings Settings;
  for (const std::string &W : Settings.load(Id.Node, Id.Library))
    std::fprintf(stderr, "ddtc-rt-calibrate: warning: %s\n", W.c_str());
  std::printf("node type:   %s\nMPI library: %s\n", Id.Node.c_str(),
              Id.Library.c_str());
  std::string Dir = cacheDirectory();
  std::printf("store:       %s\n",
              Dir.empty()
                  ? "none (set DDTC_CACHE, XDG_CACHE_HOME or HOME)"
                  : storedSettingsPath(Dir, Id.Node, Id.Library).c_str());
  std::string Where;
  switch (Settings.source()) {
  case RuntimeSettings::Source::Named:
    Where = "the file DDTC_RT_CONFIG names";
    break;
  case RuntimeSettings::Source::Stored:
    Where = Settings.measurements() >= 2
                ? "the store, measured by two runs"
                : "the store, measured by one run (the next run under the "
                  "runtime measures again to confirm them)";
    break;
  case RuntimeSettings::Source::Measured:
  case RuntimeSettings::Source::Defaults:
    Where = "none yet: the runtime measures them at the first MPI_Init with "
            "kernels (unless DDTC_RT_CALIBRATE=off), the defaults until then";
    break;
  }
  std::printf("settings:    %s%s%s\n", Where.c_str(),
              Settings.path().empty() ? "" : ", ", Settings.path().c_str());
  for (const char *Name :
       {"DDTC_RT_SPLIT_SEND", "DDTC_RT_TYPED_BLOCKS",
        "DDTC_RT_REMOTE_SPLIT_SEND", "DDTC_RT_REMOTE_TYPED_BLOCKS",
        "DDTC_RT_MAX_BUFFER", "DDTC_RT_FORMS", "DDTC_RT_SHAPES"}) {
    const char *V = Settings.get(Name);
    std::string From =
        std::getenv(Name) && *std::getenv(Name) ? " (environment)" : "";
    std::printf("  %s=%s%s\n", Name, V ? V : "(default)", From.c_str());
  }
  return 0;
}

int run(int Argc, char **Argv) {
  Options O;
  if (int Status = parseOptions(Argc, Argv, O); Status >= 0)
    return Status;
  if (O.Show)
    return show();
  int Size = 0;
  PMPI_Comm_size(MPI_COMM_WORLD, &Size);
  if (Size != 2)
    return usage("runs on 2 ranks (mpiexec -n 2), not " + std::to_string(Size));
  if (O.Depth == Profile::Quick)
    O.Rounds = std::min(O.Rounds, 3);
  if (O.Depth == Profile::Auto)
    O.Rounds = std::min(O.Rounds, 7);
  // Two ranks on one node measure for messages within a node; on two
  // nodes, for messages between nodes.
  MPI_Comm Node;
  PMPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL,
                       &Node);
  int NodeSize = 0;
  PMPI_Comm_size(Node, &NodeSize);
  PMPI_Comm_free(&Node);
  bool Remote = NodeSize == 1;
  double Start = PMPI_Wtime();
  std::optional<double> WaitAtStart = cpuWaitSeconds();
  if (O.Budget > 0)
    Deadline = Start + O.Budget;
  // Every size gets a type of two blocks; the runtime's window is what
  // this program measures.
  SplitSends::get().configure("64:1G");

  std::vector<std::string> Table;
  std::pair<uint64_t, uint64_t> Window;
  std::vector<TypedRule> TypedBlocks;
  try {
    Window = calibrateSplit(O, Table);
    // Both ranks send the same way in the second part: rank 0 decided.
    uint64_t W[2] = {Window.first, Window.second};
    PMPI_Bcast(W, 2, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    Window = {W[0], W[1]};
    TypedBlocks = calibrateTyped(O, Window, Table);
  } catch (const OverBudget &) {
    SplitSends::get().release();
    if (Rank == 0)
      std::fprintf(stderr,
                   "ddtc-rt-calibrate: stopped after %g s (--budget): the "
                   "node is too busy to measure; nothing written\n",
                   O.Budget);
    return BusyStatus;
  }
  SplitSends::get().release();
  double Seconds = PMPI_Wtime() - Start;
  // The share of the time the rank that waited most spent waiting for a
  // CPU; 0 where the kernel does not count it.
  std::optional<double> WaitAtEnd = cpuWaitSeconds();
  double Waited = WaitAtStart && WaitAtEnd && Seconds > 0
                      ? (*WaitAtEnd - *WaitAtStart) / Seconds
                      : 0,
         MostWaited = 0;
  PMPI_Reduce(&Waited, &MostWaited, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (Rank == 0 && isatty(2))
    std::fprintf(stderr, "\r%80s\r", "");
  if (Rank != 0)
    return 0;
  if (MostWaited * 100 > O.MaxWait) {
    std::fprintf(stderr,
                 "ddtc-rt-calibrate: a rank waited for a CPU %.0f%% of the "
                 "%.1f s it measured (other work on the node's cores; "
                 "--max-wait %g): its figures are the contention's, not the "
                 "machine's; nothing written\n",
                 MostWaited * 100, Seconds, O.MaxWait);
    return ContendedStatus;
  }

  std::time_t Now = std::time(nullptr);
  char Date[64];
  std::strftime(Date, sizeof Date, "%Y-%m-%d %H:%M UTC", std::gmtime(&Now));
  MachineIdentity Id = machineIdentity();
  std::string Path = O.Output, Err;
  StoredFile Stored;
  if (O.Store) {
    std::string Dir = cacheDirectory();
    if (Dir.empty()) {
      std::fprintf(stderr, "ddtc-rt-calibrate: no cache directory for the "
                           "store (set DDTC_CACHE, XDG_CACHE_HOME or HOME)\n");
      return 1;
    }
    if (!makeTrustedDirectory(Dir, Err)) {
      std::fprintf(stderr, "ddtc-rt-calibrate: %s\n", Err.c_str());
      return 1;
    }
    Path = storedSettingsPath(Dir, Id.Node, Id.Library);
    Stored = readStored(Remote, Id);
  }
  // A store measured once is confirmed by this measurement: where the two
  // differ, the choice that leaves more to MPI (SettingsMerge.h). One
  // measured twice already is replaced, and the next run confirms this.
  bool Confirms = Stored.Measurements == 1;
  std::string Measured = "DDTC_RT_SPLIT_SEND=" + windowText(Window) +
                         ", DDTC_RT_TYPED_BLOCKS=" + rulesText(TypedBlocks);
  if (Confirms) {
    Window = intersectWindows(Window, Stored.Window);
    TypedBlocks = unionTypedRules(TypedBlocks, Stored.Rules);
  }
  char Took[32];
  std::snprintf(Took, sizeof Took, "%.1f", Seconds);
  char Wait[32];
  std::snprintf(Wait, sizeof Wait, "%.1f", MostWaited * 100);
  const std::string Said =
      "# libddtc_rt.so settings measured by ddtc-rt-calibrate on ";
  std::string Text;
  Text += Said + hostName() + ", " + Date + ", in " + Took +
          " s, between ranks " + (Remote ? "on two nodes" : "of one node") +
          " (waiting for a CPU " + Wait + "% of the time)\n";
  if (Confirms)
    Text += "# and before, by another run, on " +
            (Stored.Header.starts_with(Said) ? Stored.Header.substr(Said.size())
                                             : Stored.Header) +
            "\n# that measurement: DDTC_RT_SPLIT_SEND=" +
            windowText(Stored.Window) +
            ", DDTC_RT_TYPED_BLOCKS=" + rulesText(Stored.Rules) +
            "\n# this one: " + Measured +
            "\n# stored: where the two differ, the choice that leaves more "
            "to MPI\n";
  Text += "# Use: DDTC_RT_CONFIG=this-file (docs/runtime.md); the "
          "environment overrides a line.\n";
  Text += "DDTC_RT_SETTINGS_VERSION=" + std::to_string(SettingsVersion) + "\n";
  Text += "DDTC_RT_NODE=" + Id.Node + "\n";
  Text += "DDTC_RT_MPI=" + Id.Library + "\n";
  for (const std::string &L : Table)
    Text += L + "\n";
  std::string Prefix = Remote ? "DDTC_RT_REMOTE_" : "DDTC_RT_";
  if (O.Store)
    Text += Prefix + "MEASUREMENTS=" + (Confirms ? "2" : "1") + "\n";
  Text += Prefix + "SPLIT_SEND=" + windowText(Window) + "\n";
  Text += Prefix + "TYPED_BLOCKS=" + rulesText(TypedBlocks) + "\n";
  Text += Stored.OtherLines;
  if (Path.empty()) {
    std::fputs(Text.c_str(), stdout);
    return 0;
  }
  // Atomically: the runtime of another job may be reading it.
  if (!writeFileAtomically(Path, Text, Err, O.Store ? 0600 : 0666)) {
    std::fprintf(stderr, "ddtc-rt-calibrate: %s\n", Err.c_str());
    return 1;
  }
  if (O.Store)
    std::fprintf(stderr, "ddtc-rt-calibrate: stored %s (%s s%s)\n",
                 Path.c_str(), Took,
                 Confirms ? ", confirming the measurement stored before" : "");
  return 0;
}

} // namespace

int main(int Argc, char **Argv) {
  // PMPI: with the runtime preloaded by mistake, the runtime must not
  // start measuring (again) on its own.
  PMPI_Init(&Argc, &Argv);
  PMPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  int Rc = run(Argc, Argv);
  // A failure on rank 0 (the file) is the run's: every rank exits with it.
  PMPI_Bcast(&Rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
  PMPI_Finalize();
  return Rc;
}

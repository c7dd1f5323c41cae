//===- bench/runtime/RtPingPong.cpp - Ping-pong of committed types --------===//
//
// The benchmark of libddtc_rt.so (docs/performance.md, "Runtime
// substitution"; run by bench/runtime/rt-pingpong.sh, rt-collectives.sh and
// others). An ordinary MPI program: it builds every named type of its
// description files with MPI constructor calls (TypeBuilder), commits it and
// communicates it: with MPI_Send and MPI_Recv, or through another operation
// (--op). It knows nothing of ddtc's kernels; the scripts run the same binary
// plain and with the runtime preloaded, and compare.
//
// Ping-pong (the default; 2 ranks): the method of seed 000
// (docs/design.md#references), §2.3. One instance of the type goes from rank 0
// to rank 1 and back (rank 1 returns what it received, from its receive
// buffer). Before each ping-pong both ranks meet in MPI_Barrier; each times its
// own part with MPI_Wtime, and the time of the ping-pong is the larger of the
// two. A run is nrep ping-pongs, by packed size m:
//
//   nrep = 100 if m <= 32 KiB,  50 if m <= 320 KiB,  20 beyond
//
// (the seed's thresholds, "32 kBytes" and "320 kBytes", read as KiB; --nrep
// overrides). Each ping-pong of the type is followed by one of the
// reference: the same number of bytes as one contiguous MPI_BYTE message,
// so that both see the same moment of the machine. Per run the median of
// the nrep times is taken; over --runs runs, the median, mean, minimum and
// maximum of those medians are printed. Before the runs, two ping-pongs of
// each (not timed) warm up the buffers and MPI's paths, and the first one
// is checked: the bytes each rank receives must be the bytes rank 0 sent,
// at every typemap position.
//
// Other operations (--op; RtOperations.h), timed alike, the operation's
// time the largest of all ranks' times, each call of the type followed by
// one of the reference (the same bytes as MPI_BYTE through the same
// operation), both checked before the runs against what every sender sent:
//   pingpong-persistent  the ping-pong through requests made once per type
//                        (MPI_Send_init, MPI_Recv_init), each round
//                        MPI_Start and MPI_Wait
//   alltoall, alltoallw  one instance from every rank to every rank (the
//                        w-form: counts 1, byte displacements)
//   gather, scatter      one instance per rank to or from root 0
//   neighbor-alltoallw   one instance to every neighbor on a periodic 2-D
//                        Cartesian communicator shaped by MPI_Dims_create
// The collectives run on any number of ranks; nrep goes by one instance's
// packed size, as for the ping-pong.
//
// Commit (--commit; any number of ranks, rank 0 works): times
// MPI_Type_commit of each type, built afresh (not timed) before every
// commit and freed after it. The first commit of a type in the process is
// reported alone: under the runtime it decodes, normalizes and looks the
// type up, and later commits of the same type may find the result cached.
// Then --commit-reps commits per run, the median of each run, the same
// statistics over --runs runs.
//
// Buffers: one instance spans [true lb, true lb + true extent) from the
// pointer given to MPI; that pointer is 64-byte aligned, as an
// application's array would be, and each buffer starts at its role's
// offset within a page, as ddtc-bench's do (tools/ddtc-bench/Buffer.h).
//
// Floor (--pieces BYTES; 2 ranks): what a packing scheme that sends its
// packed bytes through MPI could reach, beside MPI's own datatype path.
// The type's ping-pong is timed with four of its bytes: as one contiguous
// message (the reference); as consecutive pieces of BYTES, posted and sent
// as ddtc-bench's ddtc variant sends them (its protocol with no packing at
// all); those pieces with a memcpy of each piece into a staging buffer
// before it is sent and out of one after it arrives (packing at memcpy
// speed from contiguous data: no pack is cheaper); and those pieces copied
// run by run from the type's layout and back into it (a memcpy per
// contiguous run: a pack at memcpy speed where the blocks are large, a
// poor one where they are small). Where MPI's datatype path is as fast as
// the last, no packing scheme can be faster than it by more than the
// difference (docs/performance.md, "Placement, and the floor of packing
// schemes").
// With --split LO:HI (the runtime's split window, from its report), two
// more: the bytes sent as the runtime sends a packed message in that
// window, in two blocks (include/ddtc/MPI/SplitSend.h), straight from a
// contiguous buffer and copied into it with one memcpy and out of the
// receive buffer with another: the bound and the floor of the runtime's own
// pipeline. Outside the window they are one contiguous message.
//
// Types of size 0 and those on which MPICH 4.0.2's pack may crash
// (mayCrashYaksaPack) are skipped, with a note on stderr.
//
// Usage:
//   ddtc-rt-pingpong [--op OP] [--runs R] [--nrep N] FILE...
//   ddtc-rt-pingpong --commit [--runs R] [--commit-reps N] FILE...
//   ddtc-rt-pingpong --pieces BYTES [--split LO:HI] [--runs R] [--nrep N]
//                    FILE...
//
// Output (rank 0), CSV with a header line, times in microseconds:
//   name,bytes,nrep,type_median,type_mean,type_min,type_max,
//     ref_median,ref_mean,ref_min,ref_max,op
//   name,bytes,reps,first,commit_median,commit_mean,commit_min,commit_max
//   name,bytes,nrep,piece,type_median,ref_median,pieces_median,
//     copied_median,layout_median[,split_median,split_copied_median]
//
//===----------------------------------------------------------------------===//
#include "ddtc/IR/Module.h"
#include "ddtc/IR/TypeContext.h"
#include "ddtc/IR/TypemapWalker.h"
#include "ddtc/MPI/PredefinedHandles.h"
#include "ddtc/MPI/SplitSend.h"
#include "ddtc/MPI/TypeBuilder.h"
#include "ddtc/Reader/ReadFile.h"
#include "ddtc/Support/UsageStatus.h"
#include "ddtc/Target/MPICHRules.h"

#include "Buffer.h"
#include "RtOperations.h"

#include <CLI/CLI.hpp>
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

using namespace ddtc;
using ddtc::bench::Buffer;
using ddtc::bench::OpKind;

namespace {

int Rank = 0, Size = 1;

struct Options {
  int Runs = 10;
  int Nrep = 0; ///< 0: by message size
  bool Commit = false;
  int CommitReps = 20;
  int Pieces = 0;    ///< --pieces: the piece in bytes; 0: not this mode
  std::string Split; ///< --split: the runtime's split window; "": none
  OpKind Op = OpKind::PingPong;
  std::vector<std::string> Files;
};

[[noreturn]] void fail(const std::string &Msg) {
  std::fprintf(stderr, "ddtc-rt-pingpong: error: %s\n", Msg.c_str());
  std::fflush(stdout);
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::exit(1);
}

//===----------------------------------------------------------------------===//
// Statistics
//===----------------------------------------------------------------------===//

double median(std::vector<double> V) {
  std::sort(V.begin(), V.end());
  size_t N = V.size();
  return N % 2 ? V[N / 2] : (V[N / 2 - 1] + V[N / 2]) / 2;
}

/// Seed 000 §2.3.3: the median of each run; over the runs, the median,
/// mean, minimum and maximum of those medians (seconds in, microseconds
/// out, as text).
class RunStats {
public:
  void addRun(const std::vector<double> &Seconds) {
    Medians.push_back(median(Seconds) * 1e6);
  }
  double medianUs() const { return median(Medians); }
  std::string csv() const {
    double Mean = std::accumulate(Medians.begin(), Medians.end(), 0.0) /
                  static_cast<double>(Medians.size());
    auto [Min, Max] = std::minmax_element(Medians.begin(), Medians.end());
    char Buf[128];
    std::snprintf(Buf, sizeof Buf, "%.3f,%.3f,%.3f,%.3f", median(Medians), Mean,
                  *Min, *Max);
    return Buf;
  }

private:
  std::vector<double> Medians;
};

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

/// Bytes [0, Bytes) at Role's place in a page, filled with Salt's pattern.
Buffer contiguousBuffer(int64_t Bytes, size_t Role, uint64_t Salt) {
  Buffer B(0, Bytes, Role);
  B.fill(Salt);
  return B;
}

/// One instance of T, likewise.
Buffer typedBuffer(const Type *T, size_t Role, uint64_t Salt) {
  Buffer B(T->trueLb(), T->trueLb() + T->trueExtent(), Role);
  B.fill(Salt);
  return B;
}

//===----------------------------------------------------------------------===//
// Ping-pong
//===----------------------------------------------------------------------===//

/// One timed ping-pong of Count elements of T; this rank's elapsed time.
double pingPong(const void *Send, void *Recv, int Count, MPI_Datatype T) {
  MPI_Barrier(MPI_COMM_WORLD);
  double Start = MPI_Wtime();
  bench::pingPongOnce(Send, Recv, Count, T);
  return MPI_Wtime() - Start;
}

int nrepFor(int64_t Bytes, const Options &O) {
  if (O.Nrep > 0)
    return O.Nrep;
  if (Bytes <= 32 * 1024)
    return 100;
  if (Bytes <= 320 * 1024)
    return 50;
  return 20;
}

/// The largest of the ranks' times, per call, on rank 0.
std::vector<double> slowerRank(const std::vector<double> &Mine) {
  std::vector<double> Max(Mine.size());
  MPI_Reduce(Mine.data(), Max.data(), static_cast<int>(Mine.size()), MPI_DOUBLE,
             MPI_MAX, 0, MPI_COMM_WORLD);
  return Max;
}

/// How the pieces of a --pieces ping-pong are made and taken apart: piece
/// I of a message is bytes [I x Piece, (I + 1) x Piece) of its packed
/// stream. With no copier the message's bytes are sent where they lie.
class PieceCopier {
public:
  /// Contiguous: the stream is a contiguous buffer, copied with one memcpy
  /// per piece. Otherwise T's byte runs, one memcpy each (T's blocks are
  /// taken from where they lie in a typed buffer, as a pack would).
  PieceCopier(const Type *T, int64_t Piece, bool Contiguous) {
    int64_t Bytes = T->size();
    if (Contiguous) {
      for (int64_t Lo = 0; Lo < Bytes; Lo += Piece) {
        First.push_back(Runs.size());
        Runs.push_back(
            {Lo, Lo, static_cast<size_t>(std::min(Piece, Bytes - Lo))});
      }
      First.push_back(Runs.size());
      return;
    }
    // The runs, split where pieces end, and the first run of each piece.
    TypemapWalker W(T, 1, WalkMode::Bytes);
    TypemapRun Run;
    int64_t Packed = 0;
    while (W.next(Run))
      for (int64_t Done = 0; Done < Run.Length;) {
        int64_t Len = std::min(Run.Length - Done, Piece - Packed % Piece);
        if (Packed % Piece == 0)
          First.push_back(Runs.size());
        Runs.push_back({Run.Offset + Done, Packed, static_cast<size_t>(Len)});
        Done += Len;
        Packed += Len;
      }
    First.push_back(Runs.size());
  }
  /// Piece I of what Typed holds into Stage (at its place in the stream).
  void out(const uint8_t *Typed, uint8_t *Stage, int I) const {
    for (size_t R = First[I]; R < First[I + 1]; ++R)
      std::memcpy(Stage + Runs[R].Packed, Typed + Runs[R].Typed,
                  Runs[R].Length);
  }
  /// Piece I from Stage into its place in Typed.
  void in(const uint8_t *Stage, uint8_t *Typed, int I) const {
    for (size_t R = First[I]; R < First[I + 1]; ++R)
      std::memcpy(Typed + Runs[R].Typed, Stage + Runs[R].Packed,
                  Runs[R].Length);
  }

private:
  struct Segment {
    int64_t Typed, Packed;
    size_t Length;
  };
  std::vector<Segment> Runs;
  std::vector<size_t> First; ///< piece I's runs: [First[I], First[I + 1])
};

/// One timed round trip: rank 0 sends Send to rank 1 and receives the
/// reply into Recv; rank 1 receives into Recv and sends it back. Send(From,
/// Peer) and Receive(To, Peer) move the message. This rank's elapsed time.
template <typename SendFn, typename ReceiveFn>
double timedRoundTrip(const uint8_t *Send, uint8_t *Recv, SendFn send,
                      ReceiveFn receive) {
  MPI_Barrier(MPI_COMM_WORLD);
  double Start = MPI_Wtime();
  if (Rank == 0) {
    send(Send, 1);
    receive(Recv, 1);
  } else if (Rank == 1) {
    receive(Recv, 0);
    send(Recv, 0);
  }
  return MPI_Wtime() - Start;
}

/// One timed ping-pong of a message of Bytes packed bytes in pieces of
/// Piece bytes, every receive posted first and every send started at once,
/// as ddtc-bench's ddtc variant does. Without a copier the pieces are sent
/// from Send and received into Recv where they lie; with one, each piece is
/// copied (packed) from Send into Stage before it is sent and out of Stage
/// into Recv (unpacked) once it has arrived. This rank's elapsed time.
double piecesPingPong(const uint8_t *Send, uint8_t *Recv, uint8_t *Stage,
                      int64_t Bytes, int64_t Piece, const PieceCopier *Copy,
                      std::vector<MPI_Request> &Requests) {
  constexpr int Tag = 8;
  const int N = static_cast<int>((Bytes + Piece - 1) / Piece);
  auto send = [&](const uint8_t *From, int Peer) {
    for (int I = 0; I < N; ++I) {
      int64_t Lo = I * Piece, Len = std::min(Piece, Bytes - Lo);
      const uint8_t *Out = From + Lo;
      if (Copy) {
        Copy->out(From, Stage, I);
        Out = Stage + Lo;
      }
      MPI_Isend(Out, static_cast<int>(Len), MPI_BYTE, Peer, Tag, MPI_COMM_WORLD,
                &Requests[static_cast<size_t>(I)]);
    }
    MPI_Waitall(N, Requests.data(), MPI_STATUSES_IGNORE);
  };
  auto receive = [&](uint8_t *To, int Peer) {
    uint8_t *In = Copy ? Stage : To;
    for (int I = 0; I < N; ++I) {
      int64_t Lo = I * Piece, Len = std::min(Piece, Bytes - Lo);
      MPI_Irecv(In + Lo, static_cast<int>(Len), MPI_BYTE, Peer, Tag,
                MPI_COMM_WORLD, &Requests[static_cast<size_t>(I)]);
    }
    for (int I = 0; I < N; ++I) {
      MPI_Wait(&Requests[static_cast<size_t>(I)], MPI_STATUS_IGNORE);
      if (Copy)
        Copy->in(Stage, To, I);
    }
  };
  return timedRoundTrip(Send, Recv, send, receive);
}

/// One timed ping-pong of Bytes packed bytes sent as the runtime sends a
/// packed message (SplitSends: in two blocks where Bytes is in the split
/// window) from Stage, a buffer of SplitSends::bufferBytes(Bytes). With
/// Copy, each side copies Send into Stage before its send and Stage into
/// Recv after its receive (packing and unpacking at memcpy speed); without,
/// Stage holds the bytes and is sent and received as it is. This rank's
/// elapsed time.
double splitPingPong(const uint8_t *Send, uint8_t *Recv, uint8_t *Stage,
                     int64_t Bytes, bool Copy) {
  constexpr int Tag = 10;
  auto send = [&](const uint8_t *From, int Peer) {
    if (Copy)
      std::memcpy(Stage, From, static_cast<size_t>(Bytes));
    SplitSends::Wire W = SplitSends::get().wire(reinterpret_cast<char *>(Stage),
                                                static_cast<uint64_t>(Bytes));
    MPI_Send(Stage, static_cast<int>(W.Count), W.Type, Peer, Tag,
             MPI_COMM_WORLD);
  };
  auto receive = [&](uint8_t *To, int Peer) {
    MPI_Recv(Stage, static_cast<int>(Bytes), MPI_PACKED, Peer, Tag,
             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (Copy)
      std::memcpy(To, Stage, static_cast<size_t>(Bytes));
  };
  return timedRoundTrip(Send, Recv, send, receive);
}

/// --pieces: the type through MPI's datatype path against its bytes as one
/// message, in pieces, in pieces copied from and to contiguous buffers, and
/// in pieces copied run by run from and to the type's layout.
void benchFloor(const std::string &Name, const Type *T, MPI_Datatype H,
                const Options &O) {
  int64_t Bytes = T->size(), Piece = O.Pieces;
  int Nrep = nrepFor(Bytes, O);
  Buffer TypedSend = typedBuffer(T, Buffer::TypedSend, 1),
         TypedRecv = typedBuffer(T, Buffer::TypedRecv, 2),
         RefSend = contiguousBuffer(Bytes, Buffer::RefSend, 3),
         RefRecv = contiguousBuffer(Bytes, Buffer::RefRecv, 4),
         Stage = contiguousBuffer(Bytes, Buffer::PackedSend, 5),
         SplitStage = contiguousBuffer(
             static_cast<int64_t>(
                 SplitSends::get().bufferBytes(static_cast<uint64_t>(Bytes))),
             Buffer::PackedRecv, 6);
  std::vector<MPI_Request> Requests(
      static_cast<size_t>((Bytes + Piece - 1) / Piece));
  PieceCopier Contiguous(T, Piece, true), Layout(T, Piece, false);
  const int Kinds = O.Split.empty() ? 5 : 7;
  // Each kind's ping-pong: the typed send, one contiguous message, pieces,
  // pieces copied contiguously, pieces copied from the layout; with
  // --split, the bytes sent as the runtime sends them, from the stage and
  // copied into and out of it.
  auto pingPongOf = [&](int Kind) {
    switch (Kind) {
    case 0:
      return pingPong(TypedSend.base(), TypedRecv.base(), 1, H);
    case 1:
      return pingPong(RefSend.base(), RefRecv.base(), static_cast<int>(Bytes),
                      MPI_BYTE);
    case 2:
    case 3:
      return piecesPingPong(RefSend.base(), RefRecv.base(), Stage.base(), Bytes,
                            Piece, Kind == 3 ? &Contiguous : nullptr, Requests);
    case 4:
      return piecesPingPong(TypedSend.base(), TypedRecv.base(), Stage.base(),
                            Bytes, Piece, &Layout, Requests);
    default:
      return splitPingPong(RefSend.base(), RefRecv.base(), SplitStage.base(),
                           Bytes, Kind == 6);
    }
  };
  for (int Warm = 0; Warm < 2; ++Warm)
    for (int Kind = 0; Kind < Kinds; ++Kind) {
      std::memset(RefRecv.base(), 0, static_cast<size_t>(Bytes));
      bench::clearData(T, TypedRecv.base());
      if (Kind == 5) // sent from the stage as it lies: the bytes put there
        std::memcpy(SplitStage.base(), RefSend.base(),
                    static_cast<size_t>(Bytes));
      pingPongOf(Kind);
      const uint8_t *Got = Kind == 5 ? SplitStage.base() : RefRecv.base();
      bool Same = Kind == 0 || Kind == 4
                      ? bench::sameData(T, TypedSend.base(), TypedRecv.base())
                      : std::memcmp(RefSend.base(), Got,
                                    static_cast<size_t>(Bytes)) == 0;
      if (Warm == 0 && Rank == 0 && !Same)
        fail(Name + ": the data rank 0 got back differ from what it sent (" +
             std::to_string(Kind) + ")");
    }
  // As ddtc-bench measures: the kinds take turns run by run, each run of
  // one is Nrep ping-pongs in a row (seed 000's method).
  RunStats Stats[7];
  std::vector<double> Times(Nrep);
  for (int Run = 0; Run < O.Runs; ++Run)
    for (int Kind = 0; Kind < Kinds; ++Kind) {
      for (double &Time : Times)
        Time = pingPongOf(Kind);
      std::vector<double> Max = slowerRank(Times);
      if (Rank == 0)
        Stats[Kind].addRun(Max);
    }
  if (Rank != 0)
    return;
  std::printf("%s,%lld,%d,%lld,%.3f,%.3f,%.3f,%.3f,%.3f", Name.c_str(),
              static_cast<long long>(Bytes), Nrep,
              static_cast<long long>(Piece), Stats[0].medianUs(),
              Stats[1].medianUs(), Stats[2].medianUs(), Stats[3].medianUs(),
              Stats[4].medianUs());
  if (Kinds == 7)
    std::printf(",%.3f,%.3f", Stats[5].medianUs(), Stats[6].medianUs());
  std::printf("\n");
}

/// --op: the operation on the type and on its reference, call by call.
void benchOperation(const std::string &Name, const Type *T, MPI_Datatype H,
                    const Options &O) {
  int64_t Bytes = T->size();
  int Nrep = nrepFor(Bytes, O);
  std::string Why;
  std::unique_ptr<bench::Operation> Op = bench::makeOperation(O.Op, T, H, Why);
  if (!Op) {
    if (Rank == 0)
      std::fprintf(stderr, "ddtc-rt-pingpong: %s: skipped in %s (%s)\n",
                   Name.c_str(), bench::opName(O.Op), Why.c_str());
    return;
  }
  // The first call of each is checked; the second only warms up.
  std::string Wrong = Op->check();
  if (!Wrong.empty())
    fail(Name + ": " + bench::opName(O.Op) + ": rank " + std::to_string(Rank) +
         ": " + Wrong);
  Op->time(true);
  Op->time(false);

  RunStats TypeStats, RefStats;
  std::vector<double> TypeTimes(Nrep), RefTimes(Nrep);
  for (int Run = 0; Run < O.Runs; ++Run) {
    for (int I = 0; I < Nrep; ++I) {
      TypeTimes[I] = Op->time(true);
      RefTimes[I] = Op->time(false);
    }
    std::vector<double> TypeMax = slowerRank(TypeTimes);
    std::vector<double> RefMax = slowerRank(RefTimes);
    if (Rank == 0) {
      TypeStats.addRun(TypeMax);
      RefStats.addRun(RefMax);
    }
  }
  if (Rank == 0)
    std::printf("%s,%lld,%d,%s,%s,%s\n", Name.c_str(),
                static_cast<long long>(Bytes), Nrep, TypeStats.csv().c_str(),
                RefStats.csv().c_str(), bench::opName(O.Op));
}

//===----------------------------------------------------------------------===//
// Commit
//===----------------------------------------------------------------------===//

/// The time of one MPI_Type_commit of T, built afresh.
double timeCommit(const std::string &Name, const Type *T, MpiBuilder &Builder) {
  std::string Err;
  std::optional<Handle> H = Builder.build(T, Err);
  if (!H)
    fail(Name + ": " + Err);
  MPI_Datatype D = H->get();
  double Start = MPI_Wtime();
  MPI_Type_commit(&D);
  return MPI_Wtime() - Start;
  // H frees D.
}

void benchCommit(const std::string &Name, const Type *T, MpiBuilder &Builder,
                 const Options &O) {
  double First = timeCommit(Name, T, Builder);
  RunStats Stats;
  std::vector<double> Times(O.CommitReps);
  for (int Run = 0; Run < O.Runs; ++Run) {
    for (double &Time : Times)
      Time = timeCommit(Name, T, Builder);
    Stats.addRun(Times);
  }
  std::printf("%s,%lld,%d,%.3f,%s\n", Name.c_str(),
              static_cast<long long>(T->size()), O.CommitReps, First * 1e6,
              Stats.csv().c_str());
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

/// The options, or the exit status: 0 for --help, 2 for a usage error
/// (said by rank 0; every rank reaches the same verdict).
std::optional<Options> parseOptions(int Argc, char **Argv, int &Status) {
  Options O;
  CLI::App App{"ddtc-rt-pingpong: ping-pong (or --op: another operation) "
               "of every type of description files, as an ordinary MPI program "
               "(run it plain and under "
               "libddtc_rt.so); --commit: the cost of MPI_Type_commit; "
               "--pieces: the floor of packing schemes",
               "ddtc-rt-pingpong"};
  App.add_option("file", O.Files, "description files")->required();
  App.add_option("--runs", O.Runs, "runs (default 10)")
      ->check(CLI::Range(1, 1000000));
  App.add_option("--nrep", O.Nrep,
                 "ping-pongs per run (default: by message size)")
      ->check(CLI::Range(1, 100000000));
  auto *Commit = App.add_flag("--commit", O.Commit,
                              "time MPI_Type_commit instead of ping-pongs");
  App.add_option("--commit-reps", O.CommitReps,
                 "commits per run in --commit (default 20)")
      ->check(CLI::Range(1, 100000000));
  auto *Pieces =
      App.add_option("--pieces", O.Pieces,
                     "the floor of packing schemes, in pieces of this many "
                     "bytes")
          ->check(CLI::Range(1, 1 << 30))
          ->excludes(Commit);
  App.add_option("--split", O.Split,
                 "with --pieces: also time the bytes sent as the runtime sends "
                 "them with this split window (LO:HI, its report's "
                 "split_send)")
      ->needs(Pieces);
  std::string Op = "pingpong";
  App.add_option("--op", Op,
                 "the operation: " + bench::opNames() + " (default pingpong)")
      ->check([](const std::string &V) {
        return bench::parseOp(V) ? std::string()
                                 : "not an operation: " + bench::opNames();
      })
      ->excludes(Commit)
      ->excludes(Pieces);
  try {
    App.parse(Argc, Argv);
  } catch (const CLI::ParseError &E) {
    Status = usageStatus(App, E, Rank);
    return std::nullopt;
  }
  O.Op = *bench::parseOp(Op);
  if (!O.Split.empty() &&
      !SplitSends::get().configure(O.Split.c_str()).empty()) {
    if (Rank == 0)
      std::fprintf(stderr,
                   "ddtc-rt-pingpong: error: --split: '%s' is not a window "
                   "LO:HI (sizes, LO < HI)\n",
                   O.Split.c_str());
    Status = 2;
    return std::nullopt;
  }
  if (!O.Commit && (O.Pieces || bench::needsTwoRanks(O.Op)) && Size != 2)
    fail("the ping-pong runs on exactly 2 ranks");
  return O;
}

int run(int Argc, char **Argv) {
  int Status = 0;
  std::optional<Options> Parsed = parseOptions(Argc, Argv, Status);
  if (!Parsed)
    return Status;
  Options &O = *Parsed;
  std::string Missing;
  std::vector<MPI_Datatype> Predefined = makeHandleTable(Missing);
  MpiBuilder Builder(Predefined);
  if (Rank == 0)
    std::printf(O.Commit   ? "name,bytes,reps,first,commit_median,commit_mean,"
                             "commit_min,commit_max\n"
                : O.Pieces ? (O.Split.empty()
                                  ? "name,bytes,nrep,piece,type_median,"
                                    "ref_median,pieces_median,copied_median,"
                                    "layout_median\n"
                                  : "name,bytes,nrep,piece,type_median,"
                                    "ref_median,pieces_median,copied_median,"
                                    "layout_median,split_median,"
                                    "split_copied_median\n")
                           : "name,bytes,nrep,type_median,type_mean,type_min,"
                             "type_max,ref_median,ref_mean,ref_min,ref_max,"
                             "op\n");
  for (const std::string &Path : O.Files) {
    TypeContext Ctx(getMPICHRules());
    Module M(Ctx);
    if (Error E = readAnyDescriptionFile(Path, M))
      fail(E.message());
    for (const NamedType &N : M.types()) {
      // MPICH 4.0.2 crashes packing these (TypeBuilder.h).
      if (N.T->size() == 0 || mayCrashYaksaPack(N.T)) {
        if (Rank == 0)
          std::fprintf(
              stderr, "ddtc-rt-pingpong: %s: skipped (%s)\n", N.Name.c_str(),
              N.T->size() == 0 ? "size 0" : "MPICH 4.0.2 may crash packing it");
        continue;
      }
      if (O.Commit) {
        if (Rank == 0)
          benchCommit(N.Name, N.T, Builder, O);
        continue;
      }
      std::string Err;
      std::optional<Handle> H = Builder.build(N.T, Err);
      if (!H)
        fail(N.Name + ": " + Err);
      MPI_Datatype D = H->get();
      MPI_Type_set_name(D, N.Name.c_str());
      MPI_Type_commit(&D);
      if (O.Pieces)
        benchFloor(N.Name, N.T, D, O);
      else
        benchOperation(N.Name, N.T, D, O);
    }
  }
  std::fflush(stdout);
  return 0;
}

} // namespace

int main(int Argc, char **Argv) {
  MPI_Init(&Argc, &Argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &Size);
  int Status = 0;
  try {
    Status = run(Argc, Argv);
  } catch (const std::bad_alloc &) { // a buffer (Buffer throws it)
    fail("out of memory");
  }
  SplitSends::get().release();
  MPI_Finalize();
  return Status;
}

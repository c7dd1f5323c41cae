//===- ddtc/MPI/PackTimer.h - How long MPI_Pack takes -----------*- C++ -*-===//
//
// The time of MPI_Pack and MPI_Unpack of one committed type, as the
// calibration (`ddtc calibrate`) and the MPI-facing-form benchmark measure
// it: the buffers allocated once and touched before timing, a warm-up
// call, then batches of calls long enough for the clock, and the median
// over batches of the time per call.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_MPI_PACKTIMER_H
#define DDTC_MPI_PACKTIMER_H

#include <mpi.h>

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace ddtc {

struct PackTimerOptions {
  /// A batch repeats the call until it has run this long.
  double MinBatchSeconds = 2e-4;
  unsigned Batches = 9;
};

struct PackTimes {
  double PackSeconds = 0, UnpackSeconds = 0;
};

/// Median seconds per MPI_Pack and per MPI_Unpack of Count instances of T
/// (committed). Fails, naming the call, when the message does not fit an
/// int count of bytes or MPI reports an error.
std::optional<PackTimes> timePackUnpack(MPI_Datatype T, int Count,
                                        const PackTimerOptions &Options,
                                        std::string &Err);

/// One message to time: Count instances of the committed type T.
struct PackMessage {
  MPI_Datatype T;
  int Count;
};

/// Median nanoseconds per MPI_Pack of each message, timed in Rounds rounds
/// of one batch per message, the median over rounds kept. This VM has
/// spells of seconds to minutes in which everything runs up to 2x slower:
/// messages timed one after another put some in a spell and their
/// neighbours out of it, while in rounds a spell costs a round. Forms of
/// one type compared this way see the same machine. A progress line
/// "Tool: round R/N of M What" goes to stderr. On an error, Failed is the
/// message's index and Err names the call.
std::optional<std::vector<double>>
timePackInRounds(std::span<const PackMessage> Messages, unsigned Rounds,
                 const char *Tool, const char *What, size_t &Failed,
                 std::string &Err);

} // namespace ddtc

#endif // DDTC_MPI_PACKTIMER_H

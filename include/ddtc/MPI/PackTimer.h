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
#include <string>

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

} // namespace ddtc

#endif // DDTC_MPI_PACKTIMER_H

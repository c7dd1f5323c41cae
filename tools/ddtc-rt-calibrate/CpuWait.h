//===- tools/ddtc-rt-calibrate/CpuWait.h - Time spent waiting for a CPU -*- C++ -*-===//
//
// A measurement of the settings is the machine's only if its two processes
// had their cores to themselves: where other work shares the cores, every
// round trip includes the time a rank waited to be scheduled, and the
// comparisons come out as the contention decides (on this project's
// 2-vCPU machine, one compiler process at the lowest priority beside the
// measurement made MPICH's contiguous path 4x slower and turned the rule
// for 1 KiB blocks around). The kernel counts, per process, the time it
// was runnable but waiting for a CPU; the calibration takes that share of
// its wall time as the sign of contention.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_TOOLS_RT_CALIBRATE_CPUWAIT_H
#define DDTC_TOOLS_RT_CALIBRATE_CPUWAIT_H

#include <optional>
#include <string>

namespace ddtc {

/// Seconds this process has spent runnable but waiting for a CPU since it
/// started (Linux: the second field of /proc/self/schedstat); none where
/// the kernel does not say.
std::optional<double> cpuWaitSeconds();

/// Reads a schedstat line ("RUN_NS WAIT_NS SLICES"): the wait in seconds,
/// none if the line is not of that form.
std::optional<double> parseSchedstatWait(const std::string &Line);

} // namespace ddtc

#endif // DDTC_TOOLS_RT_CALIBRATE_CPUWAIT_H

//===- lib/Runtime/SettingsMeasurement.h - Settings measured at start -*- C++ -*-===//
//
// Where no settings are stored for this node type and MPI library, or
// settings only one run has measured, the runtime measures them at
// MPI_Init, before the program's MPI library starts (docs/runtime.md,
// "Settings"): it runs `ddtc-rt-calibrate --auto --store` as a job of two
// processes on this node, through the MPI library's own launcher, and
// waits for it in a bounded time. The second run's measurement confirms
// the first's: ddtc-rt-calibrate stores, where the two differ, the choice
// that leaves more to MPI (tools/ddtc-rt-calibrate/SettingsMerge.h), and
// later runs only read.
//
// Why a job of its own, before PMPI_Init, rather than a measurement among
// the program's ranks: it needs no other rank to take part, so a program
// that runs the runtime on some ranks only (an MPMD launch) never waits on
// a rank that does not know of it; it measures the pair of processes the
// settings are for, two on one node, whatever the program's placement; and
// the processes are started before the MPI library has opened its network
// (starting a process after that is unsafe with RDMA interconnects).
//
// One measurement per node at a time: the ranks of a node take a lock on
// the store's file, the first measures, the others wait and read what it
// stored.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_LIB_RUNTIME_SETTINGSMEASUREMENT_H
#define DDTC_LIB_RUNTIME_SETTINGSMEASUREMENT_H

#include <string>

namespace ddtc {

struct MachineIdentity;

/// The outcome of measureSettings().
struct Measurement {
  /// What the measurement took, launch included (or the wait for another
  /// process's).
  double Seconds = 0;
  /// Why there is no measurement, for a warning; "" if the store has one.
  std::string Failure;
};

/// Measures the settings for Id into the store unless, by the time this
/// process holds the lock, the store holds confirmed ones, or ones this job
/// measured (another rank of it did, meanwhile). Before PMPI_Init.
Measurement measureSettings(const MachineIdentity &Id);

} // namespace ddtc

#endif // DDTC_LIB_RUNTIME_SETTINGSMEASUREMENT_H

//===- ddtc/MPI/MachineIdentity.h - What settings are measured on -*- C++ -*-===//
//
// The runtime's tuning settings are properties of the node type and of the
// MPI library (docs/runtime.md, "Settings"): a settings file measured on one
// pair of them is used only with the same pair. The node type is what makes
// two nodes of a cluster interchangeable -- the processor and how many of its
// threads the node has -- not the host name, so that nodes of one type share
// a measurement. The library is named by its version string and by the
// shared object the program loaded (path, size, modification time), so that
// a rebuilt or upgraded library is measured again even where its version
// string did not change.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_MPI_MACHINEIDENTITY_H
#define DDTC_MPI_MACHINEIDENTITY_H

#include <string>

namespace ddtc {

struct MachineIdentity {
  /// "x86_64, AMD EPYC 7R13 Processor, 2 CPUs".
  std::string Node;
  /// "MPICH 4.0.2, /usr/lib/x86_64-linux-gnu/libmpich.so.12.2.0, 3460072
  /// bytes, modified 1671234567".
  std::string Library;
};

/// This process's identity. Callable before MPI_Init (it uses only
/// MPI_Get_library_version, which MPI allows at any time).
MachineIdentity machineIdentity();

} // namespace ddtc

#endif // DDTC_MPI_MACHINEIDENTITY_H

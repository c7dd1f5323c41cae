//===- lib/Runtime/HelperProcesses.h - Programs the runtime starts -*- C++ -*-===//
//
// The runtime starts programs of ddtc before the program's MPI library
// starts (a process must not fork once an RDMA network is up): the
// settings' measurement (SettingsMeasurement.h) and the compile server
// (KernelCompiler.h). Both are found beside the runtime and run in the
// program's environment without what would tie them to its job.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_LIB_RUNTIME_HELPERPROCESSES_H
#define DDTC_LIB_RUNTIME_HELPERPROCESSES_H

#include <string>
#include <vector>

namespace ddtc {

/// The program Name of ddtc for this library: for an installed library,
/// in the prefix's bin/ (found from the library's own directory, so that
/// a moved prefix works); else Built, the one of the build tree the
/// library was built in.
std::string helperProgram(const char *Name, const char *Built);

/// The environment of a helper: the program's, without what ties a
/// process to the program's own job (the launcher's process-manager
/// variables) or would load ddtc into it (LD_PRELOAD, DDTC_ settings but
/// the cache directory). Pointers into environ, null-terminated.
std::vector<char *> helperEnvironment();

} // namespace ddtc

#endif // DDTC_LIB_RUNTIME_HELPERPROCESSES_H

//===- lib/Runtime/FortranCallSite.h - Where a Fortran call came from -----===//
//
// A C wrapper called by a Fortran entry point of FortranBindings.cpp would
// see its caller's address inside the preload library; the trace's
// x-source must name the program's call instead. The Fortran entry point
// keeps the program's return address for the length of the call, and
// programCallSite picks it over the C wrapper's own return address.
// DDTC_FORTRAN_BINDINGS says the library has Fortran entry points.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_LIB_RUNTIME_FORTRANCALLSITE_H
#define DDTC_LIB_RUNTIME_FORTRANCALLSITE_H

namespace ddtc {

#if DDTC_FORTRAN_BINDINGS
/// The program's return address of the Fortran entry point this thread is
/// in, or null.
extern thread_local constinit const void *FortranCallSite;

inline const void *programCallSite(const void *ReturnAddress) {
  return FortranCallSite ? FortranCallSite : ReturnAddress;
}
#else
inline const void *programCallSite(const void *ReturnAddress) {
  return ReturnAddress;
}
#endif

} // namespace ddtc

#endif // DDTC_LIB_RUNTIME_FORTRANCALLSITE_H

//===- ddtc/Support/Address.h - Buffer bases outside allocations -*- C++ -*-===//
//
// The buffer address a program passes to MPI is byte 0 of the typemap's
// coordinates, which may lie far outside the memory the typemap touches: a
// type with lb > 0, negative displacements, or absolute addresses used with
// MPI_BOTTOM. Forming such a pointer by pointer arithmetic is undefined
// (UBSan reports it when the address space wraps), so the harnesses that
// lay out a typed buffer compute its base as an integer.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_SUPPORT_ADDRESS_H
#define DDTC_SUPPORT_ADDRESS_H

#include <cstdint>

namespace ddtc {

/// The address Offset bytes from P, which may lie outside P's object.
template <typename T> T *displaceAddress(T *P, int64_t Offset) {
  return reinterpret_cast<T *>(reinterpret_cast<uintptr_t>(P) +
                               static_cast<uintptr_t>(Offset));
}

} // namespace ddtc

#endif // DDTC_SUPPORT_ADDRESS_H

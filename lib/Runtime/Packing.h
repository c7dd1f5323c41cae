//===- lib/Runtime/Packing.h - Moving data between typed and packed -*- C++ -*-===//
//
// The copies the substituting wrappers make: with a bound kernel when
// there is one, else with MPI's own MPI_Pack/MPI_Unpack (collectives, which
// move packed bytes on every rank, see Collectives.cpp), or with the typemap
// walker of the IR where MPICH cannot (MPI_Pack on MPI_BOTTOM fails in
// MPICH 4.0.2, pmodels/mpich#6410) and for the tail of a message that ends
// inside an instance.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_LIB_RUNTIME_PACKING_H
#define DDTC_LIB_RUNTIME_PACKING_H

#include "TypeBinding.h"

#include <mpi.h>

#include <span>

namespace ddtc {

/// The packed size and placement of Count instances of a type, whether it
/// has a binding (derived) or not (predefined).
struct PackedLayout {
  uint64_t Size = 0; ///< of one instance
  int64_t Lb = 0;
  int64_t Extent = 0;
  /// The packed bytes are the memory at buffer + Lb: no copy needed.
  bool Contiguous = false;
};
/// The layout of a type without a binding, from MPI's queries, or from
/// the table of predefined types where T is one of them.
PackedLayout queryPackedLayout(MPI_Datatype T);
/// The layout of T, whose binding is B (null: none). Every collective call
/// asks for each of its types: inline, and for predefined types from a
/// table rather than three queries of MPI.
inline PackedLayout getPackedLayout(const Binding *B, MPI_Datatype T) {
  if (B)
    return {B->Size, B->Lb, B->Extent, B->Contiguous};
  return queryPackedLayout(T);
}
/// Fills the table of predefined types' layouts (Handles: the handle table,
/// MPI_DATATYPE_NULL where a type is missing), before substitution starts.
void tabulatePredefinedLayouts(std::span<const MPI_Datatype> Handles);

/// Packs Count instances of T at Buf to Out (Count * Size bytes).
int packAny(const Binding *B, MPI_Datatype T, const void *Buf, MPI_Count Count,
            char *Out, MPI_Comm Comm);
/// Unpacks Bytes packed bytes (at most Count instances) into Buf.
int unpackAny(const Binding *B, MPI_Datatype T, const char *In, MPI_Count Bytes,
              void *Buf, MPI_Count Count, MPI_Comm Comm);

} // namespace ddtc

#endif // DDTC_LIB_RUNTIME_PACKING_H

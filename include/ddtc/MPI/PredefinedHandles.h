//===- ddtc/MPI/PredefinedHandles.h - MPI handles of predefined types -*- C++ -*-===//
//
// The one table that maps ddtc's predefined types (Predefined.def) to the
// MPI library's handles and back: the builder turns IR into handles with
// it, the decoder handles into IR. Handles are compile-time constants in
// MPICH and addresses of globals in Open MPI; either way they are valid
// before MPI_Init.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_MPI_PREDEFINEDHANDLES_H
#define DDTC_MPI_PREDEFINEDHANDLES_H

#include "ddtc/IR/Predefined.h"

#include <mpi.h>

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace ddtc {

/// The MPI handle of every predefined type, indexed by PredefinedId; the
/// names the MPI library has no handle for are listed in Missing (comma
/// separated) and have MPI_DATATYPE_NULL.
std::vector<MPI_Datatype> makeHandleTable(std::string &Missing);

/// The predefined type whose handle is H in Table (made by
/// makeHandleTable), or none for a derived type or a predefined type
/// ddtc does not model (MPI_INT_FAST8_T, MPI_REAL8, ...).
std::optional<PredefinedId>
lookupPredefinedHandle(std::span<const MPI_Datatype> Table, MPI_Datatype H);

} // namespace ddtc

#endif // DDTC_MPI_PREDEFINEDHANDLES_H

//===- lib/MPI/PredefinedHandles.cpp - MPI handles of predefined types ----===//
//
// The table is written by MPI name and matched against Predefined.def by
// name when it is made, so a type added to Predefined.def without a handle
// here is reported (makeHandleTable's Missing) rather than silently unusable.
//
//===----------------------------------------------------------------------===//
#include "ddtc/MPI/PredefinedHandles.h"

namespace ddtc {

namespace {

struct NamedHandle {
  const char *Name;
  MPI_Datatype Handle;
};

// Every name of Predefined.def with its handle. The table is checked
// against Predefined.def at startup. It names only types that MPI 3.1
// defines, which MPICH and Open MPI both have (MPI_INTEGER16 or MPICH's
// MPIX_ types would need an #ifdef).
const NamedHandle PredefinedHandles[] = {
    {"MPI_CHAR", MPI_CHAR},
    {"MPI_SIGNED_CHAR", MPI_SIGNED_CHAR},
    {"MPI_UNSIGNED_CHAR", MPI_UNSIGNED_CHAR},
    {"MPI_WCHAR", MPI_WCHAR},
    {"MPI_SHORT", MPI_SHORT},
    {"MPI_UNSIGNED_SHORT", MPI_UNSIGNED_SHORT},
    {"MPI_INT", MPI_INT},
    {"MPI_UNSIGNED", MPI_UNSIGNED},
    {"MPI_LONG", MPI_LONG},
    {"MPI_UNSIGNED_LONG", MPI_UNSIGNED_LONG},
    {"MPI_LONG_LONG_INT", MPI_LONG_LONG_INT},
    {"MPI_UNSIGNED_LONG_LONG", MPI_UNSIGNED_LONG_LONG},
    {"MPI_C_BOOL", MPI_C_BOOL},
    {"MPI_INT8_T", MPI_INT8_T},
    {"MPI_INT16_T", MPI_INT16_T},
    {"MPI_INT32_T", MPI_INT32_T},
    {"MPI_INT64_T", MPI_INT64_T},
    {"MPI_UINT8_T", MPI_UINT8_T},
    {"MPI_UINT16_T", MPI_UINT16_T},
    {"MPI_UINT32_T", MPI_UINT32_T},
    {"MPI_UINT64_T", MPI_UINT64_T},
    {"MPI_AINT", MPI_AINT},
    {"MPI_OFFSET", MPI_OFFSET},
    {"MPI_COUNT", MPI_COUNT},
    {"MPI_FLOAT", MPI_FLOAT},
    {"MPI_DOUBLE", MPI_DOUBLE},
    {"MPI_LONG_DOUBLE", MPI_LONG_DOUBLE},
    {"MPI_C_COMPLEX", MPI_C_COMPLEX},
    {"MPI_C_DOUBLE_COMPLEX", MPI_C_DOUBLE_COMPLEX},
    {"MPI_C_LONG_DOUBLE_COMPLEX", MPI_C_LONG_DOUBLE_COMPLEX},
    {"MPI_BYTE", MPI_BYTE},
    {"MPI_PACKED", MPI_PACKED},
    {"MPI_INTEGER", MPI_INTEGER},
    {"MPI_REAL", MPI_REAL},
    {"MPI_DOUBLE_PRECISION", MPI_DOUBLE_PRECISION},
    {"MPI_COMPLEX", MPI_COMPLEX},
    {"MPI_DOUBLE_COMPLEX", MPI_DOUBLE_COMPLEX},
    {"MPI_LOGICAL", MPI_LOGICAL},
    {"MPI_CHARACTER", MPI_CHARACTER},
    {"MPI_FLOAT_INT", MPI_FLOAT_INT},
    {"MPI_DOUBLE_INT", MPI_DOUBLE_INT},
    {"MPI_LONG_INT", MPI_LONG_INT},
    {"MPI_2INT", MPI_2INT},
    {"MPI_SHORT_INT", MPI_SHORT_INT},
    {"MPI_LONG_DOUBLE_INT", MPI_LONG_DOUBLE_INT},
};

} // namespace

std::vector<MPI_Datatype> makeHandleTable(std::string &Missing) {
  std::vector<MPI_Datatype> Table(NumPredefined, MPI_DATATYPE_NULL);
  for (unsigned I = 0; I < NumPredefined; ++I) {
    std::string_view Name =
        getPredefinedInfo(static_cast<PredefinedId>(I)).Name;
    for (const NamedHandle &H : PredefinedHandles)
      if (Name == H.Name)
        Table[I] = H.Handle;
    if (Table[I] == MPI_DATATYPE_NULL)
      Missing += (Missing.empty() ? "" : ", ") + std::string(Name);
  }
  return Table;
}

std::optional<PredefinedId>
lookupPredefinedHandle(std::span<const MPI_Datatype> Table, MPI_Datatype H) {
  if (H == MPI_DATATYPE_NULL)
    return std::nullopt;
  for (size_t I = 0; I < Table.size(); ++I)
    if (Table[I] == H)
      return static_cast<PredefinedId>(I);
  return std::nullopt;
}

} // namespace ddtc

//===- test/Fuzz/FakeDatatypes.cpp - MPI answers the fuzzer writes --------===//
#include "FakeDatatypes.h"

#include <algorithm>
#include <cstring>

namespace ddtc::fuzz {

FakeDatatypes &FakeDatatypes::get() {
  static FakeDatatypes State;
  return State;
}

} // namespace ddtc::fuzz

using ddtc::fuzz::FakeContents;
using ddtc::fuzz::FakeDatatypes;

namespace {

/// Copies Have into Out[0, N), padding with Pad.
template <typename T>
void fill(T *Out, MPI_Count N, const std::vector<T> &Have, T Pad) {
  for (MPI_Count I = 0; I < N; ++I)
    Out[I] = static_cast<size_t>(I) < Have.size() ? Have[I] : Pad;
}

} // namespace

extern "C" {

int PMPI_Type_get_envelope_c(MPI_Datatype H, MPI_Count *NumInts,
                             MPI_Count *NumAddresses, MPI_Count *NumCounts,
                             MPI_Count *NumTypes, int *Combiner) {
  FakeDatatypes &F = FakeDatatypes::get();
  auto It = F.Derived.find(H);
  if (It == F.Derived.end()) {
    // Every other handle the fake hands out is a named type.
    *NumInts = *NumAddresses = *NumCounts = *NumTypes = 0;
    *Combiner = MPI_COMBINER_NAMED;
    return MPI_SUCCESS;
  }
  const FakeContents &C = It->second;
  *NumInts = C.Sizes[0];
  *NumAddresses = C.Sizes[1];
  *NumCounts = C.Sizes[2];
  *NumTypes = C.Sizes[3];
  *Combiner = C.Combiner;
  return MPI_SUCCESS;
}

int PMPI_Type_get_contents_c(MPI_Datatype H, MPI_Count MaxInts,
                             MPI_Count MaxAddresses, MPI_Count MaxCounts,
                             MPI_Count MaxTypes, int *Ints, MPI_Aint *Addresses,
                             MPI_Count *Counts, MPI_Datatype *Types) {
  FakeDatatypes &F = FakeDatatypes::get();
  auto It = F.Derived.find(H);
  if (It == F.Derived.end())
    return MPI_ERR_TYPE;
  const FakeContents &C = It->second;
  // As MPI: the caller's arrays must hold what the envelope reported.
  if (MaxInts < C.Sizes[0] || MaxAddresses < C.Sizes[1] ||
      MaxCounts < C.Sizes[2] || MaxTypes < C.Sizes[3])
    return MPI_ERR_ARG;
  fill(Ints, C.Sizes[0], C.Ints, 0);
  fill(Addresses, C.Sizes[1], C.Addresses, MPI_Aint(0));
  fill(Counts, C.Sizes[2], C.Counts, MPI_Count(0));
  fill(Types, C.Sizes[3], C.Types, MPI_INT);
  // Each derived operand returned is a new reference to it; named types
  // are not (freeing one is an error).
  for (MPI_Count I = 0; I < C.Sizes[3]; ++I)
    if (F.isDerived(Types[I]))
      ++F.References[Types[I]];
  return MPI_SUCCESS;
}

int PMPI_Type_free(MPI_Datatype *H) {
  FakeDatatypes &F = FakeDatatypes::get();
  if (!F.isDerived(*H))
    return MPI_ERR_TYPE;
  --F.References[*H];
  *H = MPI_DATATYPE_NULL;
  return MPI_SUCCESS;
}

int PMPI_Type_get_name(MPI_Datatype, char *Name, int *Length) {
  std::strcpy(Name, "MPI_FAKE_NAMED");
  *Length = static_cast<int>(std::strlen(Name));
  return MPI_SUCCESS;
}

// ddtc::mpiErrorString calls it; MPICH's needs MPI_Init.
int MPI_Error_string(int Code, char *Text, int *Length) {
  std::strcpy(Text, Code == MPI_ERR_TYPE ? "invalid datatype" : "MPI error");
  *Length = static_cast<int>(std::strlen(Text));
  return MPI_SUCCESS;
}

} // extern "C"

//===- lib/MPI/SplitSend.cpp - The wire layout of packed sends ------------===//
#include "ddtc/MPI/SplitSend.h"
#include "ddtc/MPI/MPISupport.h"

#include "ddtc/Support/ByteSize.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <string>
#include <string_view>

namespace ddtc {

SplitSends &SplitSends::get() {
  // Never destroyed, as the rest of the runtime's state.
  static SplitSends *S = new SplitSends();
  return *S;
}

std::string SplitSends::configure(const char *Setting, bool Remote) {
  // Off unless measured: the window is where a contiguous message waits for
  // a rendezvous and a non-contiguous one does not, which only a
  // measurement on the machine and library can tell.
  uint64_t L = 0, H = 0;
  std::string Warning;
  if (const char *V = Setting; V && *V) {
    uint64_t PL = 0, PH = 0;
    if (std::string_view(V) == "off") {
      L = H = 0;
    } else if (parseByteSizePair(V, PL, PH) && PL < PH) {
      // Both blocks must hold data: the stream is longer than the tail.
      L = std::max(PL, Tail);
      H = PH;
    } else {
      Warning = std::string(Remote ? "DDTC_RT_REMOTE_SPLIT_SEND='"
                                   : "DDTC_RT_SPLIT_SEND='") +
                V + "' is neither LO:HI (sizes, LO < HI) nor off; keeping off";
    }
  }
  Windows[Remote].Lo.store(L);
  Windows[Remote].Hi.store(H);
  return Warning;
}

SplitSends::Wire SplitSends::wire(char *Buf, uint64_t Bytes, bool Remote) {
  Wire Contiguous{static_cast<MPI_Count>(Bytes), MPI_PACKED};
  if (!wants(Bytes, Remote))
    return Contiguous;
  MPI_Datatype T = typeFor(Bytes);
  if (T == MPI_DATATYPE_NULL)
    return Contiguous;
  copyTail(Buf, Bytes);
  return {1, T};
}

void SplitSends::copyTail(char *Buf, uint64_t Bytes) {
  // The tail is copied, not moved: the stream at Buf stays whole.
  std::memcpy(Buf + Bytes + Gap - Tail, Buf + Bytes - Tail, Tail);
  Sent.fetch_add(1, std::memory_order_relaxed);
}

MPI_Datatype SplitSends::typeFor(uint64_t Bytes) {
  std::lock_guard<std::mutex> G(Lock);
  for (auto &[Size, Type] : Types)
    if (Size == Bytes)
      return Type;
  // Kept until MPI_Finalize: another thread may be sending with a type
  // this one has just looked up, so none is freed earlier. Past MaxTypes
  // sizes, new sizes go contiguous.
  if (Types.size() == MaxTypes)
    return MPI_DATATYPE_NULL;
  MPI_Datatype New;
#if MPI_VERSION >= 4
  MPI_Count Lengths[2] = {static_cast<MPI_Count>(Bytes - Tail),
                          static_cast<MPI_Count>(Tail)};
  MPI_Count Displs[2] = {0, static_cast<MPI_Count>(Bytes + Gap - Tail)};
  if (PMPI_Type_create_hindexed_c(2, Lengths, Displs, MPI_PACKED, &New) !=
      MPI_SUCCESS)
    return MPI_DATATYPE_NULL;
#else
  // An MPI-3 library (Open MPI 4.1) has no large-count constructor; the
  // window is far below INT_MAX, and a larger size goes contiguous.
  if (Bytes > static_cast<uint64_t>(INT_MAX))
    return MPI_DATATYPE_NULL;
  int Lengths[2] = {static_cast<int>(Bytes - Tail), static_cast<int>(Tail)};
  MPI_Aint Displs[2] = {0, static_cast<MPI_Aint>(Bytes + Gap - Tail)};
  if (PMPI_Type_create_hindexed(2, Lengths, Displs, MPI_PACKED, &New) !=
      MPI_SUCCESS)
    return MPI_DATATYPE_NULL;
#endif
  if (PMPI_Type_commit(&New) != MPI_SUCCESS) {
    PMPI_Type_free(&New);
    return MPI_DATATYPE_NULL;
  }
  Types.push_back({Bytes, New});
  return New;
}

void SplitSends::release() {
  std::lock_guard<std::mutex> G(Lock);
  for (auto &[Size, Type] : Types)
    PMPI_Type_free(&Type);
  Types.clear();
}

} // namespace ddtc

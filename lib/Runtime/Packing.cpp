//===- lib/Runtime/Packing.cpp - Moving data between typed and packed -----===//
#include "Packing.h"

#include "ddtc/IR/TypemapWalker.h"
#include "ddtc/MPI/MPISupport.h"

#include <algorithm>
#include <cstring>

namespace ddtc {

namespace {

/// Copies the first Bytes packed bytes of Count instances of T between the
/// typed buffer Base and Packed, in typemap order; for what neither a
/// kernel nor MPI can do.
void walkCopy(const Type *T, MPI_Count Count, char *Base, char *Packed,
              uint64_t Bytes, bool Pack) {
  TypemapWalker W(T, static_cast<uint64_t>(Count), WalkMode::Bytes);
  TypemapRun Run;
  while (Bytes > 0 && W.next(Run)) {
    size_t N = static_cast<size_t>(
        std::min<uint64_t>(Bytes, static_cast<uint64_t>(Run.Length)));
    char *Typed = Base + Run.Offset;
    if (Pack)
      std::memcpy(Packed, Typed, N);
    else
      std::memcpy(Typed, Packed, N);
    Packed += N;
    Bytes -= N;
  }
}

char *bytes(const void *P) {
  return const_cast<char *>(static_cast<const char *>(P));
}

PackedLayout askMPI(MPI_Datatype T) {
  MPI_Count Size = 0, Lb = 0, Extent = 0, TrueLb = 0, TrueExtent = 0;
  DDTC_MPI_QUERY_FN(PMPI_Type_size)(T, &Size);
  DDTC_MPI_QUERY_FN(PMPI_Type_get_extent)(T, &Lb, &Extent);
  DDTC_MPI_QUERY_FN(PMPI_Type_get_true_extent)(T, &TrueLb, &TrueExtent);
  // Predefined types: contiguous but for the pair types, which have a gap
  // (MPI_DOUBLE_INT: 12 bytes of data in 16).
  bool Contiguous =
      Size > 0 && Size == Extent && TrueLb == Lb && TrueExtent == Extent;
  return {static_cast<uint64_t>(Size), Lb, Extent, Contiguous};
}

/// The predefined types' layouts, in an open-addressed table of handles
/// (handleSlot). Filled before substitution starts and read-only after.
class PredefinedLayouts {
public:
  static PredefinedLayouts &get() {
    static PredefinedLayouts Table;
    return Table;
  }
  void fill(std::span<const MPI_Datatype> Handles) {
    for (MPI_Datatype H : Handles)
      if (H != MPI_DATATYPE_NULL && !find(H))
        for (size_t I = slot(H);; I = (I + 1) % Slots)
          if (!Entries[I].Used) {
            Entries[I] = {H, askMPI(H), true};
            break;
          }
  }
  const PackedLayout *find(MPI_Datatype H) const {
    for (size_t I = slot(H); Entries[I].Used; I = (I + 1) % Slots)
      if (Entries[I].Handle == H)
        return &Entries[I].Layout;
    return nullptr;
  }

private:
  // Four times the ~70 predefined types: probes stay short.
  static constexpr size_t Slots = 256;
  static size_t slot(MPI_Datatype H) { return handleSlot<8>(H); }
  struct Entry {
    MPI_Datatype Handle = MPI_DATATYPE_NULL;
    PackedLayout Layout;
    bool Used = false;
  };
  Entry Entries[Slots];
};

} // namespace

PackedLayout queryPackedLayout(MPI_Datatype T) {
  if (const PackedLayout *L = PredefinedLayouts::get().find(T))
    return *L;
  return askMPI(T);
}

void tabulatePredefinedLayouts(std::span<const MPI_Datatype> Handles) {
  PredefinedLayouts::get().fill(Handles);
}

int packAny(const Binding *B, MPI_Datatype T, const void *Buf, MPI_Count Count,
            char *Out, MPI_Comm Comm) {
  if (B && B->isBound()) {
    B->pack(Buf, static_cast<size_t>(Count), Out);
    return MPI_SUCCESS;
  }
  PackedLayout L = getPackedLayout(B, T);
  uint64_t Bytes = static_cast<uint64_t>(Count) * L.Size;
  // Nothing to pack (a type of no data): Open MPI's MPI_Pack refuses the
  // null buffer such a call may have.
  if (Bytes == 0)
    return MPI_SUCCESS;
  if (L.Contiguous) {
    std::memcpy(Out, bytes(Buf) + L.Lb, Bytes);
    return MPI_SUCCESS;
  }
  if (Buf == MPI_BOTTOM && B && B->T) {
    walkCopy(B->T, Count, bytes(Buf), Out, Bytes, /*Pack=*/true);
    return MPI_SUCCESS;
  }
  MPICount Position = 0;
  return DDTC_MPI_COUNT_FN(PMPI_Pack)(Buf, countArg(Count), T, Out,
                                      countArg(Bytes), &Position, Comm);
}

int unpackAny(const Binding *B, MPI_Datatype T, const char *In, MPI_Count Bytes,
              void *Buf, MPI_Count Count, MPI_Comm Comm) {
  PackedLayout L = getPackedLayout(B, T);
  if (L.Size == 0 || Bytes <= 0)
    return MPI_SUCCESS;
  MPI_Count Full =
      std::min<MPI_Count>(Bytes / static_cast<MPI_Count>(L.Size), Count);
  MPI_Count Rest = Bytes - Full * static_cast<MPI_Count>(L.Size);
  char *Packed = bytes(In);
  if (L.Contiguous) {
    std::memcpy(bytes(Buf) + L.Lb, Packed, static_cast<size_t>(Bytes));
    return MPI_SUCCESS;
  }
  if (B && B->isBound()) {
    B->unpack(Packed, static_cast<size_t>(Full), Buf);
  } else if (Buf == MPI_BOTTOM && B && B->T) {
    walkCopy(B->T, Full, bytes(Buf), Packed,
             static_cast<uint64_t>(Full) * L.Size,
             /*Pack=*/false);
  } else if (Full > 0) {
    MPICount Position = 0;
    if (int Rc = DDTC_MPI_COUNT_FN(PMPI_Unpack)(
            Packed, countArg(Full * static_cast<MPI_Count>(L.Size)), &Position,
            Buf, countArg(Full), T, Comm))
      return Rc;
  }
  if (Rest == 0 || Full == Count)
    return MPI_SUCCESS;
  // A message that ends inside an instance: its first Rest bytes.
  char *Instance = bytes(Buf) + Full * L.Extent;
  Packed += Full * static_cast<MPI_Count>(L.Size);
  if (B && B->T) {
    walkCopy(B->T, 1, Instance, Packed, static_cast<uint64_t>(Rest),
             /*Pack=*/false);
    return MPI_SUCCESS;
  }
  MPICount Position = 0;
  return DDTC_MPI_COUNT_FN(PMPI_Unpack)(Packed, countArg(Rest), &Position,
                                        Instance, 1, T, Comm);
}

} // namespace ddtc

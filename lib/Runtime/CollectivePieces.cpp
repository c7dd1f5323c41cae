//===- lib/Runtime/CollectivePieces.cpp - Sides of v-, w- and neighborhood collectives ===//
#include "CollectivePieces.h"

#include <climits>

namespace ddtc {

uint32_t CollectiveSide::describe(MPI_Datatype T) {
  for (size_t I = 0; I < Types.size(); ++I)
    if (Types[I].T == T)
      return static_cast<uint32_t>(I);
  Types.push_back(describeCollectiveType(T));
  return static_cast<uint32_t>(Types.size() - 1);
}

void CollectiveSide::addRun(int N, MPI_Count Count, MPI_Datatype T) {
  Pieces.reserve(Pieces.size() + static_cast<size_t>(N));
  uint32_t C = describe(T);
  int64_t Extent = Types[C].L.Extent;
  for (int I = 0; I < N; ++I)
    Pieces.push_back({Base + I * Count * Extent, Count, C});
}

void CollectiveSide::note(const CollectiveCall &How, bool Left) const {
  for (size_t C = 0; C < Types.size(); ++C) {
    uint64_t Bytes = 0;
    for (const Piece &P : Pieces)
      if (P.Type == C)
        Bytes += Types[C].bytes(P.Count);
    noteCollectiveUse(How, Types[C], Bytes, Left);
  }
}

uint64_t CollectiveSide::bytes() const {
  uint64_t N = 0;
  for (const Piece &P : Pieces)
    N += type(P).bytes(P.Count);
  return N;
}

uint64_t CollectiveSide::unit() const {
  return PerPieceTypes || Pieces.empty() ? 1 : type(Pieces[0]).Unit;
}

bool CollectiveSide::dense() const {
  // A non-w side's displacements count its elements: a piece whose data
  // does not start a whole number of them from the buffer is staged.
  auto Unit = static_cast<int64_t>(unit());
  for (const Piece &P : Pieces)
    if (P.Count > 0 &&
        (!type(P).dense() || (P.Addr + type(P).L.Lb - Base) % Unit != 0))
      return false;
  return true;
}

bool CollectiveSide::asWritten() const {
  for (const Piece &P : Pieces)
    if (!leavesAsWritten(type(P), P.Count))
      return false;
  return true;
}

bool CollectiveSide::fits() const {
  if (DDTC_MPI_LARGE_COUNT)
    return true;
  // Staged, the largest displacement is below the side's bytes.
  if (!dense())
    return bytes() <= INT_MAX;
  for (const Piece &P : Pieces)
    if (type(P).bytes(P.Count) > INT_MAX ||
        !fitsInt(P.Addr + type(P).L.Lb - Base))
      return false;
  return true;
}

char *CollectiveSide::stage(CollectiveStage &S, int K, size_t &Offset,
                            bool Send, int &Rc, int Skip) {
  std::vector<MPICount> &Counts = S.Counts[K];
  std::vector<MPIDispl> &Displs = S.Displs[K];
  std::vector<MPI_Datatype> &Elements = S.Types[K];
  Counts.resize(Pieces.size());
  Displs.resize(Pieces.size());
  Elements.resize(Pieces.size());
  auto Unit = static_cast<int64_t>(unit());
  S.Units[K] = Unit;
  S.Element[K] =
      PerPieceTypes || Pieces.empty() ? MPI_PACKED : type(Pieces[0]).Element;
  bool Dense = dense();
  // A staged side's displacements are from its own start: MPI must never
  // be given the same buffer for both sides (receiveStart).
  size_t Start = Offset;
  Staged = Dense ? Base : S.data() + Start;
  for (size_t I = 0; I < Pieces.size(); ++I) {
    const Piece &P = Pieces[I];
    uint64_t Bytes = type(P).bytes(P.Count);
    Counts[I] = type(P).elements(Bytes);
    Elements[I] = type(P).Element;
    if (Dense) {
      Displs[I] = static_cast<MPIDispl>((P.Addr + type(P).L.Lb - Base) / Unit);
      continue;
    }
    Displs[I] =
        static_cast<MPIDispl>(static_cast<int64_t>(Offset - Start) / Unit);
    if (static_cast<int>(I) != Skip) {
      if (Send) {
        if (Rc == MPI_SUCCESS)
          Rc = S.pack(type(P), P.Addr, P.Count, Offset);
      } else {
        S.unpackLater(type(P), P.Addr, P.Count, Offset);
      }
    }
    Offset += static_cast<size_t>(Bytes);
  }
  return Staged;
}

int CollectiveSide::packPiece(CollectiveStage &S, int K, int I) const {
  if (Staged == Base)
    return MPI_SUCCESS;
  const Piece &P = Pieces[static_cast<size_t>(I)];
  size_t Offset =
      static_cast<size_t>(Staged - S.data()) +
      static_cast<size_t>(S.Displs[K][static_cast<size_t>(I)] * S.Units[K]);
  return S.pack(type(P), P.Addr, P.Count, Offset);
}

const MPI_Aint *aintDispls(CollectiveStage &S, int K) {
#if DDTC_MPI_LARGE_COUNT
  return S.Displs[K].data();
#else
  S.AintDispls[K].assign(S.Displs[K].begin(), S.Displs[K].end());
  return S.AintDispls[K].data();
#endif
}

} // namespace ddtc

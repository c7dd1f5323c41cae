//===- lib/Runtime/CollectivePieces.h - Sides of v-, w- and neighborhood collectives -*- C++ -*-===//
//
// The v-, w- and neighborhood collectives give one piece of data per peer,
// each with its own count, place and (w-forms) type, and sizes that differ
// from rank to rank. A side of such a call -- what a rank sends, or what
// it receives -- is a list of pieces; staged, the pieces lie packed one
// after the other, and MPI is given their counts and displacements
// (CollectiveStage's arrays) in elements of the side's type signature, or
// in MPI_PACKED bytes where it mixes predefined types (CollectiveType). A
// side whose pieces are all of dense types needs no staging: MPI is given
// the program's buffer, with displacements from it.
//
// A rank makes the call as the program wrote it where every piece of both
// its sides is best left to MPI (leavesAsWritten), which its signatures let
// it do whatever the other ranks hand MPI. Sizes differ between ranks, so
// no rank leaves such a call to MPI because of its sizes, but where a byte
// count or displacement does not fit the library's classic int arguments
// (an MPI 3.1 library), which the packed bytes of the other ranks still
// match (MPI_PACKED matches any type of the same signature, MPI-4 §5.2).
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_LIB_RUNTIME_COLLECTIVEPIECES_H
#define DDTC_LIB_RUNTIME_COLLECTIVEPIECES_H

#include "CollectiveStage.h"

#include <memory>
#include <vector>

namespace ddtc {

/// Count instances of a type at Addr: what one peer's piece is. Type is
/// the type's index among its side's (CollectiveSide::type).
struct Piece {
  char *Addr;
  MPI_Count Count;
  uint32_t Type;
};

/// One side of a call.
class CollectiveSide {
public:
  /// Base is the side's buffer as the program gave it: displacements of a
  /// dense side are taken from it.
  explicit CollectiveSide(const void *Base)
      : Base(const_cast<char *>(static_cast<const char *>(Base))) {}

  /// N pieces of Count instances of T, one after the other from Base.
  void addRun(int N, MPI_Count Count, MPI_Datatype T);
  /// Pieces of Counts[I] instances of T at Displs[I] extents from Base.
  template <typename CountT, typename DisplT>
  void addVector(int N, const CountT *Counts, const DisplT *Displs,
                 MPI_Datatype T) {
    Pieces.reserve(Pieces.size() + static_cast<size_t>(N));
    uint32_t C = describe(T);
    int64_t Extent = Types[C].L.Extent;
    for (int I = 0; I < N; ++I)
      Pieces.push_back(
          {Base + static_cast<int64_t>(Displs[I]) * Extent, Counts[I], C});
  }
  /// Pieces of Counts[I] instances of Types[I] at Displs[I] bytes from
  /// Base; a piece of count 0 may name any type.
  template <typename CountT, typename DisplT>
  void addW(int N, const CountT *Counts, const DisplT *Displs,
            const MPI_Datatype *PieceTypes) {
    PerPieceTypes = true;
    Pieces.reserve(Pieces.size() + static_cast<size_t>(N));
    for (int I = 0; I < N; ++I)
      Pieces.push_back(
          {Base + static_cast<int64_t>(Displs[I]), Counts[I],
           describe(Counts[I] > 0 ? PieceTypes[I] : MPI_DATATYPE_NULL)});
  }

  /// Counts the call's use of each type of the side, substituted or
  /// (Left) left to MPI.
  void note(const CollectiveCall &How, bool Left) const;
  /// Packed bytes of the side; whether it needs staging.
  uint64_t bytes() const;
  bool dense() const;
  /// Whether every piece is best handed to MPI as the program gave it.
  bool asWritten() const;
  /// Whether the byte counts and displacements MPI would be given fit its
  /// argument types (an MPI 3.1 library takes ints).
  bool fits() const;

  /// Fills side K's arrays of S -- counts of each piece's elements, its
  /// displacement in bytes (w-forms) or in elements of the side's type,
  /// the types -- and returns the buffer MPI is given: the program's, if
  /// dense, else the stage from Offset (advanced past the side), packed now
  /// (Send) or unpacked at completion -- but piece Skip.
  char *stage(CollectiveStage &S, int K, size_t &Offset, bool Send, int &Rc,
              int Skip = -1);
  /// Packs piece I into the staging buffer where stage() placed it (an
  /// in-place receive side, whose pieces MPI also sends).
  int packPiece(CollectiveStage &S, int K, int I) const;

  const std::vector<Piece> &pieces() const { return Pieces; }
  const CollectiveType &type(const Piece &P) const { return Types[P.Type]; }

private:
  /// What a non-w side's displacements count: bytes of its element.
  uint64_t unit() const;

  char *Base;
  bool PerPieceTypes = false; ///< a w-form's side
  std::vector<Piece> Pieces;
  /// The index among Types of T's description, made once per call and
  /// type.
  uint32_t describe(MPI_Datatype T);
  /// The side's types (a w-collective names a type per peer, mostly few
  /// distinct ones).
  std::vector<CollectiveType> Types;
  char *Staged = nullptr; ///< the buffer stage() returned
};

/// A side of equal pieces, one after the other, as MPI is given it: where
/// the first starts, and the elements of each (none: no neighbor).
inline const char *firstPiece(const void *Packed, const CollectiveStage &S,
                              int K) {
  const char *P = static_cast<const char *>(Packed);
  return S.Displs[K].empty() ? P : P + S.Displs[K][0] * S.Units[K];
}
inline MPICount pieceCount(const CollectiveStage &S, int K) {
  return S.Counts[K].empty() ? 0 : S.Counts[K][0];
}

/// The byte displacements of side K of S as MPI_Aint (the neighborhood
/// w-collective takes them so in every MPI version).
const MPI_Aint *aintDispls(CollectiveStage &S, int K);

constexpr int SendSide = 0, ReceiveSide = 1;

/// How a call in place reuses its receive side: its pieces are also what
/// MPI sends (Alltoall*), or one of them is (Allgatherv: the rank's own).
constexpr int NoPiece = -1, EveryPiece = -2;

/// The buffers MPI is given for a call's two sides.
struct PackedBuffers {
  const void *Send = MPI_IN_PLACE;
  char *Receive = nullptr;
};

/// The distinct types of a call's w-form sides, as leftAsWrittenW sees them.
struct SeenTypes {
  static constexpr int Max = 4;
  MPI_Datatype T[Max];
  int N = 0;
  /// Adds T; false if it is new and Max are seen already.
  bool add(MPI_Datatype H) {
    for (int I = 0; I < N; ++I)
      if (T[I] == H)
        return true;
    if (N == Max)
      return false;
    T[N++] = H;
    return true;
  }
};

/// Whether every piece of a w-form side (Counts[I] instances of Types[I],
/// N pieces) is best left to MPI as the program gave it, adding its types
/// to Seen; decided from the types alone. False also where the side names
/// more distinct types than Seen holds.
template <typename CountT>
bool everyPieceAsWritten(int N, const CountT *Counts, const MPI_Datatype *Types,
                         SeenTypes &Seen) {
  int I = 0;
  while (I < N) {
    // A piece of count 0 may name any type.
    if (Counts[I] == 0) {
      ++I;
      continue;
    }
    // A run of pieces of one type (most w-calls name one) is described
    // once, in place: a description assigned anew costs a zeroing and a
    // copy.
    MPI_Datatype T = Types[I];
    if (!Seen.add(T))
      return false;
    const CollectiveType C = describeCollectiveType(T);
    for (; I < N && (Counts[I] == 0 || Types[I] == T); ++I)
      if (Counts[I] != 0 && !leavesAsWritten(C, Counts[I]))
        return false;
  }
  return true;
}

/// Whether a w-form call leaves every piece of its sides (N < 0: a side
/// absent) to MPI as written. Most calls do, and building the sides
/// (CollectiveSide) costs as much again as the rest of such a call, so the
/// types decide first; if they leave it, each side's types are counted as
/// CollectiveSide::note counts them, and the caller makes the call as
/// written. The types are described again for the count: keeping the
/// first descriptions (an optional description per type seen) made a
/// call 5 ns slower, and a neighborhood call 40 ns.
template <typename CountT>
bool leftAsWrittenW(const CollectiveCall &How, int SN, const CountT *SCounts,
                    const MPI_Datatype *STypes, int RN, const CountT *RCounts,
                    const MPI_Datatype *RTypes) {
  SeenTypes Sent, Received;
  if (!everyPieceAsWritten(SN, SCounts, STypes, Sent) ||
      !everyPieceAsWritten(RN, RCounts, RTypes, Received))
    return false;
  for (const SeenTypes *Side : {&Sent, &Received})
    for (int I = 0; I < Side->N; ++I)
      noteCollectiveUse(How, describeCollectiveType(Side->T[I]), 0,
                        /*Left=*/true);
  return true;
}

/// Makes a v- or w-collective on packed bytes: stages Send and Receive
/// (either may be null: the side is not this rank's, or the call is in
/// place), leaving piece SendSkip unsent and piece ReceiveSkip not
/// unpacked, and packing the receive pieces PackReceived names for an
/// in-place call; Call(Buffers, Stage) makes the MPI call How asks for. Where
/// this rank's sizes do not fit the library's arguments, Plain makes the
/// call as written.
template <typename PlainFn, typename CallFn>
int runPieces(MPI_Comm Comm, CollectiveSide *Send, CollectiveSide *Receive,
              const CollectiveCall &How, PlainFn Plain, CallFn Call,
              int SendSkip = NoPiece, int ReceiveSkip = NoPiece,
              int PackReceived = NoPiece) {
  bool Fits = (!Send || Send->fits()) && (!Receive || Receive->fits());
  bool Left = !Fits || ((!Send || Send->asWritten()) &&
                        (!Receive || Receive->asWritten()));
  for (CollectiveSide *Side : {Send, Receive})
    if (Side)
      Side->note(How, Left);
  if (Left)
    return Plain();
  auto S = std::make_unique<CollectiveStage>(Comm, How.persistent());
  size_t SendBytes = Send && !Send->dense() ? Send->bytes() : 0;
  size_t ReceiveBytes = Receive && !Receive->dense() ? Receive->bytes() : 0;
  size_t ReceiveOffset = receiveStart(SendBytes);
  if (!S->reserve(ReceiveBytes ? ReceiveOffset + ReceiveBytes : SendBytes))
    return Plain();
  int Rc = MPI_SUCCESS;
  size_t Offset = 0;
  PackedBuffers B;
  if (Send)
    B.Send = Send->stage(*S, SendSide, Offset, /*Send=*/true, Rc, SendSkip);
  if (Receive) {
    Offset = ReceiveOffset;
    B.Receive = Receive->stage(*S, ReceiveSide, Offset, /*Send=*/false, Rc,
                               ReceiveSkip);
    int N = static_cast<int>(Receive->pieces().size());
    for (int I = 0; I < N && Rc == MPI_SUCCESS; ++I)
      if (PackReceived == EveryPiece || PackReceived == I)
        Rc = Receive->packPiece(*S, ReceiveSide, I);
  }
  if (Rc != MPI_SUCCESS)
    return Rc;
  CollectiveStage *Stage = S.get();
  return runStaged(std::move(S), How, [&] { return Call(B, *Stage); });
}

} // namespace ddtc

#endif // DDTC_LIB_RUNTIME_COLLECTIVEPIECES_H

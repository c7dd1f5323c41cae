//===- lib/IR/PieceCount.cpp - Copy operations of one instance ------------===//
#include "PieceCount.h"

#include "ddtc/Support/CheckedInt.h"

namespace ddtc {

namespace {

/// Pieces of Reps consecutive copies of Old: one copy operation if Old is
/// dense, else Reps times Old's.
uint64_t piecesOf(int64_t Reps, const Type *Old) {
  if (Reps <= 0 || Old->getLayout().Size == 0)
    return 0;
  if (Old->getLayout().isDense())
    return 1;
  return saturatingMul(uint64_t(Reps), Old->getLayout().Pieces);
}

} // namespace

uint64_t countPieces(TypeKind K, std::span<const int64_t> Ints,
                     std::span<const Type *const> Operands, size_t N,
                     const Type *Expansion) {
  const KindSpec &Spec = getKindSpec(K);
  auto List = [&](unsigned Index) {
    return Ints.subspan(Spec.NumScalars + Index * N, N);
  };
  uint64_t P = 0;
  switch (K) {
  case TypeKind::Predefined:
    return getPredefinedInfo(static_cast<PredefinedId>(Ints[0])).NumComponents;
  case TypeKind::Contiguous:
    return piecesOf(Ints[0], Operands[0]);
  case TypeKind::Vector:
  case TypeKind::HVector:
    return saturatingMul(uint64_t(std::max<int64_t>(Ints[0], 0)),
                         piecesOf(Ints[1], Operands[0]));
  case TypeKind::Indexed:
  case TypeKind::HIndexed:
    for (int64_t Bl : List(0))
      P = saturatingAdd(P, piecesOf(Bl, Operands[0]));
    return P;
  case TypeKind::IndexedBlock:
  case TypeKind::HIndexedBlock:
    return saturatingMul(N, piecesOf(Ints[0], Operands[0]));
  case TypeKind::Struct:
    for (size_t I = 0; I < N; ++I)
      P = saturatingAdd(P, piecesOf(List(0)[I], Operands[I]));
    return P;
  case TypeKind::Resized:
  case TypeKind::Dup:
    return Operands[0]->getLayout().Pieces;
  case TypeKind::Subarray:
  case TypeKind::Darray:
    return Expansion->getLayout().Pieces;
  }
  return P;
}

} // namespace ddtc

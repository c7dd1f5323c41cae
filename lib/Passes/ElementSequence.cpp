//===- lib/Passes/ElementSequence.cpp - Typemaps as copies of one type ----===//
#include "ElementSequence.h"

#include "ddtc/IR/TypePieces.h"

namespace ddtc::recon {

namespace {

/// The one child type of X's pieces that hold data, or null if they have
/// several (or none).
const Type *singleChild(const Type *X) {
  if (X->size() == 0)
    return nullptr;
  // Every node but a struct (and a pair type, whose pieces are leaves)
  // has one child type, however many pieces: a vector may have 10^12.
  // (The child of a subarray or darray is its expansion.)
  if (!isa<StructType>(X))
    return isa<PredefinedType>(X) ? nullptr : getPiece(X, 0).Child;
  const Type *Child = nullptr;
  for (uint64_t K = 0, N = getNumPieces(X); K < N; ++K) {
    TypePiece P = getPiece(X, K);
    if (P.Reps == 0 || (P.Child && P.Child->size() == 0))
      continue;
    if (!P.Child || (Child && P.Child != Child))
      return nullptr;
    Child = P.Child;
  }
  return Child;
}

bool isElement(const Type *X) {
  return isa<PredefinedType>(X) || X->getKind() == TypeKind::Resized ||
         X->getKind() == TypeKind::Struct;
}

/// Appends the copies of E in X's typemap, X at Base, as blocks (Runs).
class CopyWalker {
public:
  CopyWalker(const Type *E, CopyRuns Runs, size_t MaxBlocks)
      : E(E), Extent(E->extent()), Runs(Runs), MaxBlocks(MaxBlocks),
        MaxCopies(uint64_t(MaxBlocks) * 64) {}

  /// Top: X is the root, or reached from it through single copies.
  bool walk(const Type *X, int64_t Base, bool Top) {
    if (X == E)
      return append(Base, 1);
    if (isa<PredefinedType>(X))
      return false;
    uint64_t N = getNumPieces(X);
    // Pieces without copies (a vector of 10^12 empty blocks) cost a visit
    // each: bounded like the copies.
    if ((Visits += N) > MaxCopies)
      return false;
    // The first node with several copies of its child: its copies are
    // where MergedPerCopy keeps runs apart.
    bool Barrier = false;
    if (Top) {
      int64_t Copies = 0;
      for (uint64_t K = 0; K < N && Copies < 2; ++K)
        Copies += getPiece(X, K).Reps;
      Barrier = Copies >= 2;
      Top = !Barrier;
    }
    for (uint64_t K = 0; K < N; ++K) {
      TypePiece P = getPiece(X, K);
      if (P.Reps == 0 || (P.Child && P.Child->size() == 0))
        continue;
      if (!P.Child)
        return false;
      // Wrapping arithmetic, as TypePieces: the layout rules checked that
      // the displacements a valid type reaches fit.
      uint64_t At = uint64_t(Base) + uint64_t(P.Disp);
      if (P.Child == E && Runs != CopyRuns::Merged) {
        // An entry of copies of E: one block as listed; merged with what
        // came before unless a copy of the node ended there.
        if (!append(int64_t(At), P.Reps))
          return false;
        Apart |= Barrier;
        continue;
      }
      for (int64_t R = 0; R < P.Reps; ++R) {
        if (!walk(P.Child,
                  int64_t(At + uint64_t(R) * uint64_t(P.Child->extent())), Top))
          return false;
        Apart |= Barrier;
      }
    }
    return true;
  }

  std::vector<Block> take() { return std::move(Out); }

private:
  bool append(int64_t Offset, int64_t Count) {
    if ((Copies += uint64_t(Count)) > MaxCopies)
      return false;
    bool Merge =
        Runs == CopyRuns::Merged || (Runs == CopyRuns::MergedPerCopy && !Apart);
    Apart = false;
    if (Merge && !Out.empty() &&
        uint64_t(Out.back().Offset) +
                uint64_t(Out.back().Count) * uint64_t(Extent) ==
            uint64_t(Offset)) {
      Out.back().Count += Count;
      return true;
    }
    if (Out.size() == MaxBlocks)
      return false;
    Out.push_back({Offset, Count, OpaqueElement});
    return true;
  }

  const Type *E;
  int64_t Extent;
  CopyRuns Runs;
  /// The last block ended a copy of the first node with several.
  bool Apart = false;
  size_t MaxBlocks;
  uint64_t MaxCopies, Copies = 0, Visits = 0;
  std::vector<Block> Out;
};

} // namespace

std::vector<const Type *> findElements(const Type *T) {
  std::vector<const Type *> Found;
  for (const Type *X = T; X;) {
    if (X != T && isElement(X))
      Found.push_back(X);
    if (isa<PredefinedType>(X))
      break;
    X = singleChild(X);
  }
  return Found;
}

std::optional<std::vector<Block>>
elementBlocks(const Type *T, const Type *E, CopyRuns Runs, size_t MaxBlocks) {
  if (E->extent() < 0 || E->size() == 0 || MaxBlocks == 0)
    return std::nullopt;
  CopyWalker W(E, Runs, MaxBlocks);
  if (!W.walk(T, 0, /*Top=*/true))
    return std::nullopt;
  std::vector<Block> Out = W.take();
  if (Out.empty())
    return std::nullopt;
  return Out;
}

} // namespace ddtc::recon

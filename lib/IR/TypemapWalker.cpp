//===- lib/IR/TypemapWalker.cpp - Streaming typemap traversal -------------===//
//
// Each node is seen as a sequence of pieces (ddtc/IR/TypePieces.h), piece
// k being `Reps` copies of a child type at byte displacement `Disp`. A piece
// whose child is dense (its instances tile memory) is emitted as a single run;
// otherwise the walker descends into each copy.
//
//===----------------------------------------------------------------------===//
#include "ddtc/IR/TypemapWalker.h"

#include "ddtc/IR/TypePieces.h"
#include "ddtc/Support/CheckedInt.h"

#include <cassert>
#include <cstring>
#include <unordered_set>
#include <vector>

namespace ddtc {

TypemapWalker::TypemapWalker(const Type *T, uint64_t Count, WalkMode Mode)
    : Root(T), Count(Count), Mode(Mode) {
  Stack.reserve(16);
  Stack.push_back({nullptr, 0, 0, 1, 0});
}

void TypemapWalker::push(const Type *T, int64_t Base) {
  Stack.push_back({T, Base, 0, getNumPieces(T), 0});
}

bool TypemapWalker::step(TypemapRun &Run) {
  while (!Stack.empty()) {
    Frame &F = Stack.back();
    if (F.Piece == F.NumPieces) {
      Stack.pop_back();
      continue;
    }
    TypePiece P = F.T ? getPiece(F.T, F.Piece)
                      : TypePiece{Root, static_cast<int64_t>(Count), 0, {}};
    if (!P.Child) {
      Run = {wrappingAdd(F.Base, P.Disp), getPredefinedInfo(P.Leaf).Size,
             P.Leaf};
      ++F.Piece;
      return true;
    }
    const TypeLayout &L = P.Child->getLayout();
    if (P.Reps == 0 || L.Size == 0 || F.Rep == P.Reps) {
      ++F.Piece;
      F.Rep = 0;
      continue;
    }
    if (L.isDense() && (Mode == WalkMode::Bytes || L.UniformBasic)) {
      // All copies of the piece form one run.
      Run = {wrappingAdd(F.Base, wrappingAdd(P.Disp, L.Lb)),
             wrappingMul(P.Reps, L.Size),
             L.UniformBasic.value_or(PredefinedId::Byte)};
      ++F.Piece;
      return true;
    }
    int64_t ChildBase = wrappingAdd(
        F.Base, wrappingAdd(P.Disp, wrappingMul(F.Rep, L.Ub - L.Lb)));
    ++F.Rep;
    push(P.Child, ChildBase); // invalidates F
  }
  return false;
}

bool TypemapWalker::next(TypemapRun &Run) {
  TypemapRun Raw;
  while (step(Raw)) {
    if (Mode == WalkMode::Bytes)
      Raw.Basic = PredefinedId::Byte;
    if (!HavePending) {
      Pending = Raw;
      HavePending = true;
      continue;
    }
    if (Pending.end() == Raw.Offset &&
        (Mode == WalkMode::Bytes || Pending.Basic == Raw.Basic)) {
      Pending.Length += Raw.Length;
      continue;
    }
    Run = Pending;
    Pending = Raw;
    return true;
  }
  if (!HavePending)
    return false;
  Run = Pending;
  HavePending = false;
  return true;
}

int64_t packTypemap(const Type *T, uint64_t Count, const void *InBuf,
                    void *OutBuf) {
  const char *In = static_cast<const char *>(InBuf);
  char *Out = static_cast<char *>(OutBuf);
  int64_t Written = 0;
  TypemapWalker W(T, Count, WalkMode::Bytes);
  TypemapRun R;
  while (W.next(R)) {
    std::memcpy(Out + Written, In + R.Offset, static_cast<size_t>(R.Length));
    Written += R.Length;
  }
  return Written;
}

bool hasPaddingBytes(const Type *T) {
  std::vector<const Type *> Work{T};
  std::unordered_set<const Type *> Seen{T};
  while (!Work.empty()) {
    const Type *X = Work.back();
    Work.pop_back();
    if (const auto *P = dyn_cast<PredefinedType>(X))
      if (P->getInfo().isBasic() && P->getInfo().PadMask != 0)
        return true;
    auto Visit = [&](const Type *Y) {
      if (Y && Seen.insert(Y).second)
        Work.push_back(Y);
    };
    for (const Type *Op : X->getOperands())
      Visit(Op);
    Visit(X->getExpansion());
  }
  return false;
}

} // namespace ddtc

//===- lib/IR/ArrayExpansion.cpp - subarray and darray as MPICH builds them ===//
#include "ArrayExpansion.h"

#include <algorithm>
#include <vector>

namespace ddtc {

Expected<const Type *> ExpansionBuilder::subarray(
    std::span<const int64_t> Sizes, std::span<const int64_t> Subsizes,
    std::span<const int64_t> Starts, ArrayOrder Order, const Type *Old) {
  size_t NDims = Sizes.size();
  int64_t Extent = Old->extent();
  // Index of the fastest-varying dimension and the step towards slower ones.
  bool Fortran = Order == ArrayOrder::Fortran;
  auto Dim = [&](size_t K) { return Fortran ? K : NDims - 1 - K; };

  Expected<const Type *> T = Old;
  if (NDims == 1) {
    T = Ctx.getContiguous(Subsizes[0], Old);
  } else {
    T = Ctx.getVector(Subsizes[Dim(1)], Subsizes[Dim(0)], Sizes[Dim(0)], Old);
    CheckedInt Stride = CheckedInt(Sizes[Dim(0)]) * Extent;
    for (size_t K = 2; K < NDims && T; ++K) {
      Stride = Stride * Sizes[Dim(K - 1)];
      if (Stride.overflowed())
        return overflow("sizes");
      T = Ctx.getHVector(Subsizes[Dim(K)], 1, Stride.value(), *T);
    }
  }
  if (!T)
    return T;
  return placeInArray(Sizes, Starts, Order, Extent, *T, "sizes");
}

Expected<const Type *> ExpansionBuilder::placeInArray(
    std::span<const int64_t> Sizes, std::span<const int64_t> Starts,
    ArrayOrder Order, int64_t Extent, const Type *T, const char *Field) {
  size_t NDims = Sizes.size();
  auto Dim = [&](size_t K) {
    return Order == ArrayOrder::Fortran ? K : NDims - 1 - K;
  };
  CheckedInt Disp = Starts[Dim(0)];
  CheckedInt Step = 1;
  for (size_t K = 1; K < NDims; ++K) {
    Step = Step * Sizes[Dim(K - 1)];
    Disp = Disp + Step * Starts[Dim(K)];
  }
  Disp = Disp * Extent;
  CheckedInt Total = Extent;
  for (int64_t S : Sizes)
    Total = Total * S;
  if (Disp.overflowed() || Total.overflowed())
    return overflow(Field);
  return place(Disp.value(), Total.value(), T);
}

Expected<const Type *> ExpansionBuilder::block(std::span<const int64_t> Gsizes,
                                               size_t Dim, int64_t NProcs,
                                               int64_t Coord, int64_t Darg,
                                               ArrayOrder Order,
                                               int64_t OrigExtent,
                                               const Type *Old, int64_t &St) {
  int64_t Global = Gsizes[Dim];
  int64_t BlockSize =
      Darg == DefaultDarg ? (Global + NProcs - 1) / NProcs : Darg;
  CheckedInt Mine = CheckedInt(Global) - CheckedInt(BlockSize) * Coord;
  if (Mine.overflowed())
    return overflow("dargs");
  int64_t MySize = std::max<int64_t>(0, std::min(BlockSize, Mine.value()));

  bool Fastest =
      Order == ArrayOrder::Fortran ? Dim == 0 : Dim == Gsizes.size() - 1;
  Expected<const Type *> T = Old;
  if (Fastest) {
    T = Ctx.getContiguous(MySize, Old);
  } else {
    CheckedInt Stride = CheckedInt(OrigExtent) * fasterDims(Gsizes, Dim, Order);
    if (Stride.overflowed())
      return overflow("gsizes");
    T = Ctx.getHVector(MySize, 1, Stride.value(), Old);
  }
  if (!T)
    return T;
  St = MySize == 0 ? 0 : BlockSize * Coord;
  CheckedInt Extent = CheckedInt(Global) * Old->extent();
  if (Extent.overflowed())
    return overflow("gsizes");
  return Ctx.getResized(0, Extent.value(), *T);
}

Expected<const Type *> ExpansionBuilder::cyclic(std::span<const int64_t> Gsizes,
                                                size_t Dim, int64_t NProcs,
                                                int64_t Coord, int64_t Darg,
                                                ArrayOrder Order,
                                                int64_t OrigExtent,
                                                const Type *Old, int64_t &St) {
  int64_t BlockSize = Darg == DefaultDarg ? 1 : Darg;
  CheckedInt StIndex = CheckedInt(Coord) * BlockSize;
  CheckedInt Period = CheckedInt(NProcs) * BlockSize;
  if (StIndex.overflowed() || Period.overflowed())
    return overflow("dargs");
  int64_t EndIndex = Gsizes[Dim] - 1;
  int64_t LocalSize = 0;
  if (EndIndex >= StIndex.value()) {
    int64_t Span = EndIndex - StIndex.value() + 1;
    LocalSize = (Span / Period.value()) * BlockSize +
                std::min(Span % Period.value(), BlockSize);
  }
  int64_t Count = LocalSize / BlockSize;
  int64_t Rem = LocalSize % BlockSize;
  CheckedInt Stride = Period * OrigExtent * fasterDims(Gsizes, Dim, Order);
  if (Stride.overflowed())
    return overflow("gsizes");

  Expected<const Type *> T =
      Ctx.getHVector(Count, BlockSize, Stride.value(), Old);
  if (!T)
    return T;
  if (Rem) {
    CheckedInt RemDisp = CheckedInt(Count) * Stride.value();
    if (RemDisp.overflowed())
      return overflow("gsizes");
    int64_t Lengths[] = {1, Rem};
    int64_t Disps[] = {0, RemDisp.value()};
    const Type *Types[] = {*T, Old};
    T = Ctx.getStruct(Lengths, Disps, Types);
    if (!T)
      return T;
  }

  bool Fastest =
      Order == ArrayOrder::Fortran ? Dim == 0 : Dim == Gsizes.size() - 1;
  if (Fastest) {
    CheckedInt Disp = StIndex * OrigExtent;
    CheckedInt Extent = CheckedInt(OrigExtent) * Gsizes[Dim];
    if (Disp.overflowed() || Extent.overflowed())
      return overflow("gsizes");
    T = place(Disp.value(), Extent.value(), *T);
    if (!T)
      return T;
    St = 0; // folded into the displacement above
  } else {
    St = StIndex.value();
  }
  if (LocalSize == 0)
    St = 0;
  CheckedInt Extent = CheckedInt(Gsizes[Dim]) * Old->extent();
  if (Extent.overflowed())
    return overflow("gsizes");
  return Ctx.getResized(0, Extent.value(), *T);
}

Expected<const Type *> ExpansionBuilder::darray(
    int64_t CommSize, int64_t Rank, std::span<const int64_t> Gsizes,
    std::span<const int64_t> Distribs, std::span<const int64_t> Dargs,
    std::span<const int64_t> Psizes, ArrayOrder Order, const Type *Old) {
  size_t NDims = Gsizes.size();
  // Row-major coordinates of Rank in the process grid.
  std::vector<int64_t> Coords(NDims);
  int64_t Procs = CommSize, Remaining = Rank;
  for (size_t I = 0; I < NDims; ++I) {
    Procs /= Psizes[I];
    Coords[I] = Remaining / Procs;
    Remaining %= Procs;
  }

  int64_t OrigExtent = Old->extent();
  std::vector<int64_t> St(NDims, 0);
  bool Fortran = Order == ArrayOrder::Fortran;
  const Type *T = Old;
  for (size_t K = 0; K < NDims; ++K) {
    size_t I = Fortran ? K : NDims - 1 - K;
    Expected<const Type *> Next = T;
    switch (static_cast<Distribution>(Distribs[I])) {
    case Distribution::Block:
      Next = block(Gsizes, I, Psizes[I], Coords[I], Dargs[I], Order, OrigExtent,
                   T, St[I]);
      break;
    case Distribution::Cyclic:
      Next = cyclic(Gsizes, I, Psizes[I], Coords[I], Dargs[I], Order,
                    OrigExtent, T, St[I]);
      break;
    case Distribution::None:
      // A block distribution over one process.
      Next = block(Gsizes, I, 1, 0, DefaultDarg, Order, OrigExtent, T, St[I]);
      break;
    }
    if (!Next)
      return Next;
    T = *Next;
  }

  // St holds the start of this process's piece, in elements of Old.
  return placeInArray(Gsizes, St, Order, OrigExtent, T, "gsizes");
}

} // namespace ddtc

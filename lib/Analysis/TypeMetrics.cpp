//===- lib/Analysis/TypeMetrics.cpp - What `ddtc analyze` reports ---------===//
#include "ddtc/Analysis/TypeMetrics.h"

namespace ddtc {

TypeMetrics measureType(const Type *T) {
  const TypeLayout &L = T->getLayout();
  TypeMetrics M;
  M.Size = L.Size;
  M.Lb = L.Lb;
  M.Extent = L.extent();
  M.TrueLb = L.TrueLb;
  M.TrueExtent = L.trueExtent();
  M.Elements = L.Elements;
  M.Blocks = L.Blocks.Count;
  M.MinBlock = L.Blocks.minLength();
  M.MaxBlock = L.Blocks.maxLength();
  M.MeanBlock = L.Blocks.Count ? static_cast<double>(L.Size) /
                                     static_cast<double>(L.Blocks.Count)
                               : 0.0;
  M.Depth = L.Depth;
  M.Cost = L.Cost;
  M.Pieces = L.Pieces;
  return M;
}

} // namespace ddtc

//===- ddtc/Analysis/TypeMetrics.h - What `ddtc analyze` reports -*- C++ -*-===//
//
// The measurable properties of one type, as reported to users. All come
// from the node's cached layout: nothing here walks the typemap, so a type
// with 10^12 entries is measured in constant time.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_ANALYSIS_TYPEMETRICS_H
#define DDTC_ANALYSIS_TYPEMETRICS_H

#include "ddtc/IR/Type.h"

#include <cstdint>

namespace ddtc {

struct TypeMetrics {
  int64_t Size = 0;
  int64_t Lb = 0;
  int64_t Extent = 0;
  int64_t TrueLb = 0;
  int64_t TrueExtent = 0;
  uint64_t Elements = 0; ///< typemap entries
  uint64_t Blocks = 0;   ///< contiguous blocks after merging
  int64_t MinBlock = 0;  ///< bytes
  double MeanBlock = 0;  ///< bytes
  int64_t MaxBlock = 0;  ///< bytes
  unsigned Depth = 0;
  uint64_t Cost = 0;   ///< description cost (docs/normalization.md)
  uint64_t Pieces = 0; ///< copy operations per instance
};

TypeMetrics measureType(const Type *T);

} // namespace ddtc

#endif // DDTC_ANALYSIS_TYPEMETRICS_H

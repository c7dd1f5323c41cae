//===- ddtc/Reader/TypeUses.h - How a traced program used a type -*- C++ -*-===//
//
// A trace written by libddtc_trace.so carries, on each named type, the
// calls the program made with it: "x-uses": [{"op": "MPI_Send", "count":
// 2, "calls": 10, "bytes": 81920}, ...] (docs/format.md). ddtc-bench
// replays those counts; the MPI-facing form (ddtc/Engine/MPIForm.h) is
// chosen for them, and for sends alone where the program never has MPI
// pack the type whole.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_READER_TYPEUSES_H
#define DDTC_READER_TYPEUSES_H

#include "ddtc/IR/Module.h"
#include "ddtc/Support/Error.h"

#include <cstdint>
#include <map>
#include <string_view>
#include <vector>

namespace ddtc {

struct TypeUses {
  /// The positive counts the type was used with, and the calls of each.
  std::map<int64_t, uint64_t> Counts;
  /// Every call that moves data is point-to-point and sends or receives
  /// the typed buffer itself (MPI_Send, MPI_Irecv, MPI_Sendrecv, ...):
  /// MPI packs the type fragment by fragment as the message goes, never
  /// whole. Collectives, MPI_Pack, buffered sends, MPI_Sendrecv_replace
  /// and one-sided calls are not (some pack whole); size queries are not
  /// uses. False when there are no uses.
  bool PointToPointOnly = false;

  bool empty() const { return Counts.empty(); }
  /// Adds Other's uses (another type of the same layout, another rank's
  /// trace): point-to-point only if both are, or one has no uses.
  void merge(const TypeUses &Other);
  /// The counts to compare forms at: every count used, or, past Max
  /// counts, the smallest, the largest and those with the most calls;
  /// ascending.
  std::vector<uint64_t> countsToCompare(size_t Max = 8) const;
};

/// Whether Op (an MPI function's name, as a trace writes it) sends or
/// receives a typed buffer point to point, packed fragment by fragment.
bool isPointToPointTransfer(std::string_view Op);

/// N's x-uses; none: empty uses. A malformed x-uses is an error naming
/// the type and the field.
Expected<TypeUses> readTypeUses(const NamedType &N);

} // namespace ddtc

#endif // DDTC_READER_TYPEUSES_H

//===- ddtc/Engine/EngineWork.h - What an MPI engine does to pack -*- C++ -*-===//
//
// The work an MPI library's datatype engine does for one pack, counted in
// the units its code spends time on: calls, loop iterations, index loads,
// element copies, memcpy calls and bytes. Two equivalent descriptions move
// the same bytes; what differs between them is this work, and a calibrated
// price per unit (EngineCosts.h) turns it into time. docs/mpi-forms.md.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_ENGINE_ENGINEWORK_H
#define DDTC_ENGINE_ENGINEWORK_H

#include <array>
#include <cstddef>

namespace ddtc {

/// The units of work, in the order of a cost table's lines.
#define DDTC_ENGINE_UNITS(X)                                                   \
  X(Call, "call", "one pack call into the library (argument checks)")          \
  X(Dispatch, "dispatch",                                                      \
    "one entry into the engine's per-type dispatch (a kernel lookup, or a "    \
    "step of the interpreter's recursion)")                                    \
  X(LoopIteration, "loop-iteration",                                           \
    "one iteration of a kernel loop that is not the innermost copy")           \
  X(IndexLoad, "index-load",                                                   \
    "one displacement or block length read from an index list")                \
  X(InnerLoop, "inner-loop",                                                   \
    "one run of an innermost copy loop of run-time trip count (its exit "      \
    "is a branch the predictor misses on short blocks)")                       \
  X(UnrolledElement, "unrolled-element",                                       \
    "one element copied by an innermost loop of constant trip count")          \
  X(GenericElement, "generic-element",                                         \
    "one element copied by an innermost loop of run-time trip count")          \
  X(KernelByte, "kernel-byte", "one byte copied by a kernel")                  \
  X(CopyCall, "copy-call", "one memcpy of a contiguous piece")                 \
  X(CopyByte, "copy-byte", "one byte copied by memcpy")

enum class WorkUnit : unsigned {
#define DDTC_UNIT_ENUM(Id, Name, Description) Id,
  DDTC_ENGINE_UNITS(DDTC_UNIT_ENUM)
#undef DDTC_UNIT_ENUM
      NumUnits
};

constexpr size_t NumWorkUnits = static_cast<size_t>(WorkUnit::NumUnits);

/// The name of a unit in a cost table ("loop-iteration"), and what it is.
const char *getWorkUnitName(WorkUnit U);
const char *getWorkUnitDescription(WorkUnit U);

/// Counts of work units. Doubles: a type of 10^12 blocks is counted
/// without overflow, and nothing is ever iterated per block.
struct EngineWork {
  std::array<double, NumWorkUnits> Units{};

  double &operator[](WorkUnit U) { return Units[static_cast<size_t>(U)]; }
  double operator[](WorkUnit U) const { return Units[static_cast<size_t>(U)]; }
  EngineWork &operator+=(const EngineWork &O) {
    for (size_t I = 0; I < NumWorkUnits; ++I)
      Units[I] += O.Units[I];
    return *this;
  }
  /// This work done Times times.
  EngineWork scaled(double Times) const {
    EngineWork W = *this;
    for (double &U : W.Units)
      U *= Times;
    return W;
  }
};

} // namespace ddtc

#endif // DDTC_ENGINE_ENGINEWORK_H

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

/// Classes of element. Yaksa instantiates its kernels per C type, and the
/// compiler makes different code of the same loop for each: on the
/// project's Zen 3 host MPICH 4.0.2 copies int32_t elements through a
/// contiguous type's loop (its step read at run time) at half the speed of
/// a vector's block loop, and float elements through a vector's block loop
/// at half the speed of int32_t ones (docs/mpi-forms.md, "Element
/// classes"). Element copies are priced per class.
#define DDTC_ENGINE_ELEMENT_CLASSES(X)                                         \
  X(I8, "i8", "1-byte integers and characters")                                \
  X(I16, "i16", "2-byte integers")                                             \
  X(I32, "i32", "4-byte integers")                                             \
  X(I64, "i64", "8-byte integers")                                             \
  X(F32, "f32", "float")                                                       \
  X(F64, "f64", "double")                                                      \
  X(Wide, "wide", "long double and the complex types")

/// The element copies of one class, by the kind of innermost loop.
#define DDTC_ENGINE_ELEMENT_UNITS(X, Class, Suffix)                            \
  X(UnrolledElement##Class, "unrolled-element." Suffix,                        \
    "one " Suffix " element copied by an innermost loop of constant trip "     \
    "count (a vector's or block-indexed list's blocks of 1 to 8)")             \
  X(BlockElement##Class, "block-element." Suffix,                              \
    "one " Suffix " element copied by an innermost loop of run-time trip "     \
    "count over a block (its step is the element's size)")                     \
  X(StridedElement##Class, "strided-element." Suffix,                          \
    "one " Suffix " element copied by an innermost loop whose step is read "   \
    "at run time (a contiguous type's child extent)")

/// The units of work, in the order of a cost table's lines.
#define DDTC_ENGINE_UNITS(X)                                                   \
  X(Call, "call", "one pack call into the library (argument checks)")          \
  X(EngineCall, "engine-call",                                                 \
    "one entry into the engine proper (yaksa_pack, its request and info), "    \
    "which MPICH skips for a contiguous type")                                 \
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
  DDTC_ENGINE_ELEMENT_UNITS(X, I8, "i8")                                       \
  DDTC_ENGINE_ELEMENT_UNITS(X, I16, "i16")                                     \
  DDTC_ENGINE_ELEMENT_UNITS(X, I32, "i32")                                     \
  DDTC_ENGINE_ELEMENT_UNITS(X, I64, "i64")                                     \
  DDTC_ENGINE_ELEMENT_UNITS(X, F32, "f32")                                     \
  DDTC_ENGINE_ELEMENT_UNITS(X, F64, "f64")                                     \
  DDTC_ENGINE_ELEMENT_UNITS(X, Wide, "wide")                                   \
  X(KernelByte, "kernel-byte", "one byte copied by a kernel")                  \
  X(Page, "page",                                                              \
    "one 4 KiB page of the typed buffer the message touches (a page walk "     \
    "once the TLB no longer holds them; the same for every description of "    \
    "the layout)")                                                             \
  X(CopyCall, "copy-call", "one memcpy of a contiguous piece")                 \
  X(CopyByte, "copy-byte", "one byte copied by memcpy")

enum class WorkUnit : unsigned {
#define DDTC_UNIT_ENUM(Id, Name, Description) Id,
  DDTC_ENGINE_UNITS(DDTC_UNIT_ENUM)
#undef DDTC_UNIT_ENUM
      NumUnits
};

constexpr size_t NumWorkUnits = static_cast<size_t>(WorkUnit::NumUnits);

enum class ElementClass : unsigned {
#define DDTC_CLASS_ENUM(Id, Name, Description) Id,
  DDTC_ENGINE_ELEMENT_CLASSES(DDTC_CLASS_ENUM)
#undef DDTC_CLASS_ENUM
};

/// How an innermost loop copies its elements (DDTC_ENGINE_ELEMENT_UNITS).
enum class ElementCopy : unsigned { Unrolled, Block, Strided };

/// The unit of an element of class C copied by a loop of kind K.
constexpr WorkUnit elementUnit(ElementClass C, ElementCopy K) {
  return static_cast<WorkUnit>(
      static_cast<unsigned>(WorkUnit::UnrolledElementI8) +
      3 * static_cast<unsigned>(C) + static_cast<unsigned>(K));
}
static_assert(elementUnit(ElementClass::Wide, ElementCopy::Strided) ==
                  WorkUnit::StridedElementWide,
              "element units are three per class, in class order");

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

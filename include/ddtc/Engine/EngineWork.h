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
#include <cstdint>

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

/// The element copies of one class, by the kind of innermost loop; the
/// unrolled loops by their block length, as each is a kernel of its own
/// and the compiler made some much slower than others (blocks of 1 and 4
/// `char`s 3.9x slower per element than blocks of 2, here).
#define DDTC_ENGINE_UNROLLED_UNIT(X, Class, Suffix, B)                         \
  X(Unrolled##B##Class, "unrolled-element." Suffix "." #B,                     \
    "one " Suffix " element copied by the unrolled innermost loop of a "       \
    "vector's or block-indexed list's blocks of " #B)
#define DDTC_ENGINE_ELEMENT_UNITS(X, Class, Suffix)                            \
  DDTC_ENGINE_UNROLLED_UNIT(X, Class, Suffix, 1)                               \
  DDTC_ENGINE_UNROLLED_UNIT(X, Class, Suffix, 2)                               \
  DDTC_ENGINE_UNROLLED_UNIT(X, Class, Suffix, 3)                               \
  DDTC_ENGINE_UNROLLED_UNIT(X, Class, Suffix, 4)                               \
  DDTC_ENGINE_UNROLLED_UNIT(X, Class, Suffix, 5)                               \
  DDTC_ENGINE_UNROLLED_UNIT(X, Class, Suffix, 6)                               \
  DDTC_ENGINE_UNROLLED_UNIT(X, Class, Suffix, 7)                               \
  DDTC_ENGINE_UNROLLED_UNIT(X, Class, Suffix, 8)                               \
  X(BlockElement##Class, "block-element." Suffix,                              \
    "one " Suffix " element copied by an innermost loop of run-time trip "     \
    "count over a block (its step is the element's size)")                     \
  X(Strided2##Class, "strided-element." Suffix ".2",                           \
    "one " Suffix " element copied by an innermost loop whose step is read "   \
    "at run time (a contiguous type's child extent), in a kernel of one or "   \
    "two levels")                                                              \
  X(Strided3##Class, "strided-element." Suffix ".3",                           \
    "the same in a kernel of three levels (another function, other code)")

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

/// Yaksa unrolls the innermost block loops of 1 to this many elements.
constexpr int64_t MaxUnrolledBlockLength = 8;

/// The unit of an element of class C copied by a loop of kind K (for an
/// unrolled loop, of blocks of BlockLength elements; for a strided one, in
/// a kernel of Levels levels).
constexpr WorkUnit elementUnit(ElementClass C, ElementCopy K,
                               int64_t BlockLength = 1, unsigned Levels = 1) {
  unsigned PerClass = unsigned(MaxUnrolledBlockLength) + 3;
  unsigned Offset =
      K == ElementCopy::Unrolled ? unsigned(BlockLength - 1)
      : K == ElementCopy::Block
          ? unsigned(MaxUnrolledBlockLength)
          : unsigned(MaxUnrolledBlockLength) + (Levels >= 3 ? 2 : 1);
  return static_cast<WorkUnit>(static_cast<unsigned>(WorkUnit::Unrolled1I8) +
                               PerClass * static_cast<unsigned>(C) + Offset);
}
static_assert(elementUnit(ElementClass::Wide, ElementCopy::Strided, 1, 3) ==
                  WorkUnit::Strided3Wide,
              "element units are eleven per class, in class order");
static_assert(elementUnit(ElementClass::I16, ElementCopy::Unrolled, 8) ==
                  WorkUnit::Unrolled8I16,
              "unrolled units are in block-length order");

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

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

/// The element copies of one class, by the kind of innermost loop, and by
/// what makes it another kernel function: the unrolled loops by their
/// block length, the block loops by the list or vector they belong to, the
/// strided loops by the kernel's depth. The compiler made some of these
/// functions much slower than others (blocks of 1 and 4 `char`s 3.9x
/// slower per element than blocks of 2, here).
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
  X(BlockHVector##Class, "block-element." Suffix ".hvector",                   \
    "one " Suffix " element copied by an innermost loop of run-time trip "     \
    "count over a block (its step is the element's size) of a vector")         \
  X(BlockBlkHindx##Class, "block-element." Suffix ".blkhindx",                 \
    "the same in a block-indexed list's kernel")                               \
  X(BlockHIndexed##Class, "block-element." Suffix ".hindexed",                 \
    "the same in an indexed list's kernel")                                    \
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

/// Yaksa unrolls the innermost block loops of 1 to this many elements.
constexpr int64_t MaxUnrolledBlockLength = 8;

/// The element units of class C, in the order DDTC_ENGINE_ELEMENT_UNITS
/// lists them: eight unrolled, three block, two strided.
constexpr unsigned firstElementUnit(ElementClass C) {
  return static_cast<unsigned>(WorkUnit::Unrolled1I8) +
         13 * static_cast<unsigned>(C);
}
/// An element of class C copied by the unrolled loop of blocks of
/// BlockLength (1 to MaxUnrolledBlockLength).
constexpr WorkUnit unrolledUnit(ElementClass C, int64_t BlockLength) {
  return static_cast<WorkUnit>(firstElementUnit(C) + unsigned(BlockLength - 1));
}
/// The kernel node whose block loop copies the elements.
enum class BlockLoop : unsigned { HVector, BlkHindx, HIndexed };
constexpr WorkUnit blockUnit(ElementClass C, BlockLoop L) {
  return static_cast<WorkUnit>(firstElementUnit(C) + 8 +
                               static_cast<unsigned>(L));
}
/// An element copied by a loop whose step is read at run time, in a kernel
/// of Levels levels.
constexpr WorkUnit stridedUnit(ElementClass C, unsigned Levels) {
  return static_cast<WorkUnit>(firstElementUnit(C) + (Levels >= 3 ? 12 : 11));
}
static_assert(stridedUnit(ElementClass::Wide, 3) == WorkUnit::Strided3Wide,
              "element units are thirteen per class, in class order");
static_assert(unrolledUnit(ElementClass::I16, 8) == WorkUnit::Unrolled8I16 &&
                  blockUnit(ElementClass::I16, BlockLoop::HIndexed) ==
                      WorkUnit::BlockHIndexedI16,
              "the units of a class are in DDTC_ENGINE_ELEMENT_UNITS order");

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

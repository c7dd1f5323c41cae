//===- lib/IR/ArrayExpansion.h - subarray and darray as MPICH builds them -*- C++ -*-===//
//
// The standard defines the typemaps of subarray and darray only through
// constructions from other constructors; MPICH 4.0 has its own
// (MPIR_Type_create_subarray, MPIR_Type_block/_cyclic/_create_darray).
// ExpansionBuilder replays them with ddtc's own nodes, so that typemaps,
// bounds and true bounds agree with MPICH's. TypeContext stores the result
// as the node's expansion.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_LIB_IR_ARRAYEXPANSION_H
#define DDTC_LIB_IR_ARRAYEXPANSION_H

#include "ddtc/IR/TypeContext.h"
#include "ddtc/Support/CheckedInt.h"

#include <span>
#include <string>

namespace ddtc {

/// Replays MPICH's construction of subarray and darray types. Every
/// intermediate type is a ddtc node created through the same context.
class ExpansionBuilder {
public:
  ExpansionBuilder(TypeContext &Ctx) : Ctx(Ctx) {}

  Expected<const Type *> subarray(std::span<const int64_t> Sizes,
                                  std::span<const int64_t> Subsizes,
                                  std::span<const int64_t> Starts,
                                  ArrayOrder Order, const Type *Old);

  Expected<const Type *>
  darray(int64_t CommSize, int64_t Rank, std::span<const int64_t> Gsizes,
         std::span<const int64_t> Distribs, std::span<const int64_t> Dargs,
         std::span<const int64_t> Psizes, ArrayOrder Order, const Type *Old);

private:
  /// One dimension of a darray; St receives the start offset in elements.
  Expected<const Type *> block(std::span<const int64_t> Gsizes, size_t Dim,
                               int64_t NProcs, int64_t Coord, int64_t Darg,
                               ArrayOrder Order, int64_t OrigExtent,
                               const Type *Old, int64_t &St);
  Expected<const Type *> cyclic(std::span<const int64_t> Gsizes, size_t Dim,
                                int64_t NProcs, int64_t Coord, int64_t Darg,
                                ArrayOrder Order, int64_t OrigExtent,
                                const Type *Old, int64_t &St);
  /// Product of Gsizes over the dimensions that vary faster than Dim.
  CheckedInt fasterDims(std::span<const int64_t> Gsizes, size_t Dim,
                        ArrayOrder Order) const {
    CheckedInt P = 1;
    if (Order == ArrayOrder::Fortran)
      for (size_t I = 0; I < Dim; ++I)
        P = P * Gsizes[I];
    else
      for (size_t I = Dim + 1; I < Gsizes.size(); ++I)
        P = P * Gsizes[I];
    return P;
  }
  /// Byte displacement wrapper: hindexed_block(1, [Disp], T) resized to
  /// [0, Extent), the last step of both constructions.
  Expected<const Type *> place(int64_t Disp, int64_t Extent, const Type *T) {
    int64_t Disps[] = {Disp};
    Expected<const Type *> Placed = Ctx.getHIndexedBlock(1, Disps, T);
    if (!Placed)
      return Placed;
    return Ctx.getResized(0, Extent, *Placed);
  }
  /// The last step of both constructions: T, the local piece of an array
  /// of Sizes elements of Extent bytes whose first element has the
  /// coordinates Starts, placed at that element's byte offset in a type
  /// spanning the whole array. Field names the argument on overflow.
  Expected<const Type *> placeInArray(std::span<const int64_t> Sizes,
                                      std::span<const int64_t> Starts,
                                      ArrayOrder Order, int64_t Extent,
                                      const Type *T, const char *Field);
  Error overflow(const char *Field) {
    return makeError(std::string("field '") + Field +
                     "': the type's size or bounds overflow 64 bits");
  }

  TypeContext &Ctx;
};

} // namespace ddtc

#endif // DDTC_LIB_IR_ARRAYEXPANSION_H

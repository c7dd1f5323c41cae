//===- ddtc/IR/ConstructorCalls.h - The MPI type constructor calls -*- C++ -*-===//
//
// For each kind of derived type, the MPI function that builds it and where
// each of its arguments comes from in the node (getKindSpec's scalars and
// lists). One table for both directions: the emitter prints calls from
// nodes (ddtc_NAME_build, `ddtc rewrite`), the source front end reads nodes
// from calls (`ddtc extract`). Names and roles only: the IR stays free of
// MPI's headers.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_IR_CONSTRUCTORCALLS_H
#define DDTC_IR_CONSTRUCTORCALLS_H

#include "ddtc/IR/Type.h"

#include <optional>
#include <span>
#include <string_view>

namespace ddtc {

/// Where an argument of an MPI constructor comes from.
enum class ArgFrom {
  Scalar,     ///< integer scalar Index of the node
  List,       ///< integer list Index of the node
  ListLength, ///< the MPI count argument: length of the lists
  OldType,
  Types,    ///< the struct's member types
  Order,    ///< scalar Index as MPI_ORDER_C / MPI_ORDER_FORTRAN
  Distribs, ///< list Index as MPI_DISTRIBUTE_*
  Dargs,    ///< list Index, MPI_DISTRIBUTE_DFLT_DARG for "default"
};

/// The C type of an integer argument.
enum class ArgType {
  Count, ///< int, or MPI_Count in the large-count API
  Aint,  ///< MPI_Aint, or MPI_Count in the large-count API
  Int,   ///< int in both APIs
};

struct CallArg {
  ArgFrom From;
  unsigned Index;
  ArgType Type;
};

/// One constructor; the `newtype` output argument follows Args.
struct ConstructorCall {
  TypeKind Kind;
  std::string_view Function;
  bool HasLargeCount; ///< a `_c` variant exists
  std::span<const CallArg> Args;
};

/// The constructor of a derived kind (not Predefined).
const ConstructorCall &getConstructorCall(TypeKind K);

/// The constructor an MPI function name calls: the MPI-4 names, their `_c`
/// variants (Large set), and the MPI-1 names removed in MPI-3
/// (MPI_Type_hvector, _hindexed, _struct) that old codes still call.
std::optional<ConstructorCall> lookupConstructorCall(std::string_view Name,
                                                     bool *Large = nullptr);

} // namespace ddtc

#endif // DDTC_IR_CONSTRUCTORCALLS_H

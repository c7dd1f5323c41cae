//===- lib/IR/ConstructorCalls.cpp - The MPI type constructor calls -------===//
#include "ddtc/IR/ConstructorCalls.h"

#include <array>
#include <cassert>

namespace ddtc {

namespace {

using AF = ArgFrom;
using AT = ArgType;

// The arguments of each constructor before `newtype`, in MPI's order.
constexpr CallArg ContiguousArgs[] = {{AF::Scalar, 0, AT::Count},
                                      {AF::OldType, 0, AT::Int}};
constexpr CallArg VectorArgs[] = {{AF::Scalar, 0, AT::Count},
                                  {AF::Scalar, 1, AT::Count},
                                  {AF::Scalar, 2, AT::Count},
                                  {AF::OldType, 0, AT::Int}};
constexpr CallArg HVectorArgs[] = {{AF::Scalar, 0, AT::Count},
                                   {AF::Scalar, 1, AT::Count},
                                   {AF::Scalar, 2, AT::Aint},
                                   {AF::OldType, 0, AT::Int}};
constexpr CallArg IndexedArgs[] = {{AF::ListLength, 0, AT::Count},
                                   {AF::List, 0, AT::Count},
                                   {AF::List, 1, AT::Count},
                                   {AF::OldType, 0, AT::Int}};
constexpr CallArg HIndexedArgs[] = {{AF::ListLength, 0, AT::Count},
                                    {AF::List, 0, AT::Count},
                                    {AF::List, 1, AT::Aint},
                                    {AF::OldType, 0, AT::Int}};
constexpr CallArg IndexedBlockArgs[] = {{AF::ListLength, 0, AT::Count},
                                        {AF::Scalar, 0, AT::Count},
                                        {AF::List, 0, AT::Count},
                                        {AF::OldType, 0, AT::Int}};
constexpr CallArg HIndexedBlockArgs[] = {{AF::ListLength, 0, AT::Count},
                                         {AF::Scalar, 0, AT::Count},
                                         {AF::List, 0, AT::Aint},
                                         {AF::OldType, 0, AT::Int}};
constexpr CallArg StructArgs[] = {{AF::ListLength, 0, AT::Count},
                                  {AF::List, 0, AT::Count},
                                  {AF::List, 1, AT::Aint},
                                  {AF::Types, 0, AT::Int}};
constexpr CallArg ResizedArgs[] = {{AF::OldType, 0, AT::Int},
                                   {AF::Scalar, 0, AT::Aint},
                                   {AF::Scalar, 1, AT::Aint}};
constexpr CallArg SubarrayArgs[] = {
    {AF::ListLength, 0, AT::Int}, {AF::List, 0, AT::Count},
    {AF::List, 1, AT::Count},     {AF::List, 2, AT::Count},
    {AF::Order, 0, AT::Int},      {AF::OldType, 0, AT::Int}};
constexpr CallArg DarrayArgs[] = {
    {AF::Scalar, 0, AT::Int},     {AF::Scalar, 1, AT::Int},
    {AF::ListLength, 0, AT::Int}, {AF::List, 0, AT::Count},
    {AF::Distribs, 1, AT::Int},   {AF::Dargs, 2, AT::Int},
    {AF::List, 3, AT::Int},       {AF::Order, 2, AT::Int},
    {AF::OldType, 0, AT::Int}};
constexpr CallArg DupArgs[] = {{AF::OldType, 0, AT::Int}};

const std::array<ConstructorCall, 12> Calls = {{
    {TypeKind::Contiguous, "MPI_Type_contiguous", true, ContiguousArgs},
    {TypeKind::Vector, "MPI_Type_vector", true, VectorArgs},
    {TypeKind::HVector, "MPI_Type_create_hvector", true, HVectorArgs},
    {TypeKind::Indexed, "MPI_Type_indexed", true, IndexedArgs},
    {TypeKind::HIndexed, "MPI_Type_create_hindexed", true, HIndexedArgs},
    {TypeKind::IndexedBlock, "MPI_Type_create_indexed_block", true,
     IndexedBlockArgs},
    {TypeKind::HIndexedBlock, "MPI_Type_create_hindexed_block", true,
     HIndexedBlockArgs},
    {TypeKind::Struct, "MPI_Type_create_struct", true, StructArgs},
    {TypeKind::Resized, "MPI_Type_create_resized", true, ResizedArgs},
    {TypeKind::Subarray, "MPI_Type_create_subarray", true, SubarrayArgs},
    {TypeKind::Darray, "MPI_Type_create_darray", true, DarrayArgs},
    {TypeKind::Dup, "MPI_Type_dup", false, DupArgs},
}};

// MPI-1 names, removed in MPI-3.0: the same arguments as their successors.
const std::array<ConstructorCall, 3> LegacyCalls = {{
    {TypeKind::HVector, "MPI_Type_hvector", false, HVectorArgs},
    {TypeKind::HIndexed, "MPI_Type_hindexed", false, HIndexedArgs},
    {TypeKind::Struct, "MPI_Type_struct", false, StructArgs},
}};

} // namespace

const ConstructorCall &getConstructorCall(TypeKind K) {
  for (const ConstructorCall &C : Calls)
    if (C.Kind == K)
      return C;
  assert(false && "predefined types have no constructor");
  return Calls.front();
}

std::optional<ConstructorCall> lookupConstructorCall(std::string_view Name,
                                                     bool *Large) {
  bool IsLarge = Name.size() > 2 && Name.substr(Name.size() - 2) == "_c";
  std::string_view Base = IsLarge ? Name.substr(0, Name.size() - 2) : Name;
  if (Large)
    *Large = IsLarge;
  for (const ConstructorCall &C : Calls)
    if (C.Function == Base && (!IsLarge || C.HasLargeCount))
      return C;
  if (!IsLarge)
    for (const ConstructorCall &C : LegacyCalls)
      if (C.Function == Base)
        return C;
  return std::nullopt;
}

} // namespace ddtc

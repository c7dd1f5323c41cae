//===- lib/IR/Predefined.cpp - The predefined datatype table --------------===//
//
// Expands Predefined.def into the table behind getPredefinedInfo().
//
//===----------------------------------------------------------------------===//
#include "ddtc/IR/Predefined.h"

#include <cassert>

namespace ddtc {

namespace {
constexpr PredefinedInfo Table[] = {
#define DDTC_BASIC(Id, Name, Size, Align, PadMask)                             \
  {PredefinedId::Id,                                                           \
   Name,                                                                       \
   Size,                                                                       \
   Size,                                                                       \
   Align,                                                                      \
   PadMask,                                                                    \
   1,                                                                          \
   {{PredefinedId::Id, 0}, {PredefinedId::Id, 0}}},
#include "ddtc/IR/Predefined.def"
};
} // namespace

// Pair types need the sizes of their components, so they are a second table
// built from the first.
namespace {
constexpr int64_t basicSize(PredefinedId Id) {
  return Table[static_cast<unsigned>(Id)].Size;
}
constexpr PredefinedInfo PairTable[] = {
#define DDTC_PAIR(Id, Name, Extent, Align, First, Off1, Second, Off2)          \
  {PredefinedId::Id,                                                           \
   Name,                                                                       \
   basicSize(PredefinedId::First) + basicSize(PredefinedId::Second),           \
   Extent,                                                                     \
   Align,                                                                      \
   0,                                                                          \
   2,                                                                          \
   {{PredefinedId::First, Off1}, {PredefinedId::Second, Off2}}},
#include "ddtc/IR/Predefined.def"
};
constexpr unsigned NumBasic = sizeof(Table) / sizeof(Table[0]);
static_assert(NumBasic + sizeof(PairTable) / sizeof(PairTable[0]) ==
              NumPredefined);
} // namespace

const PredefinedInfo &getPredefinedInfo(PredefinedId Id) {
  unsigned Index = static_cast<unsigned>(Id);
  assert(Index < NumPredefined && "bad predefined id");
  return Index < NumBasic ? Table[Index] : PairTable[Index - NumBasic];
}

std::optional<PredefinedId> lookupPredefined(std::string_view Name) {
  for (unsigned I = 0; I < NumPredefined; ++I) {
    const PredefinedInfo &Info =
        getPredefinedInfo(static_cast<PredefinedId>(I));
    if (Info.Name == Name)
      return Info.Id;
  }
#define DDTC_ALIAS(AliasName, Id)                                              \
  if (Name == AliasName)                                                       \
    return PredefinedId::Id;
#include "ddtc/IR/Predefined.def"
  return std::nullopt;
}

} // namespace ddtc

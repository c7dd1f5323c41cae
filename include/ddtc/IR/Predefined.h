//===- ddtc/IR/Predefined.h - Predefined MPI datatypes ----------*- C++ -*-===//
//
// The table of predefined datatypes (Predefined.def) as an enum and lookup
// functions. A basic type is a leaf of every typemap; a pair type is a
// predefined type made of two basic entries with padding.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_IR_PREDEFINED_H
#define DDTC_IR_PREDEFINED_H

#include <cstdint>
#include <optional>
#include <string_view>

namespace ddtc {

enum class PredefinedId : uint8_t {
#define DDTC_BASIC(Id, Name, Size, Align, PadMask) Id,
#define DDTC_PAIR(Id, Name, Extent, Align, First, Off1, Second, Off2) Id,
#include "ddtc/IR/Predefined.def"
};

/// Number of predefined types (aliases not counted).
constexpr unsigned NumPredefined = 0
#define DDTC_BASIC(Id, Name, Size, Align, PadMask) +1
#define DDTC_PAIR(Id, Name, Extent, Align, First, Off1, Second, Off2) +1
#include "ddtc/IR/Predefined.def"
    ;

/// One typemap entry of a predefined type.
struct PredefinedComponent {
  PredefinedId Basic;
  int64_t Offset;
};

struct PredefinedInfo {
  PredefinedId Id;
  std::string_view Name;
  int64_t Size;           ///< bytes of data (sum of the components)
  int64_t Extent;         ///< ub - lb; lb is always 0
  int64_t Align;          ///< MPICH's alignment, used for struct padding
  uint32_t PadMask;       ///< for basic types: bytes that carry no value
  unsigned NumComponents; ///< 1 for a basic type, 2 for a pair
  PredefinedComponent Components[2];

  bool isBasic() const { return NumComponents == 1; }
};

const PredefinedInfo &getPredefinedInfo(PredefinedId Id);

/// Looks up a predefined type by its MPI name (aliases included).
std::optional<PredefinedId> lookupPredefined(std::string_view Name);

} // namespace ddtc

#endif // DDTC_IR_PREDEFINED_H

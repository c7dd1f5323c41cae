//===- ddtc/Support/Casting.h - isa<>, cast<>, dyn_cast<> -------*- C++ -*-===//
//
// LLVM-style checked casts over a class hierarchy whose subclasses provide
// `static bool classof(const Base *)`. Kept local so that the IR does not
// link LLVM (the runtime reuses the IR).
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_SUPPORT_CASTING_H
#define DDTC_SUPPORT_CASTING_H

#include <cassert>

namespace ddtc {

template <typename To, typename From> bool isa(const From *V) {
  assert(V && "isa<> on a null pointer");
  return To::classof(V);
}

template <typename To, typename From> const To *cast(const From *V) {
  assert(isa<To>(V) && "cast<> to an incompatible type");
  return static_cast<const To *>(V);
}

template <typename To, typename From> const To *dyn_cast(const From *V) {
  return isa<To>(V) ? static_cast<const To *>(V) : nullptr;
}

} // namespace ddtc

#endif // DDTC_SUPPORT_CASTING_H

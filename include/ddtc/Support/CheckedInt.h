//===- ddtc/Support/CheckedInt.h - Overflow-checked 64-bit math -*- C++ -*-===//
//
// Every derived quantity of a datatype (size, bounds, byte displacements) is
// computed in 64-bit signed arithmetic, as MPI_Aint/MPI_Count are. A user
// can write counts and strides whose products do not fit; that must be a
// diagnostic, never undefined behaviour, so all such arithmetic goes through
// these helpers, which report overflow instead of wrapping.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_SUPPORT_CHECKEDINT_H
#define DDTC_SUPPORT_CHECKEDINT_H

#include <concepts>
#include <cstdint>
#include <limits>
#include <optional>

namespace ddtc {

inline std::optional<int64_t> checkedAdd(int64_t A, int64_t B) {
  int64_t R;
  if (__builtin_add_overflow(A, B, &R))
    return std::nullopt;
  return R;
}

inline std::optional<int64_t> checkedSub(int64_t A, int64_t B) {
  int64_t R;
  if (__builtin_sub_overflow(A, B, &R))
    return std::nullopt;
  return R;
}

inline std::optional<int64_t> checkedMul(int64_t A, int64_t B) {
  int64_t R;
  if (__builtin_mul_overflow(A, B, &R))
    return std::nullopt;
  return R;
}

/// Accumulates a chain of checked operations; the first overflow sticks, so
/// a formula can be written in one expression and tested once.
class CheckedInt {
public:
  CheckedInt(int64_t V = 0) : Value(V) {}

  bool overflowed() const { return !Value; }
  int64_t value() const { return *Value; }

  friend CheckedInt operator+(CheckedInt A, CheckedInt B) {
    return (A.Value && B.Value) ? CheckedInt(checkedAdd(*A.Value, *B.Value))
                                : CheckedInt(std::nullopt);
  }
  friend CheckedInt operator-(CheckedInt A, CheckedInt B) {
    return (A.Value && B.Value) ? CheckedInt(checkedSub(*A.Value, *B.Value))
                                : CheckedInt(std::nullopt);
  }
  friend CheckedInt operator*(CheckedInt A, CheckedInt B) {
    return (A.Value && B.Value) ? CheckedInt(checkedMul(*A.Value, *B.Value))
                                : CheckedInt(std::nullopt);
  }

private:
  explicit CheckedInt(std::optional<int64_t> V) : Value(V) {}
  std::optional<int64_t> Value;
};

/// Saturating arithmetic for quantities that are reported, not used for
/// addressing (description cost of a tree that reuses a subtree 2^100
/// times, bytes a trace counts): on overflow, the largest value of T (the
/// smallest for a signed result below it).
template <std::integral T> T saturatingAdd(T A, T B) {
  T R;
  if (!__builtin_add_overflow(A, B, &R))
    return R;
  return B > 0 ? std::numeric_limits<T>::max() : std::numeric_limits<T>::min();
}

template <std::integral T> T saturatingMul(T A, T B) {
  T R;
  if (!__builtin_mul_overflow(A, B, &R))
    return R;
  return (A < 0) == (B < 0) ? std::numeric_limits<T>::max()
                            : std::numeric_limits<T>::min();
}

/// Two's-complement arithmetic modulo 2^64, for byte offsets of a typemap
/// walked instance by instance: instance i of a type far from the origin
/// may lie beyond 2^63 when only differences of offsets matter (the typemap
/// walker, block summaries). Defined behaviour, unlike signed overflow.
inline int64_t wrappingAdd(int64_t A, int64_t B) {
  return static_cast<int64_t>(static_cast<uint64_t>(A) +
                              static_cast<uint64_t>(B));
}

inline int64_t wrappingMul(int64_t A, int64_t B) {
  return static_cast<int64_t>(static_cast<uint64_t>(A) *
                              static_cast<uint64_t>(B));
}

} // namespace ddtc

#endif // DDTC_SUPPORT_CHECKEDINT_H

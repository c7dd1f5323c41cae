//===- ddtc/Support/Error.h - Recoverable errors and Expected<T> -*- C++ -*-===//
//
// User-triggerable problems (bad input, overflow, I/O) travel as values of
// these types up to the tool, which reports them once. The IR, passes and
// the runtime must not link LLVM, so this is a small stand-in for
// llvm::Error / llvm::Expected with the same spirit: an error carries a
// lower-case message without a final period, and callers add context
// ("type 'halo': field 'stride': ...") as it propagates outwards.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_SUPPORT_ERROR_H
#define DDTC_SUPPORT_ERROR_H

#include <cassert>
#include <optional>
#include <string>
#include <utility>

namespace ddtc {

/// A diagnostic message. An empty Error means success.
class [[nodiscard]] Error {
public:
  Error() = default;
  static Error success() { return Error(); }
  static Error make(std::string Message) {
    Error E;
    E.Message = std::move(Message);
    E.Failed = true;
    return E;
  }

  explicit operator bool() const { return Failed; }
  const std::string &message() const { return Message; }

  /// Prefixes the message with context, e.g. "field 'count'".
  Error &addContext(const std::string &Context) {
    Message = Context + ": " + Message;
    return *this;
  }

private:
  std::string Message;
  bool Failed = false;
};

inline Error makeError(std::string Message) {
  return Error::make(std::move(Message));
}

/// Either a value or an Error.
template <typename T> class [[nodiscard]] Expected {
public:
  Expected(T Value) : Value(std::move(Value)) {}
  Expected(Error E) : Err(std::move(E)) {
    assert(Err && "Expected constructed from a success value");
  }

  explicit operator bool() const { return Value.has_value(); }
  T &operator*() { return *Value; }
  const T &operator*() const { return *Value; }
  T *operator->() { return &*Value; }
  const T *operator->() const { return &*Value; }

  /// The error; valid only when the Expected holds no value.
  Error takeError() { return std::move(Err); }

private:
  std::optional<T> Value;
  Error Err;
};

} // namespace ddtc

#endif // DDTC_SUPPORT_ERROR_H

//===- lib/Source/Values.h - What the source interpreter follows -*- C++ -*-===//
//
// The values `ddtc extract` follows through a function: integers (int,
// MPI_Aint, enumerators, sizeof...), addresses of objects (MPI_Get_address
// on a member: the object and an offset, so that the difference of two is
// an integer), MPI_Datatype handles, arrays of these, pointers to places,
// and Unknown -- which carries why it is not known and where, for the
// warning at the call that needs it.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_LIB_SOURCE_VALUES_H
#define DDTC_LIB_SOURCE_VALUES_H

#include "ddtc/IR/Type.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceLocation.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ddtc::source {

// ddtc has isa/dyn_cast of its own for its IR; here they are LLVM's, for
// Clang's AST.
using llvm::cast;
using llvm::dyn_cast;
using llvm::dyn_cast_or_null;
using llvm::isa;

/// Why a value is unknown, and the place in the source that made it so.
struct Reason {
  std::string Text;
  clang::SourceLocation Loc;
};

struct Handle;
struct Place;

struct Value {
  enum class Kind : uint8_t { Unknown, Int, Address, Handle, Array, Pointer };
  Kind K = Kind::Unknown;
  /// Int: the value (unsigned 64-bit values keep their bits); Address: the
  /// offset from the object.
  int64_t I = 0;
  /// An Int that is an MPI constant's macro (MPI_ORDER_C...), by name.
  const char *Symbol = nullptr;
  /// Address: the object whose address it is -- a variable, or with
  /// Pointee the object a pointer variable points to (`&p->x` in a helper
  /// that receives p: offsets from the same pointee still subtract).
  const clang::ValueDecl *Object = nullptr;
  bool Pointee = false;
  std::shared_ptr<source::Handle> H;
  /// Array: the elements, or with Record the fields of a struct in
  /// declaration order.
  std::shared_ptr<std::vector<Value>> Elems;
  const clang::RecordDecl *Record = nullptr;
  std::shared_ptr<Place> P;
  std::shared_ptr<const Reason> Why;

  static Value unknown(std::string Text, clang::SourceLocation Loc) {
    Value V;
    V.Why = std::make_shared<Reason>(Reason{std::move(Text), Loc});
    return V;
  }
  static Value integer(int64_t X, const char *Symbol = nullptr) {
    Value V;
    V.K = Kind::Int;
    V.I = X;
    V.Symbol = Symbol;
    return V;
  }
  static Value address(const clang::ValueDecl *Object, int64_t Offset,
                       bool Pointee = false) {
    Value V;
    V.K = Kind::Address;
    V.Object = Object;
    V.Pointee = Pointee;
    V.I = Offset;
    return V;
  }
  static Value handle(std::shared_ptr<source::Handle> H) {
    Value V;
    V.K = Kind::Handle;
    V.H = std::move(H);
    return V;
  }
  static Value array(std::vector<Value> Elems) {
    Value V;
    V.K = Kind::Array;
    V.Elems = std::make_shared<std::vector<Value>>(std::move(Elems));
    return V;
  }
  static Value pointer(Place P);

  /// The value with arrays and structs copied, not shared: what an
  /// assignment, an initialization or a by-value argument stores.
  Value copy() const {
    Value V = *this;
    if (K == Kind::Array) {
      V.Elems = std::make_shared<std::vector<Value>>();
      V.Elems->reserve(Elems->size());
      for (const Value &E : *Elems)
        V.Elems->push_back(E.copy());
    }
    return V;
  }

  bool isInt() const { return K == Kind::Int; }
  bool isUnknown() const { return K == Kind::Unknown; }
};

/// A variable's storage; places refer to it by pointer, so that writes
/// through a pointer parameter reach the caller's variable.
using Slot = std::shared_ptr<Value>;

/// An lvalue: a variable, or an element or member of one (a path of array
/// indices and field numbers).
struct Place {
  Slot Root;
  std::vector<int64_t> Path;
  /// The variable's name, for naming the types committed in it.
  std::string Name;
};

inline Value Value::pointer(Place P) {
  Value V;
  V.K = Kind::Pointer;
  V.P = std::make_shared<Place>(std::move(P));
  return V;
}

/// An MPI_Datatype handle: a predefined type, or the result of one
/// execution of a constructor call. Its uses decide what `ddtc rewrite`
/// may remove with it.
struct Handle {
  /// Null when unknown; Why says why.
  const Type *T = nullptr;
  std::shared_ptr<const Reason> Why;
  /// The constructor call, null for a predefined type.
  const clang::CallExpr *Ctor = nullptr;
  /// Built in a function interpreted as an entry point or without
  /// parameters, not in a callee that received its arguments (rewriting
  /// would bake them in).
  bool InEntryFunction = false;
  std::vector<std::shared_ptr<Handle>> Operands;
  /// Handles built from this one.
  std::vector<Handle *> Users;
  std::vector<const clang::CallExpr *> Frees;
  const clang::CallExpr *Commit = nullptr;
  /// Passed to anything else (a send, a query, a function of the program).
  unsigned OtherUses = 0;
};

} // namespace ddtc::source

#endif // DDTC_LIB_SOURCE_VALUES_H

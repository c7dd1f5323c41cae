//===- ddtc/IR/Module.h - A description file in memory ----------*- C++ -*-===//
//
// A Module is what a description file holds: an ordered list of named
// types, plus the `x-` fields the user attached, kept verbatim (as JSON
// text) so that tools that rewrite a file preserve them.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_IR_MODULE_H
#define DDTC_IR_MODULE_H

#include "ddtc/IR/Type.h"

#include <string>
#include <utility>
#include <vector>

namespace ddtc {

class TypeContext;

/// An `x-` field: its key and its value as JSON text.
using ExtraField = std::pair<std::string, std::string>;

struct NamedType {
  std::string Name;
  const Type *T = nullptr;
  std::vector<ExtraField> Extras;
};

class Module {
public:
  explicit Module(TypeContext &Ctx) : Ctx(Ctx) {}

  TypeContext &getContext() const { return Ctx; }
  const std::vector<NamedType> &types() const { return Types; }
  std::vector<NamedType> &types() { return Types; }
  std::vector<ExtraField> &extras() { return Extras; }
  const std::vector<ExtraField> &extras() const { return Extras; }

  /// The named type called Name, or null.
  const NamedType *lookup(std::string_view Name) const {
    for (const NamedType &N : Types)
      if (N.Name == Name)
        return &N;
    return nullptr;
  }

private:
  TypeContext &Ctx;
  std::vector<NamedType> Types;
  std::vector<ExtraField> Extras;
};

} // namespace ddtc

#endif // DDTC_IR_MODULE_H

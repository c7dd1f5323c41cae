//===- lib/IR/Type.cpp - Node kinds, field table, node accessors ----------===//
//
// The field table says, for every kind, which MPI constructor arguments it
// has, in format v1 order, and where each lives in the node's generic
// storage. The JSON reader and writer and the textual printer and parser are
// all driven by it.
//
//===----------------------------------------------------------------------===//
#include "ddtc/IR/Type.h"

#include <algorithm>
#include <cassert>
#include <unordered_set>
#include <vector>

namespace ddtc {

std::string_view getKindName(TypeKind K) {
  switch (K) {
#define DDTC_TYPE_KIND(Id, Name)                                               \
  case TypeKind::Id:                                                           \
    return Name;
#include "ddtc/IR/TypeKinds.def"
  }
  assert(false && "unknown kind");
  return "";
}

std::optional<TypeKind> lookupKind(std::string_view Name) {
#define DDTC_TYPE_KIND(Id, KindName)                                           \
  if (Name == KindName)                                                        \
    return TypeKind::Id;
#include "ddtc/IR/TypeKinds.def"
  return std::nullopt;
}

namespace {
using FS = FieldShape;
using FV = FieldValue;

constexpr FieldSpec OldType{"oldtype", FS::Type, FV::None, 0};

constexpr FieldSpec NoFields[] = {{"", FS::Scalar, FV::None, 0}};
constexpr FieldSpec ContiguousFields[] = {{"count", FS::Scalar, FV::Count, 0},
                                          OldType};
constexpr FieldSpec VectorFields[] = {{"count", FS::Scalar, FV::Count, 0},
                                      {"blocklength", FS::Scalar, FV::Count, 1},
                                      {"stride", FS::Scalar, FV::Signed, 2},
                                      OldType};
constexpr FieldSpec IndexedFields[] = {
    {"blocklengths", FS::List, FV::Count, 0},
    {"displacements", FS::List, FV::Signed, 1},
    OldType};
constexpr FieldSpec IndexedBlockFields[] = {
    {"blocklength", FS::Scalar, FV::Count, 0},
    {"displacements", FS::List, FV::Signed, 0},
    OldType};
constexpr FieldSpec StructFields[] = {
    {"blocklengths", FS::List, FV::Count, 0},
    {"displacements", FS::List, FV::Signed, 1},
    {"types", FS::TypeList, FV::None, 0}};
constexpr FieldSpec ResizedFields[] = {{"lb", FS::Scalar, FV::Signed, 0},
                                       {"extent", FS::Scalar, FV::Signed, 1},
                                       OldType};
constexpr FieldSpec SubarrayFields[] = {{"sizes", FS::List, FV::Signed, 0},
                                        {"subsizes", FS::List, FV::Signed, 1},
                                        {"starts", FS::List, FV::Signed, 2},
                                        {"order", FS::Scalar, FV::Order, 0},
                                        OldType};
constexpr FieldSpec DarrayFields[] = {
    {"size", FS::Scalar, FV::Signed, 0}, {"rank", FS::Scalar, FV::Signed, 1},
    {"gsizes", FS::List, FV::Signed, 0}, {"distribs", FS::List, FV::Distrib, 1},
    {"dargs", FS::List, FV::Darg, 2},    {"psizes", FS::List, FV::Signed, 3},
    {"order", FS::Scalar, FV::Order, 2}, OldType};
constexpr FieldSpec DupFields[] = {OldType};

constexpr KindSpec Specs[] = {
    {TypeKind::Predefined, 1, 0, std::span(NoFields, 0)},
    {TypeKind::Contiguous, 1, 0, ContiguousFields},
    {TypeKind::Vector, 3, 0, VectorFields},
    {TypeKind::HVector, 3, 0, VectorFields},
    {TypeKind::Indexed, 0, 2, IndexedFields},
    {TypeKind::HIndexed, 0, 2, IndexedFields},
    {TypeKind::IndexedBlock, 1, 1, IndexedBlockFields},
    {TypeKind::HIndexedBlock, 1, 1, IndexedBlockFields},
    {TypeKind::Struct, 0, 2, StructFields},
    {TypeKind::Resized, 2, 0, ResizedFields},
    {TypeKind::Subarray, 1, 3, SubarrayFields},
    {TypeKind::Darray, 3, 4, DarrayFields},
    {TypeKind::Dup, 0, 0, DupFields},
};
} // namespace

const KindSpec &getKindSpec(TypeKind K) {
  const KindSpec &S = Specs[static_cast<unsigned>(K)];
  assert(S.Kind == K && "field table out of order");
  return S;
}

namespace {
struct ValueWord {
  FieldValue Field;
  int64_t Value;
  std::string_view Word;
};
constexpr ValueWord ValueWords[] = {
    {FieldValue::Order, static_cast<int64_t>(ArrayOrder::C), "C"},
    {FieldValue::Order, static_cast<int64_t>(ArrayOrder::Fortran), "Fortran"},
    {FieldValue::Distrib, static_cast<int64_t>(Distribution::Block), "block"},
    {FieldValue::Distrib, static_cast<int64_t>(Distribution::Cyclic), "cyclic"},
    {FieldValue::Distrib, static_cast<int64_t>(Distribution::None), "none"},
    {FieldValue::Darg, DefaultDarg, "default"},
};
} // namespace

std::string_view getValueWord(FieldValue V, int64_t X) {
  for (const ValueWord &W : ValueWords)
    if (W.Field == V && W.Value == X)
      return W.Word;
  return {};
}

std::optional<int64_t> lookupValueWord(FieldValue V, std::string_view Word) {
  for (const ValueWord &W : ValueWords)
    if (W.Field == V && W.Word == Word)
      return W.Value;
  return std::nullopt;
}

int64_t BlockSummary::minLength() const {
  if (Count == 0)
    return 0;
  int64_t M = std::min(First.Length, Last.Length);
  return Count >= 3 ? std::min(M, MiddleMin) : M;
}

int64_t BlockSummary::maxLength() const {
  if (Count == 0)
    return 0;
  int64_t M = std::max(First.Length, Last.Length);
  return Count >= 3 ? std::max(M, MiddleMax) : M;
}

const Type *Type::getOldType() const {
  assert(Kind != TypeKind::Struct && Kind != TypeKind::Predefined &&
         "kind has no single oldtype");
  return Operands[0];
}

int64_t VectorType::getByteStride() const {
  if (isByteStride())
    return getStride();
  // One block or none, or no data: the stride places nothing, and
  // stride * extent need not fit 64 bits (the layout never computes it;
  // found by fuzz-normalize).
  if (getCount() <= 1 || size() == 0)
    return 0;
  return getStride() * getOldType()->extent();
}

std::strong_ordering compareTypes(const Type *A, const Type *B) {
  if (A == B)
    return std::strong_ordering::equal;
  const TypeLayout &LA = A->getLayout(), &LB = B->getLayout();
  auto Cost =
      std::tuple(LA.totalCost(), LA.Pieces, LA.Cost,
                 getKindRank(A->getKind())) <=>
      std::tuple(LB.totalCost(), LB.Pieces, LB.Cost, getKindRank(B->getKind()));
  if (Cost != 0)
    return Cost;
  // Predefined types by name: their enum positions are not part of any
  // contract.
  if (auto *PA = dyn_cast<PredefinedType>(A))
    return PA->getName() <=> cast<PredefinedType>(B)->getName();
  std::span<const int64_t> IA = A->getInts(), IB = B->getInts();
  auto Ints = std::lexicographical_compare_three_way(IA.begin(), IA.end(),
                                                     IB.begin(), IB.end());
  if (Ints != 0)
    return Ints;
  std::span<const Type *const> OA = A->getOperands(), OB = B->getOperands();
  for (size_t I = 0; I < std::min(OA.size(), OB.size()); ++I)
    if (auto C = compareTypes(OA[I], OB[I]); C != 0)
      return C;
  return OA.size() <=> OB.size();
}

bool Type::precedes(const Type *O) const { return compareTypes(this, O) < 0; }

uint64_t distinctDescriptionSize(const Type *T) {
  std::unordered_set<const Type *> Seen{T};
  std::vector<const Type *> Work{T};
  uint64_t Size = 0;
  while (!Work.empty()) {
    const Type *X = Work.back();
    Work.pop_back();
    Size += 1 + X->getInts().size() + X->getOperands().size();
    for (const Type *Op : X->getOperands())
      if (Seen.insert(Op).second)
        Work.push_back(Op);
  }
  return Size;
}

} // namespace ddtc

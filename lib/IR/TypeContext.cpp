//===- lib/IR/TypeContext.cpp - Creating and uniquing type nodes ----------===//
//
// get() is the single entry point: it checks the arguments as MPI would,
// looks for a structurally equal node, and otherwise builds the node, its
// expansion (subarray, darray) and its layout.
//
// The subarray and darray expansions are built by ArrayExpansion.cpp, the
// fingerprints computed by TypeFingerprint.cpp.
//
//===----------------------------------------------------------------------===//
#include "ddtc/IR/TypeContext.h"

#include "ArrayExpansion.h"
#include "LayoutRules.h"
#include "TypeFingerprint.h"
#include "ddtc/Support/CheckedInt.h"

#include <algorithm>
#include <cassert>
#include <string>

namespace ddtc {

struct TypeContext::NodeKey {
  TypeKind Kind;
  std::span<const int64_t> Ints;
  std::span<const Type *const> Operands;
  Fingerprint Print;
};

namespace {

std::string fieldName(const FieldSpec &F, std::optional<size_t> Index) {
  std::string Name(F.Name);
  if (Index)
    Name += "[" + std::to_string(*Index) + "]";
  return Name;
}

Error fieldError(const FieldSpec &F, std::optional<size_t> Index,
                 const std::string &Message) {
  return makeError("field '" + fieldName(F, Index) + "': " + Message);
}

Error fieldError(std::string_view Field, const std::string &Message) {
  return makeError("field '" + std::string(Field) + "': " + Message);
}

/// Checks one integer argument against the domain of its field.
Error checkValue(const FieldSpec &F, std::optional<size_t> Index, int64_t V) {
  switch (F.Value) {
  case FieldValue::Count:
    if (V < 0)
      return fieldError(F, Index,
                        "must be non-negative, got " + std::to_string(V));
    return Error::success();
  case FieldValue::Order:
    if (V != static_cast<int64_t>(ArrayOrder::C) &&
        V != static_cast<int64_t>(ArrayOrder::Fortran))
      return fieldError(F, Index, "not a storage order");
    return Error::success();
  case FieldValue::Distrib:
    if (V < 0 || V > static_cast<int64_t>(Distribution::None))
      return fieldError(F, Index, "not a distribution");
    return Error::success();
  case FieldValue::Darg:
    if (V != DefaultDarg && V < 1)
      return fieldError(F, Index,
                        "must be positive or \"default\", got " +
                            std::to_string(V));
    return Error::success();
  case FieldValue::Signed:
  case FieldValue::None:
    return Error::success();
  }
  return Error::success();
}

/// Checks the shape of the generic arguments and each value's domain.
Error checkFields(TypeKind K, std::span<const int64_t> Ints,
                  std::span<const Type *const> Operands) {
  const KindSpec &Spec = getKindSpec(K);
  if (Ints.size() < Spec.NumScalars ||
      (Spec.NumLists && (Ints.size() - Spec.NumScalars) % Spec.NumLists))
    return makeError("argument lists have different lengths");
  size_t N =
      Spec.NumLists ? (Ints.size() - Spec.NumScalars) / Spec.NumLists : 0;
  if (!Spec.NumLists && Ints.size() != Spec.NumScalars)
    return makeError("wrong number of arguments");
  for (const FieldSpec &F : Spec.Fields) {
    switch (F.Shape) {
    case FieldShape::Scalar:
      if (Error E = checkValue(F, std::nullopt, Ints[F.Index]))
        return E;
      break;
    case FieldShape::List:
      // Displacements take any value: no call per entry of a long list.
      if (F.Value == FieldValue::Signed || F.Value == FieldValue::None)
        break;
      for (size_t I = 0; I < N; ++I)
        if (Error E = checkValue(F, I, Ints[Spec.NumScalars + F.Index * N + I]))
          return E;
      break;
    case FieldShape::Type:
      if (Operands.size() != 1 || !Operands[0])
        return fieldError(F, std::nullopt, "missing type");
      break;
    case FieldShape::TypeList:
      if (Operands.size() != N)
        return fieldError(F, std::nullopt,
                          "has " + std::to_string(Operands.size()) +
                              " entries, the other lists " + std::to_string(N));
      for (const Type *T : Operands)
        if (!T)
          return fieldError(F, std::nullopt, "missing type");
      break;
    }
  }
  if (K == TypeKind::Predefined && (Ints[0] < 0 || Ints[0] >= NumPredefined))
    return makeError("unknown predefined type");
  return Error::success();
}

/// The MPI standard's constraints on subarray arguments.
Error checkSubarray(std::span<const int64_t> Sizes,
                    std::span<const int64_t> Subsizes,
                    std::span<const int64_t> Starts) {
  if (Sizes.empty())
    return fieldError("sizes", "must have at least one dimension");
  for (size_t I = 0; I < Sizes.size(); ++I) {
    std::string Dim = "[" + std::to_string(I) + "]";
    if (Sizes[I] < 1)
      return fieldError("sizes" + Dim,
                        "must be positive, got " + std::to_string(Sizes[I]));
    if (Subsizes[I] < 1 || Subsizes[I] > Sizes[I])
      return fieldError("subsizes" + Dim, "must be between 1 and sizes" + Dim +
                                              " = " + std::to_string(Sizes[I]) +
                                              ", got " +
                                              std::to_string(Subsizes[I]));
    if (Starts[I] < 0 || Starts[I] > Sizes[I] - Subsizes[I])
      return fieldError("starts" + Dim,
                        "must be between 0 and sizes" + Dim + " - subsizes" +
                            Dim + " = " +
                            std::to_string(Sizes[I] - Subsizes[I]) + ", got " +
                            std::to_string(Starts[I]));
  }
  return Error::success();
}

/// The MPI standard's constraints on darray arguments (and MPICH's check
/// that explicit block sizes cover the array).
Error checkDarray(int64_t CommSize, int64_t Rank,
                  std::span<const int64_t> Gsizes,
                  std::span<const int64_t> Distribs,
                  std::span<const int64_t> Dargs,
                  std::span<const int64_t> Psizes) {
  if (CommSize < 1)
    return fieldError("size",
                      "must be positive, got " + std::to_string(CommSize));
  if (Rank < 0 || Rank >= CommSize)
    return fieldError("rank", "must be between 0 and size - 1 = " +
                                  std::to_string(CommSize - 1) + ", got " +
                                  std::to_string(Rank));
  if (Gsizes.empty())
    return fieldError("gsizes", "must have at least one dimension");
  CheckedInt Procs = 1;
  for (size_t I = 0; I < Gsizes.size(); ++I) {
    std::string Dim = "[" + std::to_string(I) + "]";
    if (Gsizes[I] < 1)
      return fieldError("gsizes" + Dim,
                        "must be positive, got " + std::to_string(Gsizes[I]));
    if (Psizes[I] < 1)
      return fieldError("psizes" + Dim,
                        "must be positive, got " + std::to_string(Psizes[I]));
    Procs = Procs * Psizes[I];
    auto D = static_cast<Distribution>(Distribs[I]);
    if (D == Distribution::None && Psizes[I] != 1)
      return fieldError("psizes" + Dim,
                        "must be 1 for a dimension distributed \"none\"");
    if (D == Distribution::Block && Dargs[I] != DefaultDarg) {
      CheckedInt Covered = CheckedInt(Dargs[I]) * Psizes[I];
      if (!Covered.overflowed() && Covered.value() < Gsizes[I])
        return fieldError("dargs" + Dim,
                          "blocks of " + std::to_string(Dargs[I]) + " on " +
                              std::to_string(Psizes[I]) +
                              " processes do not cover gsizes" + Dim + " = " +
                              std::to_string(Gsizes[I]));
    }
  }
  if (Procs.overflowed() || Procs.value() != CommSize)
    return fieldError("psizes", "the process grid does not have size = " +
                                    std::to_string(CommSize) + " processes");
  return Error::success();
}

} // namespace

//===----------------------------------------------------------------------===//
// TypeContext
//===----------------------------------------------------------------------===//

size_t TypeContext::KeyHash::operator()(const NodeKey &K) const {
  return static_cast<size_t>(K.Print.Lo);
}

bool TypeContext::KeyEq::operator()(const NodeKey &A, const Type *B) const {
  return A.Kind == B->getKind() && std::ranges::equal(A.Ints, B->getInts()) &&
         std::ranges::equal(A.Operands, B->getOperands());
}

TypeContext::TypeContext(const LibraryRules &Rules) : Rules(Rules) {
  for (unsigned I = 0; I < NumPredefined; ++I) {
    Expected<const Type *> T =
        get(TypeKind::Predefined, {static_cast<int64_t>(I)}, {});
    assert(T && "predefined types always build");
    Predefined.push_back(cast<PredefinedType>(*T));
  }
}

TypeContext::~TypeContext() = default;

std::unique_ptr<Type> TypeContext::makeNode(TypeKind K,
                                            std::vector<int64_t> Ints,
                                            std::vector<const Type *> Operands,
                                            Fingerprint Print) {
  switch (K) {
#define DDTC_NODE(Kind, Class)                                                 \
  case TypeKind::Kind:                                                         \
    return std::unique_ptr<Type>(                                              \
        new Class(K, std::move(Ints), std::move(Operands), Print));
    DDTC_NODE(Predefined, PredefinedType)
    DDTC_NODE(Contiguous, ContiguousType)
    DDTC_NODE(Vector, VectorType)
    DDTC_NODE(HVector, VectorType)
    DDTC_NODE(Indexed, IndexedType)
    DDTC_NODE(HIndexed, IndexedType)
    DDTC_NODE(IndexedBlock, IndexedBlockType)
    DDTC_NODE(HIndexedBlock, IndexedBlockType)
    DDTC_NODE(Struct, StructType)
    DDTC_NODE(Resized, ResizedType)
    DDTC_NODE(Subarray, SubarrayType)
    DDTC_NODE(Darray, DarrayType)
    DDTC_NODE(Dup, DupType)
#undef DDTC_NODE
  }
  return nullptr;
}

Expected<const Type *> TypeContext::get(TypeKind K, std::vector<int64_t> Ints,
                                        std::vector<const Type *> Operands) {
  if (Error E = checkFields(K, Ints, Operands))
    return E;

  Fingerprint Print = fingerprintNode(K, Ints, Operands);
  NodeKey Key{K, Ints, Operands, Print};
  if (auto It = Unique.find(Key); It != Unique.end())
    return *It;

  unsigned Depth = 0;
  for (const Type *Op : Operands)
    Depth = std::max(Depth, Op->getLayout().Depth + 1);
  if (Depth > MaxTypeDepth)
    return makeError("types nested more than " + std::to_string(MaxTypeDepth) +
                     " levels deep");

  const KindSpec &Spec = getKindSpec(K);
  size_t N =
      Spec.NumLists ? (Ints.size() - Spec.NumScalars) / Spec.NumLists : 0;
  auto List = [&](unsigned Index) {
    return std::span<const int64_t>(Ints).subspan(Spec.NumScalars + Index * N,
                                                  N);
  };

  // Kind-specific argument constraints and the expansion.
  const Type *Expansion = nullptr;
  if (K == TypeKind::Subarray) {
    if (Error E = checkSubarray(List(0), List(1), List(2)))
      return E;
    Expected<const Type *> X = ExpansionBuilder(*this).subarray(
        List(0), List(1), List(2), static_cast<ArrayOrder>(Ints[0]),
        Operands[0]);
    if (!X)
      return X;
    Expansion = *X;
  } else if (K == TypeKind::Darray) {
    if (Error E =
            checkDarray(Ints[0], Ints[1], List(0), List(1), List(2), List(3)))
      return E;
    Expected<const Type *> X = ExpansionBuilder(*this).darray(
        Ints[0], Ints[1], List(0), List(1), List(2), List(3),
        static_cast<ArrayOrder>(Ints[2]), Operands[0]);
    if (!X)
      return X;
    Expansion = *X;
  }

  Expected<TypeLayout> Layout =
      computeLayout(Rules, K, Ints, Operands, Expansion);
  if (!Layout)
    return Layout.takeError();

  std::unique_ptr<Type> Node =
      makeNode(K, std::move(Ints), std::move(Operands), Print);
  Node->Expansion = Expansion;
  Node->Layout = *Layout;
  if (!Node->Layout.Identity)
    Node->Layout.Identity = Node.get();
  const Type *Result = Node.get();
  Nodes.push_back(std::move(Node));
  Unique.insert(Result);
  return Result;
}

const Type *TypeContext::createUncheckedForTesting(
    TypeKind K, std::vector<int64_t> Ints, std::vector<const Type *> Operands,
    const Type *Expansion, const TypeLayout &Layout) {
  std::unique_ptr<Type> Node =
      makeNode(K, std::move(Ints), std::move(Operands), Fingerprint{});
  Node->Expansion = Expansion;
  Node->Layout = Layout;
  if (!Node->Layout.Identity)
    Node->Layout.Identity = Node.get();
  Nodes.push_back(std::move(Node));
  return Nodes.back().get();
}

namespace {
std::vector<int64_t>
concat(std::initializer_list<std::span<const int64_t>> Parts) {
  std::vector<int64_t> R;
  for (std::span<const int64_t> P : Parts)
    R.insert(R.end(), P.begin(), P.end());
  return R;
}
} // namespace

Expected<const Type *> TypeContext::getContiguous(int64_t Count,
                                                  const Type *Old) {
  return get(TypeKind::Contiguous, {Count}, {Old});
}

Expected<const Type *> TypeContext::getVector(int64_t Count,
                                              int64_t BlockLength,
                                              int64_t Stride, const Type *Old) {
  return get(TypeKind::Vector, {Count, BlockLength, Stride}, {Old});
}

Expected<const Type *> TypeContext::getHVector(int64_t Count,
                                               int64_t BlockLength,
                                               int64_t ByteStride,
                                               const Type *Old) {
  return get(TypeKind::HVector, {Count, BlockLength, ByteStride}, {Old});
}

Expected<const Type *>
TypeContext::getIndexed(std::span<const int64_t> BlockLengths,
                        std::span<const int64_t> Displacements,
                        const Type *Old) {
  if (BlockLengths.size() != Displacements.size())
    return fieldError("displacements", "length differs from blocklengths");
  return get(TypeKind::Indexed, concat({BlockLengths, Displacements}), {Old});
}

Expected<const Type *>
TypeContext::getHIndexed(std::span<const int64_t> BlockLengths,
                         std::span<const int64_t> Displacements,
                         const Type *Old) {
  if (BlockLengths.size() != Displacements.size())
    return fieldError("displacements", "length differs from blocklengths");
  return get(TypeKind::HIndexed, concat({BlockLengths, Displacements}), {Old});
}

Expected<const Type *>
TypeContext::getIndexedBlock(int64_t BlockLength,
                             std::span<const int64_t> Displacements,
                             const Type *Old) {
  int64_t Len[] = {BlockLength};
  return get(TypeKind::IndexedBlock, concat({Len, Displacements}), {Old});
}

Expected<const Type *>
TypeContext::getHIndexedBlock(int64_t BlockLength,
                              std::span<const int64_t> Displacements,
                              const Type *Old) {
  int64_t Len[] = {BlockLength};
  return get(TypeKind::HIndexedBlock, concat({Len, Displacements}), {Old});
}

Expected<const Type *>
TypeContext::getStruct(std::span<const int64_t> BlockLengths,
                       std::span<const int64_t> Displacements,
                       std::span<const Type *const> Types) {
  if (BlockLengths.size() != Displacements.size())
    return fieldError("displacements", "length differs from blocklengths");
  return get(TypeKind::Struct, concat({BlockLengths, Displacements}),
             std::vector<const Type *>(Types.begin(), Types.end()));
}

Expected<const Type *> TypeContext::getResized(int64_t Lb, int64_t Extent,
                                               const Type *Old) {
  return get(TypeKind::Resized, {Lb, Extent}, {Old});
}

Expected<const Type *> TypeContext::getSubarray(
    std::span<const int64_t> Sizes, std::span<const int64_t> Subsizes,
    std::span<const int64_t> Starts, ArrayOrder Order, const Type *Old) {
  if (Subsizes.size() != Sizes.size())
    return fieldError("subsizes", "length differs from sizes");
  if (Starts.size() != Sizes.size())
    return fieldError("starts", "length differs from sizes");
  int64_t O[] = {static_cast<int64_t>(Order)};
  return get(TypeKind::Subarray, concat({O, Sizes, Subsizes, Starts}), {Old});
}

Expected<const Type *> TypeContext::getDarray(
    int64_t CommSize, int64_t Rank, std::span<const int64_t> Gsizes,
    std::span<const int64_t> Distribs, std::span<const int64_t> Dargs,
    std::span<const int64_t> Psizes, ArrayOrder Order, const Type *Old) {
  if (Distribs.size() != Gsizes.size())
    return fieldError("distribs", "length differs from gsizes");
  if (Dargs.size() != Gsizes.size())
    return fieldError("dargs", "length differs from gsizes");
  if (Psizes.size() != Gsizes.size())
    return fieldError("psizes", "length differs from gsizes");
  int64_t Scalars[] = {CommSize, Rank, static_cast<int64_t>(Order)};
  return get(TypeKind::Darray,
             concat({Scalars, Gsizes, Distribs, Dargs, Psizes}), {Old});
}

Expected<const Type *> TypeContext::getDup(const Type *Old) {
  return get(TypeKind::Dup, {}, {Old});
}

const Type *
TypeContext::mapOperands(const Type *T,
                         const std::function<const Type *(const Type *)> &Map) {
  std::vector<const Type *> Ops;
  bool Changed = false;
  for (const Type *Op : T->getOperands()) {
    Ops.push_back(Map(Op));
    Changed |= Ops.back() != Op;
  }
  if (!Changed)
    return T;
  Expected<const Type *> R =
      get(T->getKind(),
          std::vector<int64_t>(T->getInts().begin(), T->getInts().end()),
          std::move(Ops));
  if (!R) {
    (void)R.takeError(); // e.g. a merged count overflowing: keep T
    return T;
  }
  return (*R)->hasSameBounds(T) ? *R : T;
}

} // namespace ddtc

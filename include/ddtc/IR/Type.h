//===- ddtc/IR/Type.h - Datatype IR nodes -----------------------*- C++ -*-===//
//
// A datatype is an immutable node of a DAG: one node kind per MPI type
// constructor (TypeKinds.def) plus the predefined types. Nodes are created
// only by a TypeContext, which hash-conses them, so two structurally equal
// types are the same pointer.
//
// Every node stores its constructor arguments generically -- the integer
// arguments in one array (scalars first, then the argument lists, all of
// one length) and the type arguments in another -- so that hashing,
// printing and reading are written once, driven by the per-kind field table
// (getKindSpec). The subclasses give the arguments their MPI names.
//
// Every node also carries its TypeLayout, computed once at creation with
// MPICH's rules, or those of another library where libraries differ
// (LibraryRules.h): size, bounds, alignment, contiguous blocks, depth and
// description cost; and its Fingerprint, a 128-bit structural hash that
// is the same in every process (generated kernels are keyed by it).
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_IR_TYPE_H
#define DDTC_IR_TYPE_H

#include "ddtc/IR/BlockSummary.h"
#include "ddtc/IR/Predefined.h"
#include "ddtc/Support/Casting.h"

#include <cassert>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <tuple>
#include <vector>

namespace ddtc {

enum class TypeKind : uint8_t {
#define DDTC_TYPE_KIND(Id, Name) Id,
#include "ddtc/IR/TypeKinds.def"
};

/// Name of a kind in format v1 and in the textual IR ("hindexed_block").
std::string_view getKindName(TypeKind K);
std::optional<TypeKind> lookupKind(std::string_view Name);

/// Storage order of subarray and darray (MPI_ORDER_C / MPI_ORDER_FORTRAN).
enum class ArrayOrder : int64_t { C = 0, Fortran = 1 };
/// Distribution of one darray dimension.
enum class Distribution : int64_t { Block = 0, Cyclic = 1, None = 2 };
/// The darray argument MPI_DISTRIBUTE_DFLT_DARG.
constexpr int64_t DefaultDarg = -1;

/// Deepest nesting of constructors accepted. Real types are a few levels
/// deep; the limit keeps every recursive algorithm on the stack bounded.
constexpr unsigned MaxTypeDepth = 1024;
/// Input limits of the readers (format v1, textual IR), each an error
/// naming the file and the field (docs/testing.md): what a description
/// file can make ddtc allocate is bounded before it is allocated.
constexpr uint64_t MaxInputBytes = uint64_t(256) << 20;
/// Entries of one argument list (displacements, blocklengths, types...).
constexpr size_t MaxListLength = size_t(1) << 24;
/// Characters of a type's name (it becomes part of C identifiers).
constexpr size_t MaxNameLength = 255;

//===----------------------------------------------------------------------===//
// Field table
//===----------------------------------------------------------------------===//

enum class FieldShape : uint8_t { Scalar, List, Type, TypeList };
/// How an integer field is written and what values it admits.
enum class FieldValue : uint8_t {
  Count,   ///< >= 0
  Signed,  ///< any 64-bit value
  Order,   ///< "C" | "Fortran"
  Distrib, ///< "block" | "cyclic" | "none"
  Darg,    ///< integer or "default"
  None,    ///< type fields
};

struct FieldSpec {
  std::string_view Name;
  FieldShape Shape;
  FieldValue Value;
  unsigned Index; ///< position among the scalars or among the lists
};

/// The arguments of one kind, in the order of format v1.
struct KindSpec {
  TypeKind Kind;
  unsigned NumScalars;
  unsigned NumLists;
  std::span<const FieldSpec> Fields;
};

const KindSpec &getKindSpec(TypeKind K);

/// The word an integer argument is written as, for enumerated fields
/// ("Fortran", "cyclic", "default"); empty when it is written as a number.
std::string_view getValueWord(FieldValue V, int64_t X);
/// The integer a word stands for in a field of kind V, if any.
std::optional<int64_t> lookupValueWord(FieldValue V, std::string_view Word);

//===----------------------------------------------------------------------===//
// Cost model (docs/normalization.md)
//===----------------------------------------------------------------------===//

/// Description cost of one constructor call, operands' own trees excluded:
/// one per argument, each list counted per element, plus one for the call;
/// predefined types cost nothing. A node's TypeLayout::Cost adds its
/// operands' costs to this (LayoutRules.cpp).
uint64_t getOwnCost(TypeKind K, size_t NumInts, size_t NumOperands);
/// getOwnCost of a K node whose lists have ListLength entries (a struct
/// has that many types, other constructors one oldtype): what the planners
/// predict for the nodes they are going to build. For subarray and darray
/// it is the call's own size; their layouts count their expansions.
uint64_t getConstructorCost(TypeKind K, size_t ListLength);
/// Simpler kinds rank lower (predefined 0, contiguous 1, vector 2, ...,
/// dup last): the tie-break of compareTypes after the costs.
unsigned getKindRank(TypeKind K);

//===----------------------------------------------------------------------===//
// Layout
//===----------------------------------------------------------------------===//

/// Properties of a type, computed once when the node is created.
struct TypeLayout {
  int64_t Size = 0;   ///< bytes of data (MPI_Type_size)
  int64_t Lb = 0;     ///< lower bound (MPI_Type_get_extent)
  int64_t Ub = 0;     ///< upper bound; extent = Ub - Lb
  int64_t TrueLb = 0; ///< MPI_Type_get_true_extent
  int64_t TrueUb = 0;
  int64_t Align = 0;     ///< MPICH's alignsize: pads the extent of a struct
  uint64_t Elements = 0; ///< typemap entries of basic types
  BlockSummary Blocks;
  unsigned Depth = 0; ///< constructor nesting; predefined types are 0
  uint64_t Cost = 0;  ///< description cost (saturating), docs/normalization.md
  /// Copy operations a pack engine performs for one instance when it
  /// copies a block of a dense oldtype at once and descends otherwise (as
  /// TypemapWalker does before merging runs); saturating. Never below
  /// Blocks.Count, equal to it for a normal form rebuilt from maximal
  /// runs (a regrouped pair type can split a run of its first component,
  /// and runs cut to their common length copy touching copies of a chunk
  /// apart, where the cost model prefers that).
  uint64_t Pieces = 0;
  /// Every entry has this basic type (absent for mixed or empty typemaps).
  std::optional<PredefinedId> UniformBasic;
  /// The object the MPI library represents this type by, as its
  /// LibraryRules say. MPICH's engine (Yaksa): types it reduces to their
  /// oldtype (dup, contiguous(1, T), ...) share it, as do predefined types
  /// with one representation (MPI_INT, MPI_INT32_T, ...) and all
  /// zero-length types; a struct whose entries all share one object is
  /// built as an hindexed, without padding. Null while the layout is
  /// computed means "the node itself".
  const void *Identity = nullptr;

  int64_t extent() const { return Ub - Lb; }
  int64_t trueExtent() const { return TrueUb - TrueLb; }

  /// The cost model (docs/normalization.md): description size plus copy
  /// pieces -- an index-list entry and a copy both cost the engine on every
  /// pack -- with ties going to fewer pieces, then to the smaller size.
  uint64_t totalCost() const {
    uint64_t T = Cost + Pieces;
    return T < Cost ? UINT64_MAX : T;
  }
  bool isCheaperThan(const TypeLayout &O) const {
    return std::tuple(totalCost(), Pieces, Cost) <
           std::tuple(O.totalCost(), O.Pieces, O.Cost);
  }
  /// Consecutive instances tile memory without gaps: the data is one block
  /// exactly covering [Lb, Ub).
  bool isDense() const {
    return Size > 0 && Blocks.Count == 1 && Blocks.First.Offset == Lb &&
           Blocks.First.Length == Ub - Lb;
  }
};

//===----------------------------------------------------------------------===//
// Fingerprint
//===----------------------------------------------------------------------===//

/// A 128-bit structural hash of a node: a function of its kind, its integer
/// arguments and its operands' fingerprints only -- no addresses, no enum
/// positions -- so the same type has the same fingerprint in every process
/// and every build of ddtc. Kernel libraries are keyed by it (LayoutKey), so
/// the algorithm (TypeFingerprint.cpp) is pinned by a unit test: changing it
/// must be deliberate.
struct Fingerprint {
  uint64_t Hi = 0;
  uint64_t Lo = 0;

  friend auto operator<=>(const Fingerprint &, const Fingerprint &) = default;
};

//===----------------------------------------------------------------------===//
// Type
//===----------------------------------------------------------------------===//

class TypeContext;
class Type;

/// The total order on descriptions that makes choices between them
/// independent of how a type was written (docs/normalization.md): the cost
/// model (total cost, then pieces, then description size), then the kind
/// rank (getKindRank), then the integer arguments in order, compared
/// lexicographically (a shorter list first), then the operands in order,
/// by this same order. Equal only for the same node.
std::strong_ordering compareTypes(const Type *A, const Type *B);

class Type {
public:
  Type(const Type &) = delete;
  Type &operator=(const Type &) = delete;

  TypeKind getKind() const { return Kind; }
  /// Integer arguments: scalars first, then each list.
  std::span<const int64_t> getInts() const { return Ints; }
  /// Type arguments (oldtype, or the types of a struct).
  std::span<const Type *const> getOperands() const { return Operands; }
  const TypeLayout &getLayout() const { return Layout; }
  const Fingerprint &getFingerprint() const { return Print; }
  /// The hash the context uniques nodes by: the fingerprint's low word.
  size_t getHash() const { return static_cast<size_t>(Print.Lo); }

  /// Length of each argument list (0 for kinds without lists).
  size_t getListLength() const { return ListLength; }
  int64_t getScalar(unsigned Index) const { return Ints[Index]; }
  /// Inline, with the list length stored in the node: the typemap walker
  /// reads a list entry per struct or index-list piece it visits.
  std::span<const int64_t> getList(unsigned Index) const {
    assert(Index < getKindSpec(Kind).NumLists && "no such list");
    return std::span<const int64_t>(Ints).subspan(
        NumScalars + Index * ListLength, ListLength);
  }

  /// The single oldtype of kinds that have one.
  const Type *getOldType() const;

  /// For subarray and darray: the type built from vectors, hindexed_block
  /// and resized exactly as MPICH builds it; its typemap is this type's.
  const Type *getExpansion() const { return Expansion; }

  // Shorthands for the layout.
  int64_t size() const { return Layout.Size; }
  int64_t lb() const { return Layout.Lb; }
  int64_t ub() const { return Layout.Ub; }
  int64_t extent() const { return Layout.extent(); }
  int64_t trueLb() const { return Layout.TrueLb; }
  int64_t trueExtent() const { return Layout.trueExtent(); }
  bool hasSameBounds(const Type *O) const {
    return lb() == O->lb() && extent() == O->extent();
  }
  /// The order of the cost model (TypeLayout::isCheaperThan).
  bool isCheaperThan(const Type *O) const {
    return Layout.isCheaperThan(O->Layout);
  }
  /// The total order of descriptions (compareTypes) says this one comes
  /// first: the cheaper, or of equal cost the simpler. The canonicalizer
  /// accepts a rewrite only if it goes down this order: some of its
  /// rewrites keep every cost (hvector-to-vector, struct-to-hindexed of one
  /// entry) and must still count as progress. Elsewhere a tie in cost is no
  /// reason to prefer the given description, so the plain order is used.
  bool precedes(const Type *O) const;

protected:
  Type(TypeKind Kind, std::vector<int64_t> Ints,
       std::vector<const Type *> Operands, Fingerprint Print)
      : Kind(Kind), Ints(std::move(Ints)), Operands(std::move(Operands)),
        Print(Print) {
    const KindSpec &S = getKindSpec(Kind);
    NumScalars = S.NumScalars;
    ListLength =
        S.NumLists == 0 ? 0 : (this->Ints.size() - S.NumScalars) / S.NumLists;
  }

private:
  friend class TypeContext;

  TypeKind Kind;
  unsigned NumScalars;
  size_t ListLength;
  std::vector<int64_t> Ints;
  std::vector<const Type *> Operands;
  Fingerprint Print;
  const Type *Expansion = nullptr;
  TypeLayout Layout;
};

/// A predefined datatype (MPI_INT, MPI_DOUBLE_INT, ...).
class PredefinedType : public Type {
public:
  PredefinedId getId() const { return static_cast<PredefinedId>(getScalar(0)); }
  const PredefinedInfo &getInfo() const { return getPredefinedInfo(getId()); }
  std::string_view getName() const { return getInfo().Name; }
  static bool classof(const Type *T) {
    return T->getKind() == TypeKind::Predefined;
  }

private:
  friend class TypeContext;
  using Type::Type;
};

class ContiguousType : public Type {
public:
  int64_t getCount() const { return getScalar(0); }
  static bool classof(const Type *T) {
    return T->getKind() == TypeKind::Contiguous;
  }

private:
  friend class TypeContext;
  using Type::Type;
};

/// vector (stride in oldtype extents) and hvector (stride in bytes).
class VectorType : public Type {
public:
  int64_t getCount() const { return getScalar(0); }
  int64_t getBlockLength() const { return getScalar(1); }
  int64_t getStride() const { return getScalar(2); }
  bool isByteStride() const { return getKind() == TypeKind::HVector; }
  /// Stride in bytes (checked at creation not to overflow where there are
  /// two blocks or more; 0 for one block or no data, whatever the stride).
  int64_t getByteStride() const;
  static bool classof(const Type *T) {
    return T->getKind() == TypeKind::Vector ||
           T->getKind() == TypeKind::HVector;
  }

private:
  friend class TypeContext;
  using Type::Type;
};

/// indexed (displacements in oldtype extents) and hindexed (in bytes).
class IndexedType : public Type {
public:
  std::span<const int64_t> getBlockLengths() const { return getList(0); }
  std::span<const int64_t> getDisplacements() const { return getList(1); }
  bool isByteDisplacement() const { return getKind() == TypeKind::HIndexed; }
  static bool classof(const Type *T) {
    return T->getKind() == TypeKind::Indexed ||
           T->getKind() == TypeKind::HIndexed;
  }

private:
  friend class TypeContext;
  using Type::Type;
};

/// indexed_block and hindexed_block.
class IndexedBlockType : public Type {
public:
  int64_t getBlockLength() const { return getScalar(0); }
  std::span<const int64_t> getDisplacements() const { return getList(0); }
  bool isByteDisplacement() const {
    return getKind() == TypeKind::HIndexedBlock;
  }
  static bool classof(const Type *T) {
    return T->getKind() == TypeKind::IndexedBlock ||
           T->getKind() == TypeKind::HIndexedBlock;
  }

private:
  friend class TypeContext;
  using Type::Type;
};

class StructType : public Type {
public:
  std::span<const int64_t> getBlockLengths() const { return getList(0); }
  std::span<const int64_t> getDisplacements() const { return getList(1); }
  std::span<const Type *const> getTypes() const { return getOperands(); }
  static bool classof(const Type *T) {
    return T->getKind() == TypeKind::Struct;
  }

private:
  friend class TypeContext;
  using Type::Type;
};

class ResizedType : public Type {
public:
  int64_t getNewLb() const { return getScalar(0); }
  int64_t getNewExtent() const { return getScalar(1); }
  static bool classof(const Type *T) {
    return T->getKind() == TypeKind::Resized;
  }

private:
  friend class TypeContext;
  using Type::Type;
};

class SubarrayType : public Type {
public:
  ArrayOrder getOrder() const { return static_cast<ArrayOrder>(getScalar(0)); }
  std::span<const int64_t> getSizes() const { return getList(0); }
  std::span<const int64_t> getSubsizes() const { return getList(1); }
  std::span<const int64_t> getStarts() const { return getList(2); }
  static bool classof(const Type *T) {
    return T->getKind() == TypeKind::Subarray;
  }

private:
  friend class TypeContext;
  using Type::Type;
};

class DarrayType : public Type {
public:
  int64_t getCommSize() const { return getScalar(0); }
  int64_t getRank() const { return getScalar(1); }
  ArrayOrder getOrder() const { return static_cast<ArrayOrder>(getScalar(2)); }
  std::span<const int64_t> getGsizes() const { return getList(0); }
  std::span<const int64_t> getDistribs() const { return getList(1); }
  std::span<const int64_t> getDargs() const { return getList(2); }
  std::span<const int64_t> getPsizes() const { return getList(3); }
  static bool classof(const Type *T) {
    return T->getKind() == TypeKind::Darray;
  }

private:
  friend class TypeContext;
  using Type::Type;
};

class DupType : public Type {
public:
  static bool classof(const Type *T) { return T->getKind() == TypeKind::Dup; }

private:
  friend class TypeContext;
  using Type::Type;
};

/// The size of T's description as written: one per node plus its integers
/// and operands, a node that several operands share counted once. What
/// the work on T may grow with (a DAG of 50 nodes can describe 2^50
/// blocks).
uint64_t distinctDescriptionSize(const Type *T);

} // namespace ddtc

#endif // DDTC_IR_TYPE_H

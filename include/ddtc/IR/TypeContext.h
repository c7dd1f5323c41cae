//===- ddtc/IR/TypeContext.h - Owner and uniquer of type nodes --*- C++ -*-===//
//
// The TypeContext creates every node and owns it for its lifetime. Creation
// checks the arguments the way MPI does (negative counts, subarray bounds,
// darray grids), hash-conses the node -- a structurally equal node that
// exists already is returned instead -- and computes its layout with
// overflow-checked arithmetic, following the context's LibraryRules where
// MPI libraries differ. Problems come back as an Error naming the
// offending field ("field 'stride': ...").
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_IR_TYPECONTEXT_H
#define DDTC_IR_TYPECONTEXT_H

#include "ddtc/IR/LibraryRules.h"
#include "ddtc/IR/Type.h"
#include "ddtc/Support/Error.h"

#include <functional>
#include <memory>
#include <span>
#include <unordered_set>
#include <vector>

namespace ddtc {

class TypeContext {
public:
  /// A context with the given rules, which must outlive it. There is no
  /// default, so that the IR fixes none of the facts where MPI libraries
  /// differ: whoever creates a context names the library it follows.
  explicit TypeContext(const LibraryRules &Rules);
  ~TypeContext();
  TypeContext(const TypeContext &) = delete;
  TypeContext &operator=(const TypeContext &) = delete;

  /// The rules every layout of this context follows.
  const LibraryRules &getRules() const { return Rules; }

  const PredefinedType *getPredefined(PredefinedId Id) const {
    return Predefined[static_cast<unsigned>(Id)];
  }

  /// Creates (or finds) a node from its generic arguments, laid out as
  /// getKindSpec(K) describes. All other factories funnel into this one.
  Expected<const Type *> get(TypeKind K, std::vector<int64_t> Ints,
                             std::vector<const Type *> Operands);

  Expected<const Type *> getContiguous(int64_t Count, const Type *Old);
  Expected<const Type *> getVector(int64_t Count, int64_t BlockLength,
                                   int64_t Stride, const Type *Old);
  Expected<const Type *> getHVector(int64_t Count, int64_t BlockLength,
                                    int64_t ByteStride, const Type *Old);
  Expected<const Type *> getIndexed(std::span<const int64_t> BlockLengths,
                                    std::span<const int64_t> Displacements,
                                    const Type *Old);
  Expected<const Type *> getHIndexed(std::span<const int64_t> BlockLengths,
                                     std::span<const int64_t> Displacements,
                                     const Type *Old);
  Expected<const Type *> getIndexedBlock(int64_t BlockLength,
                                         std::span<const int64_t> Displacements,
                                         const Type *Old);
  Expected<const Type *>
  getHIndexedBlock(int64_t BlockLength, std::span<const int64_t> Displacements,
                   const Type *Old);
  Expected<const Type *> getStruct(std::span<const int64_t> BlockLengths,
                                   std::span<const int64_t> Displacements,
                                   std::span<const Type *const> Types);
  Expected<const Type *> getResized(int64_t Lb, int64_t Extent,
                                    const Type *Old);
  Expected<const Type *> getSubarray(std::span<const int64_t> Sizes,
                                     std::span<const int64_t> Subsizes,
                                     std::span<const int64_t> Starts,
                                     ArrayOrder Order, const Type *Old);
  Expected<const Type *>
  getDarray(int64_t CommSize, int64_t Rank, std::span<const int64_t> Gsizes,
            std::span<const int64_t> Distribs, std::span<const int64_t> Dargs,
            std::span<const int64_t> Psizes, ArrayOrder Order, const Type *Old);
  Expected<const Type *> getDup(const Type *Old);

  /// T with every operand replaced by Map(operand), where Map keeps types
  /// equivalent. An equivalent operand can still move the parent's bounds
  /// (alignment feeds struct padding): T itself is returned then, and when
  /// nothing changed or the node cannot be built.
  const Type *mapOperands(const Type *T,
                          const std::function<const Type *(const Type *)> &Map);

  /// Number of distinct nodes created so far.
  size_t getNumNodes() const { return Nodes.size(); }

  /// Test-only: a node made behind every check -- arguments, expansion and
  /// layout taken as given, not uniqued -- so that unittests/IR/
  /// VerifierTest.cpp can show the verifier rejecting each invariant it
  /// lists. Nothing else calls it.
  const Type *createUncheckedForTesting(TypeKind K, std::vector<int64_t> Ints,
                                        std::vector<const Type *> Operands,
                                        const Type *Expansion,
                                        const TypeLayout &Layout);

private:
  struct NodeKey;
  struct KeyHash {
    using is_transparent = void;
    size_t operator()(const Type *T) const { return T->getHash(); }
    size_t operator()(const NodeKey &K) const;
  };
  struct KeyEq {
    using is_transparent = void;
    bool operator()(const Type *A, const Type *B) const { return A == B; }
    bool operator()(const NodeKey &A, const Type *B) const;
    bool operator()(const Type *A, const NodeKey &B) const {
      return (*this)(B, A);
    }
  };

  /// A node of the class of kind K, not yet laid out.
  static std::unique_ptr<Type> makeNode(TypeKind K, std::vector<int64_t> Ints,
                                        std::vector<const Type *> Operands,
                                        Fingerprint Print);
  Expected<const Type *>
  buildExpansion(TypeKind K, std::span<const int64_t> Ints, const Type *Old);

  const LibraryRules &Rules;
  std::vector<std::unique_ptr<Type>> Nodes;
  std::unordered_set<const Type *, KeyHash, KeyEq> Unique;
  std::vector<const PredefinedType *> Predefined;
};

} // namespace ddtc

#endif // DDTC_IR_TYPECONTEXT_H

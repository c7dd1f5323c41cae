//===- ddtc/CodeGen/PackPlan.h - Code shape of each type node ---*- C++ -*-===//
//
// Before any code is printed, every node that the emitted pack code visits
// gets a *kernel*: the decision how one instance of the node is copied
// between the user's buffer and the packed stream. The decision follows the
// node's layout, never its spelling, so the same typemap gives the same code
// whichever way it was written:
//
//   Empty  the node has no data;
//   Runs   the node has few contiguous blocks (at most MaxUnrolledRuns): the
//          blocks of one instance, found by the typemap walker, are copied
//          by one fixed-size copy each, fully unrolled (Block: exactly one);
//   Loops  otherwise: the node is a sequence of segments, each a regular
//          loop (constant count and stride) or an index table, whose
//          element is a block of copies of a child -- one fixed-size copy if
//          the child is dense, else a loop calling the child's kernel.
//
// resized and dup nodes are transparent (they do not move data), and
// subarray and darray nodes are planned through their expansion. Kernels
// are created children first, so printing them in order defines every
// function before its use.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_CODEGEN_PACKPLAN_H
#define DDTC_CODEGEN_PACKPLAN_H

#include "ddtc/IR/Type.h"

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

namespace ddtc {

struct PlanOptions {
  /// Nodes with at most this many contiguous blocks per instance are copied
  /// block by block, without loops.
  unsigned MaxUnrolledRuns = 16;
  /// Loops and index tables with at most this many elements are unrolled.
  unsigned MaxUnrolledLoop = 8;
};

enum class KernelShape { Empty, Block, Runs, Loops };

struct Kernel;

/// Count elements; element k is Reps(k) consecutive copies of Child at byte
/// displacement Disp(k) from the instance (copy r at Disp(k) + r * extent).
struct Segment {
  /// The child as its parent sees it (before looking through resized):
  /// its extent spaces the copies, its density decides the copy.
  const Type *Child = nullptr;
  /// The child's instances tile memory: an element is one block of
  /// Reps * size bytes at Disp(k) + lb(Child).
  bool DenseChild = false;
  /// The child's kernel when the child is not dense.
  const Kernel *ChildKernel = nullptr;
  uint64_t Count = 0;
  /// Element k is at Disp0 + k * Stride when Strided, else at Disps[k].
  bool Strided = true;
  int64_t Disp0 = 0;
  int64_t Stride = 0;
  std::vector<int64_t> Disps;
  /// Copies per element when all elements have the same, else 0 and
  /// RepsList holds them.
  int64_t Reps = 0;
  std::vector<int64_t> RepsList;
  /// Where the segment's bytes start in the kernel's packed stream, and
  /// how many there are.
  uint64_t PackedStart = 0;
  uint64_t PackedSize = 0;

  bool uniformReps() const { return RepsList.empty(); }
  int64_t repsAt(uint64_t K) const { return Reps ? Reps : RepsList[K]; }
  int64_t dispAt(uint64_t K) const {
    return Strided ? Disp0 + static_cast<int64_t>(K) * Stride : Disps[K];
  }
};

struct Kernel {
  unsigned Id = 0;
  /// The node whose instance the kernel copies (resized, dup, subarray and
  /// darray looked through).
  const Type *T = nullptr;
  KernelShape Shape = KernelShape::Empty;
  /// Block and Runs: the contiguous blocks of one instance, typemap order.
  std::vector<ByteBlock> Runs;
  /// Loops: the segments, in typemap order.
  std::vector<Segment> Segments;

  int64_t size() const { return T->size(); }
};

/// The kernels of all nodes reachable from the types asked for.
class PackPlan {
public:
  explicit PackPlan(const PlanOptions &Options = {}) : Options(Options) {}

  /// The kernel copying one instance of T (created on first request, with
  /// those of its children).
  const Kernel &getKernel(const Type *T);

  /// All kernels, children before parents.
  const std::vector<std::unique_ptr<Kernel>> &kernels() const {
    return Kernels;
  }

  const PlanOptions &getOptions() const { return Options; }

private:
  void planLoops(Kernel &K);

  PlanOptions Options;
  std::vector<std::unique_ptr<Kernel>> Kernels;
  std::unordered_map<const Type *, const Kernel *> ByNode;
};

/// T with resized and dup looked through and subarray and darray replaced
/// by their expansion: a node with T's typemap relative to the same base.
const Type *lookThrough(const Type *T);

} // namespace ddtc

#endif // DDTC_CODEGEN_PACKPLAN_H

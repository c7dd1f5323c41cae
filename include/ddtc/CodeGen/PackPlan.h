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
//          A Loops node that is a transpose (see Tiling) is also given a
//          tiled loop nest for its copy kernel.
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
#include "ddtc/Support/Machine.h"

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
  /// Transposes whose one column (one copy of the child) touches at least
  /// this many pages are copied tile by tile (seed 001
  /// (docs/design.md#references), cache blocking): typemap order would touch a
  /// new page for every block, more pages per column than a TLB holds, and use
  /// one block of each cache line per column visit.
  unsigned TileMinPages = 64;
  int64_t PageBytes = ddtc::PageBytes;
  /// Tile: columns x rows (copies of the parent x blocks of the child).
  /// 8 rows touch at most 8 pages of the strided side and fit the ways of
  /// an 8-way L1 even when the rows are a multiple of 4 KiB apart and so
  /// fall into one cache set; 16 or 32 rows thrash that set (a 512 x 512
  /// double transpose packed at 7 and 4 GB/s with 16 and 32 rows, 17 with
  /// 8, docs/performance.md). 64 columns read 64 consecutive blocks of each
  /// row (whole cache lines) and touch at most 64 pages of the packed side.
  unsigned TileColumns = 64;
  unsigned TileRows = 8;
  /// Unpack moves the full tiles of a transpose of 4- or 8-byte blocks
  /// whose columns are adjacent (column stride = block) through registers,
  /// a square of 4 x 4 or 2 x 2 blocks per 16-byte load and store of each
  /// row: the stores into the user's rows, which wait for their lines, are
  /// 2-4x fewer. Unpack of 768 x 2,048 ints 1.3-1.6x, 512 x 512 doubles
  /// 1.1-1.2x, 1,024 x 1,024 doubles 1.8x; pack, whose stores wait for
  /// their lines to be fetched, was 0.8-1.0x so and keeps one move per
  /// block (docs/emit.md, "Transposes in registers").
  bool UnpackTransposeInRegisters = true;
  /// Planes in flight: a loop over planes (at least a page apart) of a
  /// loop over small blocks at most one per cache line, which in typemap
  /// order waits for one miss and, every few blocks, one page walk at a
  /// time, is copied this many planes at a time, row by row -- as many
  /// independent streams for the hardware (0 or 1: never). NAS_MG_x (8
  /// bytes every 1,040, planes 68,640 apart), 8 planes at a time: 1.20x
  /// pack and 1.09x unpack from memory, 1.00x and 1.05x from cache
  /// (docs/emit.md, "Planes in flight").
  unsigned PlanesInFlight = 8;
  int64_t PlanesMaxBlockBytes = 16;
  /// Loops over an index table of small elements prefetch the element this
  /// many iterations ahead (0: never). The addresses of a table walk are
  /// unknown to the hardware prefetchers, so without it every element whose
  /// line is not in cache stalls the loop; 64 ahead packed SPECFEM3D_oc
  /// (877 random 4-byte elements per 51 KB instance, 30 MB typed) at 2.2
  /// GB/s against 1.2 without, 8 ahead did nothing, 16 and 32 half as much
  /// (docs/emit.md, "Prefetching").
  unsigned PrefetchDistance = 64;
  /// Elements of at most this many bytes are prefetched: a longer block is
  /// a stream of its own, which the hardware follows.
  int64_t PrefetchMaxElementBytes = 64;
  /// Constant-stride loops moving elements of at most UnrollMaxElementBytes
  /// bytes less than UnrollMaxStride bytes apart are marked to be unrolled
  /// UnrollFactor times (`#pragma GCC unroll`, which g++ and clang++ both
  /// honour; 0 or 1: never). A loop of 4-byte moves spends most of its time
  /// on its own control and on the mispredicted exit of every short trip,
  /// and g++ -O2 neither unrolls nor vectorizes it (rowcol_A2: 2.2x faster
  /// with the hint). Not table walks and not strides of half a page or more:
  /// there the loop waits for misses or page walks, and the hint measured
  /// 0.86-0.96x (SPECFEM3D_cm, the transposes; docs/emit.md).
  unsigned UnrollFactor = 8;
  int64_t UnrollMaxElementBytes = 16;
  int64_t UnrollMaxStride = 2048;
  /// Loops of moves of at most ScalarMaxElementBytes bytes that are at
  /// least ScalarMinStride bytes (or four moves) apart, or read from an
  /// index table without prefetching, and the nests of planes in flight,
  /// are kept scalar: each move's typed address goes through the prelude's
  /// keepScalar. Their typed side cannot be loaded or stored as vectors,
  /// and g++ 12 at -O3 (the optimization of a CMake Release build)
  /// vectorizes them anyway, building each vector through the stack: a
  /// store-forwarding stall per pair of elements. A halo's x face (1,024
  /// doubles 272 bytes apart) packed 4.6x slower at -O3 than at -O2,
  /// NAS_MG_x 4.5x; with the barrier -O3 packs them as fast as -O2
  /// (docs/emit.md, "Kept scalar"). 0: never.
  int64_t ScalarMinStride = 64;
  int64_t ScalarMaxElementBytes = 16;
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
  /// Loop iteration k prefetches the element k + Prefetch (0: none).
  uint64_t Prefetch = 0;
  /// The loop is marked to be unrolled this many times (0: not marked).
  unsigned Unroll = 0;
  /// The loop is kept from being vectorized (PlanOptions::ScalarMinStride).
  bool Scalar = false;

  bool uniformReps() const { return RepsList.empty(); }
  int64_t repsAt(uint64_t K) const { return Reps ? Reps : RepsList[K]; }
  int64_t dispAt(uint64_t K) const {
    return Strided ? Disp0 + static_cast<int64_t>(K) * Stride : Disps[K];
  }
};

/// A transpose: Columns copies, column c at Offset + c * ColumnStride, each
/// of Rows blocks of BlockBytes bytes, block r at + r * RowStride. Block
/// (c, r) is packed at (c * Rows + r) * BlockBytes (typemap order); the
/// blocks are disjoint, so they may be copied in any order, in unpack too.
struct Tiling {
  uint64_t Columns = 0, Rows = 0;
  int64_t ColumnStride = 0, RowStride = 0;
  int64_t Offset = 0;
  int64_t BlockBytes = 0;
  uint64_t TileColumns = 0, TileRows = 0;
  /// Unpack moves full tiles Lanes x Lanes blocks at a time through
  /// registers (PlanOptions::UnpackTransposeInRegisters); 0: never.
  unsigned Lanes = 0;
  /// Columns are planes copied several at a time (PlanOptions::
  /// PlanesInFlight), not the columns of a transpose.
  bool Planes = false;
  /// The nest is kept from being vectorized (PlanOptions::ScalarMinStride):
  /// planes in flight, whose blocks are contiguous on neither side.
  /// (Transposes are not: with the barrier g++ -O2 packed them 0.7-0.9x
  /// as fast, and without it -O3 is no slower than -O2 on them.)
  bool Scalar = false;
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
  /// Loops: the node is a transpose, whose copy kernel visits tiles
  /// (Tile.Columns != 0); its Segments still describe it in typemap order
  /// (the range function's partial columns go through the child's).
  Tiling Tile;

  bool tiled() const { return Tile.Columns != 0; }
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

  /// The unroll mark of the loop over the instances of a message of T
  /// (PlanOptions::UnrollFactor; 0: not marked): when an instance is a few
  /// short blocks (each at most UnrollMaxElementBytes, at most four times
  /// that in all) and the extent is short, that loop is the same short-move
  /// loop as a segment's (seed 000's Tiled unit at A = 2: 8 bytes every 16).
  unsigned rootUnrollFactor(const Type *T);

private:
  void planLoops(Kernel &K);
  void planTiling(Kernel &K);
  bool planesInFlight(uint64_t Co, uint64_t AbsSo, uint64_t Ci, uint64_t AbsSi,
                      uint64_t Bytes) const;
  uint64_t prefetchDistance(const Segment &S) const;
  unsigned unrollFactor(const Segment &S) const;
  bool shortMoves(int64_t MoveBytes, int64_t Stride) const;
  bool keepScalar(const Segment &S) const;

  PlanOptions Options;
  std::vector<std::unique_ptr<Kernel>> Kernels;
  std::unordered_map<const Type *, const Kernel *> ByNode;
};

/// T with resized and dup looked through and subarray and darray replaced
/// by their expansion: a node with T's typemap relative to the same base.
const Type *lookThrough(const Type *T);

} // namespace ddtc

#endif // DDTC_CODEGEN_PACKPLAN_H

//===- ddtc/CodeGen/ShapeKernel.h - A pack plan run as data ------*- C++ -*-===//
//
// The pack plan of a type (PackPlan.h) executed from tables instead of
// printed as C++: the kernel the runtime builds at MPI_Type_commit for a
// type no emitted kernel serves (docs/runtime.md, "Shape kernels"). The
// plan's decisions are the emitter's -- runs of one instance, loops over
// strided or tabled segments, repetitions of a child, dense children as one
// block -- and its numbers (counts, strides, displacement and length tables)
// are data. What the compiler gets from literals in emitted code, the
// executor gets from specialization: a segment of dense elements of 1, 2,
// 4, 8, 12, 16, 24, 32, 40, 48, 64 or 128 bytes, strided or tabled, runs
// its own loop with a copy of that constant size, chosen once when the
// kernel is built; other sizes copy with memcpy. Transposes are copied tile
// by tile and planes several at a time, as the plan's Tiling says, by a nest
// specialized on the block size like the loops. What the emitted code does
// beyond that is not done here: the unpack of a transpose's full tiles does
// not go through vector registers, and table walks are not prefetched.
//
// Pack, unpack and their range forms move the bytes `MPI_Pack` of MPICH
// moves, in the same order; unpack writes nothing outside the typemap, and
// where a typemap overlaps itself the later entries win, as in MPI.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_CODEGEN_SHAPEKERNEL_H
#define DDTC_CODEGEN_SHAPEKERNEL_H

#include "ddtc/CodeGen/PackPlan.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace ddtc {

class ShapeKernel {
public:
  /// The kernel of T (a type of non-zero size), planned with Options. Its
  /// tables are O(the plan's runs and index lists); it keeps no pointer
  /// into T's context.
  static std::unique_ptr<ShapeKernel> build(const Type *T,
                                            const PlanOptions &Options = {});

  /// Packs Count instances at Typed (the program's buffer) to Packed.
  void pack(const void *Typed, size_t Count, void *Packed) const;
  /// Unpacks Count instances from Packed to Typed.
  void unpack(const void *Packed, size_t Count, void *Typed) const;
  /// Bytes [First, Last) of the packed stream of Count instances at Typed,
  /// to Packed; returns how many (Last clipped to the stream's end).
  size_t packRange(const void *Typed, size_t Count, size_t First, size_t Last,
                   void *Packed) const;
  /// Bytes [First, Last) of that stream, read from Packed, into Typed.
  size_t unpackRange(const void *Packed, size_t Count, size_t First,
                     size_t Last, void *Typed) const;

  uint64_t size() const { return Size; }
  int64_t extent() const { return Extent; }
  /// The segments' loops whose moves have a constant size (the element's,
  /// or pieces of one below 128 bytes), and all loops: what the report and
  /// the tests see of the specialization.
  size_t specializedLoops() const { return SpecializedLoops; }
  size_t loops() const { return Segs.size(); }
  /// The nodes copied tile by tile (transposes) or planes at a time.
  size_t tiledNodes() const { return Tiles.size(); }

  struct Node;
  struct Seg;
  /// A loop over the dense elements of a segment, specialized on their
  /// size and whether they are strided or tabled.
  using LoopFn = char *(*)(const Seg &S, char *Base, char *Packed, uint64_t K0,
                           uint64_t K1);

  /// One kernel of the plan: runs of one instance, or segments.
  struct Node {
    uint64_t Size = 0;
    bool IsRuns = false;
    uint32_t First = 0, Num = 0; ///< into Runs or Segs
    /// Runs: the length every run has, when they all have one, else 0.
    int64_t RunBytes = 0;
    /// Loops: the index into Tiles of a node copied by a tile nest, or -1.
    int32_t Tile = -1;
  };
  struct Run {
    int64_t Offset;
    uint64_t Length;
  };
  /// Count elements; element k is Reps(k) copies of a child at Disp(k): a
  /// block of ElemBytes(k) at Disp(k) + ChildLb when the child is dense,
  /// else Reps(k) instances of node Child, ChildExtent apart.
  struct Seg {
    uint64_t Count = 0;
    bool Strided = true;
    int64_t Disp0 = 0, Stride = 0;
    const int64_t *Disps = nullptr;
    int64_t Reps = 0; ///< 0: RepsList
    const int64_t *RepsList = nullptr;
    const uint64_t *Starts = nullptr; ///< packed start of each element
    bool Dense = false;
    int64_t ChildLb = 0;
    uint64_t ChildSize = 0;
    int64_t ChildExtent = 0;
    uint32_t Child = 0;
    uint64_t PackedStart = 0, PackedSize = 0;
    /// Dense elements of one size: the loop over [K0, K1) of them.
    LoopFn Loop[2] = {nullptr, nullptr}; ///< [Pack]

    int64_t dispAt(uint64_t K) const {
      return Strided ? Disp0 + static_cast<int64_t>(K) * Stride : Disps[K];
    }
    int64_t repsAt(uint64_t K) const { return Reps ? Reps : RepsList[K]; }
    uint64_t elementStart(uint64_t K) const {
      return Reps ? K * static_cast<uint64_t>(Reps) * ChildSize : Starts[K];
    }
  };

  /// The columns [CA, CB) of a tiled node at B, to or from P, which holds
  /// the packed stream from column CA on; returns the end.
  using TileFn = char *(*)(const Tiling &T, char *B, char *P, uint64_t CA,
                           uint64_t CB);
  struct TileNest {
    Tiling T;
    TileFn Copy[2] = {nullptr, nullptr}; ///< [Pack]
  };

private:
  ShapeKernel() = default;
  uint32_t addNode(const Kernel &K);
  void setLoops(Seg &S);

  template <bool Pack> char *copyNode(const Node &N, char *B, char *P) const;
  template <bool Pack> char *copySeg(const Seg &S, char *B, char *P) const;
  template <bool Pack>
  char *rangeNode(const Node &N, char *B, char *P, uint64_t Lo,
                  uint64_t Hi) const;
  template <bool Pack>
  char *rangeSeg(const Seg &S, char *B, char *P, uint64_t Lo,
                 uint64_t Hi) const;
  template <bool Pack>
  char *message(char *Typed, size_t Count, char *Packed) const;
  template <bool Pack>
  size_t messageRange(char *Typed, size_t Count, size_t First, size_t Last,
                      char *Packed) const;

  uint64_t Size = 0;
  int64_t Extent = 0;
  uint32_t Root = 0;
  /// The message: Count instances of Root, Extent apart, as a segment, so
  /// that a root of one block runs a specialized loop over the instances.
  /// Its Count is set per call; MessageDense says whether it applies.
  Seg Message;
  bool MessageDense = false;
  std::vector<Node> Nodes;
  std::vector<Run> Runs;
  std::vector<Seg> Segs;
  std::vector<TileNest> Tiles;
  /// The tables the segments point into; a deque-like list of vectors so
  /// that pointers stay valid while building.
  std::vector<std::unique_ptr<std::vector<int64_t>>> Tables;
  std::vector<std::unique_ptr<std::vector<uint64_t>>> StartTables;
  size_t SpecializedLoops = 0;
};

} // namespace ddtc

#endif // DDTC_CODEGEN_SHAPEKERNEL_H

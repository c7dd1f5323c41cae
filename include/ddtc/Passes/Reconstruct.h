//===- ddtc/Passes/Reconstruct.h - Optimal trees from typemaps --*- C++ -*-===//
//
// Reconstruction forgets how a type was described and rebuilds it from its
// typemap: the typemap is flattened into maximal blocks (runs of one basic
// type), a planner finds the cheapest tree for the block sequence under the
// cost model of docs/normalization.md, and the tree is built and placed at
// the type's bounds. Because the result depends on the typemap, lb and
// extent alone, equivalent descriptions get the same tree: the normal form.
//
// Types with more blocks than a budget are not flattened; their operands
// are reconstructed instead (symbolic rewriting on the tree).
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_PASSES_RECONSTRUCT_H
#define DDTC_PASSES_RECONSTRUCT_H

#include "ddtc/IR/TypeContext.h"
#include "ddtc/Passes/Canonicalize.h"
#include "ddtc/Passes/Pass.h"

#include <cstdint>
#include <memory>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ddtc {

namespace recon {
struct Block;
} // namespace recon

struct ReconstructOptions {
  /// Typemaps with more blocks are rewritten through their operands ...
  uint64_t MaxFlatBlocks = uint64_t(1) << 22;
  /// ... and so are those with more than FlatBlocksPerInt blocks for each
  /// integer of their description (distinctDescriptionSize), beyond
  /// MinFlatBlocks: rebuilding takes time in proportion to the input, not
  /// to the typemap it describes.
  uint64_t FlatBlocksPerInt = 64;
  uint64_t MinFlatBlocks = uint64_t(1) << 17;
  /// Block sequences up to this length get the exact dynamic program.
  size_t DPBlocks = 2048;
  /// Longest segment a struct node spans inside the dynamic program.
  size_t StructWindow = 32;
  /// Sequences of copies of one element (lib/Passes/ElementSequence.h) up
  /// to this length are planned. Every element of every tree found is
  /// tried: a chain of structs of copies has one per level, and 2,048
  /// made the chain of test/tools/normalize/shared-subtrees.test 3.4x
  /// slower to normalize than without elements (512: 2x, for 1 more of
  /// 4,014 flattened lists with another normal form).
  size_t ElementBlocks = 512;
  /// Typemaps of up to this many elements are also planned cut into single
  /// elements (the dynamic program's table grows with each).
  size_t ElementCutBlocks = 256;
  /// Skip planning the pieces of a long block sequence that provably
  /// cannot beat the given description (planBlocks' budget). Off only to
  /// test that it changes nothing.
  bool PruneByGiven = true;
};

class Reconstructor {
public:
  explicit Reconstructor(TypeContext &Ctx, ReconstructOptions Options = {})
      : Ctx(Ctx), Options(Options), Canon(Ctx) {}

  /// The normal form of T: equivalent to T (same typemap, lb and extent),
  /// canonicalized, and never costlier than T. T itself when nothing
  /// cheaper was found.
  const Type *reconstruct(const Type *T);

  /// The most blocks T is flattened into to be rebuilt.
  uint64_t flatBudget(const Type *T) const;

  /// The cheapest description found of the typemap of Count consecutive
  /// instances of T, as one type to be sent with count 1 (GL1). Its bounds
  /// are its own. Errors if the message is too large to flatten.
  Expected<const Type *> reconstructMessage(const Type *T, uint64_t Count);

  /// Types whose reconstruction came out costlier than the input and were
  /// kept as given (the planner is exact only within its budgets).
  unsigned getNumKeptAsGiven() const { return KeptAsGiven; }
  /// Types kept as given without planning all their pieces: a lower bound
  /// showed nothing built from them could be cheaper (PruneByGiven).
  unsigned getNumPruned() const { return Pruned; }

private:
  /// The reconstructed tree of T's typemap (bounds adjusted if
  /// KeepBounds), or null if T is empty or too large to flatten; T itself
  /// if KeepBounds and the planners proved that no plan can beat it.
  const Type *rebuild(const Type *T, uint64_t Count, bool KeepBounds);
  const Type *rebuildOperands(const Type *T);
  /// T with every list of lists below it -- an index list, vector or
  /// contiguous over a derived oldtype, whose typemap is of one basic type
  /// in at most ElementBlocks runs (the bound on sequences planned again)
  /// -- written as the hindexed of its maximal runs, bounds kept; T if
  /// there is none.
  const Type *listNestedRuns(const Type *T);
  /// The cheapest tree of T's typemap as Seq, a sequence of copies of E
  /// (lib/Passes/ElementSequence.h), canonicalized; null if none was built.
  const Type *rebuildFromElement(const Type *T, const Type *E,
                                 std::span<const recon::Block> Seq);
  /// The element sequences planned for one type: a sequence is planned
  /// once, whichever tree it was read from.
  using ElementSequences =
      std::vector<std::pair<const Type *, std::vector<recon::Block>>>;
  /// Best, or a tree rebuilt from copies of an element of From (or of a
  /// tree so found) that precedes it and is cheaper than Floor if given.
  const Type *improveByElements(const Type *From, const Type *Best,
                                const Type *Floor, ElementSequences &Seen);

  TypeContext &Ctx;
  ReconstructOptions Options;
  /// Built trees are canonicalized before they are judged: the builder
  /// leaves some rewrites (a struct chunk that tiles) to it.
  Canonicalizer Canon;
  std::unordered_map<const Type *, const Type *> Memo;
  unsigned KeptAsGiven = 0;
  unsigned Pruned = 0;
};

std::unique_ptr<Pass> createReconstructPass();

} // namespace ddtc

#endif // DDTC_PASSES_RECONSTRUCT_H

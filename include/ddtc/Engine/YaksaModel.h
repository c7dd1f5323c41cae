//===- ddtc/Engine/YaksaModel.h - How MPICH's engine packs a type -*- C++ -*-===//
//
// A replay of what MPICH 4.0.2 does to pack a type, counted in work units
// instead of executed. MPICH hands a derived type to its engine, Yaksa,
// which
//
//   - builds its own tree, with shortcuts: dup, contiguous(1, T) and a
//     resize to the old bounds are T; a vector of count 1 is a contiguous;
//     an indexed list of equal block lengths is a block-indexed one, and
//     that is a vector when its displacements start at 0 and are equally
//     spaced; a struct whose members are one object is an indexed (the
//     shortcuts that decide layouts are MPICH's rules, MPICHRules.h);
//   - copies a type that is one contiguous piece with memcpy;
//   - runs a generated kernel (loops of constant shape) for a tree at most
//     three levels (MPICHRules::MaxKernelLevels) of hvector, blkhindx,
//     hindexed, contig or resized deep over a basic type: the innermost
//     loop of an hvector or blkhindx is unrolled for block lengths 1 to 8,
//     run-time otherwise; every element is copied by its own load and
//     store;
//   - with a kernel, copies blocks of 16 KiB and more on average with
//     memcpy through an iovec instead;
//   - otherwise recurses (its "backend"): one dispatch per block of the
//     top node, each of which again looks for a kernel -- a struct, a pair
//     type such as MPI_DOUBLE_INT, or a tree four levels deep costs one
//     dispatch per block.
//
// A send packs its message in fragments (the netmod's pack callback), and
// Yaksa packs a fragment that starts or ends inside an element of the type
// by descending into that element, block by block: a type sent with count
// 1 whose top node is an hvector costs one dispatch per block there, while
// contiguous(N, T) hands whole instances of T to one kernel call.
//
// Read from Yaksa's sources (src/frontend/pup/yaksi_ipack*.c, genpup.py
// and the type constructors, the revision MPICH 4.0.2 bundles). The work
// is counted from the tree without visiting blocks: a type of 10^12
// blocks costs its description, not its typemap. docs/mpi-forms.md.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_ENGINE_YAKSAMODEL_H
#define DDTC_ENGINE_YAKSAMODEL_H

#include "ddtc/Engine/EngineWork.h"
#include "ddtc/IR/Type.h"

#include <cstdint>
#include <memory>
#include <string>

namespace ddtc {

/// The fragment in which the modelled sends pack: UCX's bcopy segment on
/// shared memory, through which MPICH's ch4/ucx packs non-contiguous sends.
constexpr uint64_t DefaultFragmentBytes = 8192;

class YaksaModel {
public:
  explicit YaksaModel(uint64_t FragmentBytes = DefaultFragmentBytes);
  ~YaksaModel();
  YaksaModel(const YaksaModel &) = delete;
  YaksaModel &operator=(const YaksaModel &) = delete;

  /// MPI_Pack(inbuf, Count, T, ...) in one call.
  EngineWork packWork(const Type *T, uint64_t Count);
  /// The same message packed fragment by fragment, as a send does.
  EngineWork fragmentedPackWork(const Type *T, uint64_t Count);
  /// How Yaksa runs T, in a few words: "kernel hvector_blkhindx",
  /// "memcpy", "interpreter contig -> kernel resized_contig",
  /// "interpreter struct (3 members)".
  std::string describePath(const Type *T);

  uint64_t getFragmentBytes() const { return FragmentBytes; }

private:
  struct Impl;
  uint64_t FragmentBytes;
  std::unique_ptr<Impl> P;
};

} // namespace ddtc

#endif // DDTC_ENGINE_YAKSAMODEL_H

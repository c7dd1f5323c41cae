//===- lib/Runtime/SparseBlocks.h - Messages left to MPI --------*- C++ -*-===//
//
// A point-to-point message of tiny blocks spread over more pages than a TLB
// holds is left to MPI as the program wrote it (docs/runtime.md, "Sparse
// blocks"): every pack engine then pays a page walk and a cache-line fill
// per block, so a kernel copies no faster than MPI's engine, and MPI's
// pipeline overlaps the sender's copies with the receiver's, which one
// packed message cannot. This is a property of memory, not of the MPI
// library, so it holds where nothing was measured.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_LIB_RUNTIME_SPARSEBLOCKS_H
#define DDTC_LIB_RUNTIME_SPARSEBLOCKS_H

#include "ddtc/IR/Type.h"

#include <cstdint>

namespace ddtc {

/// Whether T is a nest of vectors (vector, hvector, contiguous, dup and
/// resized over a predefined type), the only types the rule covers.
bool isStridedNest(const Type *T);

/// For a nest of vectors of layout L whose contiguous blocks hold MeanBlock
/// bytes on average: the count of instances from which a message touches
/// more pages of PageSize bytes than a TLB holds, its blocks at most a
/// cache line long and at least a cache line apart; 0 where no count does.
uint64_t sparseFromCount(const TypeLayout &L, uint64_t MeanBlock,
                         uint64_t PageSize);

} // namespace ddtc

#endif // DDTC_LIB_RUNTIME_SPARSEBLOCKS_H

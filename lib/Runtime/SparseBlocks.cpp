//===- lib/Runtime/SparseBlocks.cpp - Messages left to MPI ----------------===//
#include "SparseBlocks.h"

#include "ddtc/IR/Type.h"

#include <algorithm>
#include <cstdlib>

namespace ddtc {

bool isStridedNest(const Type *T) {
  // MPI's engine walks such a type with the loops a kernel runs, so where
  // memory bounds both, neither gains. Index lists and structs are not
  // covered: MPI's engine pays per entry there, and a struct's members may
  // lie in separate allocations (MPI_BOTTOM), whose distance says nothing
  // of how far its blocks lie apart.
  while (!isa<PredefinedType>(T)) {
    if (!isa<VectorType>(T) && !isa<ContiguousType>(T) && !isa<DupType>(T) &&
        !isa<ResizedType>(T))
      return false;
    T = T->getOldType();
  }
  return true;
}

uint64_t sparseFromCount(const TypeLayout &L, uint64_t MeanBlock,
                         uint64_t PageSize) {
  // 4,096 pages (16 MiB of 4 KiB pages) are past the reach of the
  // second-level TLB of current x86-64 and Arm server cores (1,280-3,072
  // entries). Measured on this project's machine (bench/runtime/
  // sparse-nests.sh), nests of doubles 520 B to 4 KiB apart pack faster
  // than MPICH sends them typed up to about 4,000 pages a message
  // (1.02-1.27x) and slower past it (0.72-0.99x), whether their blocks
  // share pages or not.
  constexpr uint64_t CacheLine = 64, TLBPages = 4096;
  uint64_t N = L.Blocks.Count;
  if (N == 0 || PageSize == 0 || MeanBlock > CacheLine)
    return 0;
  // The span of an instance is its extent or its true extent, whichever is
  // larger; N blocks over it are N - 1 gaps and the last block. Blocks
  // closer than a cache line share lines, which a kernel streams.
  uint64_t Extent = static_cast<uint64_t>(std::abs(L.extent()));
  uint64_t Span = std::max(Extent, static_cast<uint64_t>(L.trueExtent()));
  uint64_t Apart = N == 1 ? Span : (Span - std::min(Span, MeanBlock)) / (N - 1);
  if (Apart < CacheLine)
    return 0;
  // A message of C instances touches at most C * N pages (one per block)
  // and about ((C - 1) * Extent + Span) / PageSize + 1 (the pages its
  // instances cover, consecutive ones an extent apart): the smallest C at
  // which both reach TLBPages.
  uint64_t ByBlocks = (TLBPages + N - 1) / N;
  uint64_t Bytes = (TLBPages - 1) * PageSize;
  uint64_t BySpan = 1;
  if (Span < Bytes) {
    if (Extent == 0)
      return 0; // every instance on the same pages
    BySpan = (Bytes - Span + Extent - 1) / Extent + 1;
  }
  return std::max(ByBlocks, BySpan);
}

} // namespace ddtc

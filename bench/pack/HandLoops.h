//===- bench/pack/HandLoops.h - Hand-written pack loops ---------*- C++ -*-===//
//
// The "hand-written loop" column of ddtc-pack-bench: pack and unpack code
// the way an application programmer writes it, with the layout parameters
// as run-time variables. HandLoops.cpp is compiled with -O2, like the
// emitted code it is compared with.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_BENCH_HANDLOOPS_H
#define DDTC_BENCH_HANDLOOPS_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ddtc::bench {

/// One contiguous block of an instance: bytes from the buffer pointer.
struct Block {
  int64_t Offset;
  int64_t Length;
};

/// The generic loop for the corpus types: for every instance, one memcpy
/// per block of the flattened block list (maximal contiguous runs of one
/// instance, in typemap order).
void packBlocks(const Block *Blocks, size_t NumBlocks, int64_t Extent,
                const char *In, size_t Count, char *Out);
void unpackBlocks(const Block *Blocks, size_t NumBlocks, int64_t Extent,
                  const char *In, size_t Count, char *Out);

/// The seed-000 (docs/design.md#references) layouts (Carpen-Amarie, Hunold,
/// Traeff), MPI_INT elements, as nested element loops: "tiled", "block",
/// "alternating", "altrep", "rowcol" for blocksize A, as
/// test/Passes/Inputs/seed000.py defines them.
enum class Seed000Layout { Tiled, Block, Alternating, AltRep, RowCol };

/// Parses a type name GROUP_A<n> (e.g. "tiled_A10"); false if it is not one.
bool parseSeed000Name(const std::string &Name, Seed000Layout &L, int &A);

void packSeed000(Seed000Layout L, int A, const int *In, size_t Count, int *Out);
void unpackSeed000(Seed000Layout L, int A, const int *In, size_t Count,
                   int *Out);

} // namespace ddtc::bench

#endif // DDTC_BENCH_HANDLOOPS_H

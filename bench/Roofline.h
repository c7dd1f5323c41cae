//===- bench/Roofline.h - The memory traffic a message must cause -*- C++ -*-===//
//
// The lower bound of the pack benchmark (docs/performance.md, "Roofline"):
// how many distinct cache lines a message touches in its typed buffer, and
// from that the bytes that pack + unpack must move between the core and
// wherever those lines live. Divided by the bandwidth of memcpy over a
// buffer as large as those lines, measured in the same run, it is the time
// no pack engine can beat on this machine.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_BENCH_ROOFLINE_H
#define DDTC_BENCH_ROOFLINE_H

#include "HandLoops.h"

#include <cstdint>
#include <span>

namespace ddtc::bench {

inline constexpr int64_t LineBytes = 64;

struct LineCount {
  /// Distinct lines the Count instances touch, counted once however many
  /// instances share them.
  int64_t Lines = 0;
  /// Of those, the lines the message covers from end to end: unpack writes
  /// them whole, so the core need not read them first (write-combining).
  int64_t FullLines = 0;
  /// The sum over instances of each instance's distinct lines: more than
  /// Lines when instances share lines (extent below the true extent, or
  /// blocks of neighbouring instances in one line).
  int64_t InstanceLines = 0;
  /// Bytes covered twice or more (overlapping typemaps, which MPI allows
  /// for sending only).
  int64_t OverlapBytes = 0;
};

/// Counts the lines of Count instances, Extent bytes apart, of a type whose
/// instance has the contiguous blocks Instance (typemap order), with byte 0
/// of the typemap on a line boundary (the benchmark's typed buffers are
/// 64-byte aligned). Sorts the message's blocks once: n log n in their
/// number.
LineCount countLines(std::span<const Block> Instance, int64_t Extent,
                     int64_t Count);

/// Bytes that pack and unpack of a message must move, with P packed bytes:
///   pack    reads the L lines and writes P packed bytes;
///   unpack  reads P packed bytes, and writes the L lines, reading first
///           those it covers only in part (a partial store needs the rest
///           of the line).
/// Issue 10's first model, 3 * 64 * L + 2 * P, also reads the lines unpack
/// covers whole; on a contiguous type it asks 1.25 memcpy of pack + unpack,
/// which two memcpy calls do in 1.
int64_t boundBytes(const LineCount &C, int64_t Packed);

} // namespace ddtc::bench

#endif

//===- bench/pack/Roofline.h - Memory traffic of a message ------*- C++ -*-===//
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
#include <vector>

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
/// number. With Starts, also lists for every distinct line, in address
/// order, the offset of one byte of the message in it (the line walk below).
LineCount countLines(std::span<const Block> Instance, int64_t Extent,
                     int64_t Count, std::vector<int64_t> *Starts = nullptr);

/// The line walk: one byte loaded from every line at Starts (offsets from
/// Base), in address order, and nothing else. Not a bound (another order or
/// several streams may be faster) but the time the simplest loop takes to
/// touch the message's lines on this machine: where it is far above the
/// roofline's time, the lines' placement (one per page, misses one after
/// another), not bandwidth, sets the pace; only a copy that keeps several
/// of those streams in flight beats it (ddtc's planes in flight do).
uint64_t walkLinesRead(const uint8_t *Base, std::span<const int64_t> Starts);

/// The same walk storing one byte into every line: what an unpack must at
/// least do to the typed buffer (each store reads its line first).
void walkLinesWrite(uint8_t *Base, std::span<const int64_t> Starts);

/// Bytes that pack and unpack of a message must move, with P packed bytes:
///   pack    reads the L lines and writes P packed bytes;
///   unpack  reads P packed bytes, and writes the L lines, reading first
///           those it covers only in part (a partial store needs the rest
///           of the line).
/// A model of 3 * 64 * L + 2 * P bytes would also read the lines unpack
/// covers whole; on a contiguous type it would ask pack + unpack for 1.25
/// memcpy, which two memcpy calls do in 1.
int64_t boundBytes(const LineCount &C, int64_t Packed);

} // namespace ddtc::bench

#endif

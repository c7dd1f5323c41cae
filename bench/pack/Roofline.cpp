//===- bench/pack/Roofline.cpp - Memory traffic of a message --------------===//

#include "Roofline.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace ddtc::bench {

namespace {

/// A half-open byte interval [Lo, Hi) of the typed buffer.
using Interval = std::pair<int64_t, int64_t>;

int64_t floorLine(int64_t B) {
  return (B >= 0 ? B : B - (LineBytes - 1)) / LineBytes;
}

/// Sorts and merges byte intervals; returns the bytes covered twice or more.
int64_t mergeIntervals(std::vector<Interval> &V) {
  std::sort(V.begin(), V.end());
  int64_t Overlap = 0;
  size_t Out = 0;
  for (const Interval &I : V) {
    if (Out && I.first < V[Out - 1].second) {
      Overlap += std::min(I.second, V[Out - 1].second) - I.first;
      V[Out - 1].second = std::max(V[Out - 1].second, I.second);
    } else if (Out && I.first == V[Out - 1].second) {
      V[Out - 1].second = I.second; // adjacent: one run
    } else {
      V[Out++] = I;
    }
  }
  V.resize(Out);
  return Overlap;
}

/// Distinct lines of disjoint sorted intervals (two intervals may share a
/// line at their ends).
int64_t linesOf(const std::vector<Interval> &V, int64_t *Full = nullptr,
                std::vector<int64_t> *Starts = nullptr) {
  int64_t Lines = 0, FullLines = 0, Last = INT64_MIN;
  for (const Interval &I : V) {
    int64_t First = floorLine(I.first), End = floorLine(I.second - 1);
    if (First == Last)
      ++First;
    if (First <= End)
      Lines += End - First + 1;
    // A byte of the message in each line: the walk never leaves the typed
    // buffer's allocation.
    if (Starts)
      for (int64_t L = First; L <= End; ++L)
        Starts->push_back(std::max(L * LineBytes, I.first));
    Last = End;
    // Lines covered from end to end by this interval.
    int64_t FullFirst = floorLine(I.first + LineBytes - 1);
    int64_t FullEnd = floorLine(I.second) - 1;
    if (FullFirst <= FullEnd)
      FullLines += FullEnd - FullFirst + 1;
  }
  if (Full)
    *Full = FullLines;
  return Lines;
}

} // namespace

LineCount countLines(std::span<const Block> Instance, int64_t Extent,
                     int64_t Count, std::vector<int64_t> *Starts) {
  LineCount C;
  std::vector<Interval> One;
  for (const Block &B : Instance)
    One.push_back({B.Offset, B.Offset + B.Length});
  std::vector<Interval> All, Shifted;
  All.reserve(One.size() * static_cast<size_t>(Count));
  for (int64_t I = 0; I < Count; ++I) {
    int64_t D = I * Extent;
    Shifted.clear();
    for (const Interval &R : One)
      Shifted.push_back({R.first + D, R.second + D});
    All.insert(All.end(), Shifted.begin(), Shifted.end());
    mergeIntervals(Shifted);
    C.InstanceLines += linesOf(Shifted);
  }
  C.OverlapBytes = mergeIntervals(All);
  C.Lines = linesOf(All, &C.FullLines, Starts);
  return C;
}

uint64_t walkLinesRead(const uint8_t *Base, std::span<const int64_t> Starts) {
  uint64_t Sum = 0;
  for (int64_t S : Starts)
    Sum += Base[S];
  return Sum;
}

void walkLinesWrite(uint8_t *Base, std::span<const int64_t> Starts) {
  for (int64_t S : Starts)
    Base[S] = static_cast<uint8_t>(S);
}

int64_t boundBytes(const LineCount &C, int64_t Packed) {
  int64_t PartialLines = C.Lines - C.FullLines;
  return LineBytes * C.Lines + Packed                     // pack
         + Packed + LineBytes * (C.Lines + PartialLines); // unpack
}

} // namespace ddtc::bench

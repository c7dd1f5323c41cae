//===- tools/ddtc-rt-calibrate/TypedRules.cpp - Rules from a table --------===//
#include "TypedRules.h"

#include <algorithm>

namespace ddtc {

std::vector<TypedRule> deriveTypedRules(
    const std::vector<uint64_t> &Blocks, const std::vector<uint64_t> &Sizes,
    const std::vector<std::vector<Outcome>> &Outcomes, size_t MaxRules) {
  constexpr size_t Nowhere = SIZE_MAX;
  // Per block: the index of the smallest size from which on the packed
  // path wins by the margin nowhere (MPI wins or ties). A tie counts for
  // MPI: where packing is not measurably faster its gain is uncertain, and
  // MPI's own path is never slower than the program without the runtime
  // (on this project's VM the 1 KiB probe ties in one mode, and packing
  // NAS_MG_y loses 0.65x at 256 KiB there; docs/performance.md).
  std::vector<size_t> From(Blocks.size(), Nowhere);
  for (size_t B = 0; B < Blocks.size(); ++B)
    for (size_t S = Sizes.size();
         S-- > 0 && Outcomes[B][S] != Outcome::TypedLoses;)
      From[B] = S;
  // From the largest block down, each block's threshold covers every
  // larger block; a block with no such size ends the rules (a rule below
  // it would cover it).
  std::vector<TypedRule> Rules;
  size_t Threshold = 0;
  for (size_t B = Blocks.size(); B-- > 0;) {
    if (From[B] == Nowhere)
      break;
    Threshold = std::max(Threshold, From[B]);
    // Above the size before the first probe MPI won or tied: the sizes
    // between two probes went neither way measured, and the data are at
    // the probe.
    uint64_t Above = Threshold == 0 ? Sizes[0] / 2 : Sizes[Threshold - 1];
    if (!Rules.empty() && Rules.back().Above == Above)
      Rules.back().Block = Blocks[B]; // the same threshold, more blocks
    else
      Rules.push_back({Blocks[B], Above});
  }
  if (Rules.size() > MaxRules)
    Rules.resize(MaxRules);
  return Rules;
}

} // namespace ddtc

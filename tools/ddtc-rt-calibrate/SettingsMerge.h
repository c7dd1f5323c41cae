//===- tools/ddtc-rt-calibrate/SettingsMerge.h - Two measurements -*- C++ -*-===//
//
// The settings a store keeps once a second measurement, taken by another
// job at another time, has confirmed the first (docs/runtime.md,
// "Settings"). One measurement can be taken in a state of the node that
// does not last -- on this project's VM, the seconds after a compile, in
// which MPI's contiguous path runs at a quarter of its speed and shows no
// CPU wait the measurement could refuse -- and would then decide every later
// run. Where two measurements differ, the store takes the choice that
// leaves more to MPI: that choice costs at most the gain one measurement
// saw, the other choice up to the 0.65x of a kernel that loses.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_TOOLS_RT_CALIBRATE_SETTINGSMERGE_H
#define DDTC_TOOLS_RT_CALIBRATE_SETTINGSMERGE_H

#include "ddtc/Runtime/TypedBlockRules.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace ddtc {

/// A split window (Lo, Hi], Hi = 0 for off, as ddtc-rt-calibrate measures it.
using SplitWindow = std::pair<uint64_t, uint64_t>;

/// The sizes both windows split: their intersection, off where they do not
/// overlap or either is off.
SplitWindow intersectWindows(SplitWindow A, SplitWindow B);

/// Rules under which a message goes to MPI as written wherever A or B sends
/// it there, in at most MaxRules rules, largest block first. A rule that
/// another covers (no larger block, no larger threshold) is dropped; where
/// more than MaxRules remain, two rules of neighbouring blocks become one
/// with the smaller block and the smaller threshold, which covers both
/// (and leaves more to MPI: never less), the pair whose thresholds are
/// closest first.
std::vector<TypedRule> unionTypedRules(const std::vector<TypedRule> &A,
                                       const std::vector<TypedRule> &B,
                                       size_t MaxRules = MaxTypedRules);

} // namespace ddtc

#endif

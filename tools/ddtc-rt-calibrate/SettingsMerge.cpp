//===- tools/ddtc-rt-calibrate/SettingsMerge.cpp - Two measurements -------===//
#include "SettingsMerge.h"

#include <algorithm>

namespace ddtc {

SplitWindow intersectWindows(SplitWindow A, SplitWindow B) {
  if (A.second == 0 || B.second == 0)
    return {0, 0};
  uint64_t Lo = std::max(A.first, B.first), Hi = std::min(A.second, B.second);
  return Lo < Hi ? SplitWindow{Lo, Hi} : SplitWindow{0, 0};
}

std::vector<TypedRule> unionTypedRules(const std::vector<TypedRule> &A,
                                       const std::vector<TypedRule> &B,
                                       size_t MaxRules) {
  std::vector<TypedRule> All(A);
  All.insert(All.end(), B.begin(), B.end());
  // Smallest block first, and of one block the lowest threshold first:
  // a rule survives only where its threshold is below every rule of a
  // smaller (or the same) block, which would cover it otherwise.
  std::sort(All.begin(), All.end(), [](const TypedRule &X, const TypedRule &Y) {
    return X.Block != Y.Block ? X.Block < Y.Block : X.Above < Y.Above;
  });
  std::vector<TypedRule> Kept;
  for (const TypedRule &R : All)
    if (Kept.empty() || R.Above < Kept.back().Above)
      Kept.push_back(R);
  // Thresholds now fall as blocks grow. Joining rules I and I+1 as
  // (Block of I, threshold of I+1) lowers I's blocks' threshold by the
  // ratio of the two: join where it is smallest.
  while (Kept.size() > std::max<size_t>(MaxRules, 1)) {
    size_t Best = 0;
    for (size_t I = 1; I + 1 < Kept.size(); ++I)
      if (static_cast<double>(Kept[I].Above) / Kept[I + 1].Above <
          static_cast<double>(Kept[Best].Above) / Kept[Best + 1].Above)
        Best = I;
    Kept[Best].Above = Kept[Best + 1].Above;
    Kept.erase(Kept.begin() + static_cast<std::ptrdiff_t>(Best) + 1);
  }
  std::reverse(Kept.begin(), Kept.end());
  return Kept;
}

} // namespace ddtc

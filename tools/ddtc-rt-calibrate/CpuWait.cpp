//===- tools/ddtc-rt-calibrate/CpuWait.cpp - Time spent waiting for a CPU -===//
#include "CpuWait.h"

#include <fstream>
#include <sstream>

namespace ddtc {

std::optional<double> parseSchedstatWait(const std::string &Line) {
  std::istringstream In(Line);
  unsigned long long Run = 0, Wait = 0, Slices = 0;
  if (!(In >> Run >> Wait >> Slices))
    return std::nullopt;
  return static_cast<double>(Wait) * 1e-9;
}

std::optional<double> cpuWaitSeconds() {
  std::ifstream In("/proc/self/schedstat");
  std::string Line;
  if (!In || !std::getline(In, Line))
    return std::nullopt;
  return parseSchedstatWait(Line);
}

} // namespace ddtc

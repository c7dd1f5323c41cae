//===- ddtc/Engine/EngineCosts.h - Prices of an engine's work ---*- C++ -*-===//
//
// A cost table: nanoseconds per work unit (EngineWork.h) for one MPI
// library on one machine, measured by `ddtc calibrate`. The text form is
// line based, so that a table can be read, diffed and edited by hand:
//
//   # comments
//   engine mpich-4.0.2
//   machine <what it was measured on>
//   fit <quality of the fit>
//   call 61.2
//   dispatch 14.8
//   ...
//
// Every unit must be priced; an unknown key or a key given twice is an
// error. A family key prices every unit named KEY.something that has no
// line of its own ("unrolled-element.i8 0.5" for the eight block lengths,
// "unrolled-element 0.5" for every class), the most specific line winning.
// docs/mpi-forms.md.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_ENGINE_ENGINECOSTS_H
#define DDTC_ENGINE_ENGINECOSTS_H

#include "ddtc/Engine/EngineWork.h"
#include "ddtc/Support/Error.h"

#include <string>
#include <string_view>

namespace ddtc {

struct EngineCosts {
  /// The library the table is for ("mpich-4.0.2").
  std::string Engine;
  /// Where it was measured, and how well the model fit the measurements.
  std::string Machine, Fit;
  std::array<double, NumWorkUnits> NsPerUnit{};

  double estimateNs(const EngineWork &W) const {
    double T = 0;
    for (size_t I = 0; I < NumWorkUnits; ++I)
      T += W.Units[I] * NsPerUnit[I];
    return T;
  }
  double &operator[](WorkUnit U) { return NsPerUnit[static_cast<size_t>(U)]; }
};

/// Reads a cost table; errors name FileName and the line.
Expected<EngineCosts> parseEngineCosts(std::string_view Text,
                                       const std::string &FileName);
/// Reads the table at Path.
Expected<EngineCosts> readEngineCostsFile(const std::string &Path);
/// The text form; Header lines are written as comments first.
std::string printEngineCosts(const EngineCosts &C,
                             const std::string &Header = "");

/// The table ddtc ships for Debian 12's MPICH 4.0.2
/// (share/engines/mpich-4.0.2.costs, compiled in).
const EngineCosts &getDefaultEngineCosts();

/// A table by name ("mpich", the default) or by path to a file.
Expected<EngineCosts> findEngineCosts(const std::string &NameOrPath);

} // namespace ddtc

#endif // DDTC_ENGINE_ENGINECOSTS_H

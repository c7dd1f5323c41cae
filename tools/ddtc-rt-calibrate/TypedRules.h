//===- tools/ddtc-rt-calibrate/TypedRules.h - Rules from a table -*- C++ -*-===//
//
// The DDTC_RT_TYPED_BLOCKS rules a calibration writes, derived from its
// table of measurements: for each probed block size and message size,
// whether MPI's own engine won (was faster by the margin) or lost against
// the runtime's packed path. Kept apart from the measuring so that the
// derivation, which decides what a machine's settings file says, is
// tested on tables of known outcome (unittests/RtCalibrate).
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_TOOLS_RT_CALIBRATE_TYPEDRULES_H
#define DDTC_TOOLS_RT_CALIBRATE_TYPEDRULES_H

#include "ddtc/Runtime/TypedBlockRules.h"

#include <cstdint>
#include <vector>

namespace ddtc {

/// The outcome of one probe: MPI's engine won, lost, or neither by the
/// margin (a tie, which the rules count for MPI).
enum class Outcome { Tie, TypedWins, TypedLoses };

/// The rules for a table: Outcomes[B][S] is the probe of Blocks[B] bytes a
/// block in messages of Sizes[S] bytes (both ascending). A probed block
/// size gets the sizes from the smallest on which the packed path never
/// wins by the margin (MPI wins or ties: a gain that does not show in the
/// measurement is uncertain, and MPI's path never slows the program), and
/// a rule BLOCK:ABOVE covers every block from BLOCK up, so its threshold is
/// the highest of those larger blocks' too (between probes, MPI is taken
/// to win no less as blocks grow). A rule whose threshold a smaller
/// block's rule shares is that rule's; at most MaxRules are kept, those of
/// the largest blocks (dropping a rule leaves messages to the kernels,
/// never to MPI where it lost). Largest block first, as docs/runtime.md
/// writes them.
std::vector<TypedRule>
deriveTypedRules(const std::vector<uint64_t> &Blocks,
                 const std::vector<uint64_t> &Sizes,
                 const std::vector<std::vector<Outcome>> &Outcomes,
                 size_t MaxRules = MaxTypedRules);

} // namespace ddtc

#endif

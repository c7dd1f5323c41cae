//===- lib/Runtime/PackTiming.h - A kernel against MPI's engine -*- C++ -*-===//
//
// A kernel gains nothing in a message MPI sends eagerly where MPI's engine
// packs the type about as fast: MPI packs such a message straight into its
// eager buffer, while the runtime packs it into its own and MPI copies the
// packed bytes again, on each side (docs/runtime.md, "Types MPI packs as
// fast"). Engines differ by library and by type -- MPICH's Yaksa has a
// kernel of its own for a list of 4-byte elements, not for a vector of
// 40-byte blocks -- so at commit the runtime times both on the same
// instances: the bound kernel's pack against MPI_Pack.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_LIB_RUNTIME_PACKTIMING_H
#define DDTC_LIB_RUNTIME_PACKTIMING_H

#include "TypeBinding.h"

#include <mpi.h>

#include <cstdint>
#include <optional>

namespace ddtc {

/// The largest span of memory the instances timed may cover: a type whose
/// one instance spreads further is not timed (and keeps its kernel). Each
/// thread that commits keeps a scratch buffer of the largest span it timed.
constexpr uint64_t MaxTimedSpan = uint64_t(1) << 20;
/// Above this span, one instance is timed rather than an eager message's.
constexpr uint64_t SpreadSpan = uint64_t(1) << 18;

/// Packs Count instances of the type of B (handle H), Bytes packed bytes,
/// with B's kernel and with MPI_Pack, in a scratch buffer, each the best of
/// several rounds in nanoseconds, and a copy of those bytes. Null where B
/// has no kernel of the whole type at the program's addresses (a struct
/// bound member by member, a translated kernel), one instance spans more
/// than MaxTimedSpan, or MPI_Pack fails.
std::optional<PackTiming> timePacking(const Binding &B, MPI_Datatype H,
                                      uint64_t Bytes);

} // namespace ddtc

#endif // DDTC_LIB_RUNTIME_PACKTIMING_H

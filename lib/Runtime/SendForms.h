//===- lib/Runtime/SendForms.h - Faster forms for MPI's own sends -*- C++ -*-===//
//
// A committed type without a kernel is sent by MPI's engine as the
// program described it. MPICH sends a type fragment by fragment, and some
// descriptions make that slow: a count-1 struct of long index lists is sent
// block by block nearly whole (docs/mpi-forms.md, "Uses: forms for sends").
// DDTC_RT_FORMS=sends (docs/runtime.md) builds, at its first point-to-point
// call, the MPI-facing form for sends of such a type -- the same typemap and
// bounds, chosen by the engine model -- and hands it to MPI in the
// point-to-point calls the runtime passes through. Only those: MPI_Pack and the
// collectives (which may pack whole) get the type as the program built it, so
// no use is slower than the model allows.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_LIB_RUNTIME_SENDFORMS_H
#define DDTC_LIB_RUNTIME_SENDFORMS_H

#include "ddtc/IR/TypeContext.h"

#include <mpi.h>

#include <vector>

namespace ddtc {

/// Types with more contiguous blocks get no form: the candidates are
/// built from the normal form, and a commit should stay short.
inline constexpr uint64_t MaxSendFormBlocks = 1 << 16;
/// Nor do types of less data than two of MPICH's 8 KiB send fragments:
/// such an instance is packed whole or cut once, and the descent the forms
/// save is per fragment boundary, while choosing and building a form costs
/// milliseconds at the type's first point-to-point call (LAMMPS_full:
/// 5-10 ms).
inline constexpr uint64_t MinSendFormBytes = 16 * 1024;

/// Whether T is within the bounds above, where a form may pay.
bool wantsSendForm(const Type *T);

struct SendForm {
  /// The committed form; MPI_DATATYPE_NULL where the type as given stays.
  MPI_Datatype Handle = MPI_DATATYPE_NULL;
  /// The candidate chosen ("list-pieces", ...; FormCandidate::Origin, a
  /// literal), null if none.
  const char *Origin = nullptr;
};

/// The form for sends of T (decoded into Ctx), built with MPI constructor
/// calls and committed (PMPI, so the runtime does not bind it), for a type
/// wantsSendForm accepts; its handle null where no candidate is modelled at
/// least 1.3x faster and nowhere slower for sends, or where building it
/// fails.
SendForm buildSendForm(TypeContext &Ctx, const Type *T,
                       const std::vector<MPI_Datatype> &Predefined);

} // namespace ddtc

#endif // DDTC_LIB_RUNTIME_SENDFORMS_H

//===- ddtc/Engine/MPIForm.h - The description to hand an MPI library -*- C++ -*-===//
//
// ddtc's normal form is the cheapest description by ddtc's own cost model
// and the key its kernels are bound by. An MPI library's engine has costs
// of its own: MPICH 4.0.2 packs some normal forms slower than the
// description they came from. The MPI-facing form of a type is the
// candidate -- the description as given, its canonical form, its normal
// form -- the engine model (YaksaModel.h priced by EngineCosts.h) ranks
// fastest, both for MPI_Pack and for a send that packs fragment by
// fragment, and never one modelled slower than the given description in
// either. Ties go to the given description. docs/mpi-forms.md.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_ENGINE_MPIFORM_H
#define DDTC_ENGINE_MPIFORM_H

#include "ddtc/Engine/EngineCosts.h"
#include "ddtc/Engine/YaksaModel.h"

#include <string>
#include <string_view>
#include <vector>

namespace ddtc {

class Normalizer;
class TypeContext;

struct MPIFormOptions {
  /// A candidate replaces the given description only if MPI_Pack of a
  /// large message is modelled at least this much faster (the model's
  /// error is up to 30% on one probe in
  /// ten (docs/mpi-forms.md)) ...
  double MinGain = 0.3;
  /// ... and no use (MPI_Pack or a fragmented send, at any of the counts)
  /// is modelled slower than this fraction of the given one's speed.
  double MinWorstRatio = 0.98;
  /// Message counts the forms are compared at; empty: 1, and the count of
  /// a 1 MiB message. The last is "large".
  std::vector<uint64_t> Counts;
  /// The program only sends and receives the type point to point (a
  /// trace's x-uses, TypeUses.h): MPI never packs it whole, so the gain
  /// asked for, and the uses never to be slower, are the fragmented
  /// sends' alone.
  bool SendsOnly = false;
};

struct FormCandidate {
  const Type *T = nullptr;
  /// "given", "canonical", "normal", "pieces", "list-pieces" or "members".
  const char *Origin = "given";
};

struct MPIForm {
  FormCandidate Chosen;
  /// Modelled time of the given description and of the chosen form, for
  /// MPI_Pack and for a fragmented send, at Count.
  uint64_t Count = 1;
  double GivenPackNs = 0, FormPackNs = 0;
  double GivenSendNs = 0, FormSendNs = 0;
  /// The smallest ratio t(given)/t(form) over the counts and the uses
  /// compared, and the ratios for MPI_Pack and for a send at Count; 1 when
  /// the given description is chosen.
  double WorstGain = 1, PackGain = 1, SendGain = 1;
  /// The choice was made for sends alone (MPIFormOptions::SendsOnly).
  bool SendsOnly = false;
  /// The gain the choice was made by: for sends alone, the send's.
  double gain() const { return SendsOnly ? SendGain : PackGain; }
  bool isGiven() const { return std::string_view(Chosen.Origin) == "given"; }
};

/// The candidates ddtc can hand MPI for Given: the canonical form, the
/// normal form, a normal form that is a vector cut into pieces under a
/// contiguous (for sends), and the given and normal forms with their index
/// lists of several block lengths as structs of contiguous members (for
/// MPICH's memcpy per member; MPIForm.cpp), duplicates left out.
std::vector<FormCandidate> getFormCandidates(TypeContext &Ctx, Normalizer &N,
                                             const Type *Given);

MPIForm chooseMPIForm(const Type *Given,
                      const std::vector<FormCandidate> &Candidates,
                      YaksaModel &Model, const EngineCosts &Costs,
                      const MPIFormOptions &Options = {});

/// One line for people on what was chosen and why ("MPI-facing form for
/// mpich-4.0.2: the normal form, MPI_Pack modelled 2.10x faster than the
/// type as given"); Engine names the library.
std::string describeMPIForm(const MPIForm &F, const std::string &Engine);

} // namespace ddtc

#endif // DDTC_ENGINE_MPIFORM_H

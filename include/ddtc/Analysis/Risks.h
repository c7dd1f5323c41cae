//===- ddtc/Analysis/Risks.h - What may make a type slow --------*- C++ -*-===//
//
// The risks `ddtc analyze` reports for a type, judged against the MPI
// datatype performance guidelines of seed paper 000 (GL1, GL4) and what is
// known of the engines (the depth of the library's generated pack kernels,
// from its LibraryRules; structs go to MPICH's interpreter; seed 001
// (docs/design.md#references) on TLB pressure). Each risk has a stable id, a
// one-line explanation and a suggestion the user can act on.
//
// Everything is computed from cached layouts and a walk of the type DAG,
// never from the typemap: a type with 10^12 entries is judged instantly.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_ANALYSIS_RISKS_H
#define DDTC_ANALYSIS_RISKS_H

#include "ddtc/IR/LibraryRules.h"
#include "ddtc/IR/Type.h"
#include "ddtc/Support/Machine.h"

#include <string>
#include <vector>

namespace ddtc {

struct Risk {
  std::string Id;         ///< "GL4", "GL1", "alignment-padding", ...
  std::string Message;    ///< one line, for people
  std::string Suggestion; ///< what to do about it
};

/// What the engine model (ddtc/Engine/MPIForm.h) advises handing the MPI
/// library: GL4's suggestion follows it, so that analyze never advises a
/// form modelled slower than the given one.
struct MPIFormAdvice {
  /// The library the advice is for ("mpich-4.0.2").
  std::string Engine;
  /// Empty: keep the description as given. Else the form to describe the
  /// type as, in the report's notation, and where it comes from
  /// ("canonical", "normal", "pieces", "list-pieces", "members").
  std::string FormText, Origin;
  /// Modelled MPI_Pack time of a large message, given / form; for a type
  /// the program only sends point to point (SendsOnly), the send's.
  double PackGain = 1;
  bool SendsOnly = false;
};

/// The risks of Given, whose normal form is Normal (spelled NormalText in
/// the report's notation), with the advice of the engine model, for the
/// library whose Rules the types' context follows.
std::vector<Risk> findRisks(const Type *Given, const Type *Normal,
                            const std::string &NormalText,
                            const MPIFormAdvice &Advice,
                            const LibraryRules &Rules);

} // namespace ddtc

#endif // DDTC_ANALYSIS_RISKS_H

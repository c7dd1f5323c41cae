//===- lib/Runtime/SendForms.cpp - Faster forms for MPI's own sends -------===//
#include "SendForms.h"

#include "ddtc/Engine/MPIForm.h"
#include "ddtc/MPI/TypeBuilder.h"
#include "ddtc/Passes/Normalizer.h"

namespace ddtc {

bool wantsSendForm(const Type *T) {
  return static_cast<uint64_t>(T->size()) >= MinSendFormBytes &&
         T->getLayout().Blocks.Count <= MaxSendFormBlocks;
}

SendForm buildSendForm(TypeContext &Ctx, const Type *T,
                       const std::vector<MPI_Datatype> &Predefined) {
  SendForm Out;
  Normalizer N(Ctx);
  YaksaModel Model;
  MPIFormOptions Sends;
  Sends.SendsOnly = true; // handed to MPI in point-to-point calls only
  MPIForm F = chooseMPIForm(T, getFormCandidates(Ctx, N, T), Model,
                            getDefaultEngineCosts(), Sends);
  if (F.isGiven())
    return Out; // no form is modelled clearly faster to send
  MpiBuilder Builder(Predefined);
  std::string Err;
  std::optional<Handle> Built = Builder.build(F.Chosen.T, Err);
  // A failure to build leaves the type as described; a predefined form is
  // sent as fast either way.
  if (!Built || !Built->owned())
    return Out;
  MPI_Datatype H = Built->release();
  if (PMPI_Type_commit(&H) != MPI_SUCCESS) {
    PMPI_Type_free(&H);
    return Out;
  }
  Out.Handle = H;
  Out.Origin = F.Chosen.Origin;
  return Out;
}

} // namespace ddtc

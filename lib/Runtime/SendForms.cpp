//===- lib/Runtime/SendForms.cpp - Faster forms for MPI's own sends -------===//
#include "SendForms.h"

#include "ddtc/Engine/MPIForm.h"
#include "ddtc/MPI/TypeBuilder.h"
#include "ddtc/Passes/Normalizer.h"

#include <cstring>
#include <vector>

namespace ddtc {

SendForm buildSendForm(TypeContext &Ctx, const Type *T,
                       std::span<const MPI_Datatype> Predefined) {
  SendForm Out;
  if (static_cast<uint64_t>(T->size()) < MinSendFormBytes) {
    Out.Reason = "less than " + std::to_string(MinSendFormBytes) +
                 " bytes: sent about as fast as described";
    return Out;
  }
  if (T->getLayout().Blocks.Count > MaxSendFormBlocks) {
    Out.Reason = "more than " + std::to_string(MaxSendFormBlocks) +
                 " blocks: no form computed at commit";
    return Out;
  }
  Normalizer N(Ctx);
  YaksaModel Model;
  MPIFormOptions Sends;
  Sends.SendsOnly = true; // handed to MPI in point-to-point calls only
  MPIForm F = chooseMPIForm(T, getFormCandidates(Ctx, N, T), Model,
                            getDefaultEngineCosts(), Sends);
  if (F.isGiven()) {
    Out.Reason = "no form is modelled faster for sends";
    return Out;
  }
  std::vector<MPI_Datatype> Handles(Predefined.begin(), Predefined.end());
  MpiBuilder Builder(Handles);
  std::string Err;
  std::optional<Handle> Built = Builder.build(F.Chosen.T, Err);
  if (!Built) {
    Out.Reason = "building the " + std::string(F.Chosen.Origin) +
                 " form failed: " + Err;
    return Out;
  }
  if (!Built->owned()) { // a predefined type: sent as fast either way
    Out.Reason = "the form is a predefined type";
    return Out;
  }
  MPI_Datatype H = Built->release();
  if (PMPI_Type_commit(&H) != MPI_SUCCESS) {
    PMPI_Type_free(&H);
    Out.Reason = "committing the form failed";
    return Out;
  }
  Out.Handle = H;
  Out.Origin = F.Chosen.Origin;
  return Out;
}

bool libraryIsMPICH() {
  char Version[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int Len = 0;
  if (PMPI_Get_library_version(Version, &Len) != MPI_SUCCESS)
    return false;
  return std::strstr(Version, "MPICH") != nullptr;
}

} // namespace ddtc

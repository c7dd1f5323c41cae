//===- lib/MPI/TypeBuilder.cpp - ddtc types as MPI handles ----------------===//
#include "ddtc/MPI/TypeBuilder.h"

#include "ddtc/IR/Predefined.h"
#include "ddtc/Support/Casting.h"

namespace ddtc {

//===----------------------------------------------------------------------===//
// Building a ddtc type with MPI calls
//===----------------------------------------------------------------------===//

namespace {

int mpiOrder(ArrayOrder O) {
  return O == ArrayOrder::C ? MPI_ORDER_C : MPI_ORDER_FORTRAN;
}

int mpiDistrib(int64_t D) {
  switch (static_cast<Distribution>(D)) {
  case Distribution::Block:
    return MPI_DISTRIBUTE_BLOCK;
  case Distribution::Cyclic:
    return MPI_DISTRIBUTE_CYCLIC;
  case Distribution::None:
    return MPI_DISTRIBUTE_NONE;
  }
  return -1;
}

} // namespace

std::optional<Handle> MpiBuilder::build(const Type *T, std::string &Err) {
  Built.clear();
  BuildOrder.clear();
  std::optional<MPI_Datatype> H = buildNode(T, Err);
  // The new type holds its own references to its operands.
  for (const Type *Node : BuildOrder)
    if (Node != T || !H)
      MPI_Type_free(&Built[Node]);
  Built.clear();
  BuildOrder.clear();
  if (!H)
    return std::nullopt;
  return Handle(*H, !isa<PredefinedType>(T));
}

std::optional<MPI_Datatype> MpiBuilder::buildNode(const Type *T,
                                                  std::string &Err) {
  if (auto *P = dyn_cast<PredefinedType>(T))
    return Predefined[static_cast<unsigned>(P->getId())];
  if (auto It = Built.find(T); It != Built.end())
    return It->second;

  std::vector<MPI_Datatype> OpHandles;
  for (const Type *Op : T->getOperands()) {
    std::optional<MPI_Datatype> H = buildNode(Op, Err);
    if (!H)
      return std::nullopt;
    OpHandles.push_back(*H);
  }

  MPI_Datatype New = MPI_DATATYPE_NULL;
  int Rc = MPI_SUCCESS;
  const char *Call = "";
  switch (T->getKind()) {
  case TypeKind::Predefined:
    break;
  case TypeKind::Contiguous:
    Call = "MPI_Type_contiguous_c";
    Rc = MPI_Type_contiguous_c(cast<ContiguousType>(T)->getCount(),
                               OpHandles[0], &New);
    break;
  case TypeKind::Vector: {
    auto *V = cast<VectorType>(T);
    Call = "MPI_Type_vector_c";
    Rc = MPI_Type_vector_c(V->getCount(), V->getBlockLength(), V->getStride(),
                           OpHandles[0], &New);
    break;
  }
  case TypeKind::HVector: {
    auto *V = cast<VectorType>(T);
    Call = "MPI_Type_create_hvector_c";
    Rc = MPI_Type_create_hvector_c(V->getCount(), V->getBlockLength(),
                                   V->getStride(), OpHandles[0], &New);
    break;
  }
  case TypeKind::Indexed:
  case TypeKind::HIndexed: {
    auto *I = cast<IndexedType>(T);
    std::vector<MPI_Count> Lengths = counts(I->getBlockLengths());
    std::vector<MPI_Count> Disps = counts(I->getDisplacements());
    MPI_Count N = static_cast<MPI_Count>(Lengths.size());
    if (I->isByteDisplacement()) {
      Call = "MPI_Type_create_hindexed_c";
      Rc = MPI_Type_create_hindexed_c(N, Lengths.data(), Disps.data(),
                                      OpHandles[0], &New);
    } else {
      Call = "MPI_Type_indexed_c";
      Rc = MPI_Type_indexed_c(N, Lengths.data(), Disps.data(), OpHandles[0],
                              &New);
    }
    break;
  }
  case TypeKind::IndexedBlock:
  case TypeKind::HIndexedBlock: {
    auto *I = cast<IndexedBlockType>(T);
    std::vector<MPI_Count> Disps = counts(I->getDisplacements());
    MPI_Count N = static_cast<MPI_Count>(Disps.size());
    if (I->isByteDisplacement()) {
      Call = "MPI_Type_create_hindexed_block_c";
      Rc = MPI_Type_create_hindexed_block_c(N, I->getBlockLength(),
                                            Disps.data(), OpHandles[0], &New);
    } else {
      Call = "MPI_Type_create_indexed_block_c";
      Rc = MPI_Type_create_indexed_block_c(N, I->getBlockLength(),
                                           Disps.data(), OpHandles[0], &New);
    }
    break;
  }
  case TypeKind::Struct: {
    auto *S = cast<StructType>(T);
    std::vector<MPI_Count> Lengths = counts(S->getBlockLengths());
    std::vector<MPI_Count> Disps = counts(S->getDisplacements());
    Call = "MPI_Type_create_struct_c";
    Rc = MPI_Type_create_struct_c(static_cast<MPI_Count>(Lengths.size()),
                                  Lengths.data(), Disps.data(),
                                  OpHandles.data(), &New);
    break;
  }
  case TypeKind::Resized: {
    auto *R = cast<ResizedType>(T);
    Call = "MPI_Type_create_resized_c";
    Rc = MPI_Type_create_resized_c(OpHandles[0], R->getNewLb(),
                                   R->getNewExtent(), &New);
    break;
  }
  case TypeKind::Subarray: {
    auto *S = cast<SubarrayType>(T);
    std::vector<MPI_Count> Sizes = counts(S->getSizes());
    std::vector<MPI_Count> Subsizes = counts(S->getSubsizes());
    std::vector<MPI_Count> Starts = counts(S->getStarts());
    Call = "MPI_Type_create_subarray_c";
    Rc = MPI_Type_create_subarray_c(static_cast<int>(Sizes.size()),
                                    Sizes.data(), Subsizes.data(),
                                    Starts.data(), mpiOrder(S->getOrder()),
                                    OpHandles[0], &New);
    break;
  }
  case TypeKind::Darray: {
    auto *D = cast<DarrayType>(T);
    std::vector<MPI_Count> Gsizes = counts(D->getGsizes());
    size_t N = Gsizes.size();
    std::vector<int> Distribs(N), Dargs(N), Psizes(N);
    int Size = 0, Rank = 0;
    bool Fits = toInt(D->getCommSize(), Size) && toInt(D->getRank(), Rank);
    for (size_t I = 0; I < N; ++I) {
      Distribs[I] = mpiDistrib(D->getDistribs()[I]);
      int64_t Darg = D->getDargs()[I];
      if (Darg == DefaultDarg)
        Dargs[I] = MPI_DISTRIBUTE_DFLT_DARG;
      else
        Fits = Fits && toInt(Darg, Dargs[I]);
      Fits = Fits && toInt(D->getPsizes()[I], Psizes[I]);
    }
    if (!Fits) {
      Err = "MPI_Type_create_darray_c: size, rank, dargs or psizes do not "
            "fit an int";
      return std::nullopt;
    }
    Call = "MPI_Type_create_darray_c";
    Rc = MPI_Type_create_darray_c(Size, Rank, static_cast<int>(N),
                                  Gsizes.data(), Distribs.data(),
                                  Dargs.data(), Psizes.data(),
                                  mpiOrder(D->getOrder()), OpHandles[0], &New);
    break;
  }
  case TypeKind::Dup:
    Call = "MPI_Type_dup";
    Rc = MPI_Type_dup(OpHandles[0], &New);
    break;
  }
  if (Rc != MPI_SUCCESS)
    return fail(Err, Call, Rc);
  Built.emplace(T, New);
  BuildOrder.push_back(T);
  return New;
}

bool mayCrashYaksaPack(const Type *T) {
  if (auto *S = dyn_cast<StructType>(T))
    for (size_t I = 0; I < S->getTypes().size(); ++I)
      if (S->getBlockLengths()[I] != 0 && S->getTypes()[I]->size() == 0)
        return true;
  if (T->getExpansion() && mayCrashYaksaPack(T->getExpansion()))
    return true;
  for (const Type *Op : T->getOperands())
    if (mayCrashYaksaPack(Op))
      return true;
  return false;
}

} // namespace ddtc

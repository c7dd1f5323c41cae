//===- lib/MPI/TypeBuilder.cpp - ddtc types as MPI handles ----------------===//
#include "ddtc/MPI/TypeBuilder.h"

#include "ddtc/IR/Predefined.h"
#include "ddtc/Support/Casting.h"

#include <string>

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

// The argument types of the constructor family in use (MPISupport.h): a
// count is a count, a blocklength, an element stride or displacement, or an
// array size; a displacement is in bytes (also resized's lb and extent).
#if DDTC_MPI_LARGE_COUNT
using MpiCount = MPI_Count;
using MpiDisp = MPI_Count;
#else
using MpiCount = int;
using MpiDisp = MPI_Aint;
#endif

/// Converts the IR's 64-bit arguments to those types, and notes the first
/// one that does not fit its parameter: the constructor is then not called,
/// so that no value is silently truncated. Only ints can be too narrow.
class ArgConverter {
public:
  MpiCount count(int64_t V, const char *Field) {
    if (!DDTC_MPI_LARGE_COUNT)
      check(V, Field);
    return static_cast<MpiCount>(V);
  }
  std::vector<MpiCount> counts(std::span<const int64_t> L, const char *Field) {
    std::vector<MpiCount> V;
    for (int64_t X : L)
      V.push_back(count(X, Field));
    return V;
  }
  /// The number of entries of the lists (the count of the indexed kinds
  /// and struct).
  MpiCount length(size_t N) { return count(static_cast<int64_t>(N), "count"); }
  static std::vector<MpiDisp> disps(std::span<const int64_t> L) {
    return std::vector<MpiDisp>(L.begin(), L.end());
  }
  /// An argument that is an int in both families (darray's size, rank,
  /// dargs and psizes, the ndims of subarray and darray).
  int integer(int64_t V, const char *Field) {
    check(V, Field);
    return static_cast<int>(V);
  }

  /// The message for the first argument that does not fit; empty if all do.
  const std::string &overflow() const { return Overflow; }

private:
  void check(int64_t V, const char *Field) {
    if (!fitsInt(V) && Overflow.empty())
      Overflow = std::string(Field) + " " + std::to_string(V) +
                 " does not fit an int" +
                 (DDTC_MPI_LARGE_COUNT
                      ? ""
                      : " (MPI before 4.0 has no large-count constructors)");
  }

  std::string Overflow;
};

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

  // Each case converts its arguments with A, then calls the constructor only
  // if they all fit.
  ArgConverter A;
  MPI_Datatype New = MPI_DATATYPE_NULL;
  int Rc = MPI_SUCCESS;
  const char *Call = "";
  switch (T->getKind()) {
  case TypeKind::Predefined:
    break;
  case TypeKind::Contiguous: {
    Call = DDTC_MPI_COUNT_NAME(MPI_Type_contiguous);
    MpiCount Count = A.count(cast<ContiguousType>(T)->getCount(), "count");
    if (A.overflow().empty())
      Rc = DDTC_MPI_COUNT_FN(MPI_Type_contiguous)(Count, OpHandles[0], &New);
    break;
  }
  case TypeKind::Vector:
  case TypeKind::HVector: {
    auto *V = cast<VectorType>(T);
    MpiCount Count = A.count(V->getCount(), "count");
    MpiCount Length = A.count(V->getBlockLength(), "blocklength");
    if (V->isByteStride()) {
      Call = DDTC_MPI_COUNT_NAME(MPI_Type_create_hvector);
      MpiDisp Stride = V->getStride();
      if (A.overflow().empty())
        Rc = DDTC_MPI_COUNT_FN(MPI_Type_create_hvector)(Count, Length, Stride,
                                                        OpHandles[0], &New);
    } else {
      Call = DDTC_MPI_COUNT_NAME(MPI_Type_vector);
      MpiCount Stride = A.count(V->getStride(), "stride");
      if (A.overflow().empty())
        Rc = DDTC_MPI_COUNT_FN(MPI_Type_vector)(Count, Length, Stride,
                                                OpHandles[0], &New);
    }
    break;
  }
  case TypeKind::Indexed:
  case TypeKind::HIndexed: {
    auto *I = cast<IndexedType>(T);
    std::vector<MpiCount> Lengths =
        A.counts(I->getBlockLengths(), "blocklength");
    MpiCount N = A.length(Lengths.size());
    if (I->isByteDisplacement()) {
      Call = DDTC_MPI_COUNT_NAME(MPI_Type_create_hindexed);
      std::vector<MpiDisp> Disps = A.disps(I->getDisplacements());
      if (A.overflow().empty())
        Rc = DDTC_MPI_COUNT_FN(MPI_Type_create_hindexed)(
            N, Lengths.data(), Disps.data(), OpHandles[0], &New);
    } else {
      Call = DDTC_MPI_COUNT_NAME(MPI_Type_indexed);
      std::vector<MpiCount> Disps =
          A.counts(I->getDisplacements(), "displacement");
      if (A.overflow().empty())
        Rc = DDTC_MPI_COUNT_FN(MPI_Type_indexed)(
            N, Lengths.data(), Disps.data(), OpHandles[0], &New);
    }
    break;
  }
  case TypeKind::IndexedBlock:
  case TypeKind::HIndexedBlock: {
    auto *I = cast<IndexedBlockType>(T);
    MpiCount Length = A.count(I->getBlockLength(), "blocklength");
    MpiCount N = A.length(I->getDisplacements().size());
    if (I->isByteDisplacement()) {
      Call = DDTC_MPI_COUNT_NAME(MPI_Type_create_hindexed_block);
      std::vector<MpiDisp> Disps = A.disps(I->getDisplacements());
      if (A.overflow().empty())
        Rc = DDTC_MPI_COUNT_FN(MPI_Type_create_hindexed_block)(
            N, Length, Disps.data(), OpHandles[0], &New);
    } else {
      Call = DDTC_MPI_COUNT_NAME(MPI_Type_create_indexed_block);
      std::vector<MpiCount> Disps =
          A.counts(I->getDisplacements(), "displacement");
      if (A.overflow().empty())
        Rc = DDTC_MPI_COUNT_FN(MPI_Type_create_indexed_block)(
            N, Length, Disps.data(), OpHandles[0], &New);
    }
    break;
  }
  case TypeKind::Struct: {
    auto *S = cast<StructType>(T);
    Call = DDTC_MPI_COUNT_NAME(MPI_Type_create_struct);
    std::vector<MpiCount> Lengths =
        A.counts(S->getBlockLengths(), "blocklength");
    std::vector<MpiDisp> Disps = A.disps(S->getDisplacements());
    MpiCount N = A.length(Lengths.size());
    if (A.overflow().empty())
      Rc = DDTC_MPI_COUNT_FN(MPI_Type_create_struct)(
          N, Lengths.data(), Disps.data(), OpHandles.data(), &New);
    break;
  }
  case TypeKind::Resized: {
    auto *R = cast<ResizedType>(T);
    Call = DDTC_MPI_COUNT_NAME(MPI_Type_create_resized);
    Rc = DDTC_MPI_COUNT_FN(MPI_Type_create_resized)(
        OpHandles[0], MpiDisp(R->getNewLb()), MpiDisp(R->getNewExtent()), &New);
    break;
  }
  case TypeKind::Subarray: {
    auto *S = cast<SubarrayType>(T);
    Call = DDTC_MPI_COUNT_NAME(MPI_Type_create_subarray);
    std::vector<MpiCount> Sizes = A.counts(S->getSizes(), "size");
    std::vector<MpiCount> Subsizes = A.counts(S->getSubsizes(), "subsize");
    std::vector<MpiCount> Starts = A.counts(S->getStarts(), "start");
    int NDims = A.integer(static_cast<int64_t>(Sizes.size()), "ndims");
    if (A.overflow().empty())
      Rc = DDTC_MPI_COUNT_FN(MPI_Type_create_subarray)(
          NDims, Sizes.data(), Subsizes.data(), Starts.data(),
          mpiOrder(S->getOrder()), OpHandles[0], &New);
    break;
  }
  case TypeKind::Darray: {
    auto *D = cast<DarrayType>(T);
    Call = DDTC_MPI_COUNT_NAME(MPI_Type_create_darray);
    std::vector<MpiCount> Gsizes = A.counts(D->getGsizes(), "gsize");
    size_t N = Gsizes.size();
    std::vector<int> Distribs(N), Dargs(N), Psizes(N);
    int Size = A.integer(D->getCommSize(), "size");
    int Rank = A.integer(D->getRank(), "rank");
    int NDims = A.integer(static_cast<int64_t>(N), "ndims");
    for (size_t I = 0; I < N; ++I) {
      Distribs[I] = mpiDistrib(D->getDistribs()[I]);
      int64_t Darg = D->getDargs()[I];
      Dargs[I] = Darg == DefaultDarg ? MPI_DISTRIBUTE_DFLT_DARG
                                     : A.integer(Darg, "darg");
      Psizes[I] = A.integer(D->getPsizes()[I], "psize");
    }
    if (A.overflow().empty())
      Rc = DDTC_MPI_COUNT_FN(MPI_Type_create_darray)(
          Size, Rank, NDims, Gsizes.data(), Distribs.data(), Dargs.data(),
          Psizes.data(), mpiOrder(D->getOrder()), OpHandles[0], &New);
    break;
  }
  case TypeKind::Dup:
    Call = "MPI_Type_dup";
    Rc = MPI_Type_dup(OpHandles[0], &New);
    break;
  }
  if (!A.overflow().empty()) {
    Err = std::string(Call) + ": " + A.overflow();
    return std::nullopt;
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

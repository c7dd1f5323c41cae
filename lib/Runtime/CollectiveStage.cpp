//===- lib/Runtime/CollectiveStage.cpp - The packed bytes of one collective ===//
#include "CollectiveStage.h"

#include "BufferPool.h"
#include "RuntimeState.h"

#include <cstdlib>

namespace ddtc {

CollectiveType describeCollectiveType(MPI_Datatype T) {
  // A type that moves nothing may be given as a null handle (a zero count
  // of a v- or w-collective), which MPI's queries refuse.
  if (T == MPI_DATATYPE_NULL)
    return CollectiveType{};
  RuntimeState &R = runtime();
  BindingRef Held;
  Binding *B;
  if (R.ConcurrentCalls) {
    Held = R.Bindings.lookup(T);
    B = Held.get();
  } else {
    B = R.Bindings.find(T);
  }
  // Every member given, in place: each collective call describes its
  // types, and GCC zeroes a description built member by member with a
  // `rep stos`, and copies a layout built apart through the stack, whose
  // reloads wait for the stores before them, each costing more than the
  // rest of this function.
  if (B) {
    bool One = B->SinglePredefined != MPI_DATATYPE_NULL;
    return CollectiveType{T,
                          B,
                          std::move(Held),
                          getPackedLayout(B, T),
                          One ? B->SinglePredefined : MPI_PACKED,
                          One ? B->ElementSize : 1,
                          One};
  }
  CollectiveType C{T,          nullptr, nullptr, queryPackedLayout(T),
                   MPI_PACKED, 1,       false};
  if (C.L.Contiguous && T != MPI_PACKED) {
    // A predefined type but a pair (MPI_DOUBLE_INT: not contiguous).
    C.Element = T;
    C.Unit = C.L.Size;
    C.OneElement = true;
  }
  return C;
}

bool leavesAsWritten(const CollectiveType &C, MPI_Count Count) {
  if (Count == 0 || C.L.Size == 0)
    return true;
  if (!C.OneElement)
    return false;
  if (!isPackable(C))
    return true;
  return hasLongBlocks(C) || runtime().collectiveAsFast(*C.B, C.bytes(Count));
}

bool isPackable(const CollectiveType &C) {
  return C.OneElement && C.L.Size > 0 && C.B && C.B->isBound() && !C.dense();
}

bool hasLongBlocks(const CollectiveType &C) {
  uint64_t Long = runtime().CollectiveBlocks;
  return isPackable(C) && Long && C.B->MeanBlock >= Long;
}

bool collectivesActive() {
  RuntimeState &R = runtime();
  if (!R.Active.load(std::memory_order_relaxed))
    return false;
  if (KernelCompiler::get().pending())
    R.rebindCompiled();
  return true;
}

bool isIntercommunicator(MPI_Comm Comm) {
  int Inter = 0;
  PMPI_Comm_test_inter(Comm, &Inter);
  return Inter;
}

void noteCollectiveUse(const CollectiveCall &How, const CollectiveType &C,
                       uint64_t Bytes, bool Left) {
  if (!C.B)
    return;
  bool Passed = Left || !C.B->isBound();
  bool Long = Passed && hasLongBlocks(C);
  bool AsFast = Passed && !Long && isPackable(C) && C.B->MPIAsFast;
  if (How.persistent())
    How.Init->Uses.push_back({C.ref(), Bytes, Passed, Long, AsFast});
  else
    countCollectiveUse(*C.B, Bytes, Passed, Long, AsFast);
}

void countCollectiveUse(const Binding &B, uint64_t Bytes, bool Left,
                        bool LongBlocks, bool AsFast) {
  RuntimeState &R = runtime();
  if (!Left) {
    R.noteSubstituted(B, Bytes, /*MayRebind=*/false);
    return;
  }
  R.notePassed(B);
  if (LongBlocks)
    R.noteCollectiveLong(B);
  if (AsFast)
    R.noteAsFast(B);
}

CollectiveStage::~CollectiveStage() {
  if (Pooled)
    BufferPool::get().release(Buffer, Bytes);
  else
    std::free(Buffer);
  for (MPI_Datatype &T : Kept)
    PMPI_Type_free(&T);
}

bool CollectiveStage::reserve(size_t N) {
  Bytes = N;
  if (N == 0)
    return true;
  Pooled = N <= BufferPool::get().maxBytes();
  Buffer = static_cast<char *>(Pooled ? BufferPool::get().acquire(N)
                                      : std::malloc(N));
  return Buffer != nullptr;
}

int CollectiveStage::pack(const CollectiveType &C, const void *Buf,
                          MPI_Count Count, size_t Offset) {
  if (Count == 0)
    return MPI_SUCCESS;
  if (Persistent) {
    Packs.push_back({C.held(), const_cast<void *>(Buf), Count, Offset});
    return MPI_SUCCESS;
  }
  return packAny(C.B, C.T, Buf, Count, Buffer + Offset, Comm);
}

int CollectiveStage::packRecorded() {
  int Rc = MPI_SUCCESS;
  for (const Block &P : Packs)
    if (Rc == MPI_SUCCESS)
      Rc = packAny(P.C.B, P.C.T, P.Buf, P.Count, Buffer + P.Offset, Comm);
  return Rc;
}

void CollectiveStage::unpackLater(const CollectiveType &C, void *Buf,
                                  MPI_Count Count, size_t Offset) {
  if (Count > 0)
    Unpacks.push_back({C.held(), Buf, Count, Offset});
}

int CollectiveStage::finish() {
  int Rc = MPI_SUCCESS;
  for (const Block &U : Unpacks)
    if (Rc == MPI_SUCCESS)
      Rc = unpackAny(U.C.B, U.C.T, Buffer + U.Offset,
                     static_cast<MPI_Count>(U.C.bytes(U.Count)), U.Buf, U.Count,
                     Comm);
  if (!Persistent)
    Unpacks.clear();
  return Rc;
}

void CollectiveStage::keepTypes() {
  for (std::vector<Block> *Blocks : {&Packs, &Unpacks})
    for (Block &U : *Blocks) {
      // A kernel or a plain copy needs no handle; a predefined type is
      // never freed.
      bool UsesHandle = U.C.B && !U.C.B->isBound() && !U.C.L.Contiguous;
      if (!UsesHandle)
        continue;
      MPI_Datatype Dup;
      if (PMPI_Type_dup(U.C.T, &Dup) != MPI_SUCCESS)
        continue;
      Kept.push_back(Dup);
      U.C.T = Dup;
    }
}

void addPendingStage(MPI_Request Request,
                     std::shared_ptr<CollectiveStage> Stage) {
  Pending P;
  P.OwnsBuffer = false;
  P.Then = std::move(Stage);
  runtime().Requests.add(Request, std::move(P));
}

} // namespace ddtc

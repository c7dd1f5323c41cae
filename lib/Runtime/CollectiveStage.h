//===- lib/Runtime/CollectiveStage.h - The packed bytes of one collective -*- C++ -*-===//
//
// A substituted collective moves packed bytes on every rank (Collectives.cpp).
// A stage holds what one call needs around the MPI call on those bytes: the
// staging buffer, the blocks packed into it before the call, the blocks to
// unpack from it after, and the byte counts, displacements and types handed
// to MPI -- which, for a non-blocking call, MPI reads until the call
// completes, so they live in the stage and the stage lives in the pending
// request (PendingRequests.h) until then.
//
// A side of the call whose type is dense (its packed bytes are its memory)
// needs no staging: MPI is given the program's buffer itself.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_LIB_RUNTIME_COLLECTIVESTAGE_H
#define DDTC_LIB_RUNTIME_COLLECTIVESTAGE_H

#include "Packing.h"
#include "PendingRequests.h"
#include "TypeBinding.h"

#include "ddtc/MPI/MPISupport.h"

#include <mpi.h>

#include <cstddef>
#include <memory>
#include <vector>

namespace ddtc {

/// The displacement type of the family's v- and w-collectives: MPI_Aint in
/// the large-count (`_c`) functions, int in the classic ones.
#if DDTC_MPI_LARGE_COUNT
using MPIDispl = MPI_Aint;
#else
using MPIDispl = int;
#endif

/// What a collective knows of one datatype it is given.
struct CollectiveType {
  MPI_Datatype T = MPI_DATATYPE_NULL;
  BindingRef B; ///< null for predefined types
  PackedLayout L;

  /// Count instances are their own packed bytes, one after the other, at
  /// buffer + Lb.
  bool dense() const {
    return L.Contiguous && L.Extent == static_cast<int64_t>(L.Size);
  }
  uint64_t bytes(MPI_Count Count) const {
    return static_cast<uint64_t>(Count) * L.Size;
  }
};

/// The binding and layout of T.
CollectiveType describeCollectiveType(MPI_Datatype T);

/// Whether collectives on Comm are substituted: substitution is on (the
/// same on every rank) and Comm is an intracommunicator.
bool substitutesCollective(MPI_Comm Comm);

/// Counts the use of a type in a collective call moving Bytes of it,
/// substituted or (Left, or no kernel) left to MPI.
void noteCollectiveUse(const CollectiveType &C, uint64_t Bytes,
                       bool Left = false);

class CollectiveStage : public RequestCompletion {
public:
  explicit CollectiveStage(MPI_Comm Comm) : Comm(Comm) {}
  ~CollectiveStage() override;
  CollectiveStage(const CollectiveStage &) = delete;
  CollectiveStage &operator=(const CollectiveStage &) = delete;

  /// Makes the staging buffer Bytes long: from the pool, or from the heap
  /// where the pool's bound is below (a v- or w-collective, whose sizes
  /// differ between ranks, cannot leave the call to MPI on one rank
  /// alone). False if there is no memory.
  bool reserve(size_t Bytes);
  char *data() const { return Buffer; }

  /// Packs Count instances of C at Buf to Offset of the staging buffer.
  int pack(const CollectiveType &C, const void *Buf, MPI_Count Count,
           size_t Offset);
  /// Records Count instances of C at Buf, to be unpacked from Offset of
  /// the staging buffer when the call completes.
  void unpackLater(const CollectiveType &C, void *Buf, MPI_Count Count,
                   size_t Offset);
  /// Runs the recorded unpacks (once).
  int finish();
  /// A non-blocking call completed: unpacks unless it failed. The buffer
  /// returns to the pool when the last copy of the request's entry goes.
  void complete(bool Succeeded) override {
    if (Succeeded)
      finish();
  }
  /// Whether completion has anything to do: a buffer to return or blocks to
  /// unpack.
  bool needsCompletion() const { return Buffer || !Unpacks.empty(); }
  /// Keeps the types of the recorded unpacks valid until finish(): the
  /// program may free a type while a non-blocking call on it is in flight
  /// (MPI-4 §5.1.7), and an unpack with MPI's own MPI_Unpack needs it.
  void keepTypes();

  /// Byte counts, displacements and types handed to MPI, per side
  /// (0: send, 1: receive); they must outlive a non-blocking call.
  std::vector<MPICount> Counts[2];
  std::vector<MPIDispl> Displs[2];
  std::vector<MPI_Datatype> Types[2];
  std::vector<MPI_Aint> AintDispls[2];

private:
  struct Unpack {
    CollectiveType C;
    void *Buf;
    MPI_Count Count;
    size_t Offset;
  };
  MPI_Comm Comm;
  char *Buffer = nullptr;
  size_t Bytes = 0;
  bool Pooled = false;
  std::vector<Unpack> Unpacks;
  std::vector<MPI_Datatype> Kept;
};

/// Where a receive side's staging starts after SendBytes of a send side's
/// in the same stage: apart from it even where the send side stages
/// nothing, since Open MPI's non-blocking collectives take a send buffer
/// equal to the receive buffer for MPI_IN_PLACE (libnbc's NBC_IN_PLACE),
/// and 64-byte aligned as the pool's buffers are.
inline size_t receiveStart(size_t SendBytes) {
  return (SendBytes + 64) & ~size_t(63);
}

/// Makes a collective call on packed buffers: Call(Request) makes the
/// blocking call when Request is null, else starts the non-blocking one in
/// *Request. A blocking call unpacks before it returns; a non-blocking one
/// leaves the stage to the pending request, which unpacks when any Wait or
/// Test completes it.
template <typename CallFn>
int runStaged(std::unique_ptr<CollectiveStage> Stage, MPI_Request *Request,
              CallFn Call);

/// Hands a started non-blocking call's stage to the pending requests.
void addPendingStage(MPI_Request Request,
                     std::unique_ptr<CollectiveStage> Stage);

template <typename CallFn>
int runStaged(std::unique_ptr<CollectiveStage> Stage, MPI_Request *Request,
              CallFn Call) {
  if (!Request) {
    int Rc = Call(nullptr);
    return Rc == MPI_SUCCESS ? Stage->finish() : Rc;
  }
  Stage->keepTypes();
  int Rc = Call(Request);
  if (Rc == MPI_SUCCESS && Stage->needsCompletion())
    addPendingStage(*Request, std::move(Stage));
  return Rc;
}

} // namespace ddtc

#endif // DDTC_LIB_RUNTIME_COLLECTIVESTAGE_H

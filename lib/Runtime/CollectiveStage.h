//===- lib/Runtime/CollectiveStage.h - The packed bytes of one collective -*- C++ -*-===//
//
// A substituted collective moves packed data (Collectives.cpp).
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
// A persistent collective (MPI 4's _init forms) is initialized once and
// started many times: its stage lives as long as the request, records its
// packs instead of making them, and makes them at each MPI_Start; each
// completion unpacks (PersistentCollectives.h).
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_LIB_RUNTIME_COLLECTIVESTAGE_H
#define DDTC_LIB_RUNTIME_COLLECTIVESTAGE_H

#include "Packing.h"
#include "PendingRequests.h"
#include "RuntimeState.h"
#include "TypeBinding.h"

#include "ddtc/MPI/MPISupport.h"

#include <mpi.h>

#include <cstddef>
#include <memory>
#include <type_traits>
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
///
/// Every collective call describes its types, most of them to hand the
/// call to MPI as written, so the binding is held by plain pointer where
/// that is safe: below MPI_THREAD_MULTIPLE no other thread frees a type
/// during the call, and the binding table frees none of its own while a
/// collective runs (rebinds happen at a collective's entry, not in it;
/// RuntimeState::noteSubstituted). Under MPI_THREAD_MULTIPLE, and wherever
/// a description outlives the call (a non-blocking or persistent call's
/// stage, hold()), it holds a reference as well: a reference costs two
/// locked operations, which on x86 wait for every store before them to
/// drain, the call's copies of the blocks included.
struct CollectiveType {
  MPI_Datatype T = MPI_DATATYPE_NULL;
  Binding *B = nullptr; ///< null for predefined types
  BindingRef Held;      ///< B, where a reference is needed
  PackedLayout L;

  /// A reference to B, taken if none is held.
  BindingRef ref() const {
    return Held ? Held : B ? B->shared_from_this() : nullptr;
  }
  /// This description, holding its binding.
  CollectiveType held() const {
    CollectiveType C = *this;
    C.Held = ref();
    return C;
  }

  /// Count instances are their own packed bytes, one after the other, at
  /// buffer + Lb.
  bool dense() const {
    return L.Contiguous && L.Extent == static_cast<int64_t>(L.Size);
  }
  uint64_t bytes(MPI_Count Count) const {
    return static_cast<uint64_t>(Count) * L.Size;
  }

  /// What MPI is given for T's packed bytes. Where every element of T's
  /// type signature is one basic predefined type (OneElement), it is that
  /// type, Unit bytes each: packed, Count instances are bytes(Count) / Unit
  /// of it, with T's own type signature, so each rank may hand MPI either
  /// those elements or the program's buffer and type, whatever the other
  /// ranks do (type matching is by signature, MPI-4 §3.3.1 and §6.1).
  /// Otherwise MPI_PACKED bytes, which match only as every rank moves
  /// packed bytes.
  MPI_Datatype Element = MPI_PACKED;
  uint64_t Unit = 1;
  bool OneElement = false;
  MPICount elements(uint64_t Bytes) const {
    return static_cast<MPICount>(Bytes / Unit);
  }
};

/// The binding and layout of T.
CollectiveType describeCollectiveType(MPI_Datatype T);

/// Whether this rank's Count instances of C are best handed to MPI as the
/// program gave them rather than packed (docs/runtime.md, "Collectives"):
/// nothing moves; or C is of one element and dense (its memory is its
/// packed bytes), has no kernel (MPI would pack it anyway), has blocks
/// that average DDTC_RT_COLLECTIVE_BLOCKS or more (MPI moves them as fast
/// as a packed copy, which adds a pack and an unpack), or is a type MPI's
/// engine packs as fast as its kernel in a block MPI sends eagerly
/// (RuntimeState::collectiveAsFast).
bool leavesAsWritten(const CollectiveType &C, MPI_Count Count);
/// Whether C is of one element, bound and not dense: packed unless a rule
/// leaves it to MPI.
bool isPackable(const CollectiveType &C);
/// Whether C is left to MPI for its long blocks (the report counts such
/// calls).
bool hasLongBlocks(const CollectiveType &C);

/// Whether collectives are substituted at all: substitution is on (the
/// same on every rank). Binds again the types whose compiled kernels
/// arrived, before the call describes its types (CollectiveType).
bool collectivesActive();
/// Whether Comm is an intercommunicator, whose collectives pass through.
bool isIntercommunicator(MPI_Comm Comm);
/// Whether collectives on Comm are substituted: both of the above.
inline bool substitutesCollective(MPI_Comm Comm) {
  return collectivesActive() && !isIntercommunicator(Comm);
}

/// One use of a type by a collective call, as the report counts it.
struct CollectiveUse {
  BindingRef B;
  uint64_t Bytes = 0;
  bool Left = false;
  bool LongBlocks = false; ///< left for its long blocks
  bool AsFast = false;     ///< left as MPI packs its type as fast
};

/// Counts a use of B's type moving Bytes, substituted or (Left) left to
/// MPI, for its long blocks, as MPI packs it as fast, or neither. By reference:
/// every collective call counts its types, and a copy of a BindingRef costs two
/// atomic operations.
void countCollectiveUse(const Binding &B, uint64_t Bytes, bool Left,
                        bool LongBlocks, bool AsFast);

class CollectiveStage;

/// What a persistent collective keeps from its initialization to
/// MPI_Request_free: the stage each start packs into and unpacks from
/// (null where MPI was given the program's own types) and the uses of
/// types each start counts.
struct PersistentCollective {
  SubstitutedCall Call{};
  std::shared_ptr<CollectiveStage> Stage;
  std::vector<CollectiveUse> Uses;
};

/// How a collective is called: blocking, started (the I-forms), or
/// initialized for later starts (MPI 4's persistent _init forms).
struct CollectiveCall {
  MPI_Request *Request = nullptr;       ///< null: the blocking call
  MPI_Info Info = MPI_INFO_NULL;        ///< the persistent call's
  PersistentCollective *Init = nullptr; ///< set: the persistent call
  bool persistent() const { return Init != nullptr; }
};

/// Counts the use of a type in a collective call moving Bytes of it,
/// substituted or (Left, or no kernel) left to MPI. The initialization of
/// a persistent collective records the use instead: each of its starts
/// counts it.
void noteCollectiveUse(const CollectiveCall &How, const CollectiveType &C,
                       uint64_t Bytes, bool Left = false);

/// MPI's three forms of one collective, whose arguments are Args and then
/// a request (the non-blocking form) or an info and a request (the
/// persistent form; null where the library has no MPI 4 calls).
template <typename... Args> struct CollectiveFns {
  int (*Blocking)(Args...);
  int (*Started)(Args..., MPI_Request *);
  int (*Initialized)(Args..., MPI_Info, MPI_Request *);
};

/// Args are those of the blocking form; the other two are checked to match.
template <typename... Args>
constexpr CollectiveFns<Args...>
collectiveFns(int (*Blocking)(Args...),
              std::type_identity_t<int (*)(Args..., MPI_Request *)> Started,
              std::type_identity_t<int (*)(Args..., MPI_Info, MPI_Request *)>
                  Initialized) {
  return {Blocking, Started, Initialized};
}

/// MPI's form of Fns that How asks for, on Vals.
template <typename... Args, typename... Vals>
int callCollective(const CollectiveCall &How, const CollectiveFns<Args...> &Fns,
                   Vals... V) {
  if (How.persistent())
    return Fns.Initialized(V..., How.Info, How.Request);
  if (How.Request)
    return Fns.Started(V..., How.Request);
  return Fns.Blocking(V...);
}

/// A library's persistent form of a collective F, or null before MPI 4
/// (whose _init wrappers are then not built).
#if DDTC_MPI_4_CALLS
#define DDTC_MPI_INIT_FN(F) F##_init
#if DDTC_MPI_LARGE_COUNT
#define DDTC_MPI_COUNT_INIT_FN(F) F##_init_c
#else
#define DDTC_MPI_COUNT_INIT_FN(F) F##_init
#endif
#else
#define DDTC_MPI_INIT_FN(F) nullptr
#define DDTC_MPI_COUNT_INIT_FN(F) nullptr
#endif

/// The three forms of MPI collective F (IF its non-blocking form) as the
/// program calls them, and in the count type of the family's packed calls.
#define DDTC_COLLECTIVE_FNS(F, IF) collectiveFns(F, IF, DDTC_MPI_INIT_FN(F))

/// The displacements that go with counts of CountT: int with int counts,
/// MPI_Aint with MPI 4's MPI_Count ones (the `_c` functions).
template <typename CountT>
using DisplOf = std::conditional_t<std::is_same_v<CountT, int>, int, MPI_Aint>;

/// Of two sets of forms, those of the int functions or of their `_c`
/// (MPI_Count) siblings, the ones whose counts are CountT.
template <typename CountT, typename IntFns, typename LargeFns>
constexpr auto formsFor(IntFns Int, [[maybe_unused]] LargeFns Large) {
  if constexpr (std::is_same_v<CountT, int>)
    return Int;
  else
    return Large;
}

/// The forms of collective F the program called with counts of CountT:
/// F's own, or (MPI_Count) F_c's, where the library has them.
#if DDTC_MPI_LARGE_COUNT
#if DDTC_MPI_4_CALLS
#define DDTC_MPI_INIT_C_FN(F) F##_init_c
#else
#define DDTC_MPI_INIT_C_FN(F) nullptr
#endif
#define DDTC_COLLECTIVE_FNS_OF(CountT, F, IF)                                  \
  formsFor<CountT>(DDTC_COLLECTIVE_FNS(F, IF),                                 \
                   collectiveFns(F##_c, IF##_c, DDTC_MPI_INIT_C_FN(F)))
#else
#define DDTC_COLLECTIVE_FNS_OF(CountT, F, IF) DDTC_COLLECTIVE_FNS(F, IF)
#endif
#define DDTC_PACKED_COLLECTIVE_FNS(F, IF)                                      \
  collectiveFns(DDTC_MPI_COUNT_FN(F), DDTC_MPI_COUNT_FN(IF),                   \
                DDTC_MPI_COUNT_INIT_FN(F))

class CollectiveStage : public RequestCompletion {
public:
  /// Persistent: packs are recorded and made at each start.
  explicit CollectiveStage(MPI_Comm Comm, bool Persistent = false)
      : Comm(Comm), Persistent(Persistent) {}
  ~CollectiveStage() override;
  CollectiveStage(const CollectiveStage &) = delete;
  CollectiveStage &operator=(const CollectiveStage &) = delete;

  /// Makes the staging buffer Bytes long: from the pool, or from the heap
  /// where the pool's bound is below (a v- or w-collective, whose sizes
  /// differ between ranks, cannot leave the call to MPI on one rank
  /// alone). False if there is no memory.
  bool reserve(size_t Bytes);
  char *data() const { return Buffer; }

  /// Packs Count instances of C at Buf to Offset of the staging buffer
  /// (a persistent stage: records the pack for each start).
  int pack(const CollectiveType &C, const void *Buf, MPI_Count Count,
           size_t Offset);
  /// A persistent stage's start: makes the recorded packs.
  int packRecorded();
  /// Records Count instances of C at Buf, to be unpacked from Offset of
  /// the staging buffer when the call completes.
  void unpackLater(const CollectiveType &C, void *Buf, MPI_Count Count,
                   size_t Offset);
  /// Runs the recorded unpacks (once; a persistent stage's at each
  /// completion).
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
  /// Keeps the types of the recorded packs and unpacks valid as long as
  /// the stage: the program may free a type while a non-blocking call on
  /// it is in flight, or a persistent request on it exists (MPI-4 §5.1.7),
  /// and a pack or unpack with MPI's own MPI_Pack/MPI_Unpack needs it.
  void keepTypes();

  /// Counts, displacements and types handed to MPI, per side (0: send, 1:
  /// receive; CollectiveSide::stage); they must outlive a non-blocking
  /// call. Element is a v-form side's type, Units the bytes its
  /// displacements count.
  std::vector<MPICount> Counts[2];
  std::vector<MPIDispl> Displs[2];
  std::vector<MPI_Datatype> Types[2];
  std::vector<MPI_Aint> AintDispls[2];
  MPI_Datatype Element[2] = {MPI_PACKED, MPI_PACKED};
  int64_t Units[2] = {1, 1};

private:
  /// Count instances of C at Buf, packed at Offset of the staging buffer.
  struct Block {
    CollectiveType C;
    void *Buf;
    MPI_Count Count;
    size_t Offset;
  };
  MPI_Comm Comm;
  bool Persistent;
  char *Buffer = nullptr;
  size_t Bytes = 0;
  bool Pooled = false;
  std::vector<Block> Packs; ///< a persistent stage's
  std::vector<Block> Unpacks;
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

/// Makes a collective call on packed buffers: Call() makes MPI's form of
/// the call How asks for. A blocking call unpacks before it returns; a
/// non-blocking one leaves the stage to the pending request, which unpacks
/// when any Wait or Test completes it; a persistent one keeps the stage
/// with the request (How.Init), for its starts.
template <typename CallFn>
int runStaged(std::unique_ptr<CollectiveStage> Stage, const CollectiveCall &How,
              CallFn Call);

/// Hands a started non-blocking call's stage to the pending requests.
void addPendingStage(MPI_Request Request,
                     std::shared_ptr<CollectiveStage> Stage);

template <typename CallFn>
int runStaged(std::unique_ptr<CollectiveStage> Stage, const CollectiveCall &How,
              CallFn Call) {
  if (!How.Request) {
    int Rc = Call();
    return Rc == MPI_SUCCESS ? Stage->finish() : Rc;
  }
  Stage->keepTypes();
  // A persistent stage is packed at the creation too, not only at each
  // start: MPICH 4.0.2's MPI_Gather_init copies the root's own block when
  // the request is made (pmodels/mpich#7078), and a program whose data do
  // not change between starts (MPICH's coll/p_gather) then gets from it
  // what it gets without the runtime.
  if (How.persistent())
    if (int Rc = Stage->packRecorded())
      return Rc;
  int Rc = Call();
  if (Rc != MPI_SUCCESS)
    return Rc;
  if (How.persistent())
    How.Init->Stage = std::move(Stage);
  else if (Stage->needsCompletion())
    addPendingStage(*How.Request, std::move(Stage));
  return Rc;
}

} // namespace ddtc

#endif // DDTC_LIB_RUNTIME_COLLECTIVESTAGE_H

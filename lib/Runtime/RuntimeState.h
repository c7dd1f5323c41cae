//===- lib/Runtime/RuntimeState.h - The substituting runtime's state -*- C++ -*-===//
//
// One per process: whether substitution is on, the bindings of committed
// types, the non-blocking calls in flight and the counts of the report.
// Substitution is on from MPI_Init when DDTC_KERNELS is set or the program
// carries kernels of its own, which is the same on every rank of a run --
// the collectives depend on that (Collectives.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_LIB_RUNTIME_RUNTIMESTATE_H
#define DDTC_LIB_RUNTIME_RUNTIMESTATE_H

#include "KernelCompiler.h"
#include "PendingRequests.h"
#include "Placement.h"
#include "TypeBinding.h"

#include "ddtc/Runtime/TypedBlockRules.h"

#include <mpi.h>

#include <atomic>
#include <vector>

namespace ddtc {

/// The MPI calls the runtime substitutes in. The report counts each call's
/// substitutions and pass-throughs, so that a user sees which calls gained;
/// every wrapper names its call for the thread on entry (CallScope), and
/// the counts below, which know only the binding, charge that call. A
/// large-count `_c` form is the same call (MPI_Send_c is an MPI_Send).
enum class SubstitutedCall : unsigned char {
  Send,
  Ssend,
  Isend,
  Issend,
  Recv,
  Irecv,
  Sendrecv,
  Bcast,
  Allgather,
  Pack,
  Unpack,
  SendInit,
  SsendInit,
  RsendInit,
  RecvInit,
  Rsend,
  Irsend,
  SendrecvReplace,
  Mrecv,
  Imrecv,
  Ibcast,
  Gather,
  Igather,
  Gatherv,
  Igatherv,
  Scatter,
  Iscatter,
  Scatterv,
  Iscatterv,
  Iallgather,
  Allgatherv,
  Iallgatherv,
  Alltoall,
  Ialltoall,
  Alltoallv,
  Ialltoallv,
  Alltoallw,
  Ialltoallw,
  NeighborAllgather,
  IneighborAllgather,
  NeighborAllgatherv,
  IneighborAllgatherv,
  NeighborAlltoall,
  IneighborAlltoall,
  NeighborAlltoallv,
  IneighborAlltoallv,
  NeighborAlltoallw,
  IneighborAlltoallw,
  Put,
  Get,
  Accumulate,
  GetAccumulate,
  Rput,
  Rget,
  Raccumulate,
  RgetAccumulate,
  BcastInit,
  GatherInit,
  GathervInit,
  ScatterInit,
  ScattervInit,
  AllgatherInit,
  AllgathervInit,
  AlltoallInit,
  AlltoallvInit,
  AlltoallwInit,
  NeighborAllgatherInit,
  NeighborAllgathervInit,
  NeighborAlltoallInit,
  NeighborAlltoallvInit,
  NeighborAlltoallwInit,
};
/// One past the last call (getCallName's table is checked against it).
constexpr size_t NumSubstitutedCalls =
    static_cast<size_t>(SubstitutedCall::NeighborAlltoallwInit) + 1;
/// The MPI name of C ("MPI_Send").
const char *getCallName(SubstitutedCall C);

/// The call the calling thread is in.
inline thread_local SubstitutedCall CurrentCall = SubstitutedCall::Send;
struct CallScope {
  explicit CallScope(SubstitutedCall C) { CurrentCall = C; }
};

/// DDTC_RT_COLLECTIVE_BLOCKS's default: blocks of 256 bytes or more go to
/// MPI as written in collectives (docs/performance.md, "Collectives and
/// persistent requests": the corpus's types of 384-byte and larger blocks
/// lose 0.64-0.78x packed, those of 64 bytes and less gain).
constexpr uint64_t DefaultCollectiveBlocks = 256;

/// DDTC_RT_PACK_TIES's default: MPI's engine is as fast as a kernel where
/// MPI_Pack, timed at commit on a buffer in cache, takes at most this many
/// times the kernel's pack and a copy of the packed bytes. Past the
/// in-cache copy timed, the packed path pays the copy into the other
/// core's buffer and the staging: on this project's machine LAMMPS_atomic,
/// timed at 1.1-1.24, ran at 0.81-1.03x of MPICH packed in every
/// operation, and NAS_LU_y, at 2.2-2.4, gained 1.3-1.8x (docs/performance.md,
/// "Types MPI packs as fast").
constexpr double DefaultTieFactor = 1.5;
/// The eager messages where no split window was measured: on this
/// project's machine MPICH 4.0.2 and Open MPI 4.1.4 send 4 KiB contiguous
/// within a node without a rendezvous (their measured windows start at
/// 8 KiB and at 4,000 bytes).
constexpr uint64_t DefaultEagerBytes = 4096;

struct RuntimeState {
  std::atomic<bool> Active{false};
  int Rank = -1;
  /// MPI_Query_thread gave MPI_THREAD_MULTIPLE: threads may be in MPI calls
  /// at once. Set before Active.
  bool ConcurrentCalls = true;
  /// Adds N to a count of the report. Below MPI_THREAD_MULTIPLE no two
  /// threads are ever in MPI at once (MPI-4 §11.6), so a read and a write
  /// suffice, and a call's counts need no locked add, which on x86 waits
  /// for every store before it to drain (a call left to MPI makes up to
  /// six).
  void count(std::atomic<uint64_t> &C, uint64_t N = 1) const {
    if (ConcurrentCalls)
      C.fetch_add(N, std::memory_order_relaxed);
    else
      C.store(C.load(std::memory_order_relaxed) + N, std::memory_order_relaxed);
  }
  std::vector<MPI_Datatype> Predefined;
  BindingTable Bindings;
  PendingRequests Requests;
  std::atomic<uint64_t> Substituted{0};
  std::atomic<uint64_t> PassedThrough{0};
  /// The same two counts per call (SubstitutedCall).
  std::atomic<uint64_t> CallSubstituted[NumSubstitutedCalls] = {};
  std::atomic<uint64_t> CallPassed[NumSubstitutedCalls] = {};
  /// Which peers share this node (Placement.h): the settings below are
  /// kept apart for messages within a node and between nodes.
  Placement Peers;
  /// DDTC_RT_TYPED_BLOCKS=BLOCK:BYTES[,BLOCK:BYTES...] within a node [0],
  /// DDTC_RT_REMOTE_TYPED_BLOCKS between nodes [1] (docs/runtime.md, "Large
  /// blocks in large messages"): a point-to-point message of more than
  /// BYTES packed bytes on a type whose blocks average at least BLOCK bytes
  /// goes to MPI as written, for any of the rules (a machine's threshold
  /// may fall with the block size). Set before Active.
  struct TypedBlockRules {
    TypedRule Rules[MaxTypedRules] = {};
    size_t N = 0;
  } TypedBlocks[2];
  bool leftTyped(const Binding &B, uint64_t Bytes, bool Remote) const {
    const TypedBlockRules &T = TypedBlocks[Remote];
    for (size_t I = 0; I < T.N; ++I)
      if (B.MeanBlock >= T.Rules[I].Block && Bytes > T.Rules[I].Above)
        return true;
    return false;
  }
  std::atomic<uint64_t> Typed{0};
  /// Point-to-point messages of sparse blocks (Binding::SparseFromCount)
  /// are left to MPI unless DDTC_RT_SPARSE_BLOCKS=off. Set before Active.
  bool LeaveSparse = true;
  /// DDTC_RT_COLLECTIVE_BLOCKS=BYTES (0: off): a collective's side whose
  /// type's blocks average BYTES or more goes to MPI as written, where
  /// its signature allows (leavesAsWritten, CollectiveStage.h). Set before
  /// Active.
  uint64_t CollectiveBlocks = DefaultCollectiveBlocks;
  std::atomic<uint64_t> Sparse{0};
  /// DDTC_RT_PACK_TIES (docs/runtime.md, "Types MPI packs as fast"): a
  /// point-to-point message, or a collective's block, of at most
  /// EagerBytes packed bytes within a node [0] or between nodes [1] goes to
  /// MPI as written where MPI's engine packs its type as fast as the
  /// kernel (Binding::MPIAsFast): MPI packs such a message into its eager
  /// buffer, the runtime into its own and MPI copies it. EagerBytes is the
  /// split window's lower end where measured (the largest message MPI sends
  /// contiguous without a rendezvous), else DefaultEagerBytes; 0: the rule
  /// is off. Set before Active.
  uint64_t EagerBytes[2] = {0, 0};
  double TieFactor = 0; ///< 0: off
  bool leftAsFast(const Binding &B, uint64_t Bytes, bool Remote) const {
    return B.MPIAsFast && Bytes <= EagerBytes[Remote];
  }
  /// A collective's blocks go to ranks of this node and, in a job across
  /// nodes, to others: the smaller bound.
  bool collectiveAsFast(const Binding &B, uint64_t Bytes) const {
    return leftAsFast(B, Bytes,
                      Peers.spansNodes() && EagerBytes[1] < EagerBytes[0]);
  }
  std::atomic<uint64_t> AsFast{0};
  /// Collective calls left to MPI for long blocks (CollectiveBlocks).
  std::atomic<uint64_t> CollectiveLong{0};
  /// Point-to-point calls passed through that handed MPI a type's form
  /// for sends (DDTC_RT_FORMS, SendForms.h).
  std::atomic<uint64_t> Formed{0};

  /// What the report counts for a call left to MPI: a pass-through of the
  /// type of B (nothing if B is null: a predefined type, or substitution
  /// off), left by the typed-blocks rules (Typed) or handed the type's form
  /// for sends (Formed). By plain pointer (Binding *) where the call counts
  /// it before it returns: the calling thread's lookup cache keeps the
  /// binding alive meanwhile (BindingTable::find), and a call left to MPI,
  /// most calls of most programs, takes no reference (two locked
  /// operations, a tenth of a small message's cost in the runtime).
  template <typename Ref> struct PassedBy {
    Ref B{};
    bool Typed = false;
    bool Formed = false;
    bool Sparse = false;
    bool AsFast = false;
  };
  /// By reference: for a caller that counts it later (a persistent
  /// request, at each start).
  using PassedCall = PassedBy<BindingRef>;

  /// The binding of T for a call on Count instances, if the call is to be
  /// substituted: substitution is on and T has a kernel. A derived type
  /// without one counts the call as passed through.
  BindingRef substitutable(MPI_Datatype T, MPI_Count Count) {
    PassedBy<Binding *> Pass;
    Binding *B = decide(T, Count, Pass);
    notePassed(Pass);
    return B ? B->shared_from_this() : nullptr;
  }
  /// substitutable() for one side of a point-to-point message with rank
  /// Peer of Comm, which also leaves to MPI the messages the typed-blocks
  /// rules for the peer's placement give it; Remote tells the caller that
  /// placement (for the split window) where the call is substituted. Each
  /// side decides alone; either representation matches the other's. Passed is
  /// the type to hand MPI if the call is not substituted: T's form for
  /// sends if it has one (DDTC_RT_FORMS, SendForms.h: the same typemap
  /// and bounds, so the message, its matching and its status are the
  /// same), else T.
  BindingRef substitutableMessage(MPI_Datatype T, MPI_Count Count,
                                  MPI_Comm Comm, int Peer, bool &Remote,
                                  MPI_Datatype &Passed) {
    PassedBy<Binding *> Pass;
    Binding *B = decideMessageIn(T, Count, Comm, Peer, Remote, Passed, Pass);
    notePassed(Pass);
    return B ? B->shared_from_this() : nullptr;
  }
  /// substitutableMessage() without counting a call passed through: Pass
  /// says what to count, for a caller that counts it later or more than
  /// once (a persistent request left to MPI, at each start).
  BindingRef decideMessage(MPI_Datatype T, MPI_Count Count, MPI_Comm Comm,
                           int Peer, bool &Remote, MPI_Datatype &Passed,
                           PassedCall &Pass) {
    PassedBy<Binding *> Now;
    Binding *B = decideMessageIn(T, Count, Comm, Peer, Remote, Passed, Now);
    if (Now.B)
      Pass = PassedCall{Now.B->shared_from_this(), Now.Typed, Now.Formed,
                        Now.Sparse, Now.AsFast};
    return B ? B->shared_from_this() : nullptr;
  }
  /// Whether a point-to-point call (Call) on T goes to MPI exactly as the
  /// program wrote it, counted as passed through: the runtime is off, T
  /// has no binding (a predefined type), or T's binding has neither a
  /// kernel nor a form for sends (nor one yet to be looked for). Inline,
  /// so that such calls -- most calls of most programs -- stay in the
  /// exported wrapper and go straight to MPI, taking no reference: 4-6 ns
  /// a call where the substitution's functions took 9-12
  /// (docs/performance.md, "Per-call overhead on a type without a
  /// kernel").
  bool leftAsWritten(MPI_Datatype T, SubstitutedCall Call) {
    if (!Active.load(std::memory_order_relaxed))
      return true;
    Binding *B = Bindings.find(T);
    if (!B)
      return true;
    if (B->isBound() ||
        (B->WantsForm && !B->NoSendForm.load(std::memory_order_acquire)))
      return false;
    CurrentCall = Call;
    notePassed(*B);
    return true;
  }
  /// Counts a substituted call of B's type moving Bytes. Unless a caller
  /// holds bindings by plain pointer (a collective, CollectiveStage.h),
  /// binds again the types whose compiled kernels arrived: a binding
  /// replaced is freed where no call holds it.
  void noteSubstituted(const Binding &B, uint64_t Bytes,
                       bool MayRebind = true) {
    if (B.Shape)
      noteShapeBytes(B, Bytes, MayRebind);
    else if (MayRebind && KernelCompiler::get().pending())
      rebindCompiled();
    count(Substituted);
    count(CallSubstituted[static_cast<size_t>(CurrentCall)]);
    count(B.Stats->SubstitutedCalls);
    count(B.Stats->SubstitutedBytes, Bytes);
  }
  void notePassed(const Binding &B) {
    count(PassedThrough);
    count(CallPassed[static_cast<size_t>(CurrentCall)]);
    count(B.Stats->PassedCalls);
  }
  /// A collective call left to MPI for the long blocks of B's type
  /// (CollectiveBlocks), counted in notePassed too.
  void noteCollectiveLong(const Binding &B) {
    count(CollectiveLong);
    count(B.Stats->CollectiveLongCalls);
  }
  /// A call left to MPI as its engine packs B's type as fast
  /// (leftAsFast), counted in notePassed too.
  void noteAsFast(const Binding &B) {
    count(AsFast);
    count(B.Stats->AsFastCalls);
  }
  template <typename Ref> void notePassed(const PassedBy<Ref> &P) {
    if (!P.B)
      return;
    notePassed(*P.B);
    if (P.Typed) {
      count(Typed);
      count(P.B->Stats->TypedCalls);
    }
    if (P.Sparse) {
      count(Sparse);
      count(P.B->Stats->SparseCalls);
    }
    if (P.AsFast)
      noteAsFast(*P.B);
    if (P.Formed) {
      count(Formed);
      count(P.B->Stats->FormCalls);
    }
  }

  /// A shape kernel's bytes: a type past the threshold has its kernel
  /// compiled (KernelCompiler.h), once.
  void noteShapeBytes(const Binding &B, uint64_t Bytes, bool MayRebind) {
    KernelCompiler &C = KernelCompiler::get();
    if (MayRebind && C.pending())
      rebindCompiled();
    if (!C.enabled() || B.CompileAsked.load(std::memory_order_relaxed) ||
        B.ShapeBytes.fetch_add(Bytes, std::memory_order_relaxed) + Bytes <
            C.hotBytes())
      return;
    if (!B.CompileAsked.exchange(true))
      C.request(B);
  }
  /// Binds again the types whose compiled kernels arrived.
  void rebindCompiled();

private:
  /// substitutable() without counting: the binding of a derived type
  /// whose call is passed through goes to Pass.
  Binding *decide(MPI_Datatype T, MPI_Count Count, PassedBy<Binding *> &Pass) {
    if (!Active.load(std::memory_order_relaxed))
      return nullptr;
    Binding *B = Bindings.find(T);
    if (!B)
      return nullptr;
    if (!B->isBound() || Count <= 0) {
      Pass.B = B;
      return nullptr;
    }
    return B;
  }
  /// decideMessage() by plain pointer, valid until the calling thread
  /// looks up another type.
  Binding *decideMessageIn(MPI_Datatype T, MPI_Count Count, MPI_Comm Comm,
                           int Peer, bool &Remote, MPI_Datatype &Passed,
                           PassedBy<Binding *> &Pass) {
    Passed = T;
    Binding *B = decide(T, Count, Pass);
    if (Pass.B && Count > 0)
      if (MPI_Datatype Form = Bindings.sendForm(*Pass.B);
          Form != MPI_DATATYPE_NULL) {
        Passed = Form;
        Pass.Formed = true;
      }
    if (!B)
      return nullptr;
    Remote = Peers.isRemote(Comm, Peer);
    uint64_t Bytes = static_cast<uint64_t>(Count) * B->Size;
    bool Sparse = LeaveSparse && B->SparseFromCount &&
                  static_cast<uint64_t>(Count) >= B->SparseFromCount;
    bool Typed = !Sparse && leftTyped(*B, Bytes, Remote);
    bool AsFast = !Sparse && !Typed && leftAsFast(*B, Bytes, Remote);
    if (!Sparse && !Typed && !AsFast)
      return B;
    // Left to MPI: in the type's form for sends where it has one, which
    // MPI's engine sends faster than the description (a long vector sent
    // whole, in pieces per fragment).
    Pass = PassedBy<Binding *>{B, Typed, /*Formed=*/false, Sparse, AsFast};
    if (MPI_Datatype Form = Bindings.sendForm(*B); Form != MPI_DATATYPE_NULL) {
      Passed = Form;
      Pass.Formed = true;
    }
    return nullptr;
  }
};

/// The process's runtime state (never destroyed: MPI calls may come from
/// atexit handlers). Inline: every wrapper asks for it first.
inline RuntimeState &runtime() {
  static RuntimeState *S = new RuntimeState();
  return *S;
}

} // namespace ddtc

#endif // DDTC_LIB_RUNTIME_RUNTIMESTATE_H

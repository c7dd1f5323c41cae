//===- lib/Runtime/TraceWrappers.cpp - The PMPI wrappers of libddtc_trace.so ===//
//
// Every MPI function the trace library intercepts is defined here with C
// linkage, under its MPI_ name, and calls the PMPI_ entry point with the
// same arguments: the program's results and return codes are MPI's.
// Most wrappers are generated from the rows of TraceCalls.def; the few
// with a body of their own (init, finalize, commit, free, start) follow.
//
// What a call with several buffers records, per buffer that is significant
// on the calling rank (MPI_IN_PLACE and the other side of a rooted
// collective are not):
//  - one use of its type with the call's count for that buffer;
//  - for the `v` and `w` collectives, one use per peer block with a
//    non-zero count (each block is a (count, type) region of its own);
//  - for one-sided calls, the target type too, without a buffer;
//  - for reductions, one use with the count of the send buffer.
// A use whose buffer is MPI_BOTTOM (and whose count is not 0) marks the
// type `x-bottom`.
//
//===----------------------------------------------------------------------===//
#include "FortranCallSite.h"

#include "ddtc/MPI/MPISupport.h"
#include "ddtc/Runtime/Tracer.h"

#include <mpi.h>

#include <cstdint>
#include <string_view>

using ddtc::Tracer;

namespace {

/// The operation a use is recorded under: the function's name, without
/// the `_c` of the large-count variants.
constexpr std::string_view opName(std::string_view Function) {
  return Function.ends_with("_c") ? Function.substr(0, Function.size() - 2)
                                  : Function;
}

bool mayBeDerived(MPI_Datatype T) { return !Tracer::isPredefinedHandle(T); }

/// The number of processes a collective on Comm exchanges blocks with.
int peers(MPI_Comm Comm) {
  int Inter = 0, N = 0;
  PMPI_Comm_test_inter(Comm, &Inter);
  if (Inter)
    PMPI_Comm_remote_size(Comm, &N);
  else
    PMPI_Comm_size(Comm, &N);
  return N;
}

/// The in- and out-degree of Comm's process topology: the lengths of the
/// count arrays of the neighborhood collectives.
void neighbors(MPI_Comm Comm, int &In, int &Out) {
  int Topo = MPI_UNDEFINED;
  In = Out = 0;
  PMPI_Topo_test(Comm, &Topo);
  if (Topo == MPI_CART) {
    int Dims = 0;
    PMPI_Cartdim_get(Comm, &Dims);
    In = Out = 2 * Dims;
  } else if (Topo == MPI_GRAPH) {
    int Rank = 0;
    PMPI_Comm_rank(Comm, &Rank);
    PMPI_Graph_neighbors_count(Comm, Rank, &In);
    Out = In;
  } else if (Topo == MPI_DIST_GRAPH) {
    int Weighted = 0;
    PMPI_Dist_graph_neighbors_count(Comm, &In, &Out, &Weighted);
  }
}

/// Whether the calling process is the root of a rooted collective, whose
/// receive (gather) or send (scatter) buffer only the root uses.
bool isRoot(int Root, MPI_Comm Comm) {
  if (Root == MPI_ROOT)
    return true;
  if (Root < 0) // MPI_PROC_NULL
    return false;
  int Inter = 0, Rank = -1;
  PMPI_Comm_test_inter(Comm, &Inter);
  if (Inter)
    return false; // Root names a process of the other group
  PMPI_Comm_rank(Comm, &Rank);
  return Rank == Root;
}

/// Whether the calling process contributes data to a rooted collective:
/// everyone but the root's group of an intercommunicator.
bool isLeaf(int Root) { return Root >= 0; }

/// The uses of datatypes one wrapped call makes. Record columns of
/// TraceCalls.def are calls of its members; the argument names are MPI's.
class TraceCall {
public:
  explicit TraceCall(std::string_view Op, const MPI_Request *Request = nullptr)
      : Op(Op), Request(Request) {}

  template <typename C> void point(const void *Buf, C Count, MPI_Datatype T) {
    use(T, Count, Buf);
  }
  template <typename C> void typeOnly(C Count, MPI_Datatype T) {
    useType(T, Count);
  }

  template <typename C>
  void pair(const void *SBuf, C SCount, MPI_Datatype ST, const void *RBuf,
            C RCount, MPI_Datatype RT) {
    if (SBuf != MPI_IN_PLACE)
      use(ST, SCount, SBuf);
    use(RT, RCount, RBuf);
  }

  template <typename C>
  void bcast(const void *Buf, C Count, MPI_Datatype T, int Root) {
    if (Root != MPI_PROC_NULL)
      use(T, Count, Buf);
  }

  template <typename C>
  void gather(const void *SBuf, C SCount, MPI_Datatype ST, const void *RBuf,
              C RCount, MPI_Datatype RT, int Root, MPI_Comm Comm) {
    if (isLeaf(Root) && SBuf != MPI_IN_PLACE)
      use(ST, SCount, SBuf);
    if (mayBeDerived(RT) && isRoot(Root, Comm))
      use(RT, RCount, RBuf);
  }

  template <typename C>
  void gatherv(const void *SBuf, C SCount, MPI_Datatype ST, const void *RBuf,
               const C *RCounts, MPI_Datatype RT, int Root, MPI_Comm Comm) {
    if (isLeaf(Root) && SBuf != MPI_IN_PLACE)
      use(ST, SCount, SBuf);
    if (mayBeDerived(RT) && isRoot(Root, Comm))
      blocks(RBuf, RCounts, peers(Comm), RT);
  }

  template <typename C>
  void scatter(const void *SBuf, C SCount, MPI_Datatype ST, const void *RBuf,
               C RCount, MPI_Datatype RT, int Root, MPI_Comm Comm) {
    if (mayBeDerived(ST) && isRoot(Root, Comm))
      use(ST, SCount, SBuf);
    if (isLeaf(Root) && RBuf != MPI_IN_PLACE)
      use(RT, RCount, RBuf);
  }

  template <typename C>
  void scatterv(const void *SBuf, const C *SCounts, MPI_Datatype ST,
                const void *RBuf, C RCount, MPI_Datatype RT, int Root,
                MPI_Comm Comm) {
    if (mayBeDerived(ST) && isRoot(Root, Comm))
      blocks(SBuf, SCounts, peers(Comm), ST);
    if (isLeaf(Root) && RBuf != MPI_IN_PLACE)
      use(RT, RCount, RBuf);
  }

  template <typename C>
  void allgatherv(const void *SBuf, C SCount, MPI_Datatype ST, const void *RBuf,
                  const C *RCounts, MPI_Datatype RT, MPI_Comm Comm) {
    if (SBuf != MPI_IN_PLACE)
      use(ST, SCount, SBuf);
    if (mayBeDerived(RT))
      blocks(RBuf, RCounts, peers(Comm), RT);
  }

  template <typename C>
  void alltoallv(const void *SBuf, const C *SCounts, MPI_Datatype ST,
                 const void *RBuf, const C *RCounts, MPI_Datatype RT,
                 MPI_Comm Comm) {
    if (!mayBeDerived(ST) && !mayBeDerived(RT))
      return;
    int N = peers(Comm);
    if (SBuf != MPI_IN_PLACE)
      blocks(SBuf, SCounts, N, ST);
    blocks(RBuf, RCounts, N, RT);
  }

  template <typename C>
  void alltoallw(const void *SBuf, const C *SCounts, const MPI_Datatype *STs,
                 const void *RBuf, const C *RCounts, const MPI_Datatype *RTs,
                 MPI_Comm Comm) {
    int N = peers(Comm);
    if (SBuf != MPI_IN_PLACE)
      typedBlocks(SBuf, SCounts, N, STs);
    typedBlocks(RBuf, RCounts, N, RTs);
  }

  template <typename C>
  void neighborAllgatherv(const void *SBuf, C SCount, MPI_Datatype ST,
                          const void *RBuf, const C *RCounts, MPI_Datatype RT,
                          MPI_Comm Comm) {
    use(ST, SCount, SBuf);
    if (!mayBeDerived(RT))
      return;
    int In, Out;
    neighbors(Comm, In, Out);
    blocks(RBuf, RCounts, In, RT);
  }

  template <typename C>
  void neighborAlltoallv(const void *SBuf, const C *SCounts, MPI_Datatype ST,
                         const void *RBuf, const C *RCounts, MPI_Datatype RT,
                         MPI_Comm Comm) {
    if (!mayBeDerived(ST) && !mayBeDerived(RT))
      return;
    int In, Out;
    neighbors(Comm, In, Out);
    blocks(SBuf, SCounts, Out, ST);
    blocks(RBuf, RCounts, In, RT);
  }

  template <typename C>
  void neighborAlltoallw(const void *SBuf, const C *SCounts,
                         const MPI_Datatype *STs, const void *RBuf,
                         const C *RCounts, const MPI_Datatype *RTs,
                         MPI_Comm Comm) {
    int In, Out;
    neighbors(Comm, In, Out);
    typedBlocks(SBuf, SCounts, Out, STs);
    typedBlocks(RBuf, RCounts, In, RTs);
  }

  template <typename C>
  void reduce(const void *SBuf, const void *RBuf, C Count, MPI_Datatype T) {
    use(T, Count, SBuf == MPI_IN_PLACE ? RBuf : SBuf);
  }

  template <typename C>
  void reduceScatter(const void *SBuf, const void *RBuf, const C *RCounts,
                     MPI_Datatype T, MPI_Comm Comm) {
    if (!mayBeDerived(T) || !RCounts)
      return;
    int N = 0;
    PMPI_Comm_size(Comm, &N);
    int64_t Total = 0;
    for (int I = 0; I < N; ++I)
      Total += RCounts[I];
    use(T, Total, SBuf == MPI_IN_PLACE ? RBuf : SBuf);
  }

  template <typename C>
  void reduceScatterBlock(const void *SBuf, const void *RBuf, C RCount,
                          MPI_Datatype T, MPI_Comm Comm) {
    if (!mayBeDerived(T))
      return;
    int N = 0;
    PMPI_Comm_size(Comm, &N);
    use(T, static_cast<int64_t>(RCount) * N,
        SBuf == MPI_IN_PLACE ? RBuf : SBuf);
  }

  template <typename C>
  void rma(const void *OBuf, C OCount, MPI_Datatype OT, C TCount,
           MPI_Datatype TT) {
    use(OT, OCount, OBuf);
    useType(TT, TCount);
  }

  template <typename C>
  void getAccumulate(const void *OBuf, C OCount, MPI_Datatype OT,
                     const void *RBuf, C RCount, MPI_Datatype RT, C TCount,
                     MPI_Datatype TT) {
    use(OT, OCount, OBuf);
    use(RT, RCount, RBuf);
    useType(TT, TCount);
  }

private:
  void use(MPI_Datatype T, int64_t Count, const void *Buf) {
    if (mayBeDerived(T))
      Tracer::get().recordUse(Op, T, Count, Buf == MPI_BOTTOM && Count != 0,
                              Request);
  }
  void useType(MPI_Datatype T, int64_t Count) {
    if (mayBeDerived(T))
      Tracer::get().recordUse(Op, T, Count, /*Bottom=*/false, Request);
  }
  template <typename C>
  void blocks(const void *Buf, const C *Counts, int N, MPI_Datatype T) {
    if (!Counts || !mayBeDerived(T))
      return;
    for (int I = 0; I < N; ++I)
      if (Counts[I] != 0)
        use(T, Counts[I], Buf);
  }
  template <typename C>
  void typedBlocks(const void *Buf, const C *Counts, int N,
                   const MPI_Datatype *Ts) {
    if (!Counts || !Ts)
      return;
    for (int I = 0; I < N; ++I)
      if (Counts[I] != 0)
        use(Ts[I], Counts[I], Buf);
  }

  std::string_view Op;
  const MPI_Request *Request;
};

} // namespace

// The library is built with hidden visibility: only the MPI functions are
// exported, so that the IR inside it never clashes with a program's own
// copy of ddtc.
#define DDTC_EXPORT extern "C" __attribute__((visibility("default")))

#define DDTC_TRACE_CONSTRUCTOR(Name, Params, Args)                             \
  DDTC_EXPORT int Name Params {                                                \
    int Err = P##Name Args;                                                    \
    if (Err == MPI_SUCCESS)                                                    \
      Tracer::get().noteCreated(                                               \
          *newtype, ddtc::programCallSite(__builtin_return_address(0)));       \
    return Err;                                                                \
  }
#define DDTC_TRACE_USE(Name, Params, Args, Record)                             \
  DDTC_EXPORT int Name Params {                                                \
    {                                                                          \
      TraceCall R(opName(#Name));                                              \
      R.Record;                                                                \
    }                                                                          \
    return P##Name Args;                                                       \
  }
#define DDTC_TRACE_INIT(Name, Params, Args, Record)                            \
  DDTC_EXPORT int Name Params {                                                \
    int Err = P##Name Args;                                                    \
    if (Err == MPI_SUCCESS) {                                                  \
      TraceCall R(opName(#Name), request);                                     \
      R.Record;                                                                \
    }                                                                          \
    return Err;                                                                \
  }
#include "TraceCalls.def"

DDTC_EXPORT int MPI_Init(int *argc, char ***argv) {
  int Err = PMPI_Init(argc, argv);
  Tracer::get().noteProgram(argv && *argv ? (*argv)[0] : nullptr);
  return Err;
}

DDTC_EXPORT int MPI_Init_thread(int *argc, char ***argv, int required,
                                int *provided) {
  int Err = PMPI_Init_thread(argc, argv, required, provided);
  Tracer::get().noteProgram(argv && *argv ? (*argv)[0] : nullptr);
  return Err;
}

DDTC_EXPORT int MPI_Finalize(void) {
  Tracer::get().finish(/*Aborted=*/false);
  return PMPI_Finalize();
}

// Optional in the runtime's contract (docs/runtime.md), but cheap: the types of
// a program that aborts are often the ones worth looking at.
DDTC_EXPORT int MPI_Abort(MPI_Comm comm, int errorcode) {
  Tracer::get().finish(/*Aborted=*/true);
  return PMPI_Abort(comm, errorcode);
}

DDTC_EXPORT int MPI_Type_commit(MPI_Datatype *datatype) {
  int Err = PMPI_Type_commit(datatype);
  if (Err == MPI_SUCCESS && datatype && !Tracer::isPredefinedHandle(*datatype))
    Tracer::get().noteCommitted(
        *datatype, ddtc::programCallSite(__builtin_return_address(0)));
  return Err;
}

DDTC_EXPORT int MPI_Type_free(MPI_Datatype *datatype) {
  // Before the call: once freed, the handle may be handed out again, even
  // to another thread.
  if (datatype && !Tracer::isPredefinedHandle(*datatype))
    Tracer::get().noteFreed(*datatype);
  return PMPI_Type_free(datatype);
}

DDTC_EXPORT int MPI_Type_set_name(MPI_Datatype datatype,
                                  const char *type_name) {
  int Err = PMPI_Type_set_name(datatype, type_name);
  if (Err == MPI_SUCCESS)
    Tracer::get().noteNamed(datatype);
  return Err;
}

DDTC_EXPORT int MPI_Start(MPI_Request *request) {
  if (request)
    Tracer::get().noteStarted(*request);
  return PMPI_Start(request);
}

DDTC_EXPORT int MPI_Startall(int count, MPI_Request array_of_requests[]) {
  for (int I = 0; array_of_requests && I < count; ++I)
    Tracer::get().noteStarted(array_of_requests[I]);
  return PMPI_Startall(count, array_of_requests);
}

DDTC_EXPORT int MPI_Request_free(MPI_Request *request) {
  if (request)
    Tracer::get().noteRequestFreed(*request);
  return PMPI_Request_free(request);
}

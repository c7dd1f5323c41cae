//===- lib/Runtime/FortranBindings.cpp - Fortran entry points -------------===//
//
// The preload libraries wrap C functions, and some Fortran bindings never
// call them: Open MPI's (libmpi_mpifh.so for mpif.h and `use mpi`,
// libmpi_usempif08.so for `use mpi_f08`) call the PMPI_ functions directly,
// and MPICH's `use mpi_f08` calls them for every call without a buffer
// (MPI_Init, the constructors, MPI_Type_commit, MPI_Wait, ...). This file
// defines those Fortran entry points (FortranCalls.def) in the libraries
// themselves: each converts its arguments as the MPI library's own binding
// does, calls the library's C wrapper (so tracing and substitution are the
// C path's, not a copy of it), converts back what the call returned and
// stores the error code in ierr. Entry points whose binding calls the C
// MPI_ functions -- MPICH's mpif.h and `use mpi`, and its `use mpi_f08` for
// calls with a buffer -- are left to it: the C wrappers see those calls
// already, and would count them twice.
//
// Under Open MPI each row gives five entry points: the manglings it exports
// for mpif.h and `use mpi` (mpi_send, mpi_send_, mpi_send__, MPI_SEND) and
// the `use mpi_f08` one (mpi_send_f08_). Under MPICH the rows without a
// buffer give their `use mpi_f08` one (mpi_type_commit_f08_). The handles
// of mpi_f08 are a derived type of one INTEGER, laid out as the integer
// handle, and its ierror is OPTIONAL (a null pointer when absent). The PMPI_
// Fortran entry points stay the MPI library's.
//
// A call with a handle that Open MPI cannot convert (an invalid handle, for
// which its f2c functions return a null pointer) goes to the next definition
// of the same entry point, Open MPI's own binding, with its arguments as
// they were: the program gets MPI's own error, unchanged. MPICH converts
// every handle (its handles are the integers) and reports an invalid one in
// the C call, as its own binding does.
//
//===----------------------------------------------------------------------===//
#include "FortranCallSite.h"

#include <mpi.h>

#include <dlfcn.h>

#include <cstddef>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>

#define DDTC_EXPORT extern "C" __attribute__((visibility("default")))

static_assert(std::is_same_v<MPI_Fint, int>,
              "Fortran INTEGER arrays are passed to C as they are");

namespace ddtc {
thread_local constinit const void *FortranCallSite = nullptr;
} // namespace ddtc

#ifdef OPEN_MPI
// Open MPI recognizes MPI_BOTTOM and MPI_IN_PLACE of Fortran by their
// addresses: Fortran common blocks (mpif.h) or bind(C) variables
// (mpi_f08) that libmpi.so defines under the Fortran compiler's mangling of
// mpi_fortran_bottom and mpi_fortran_in_place. Which mangling depends on how
// Open MPI was built; those it lacks stay null (weak).
extern "C" {
extern int mpi_fortran_bottom __attribute__((weak));
extern int mpi_fortran_bottom_ __attribute__((weak));
extern int mpi_fortran_bottom__ __attribute__((weak));
extern int MPI_FORTRAN_BOTTOM __attribute__((weak));
extern int mpi_fortran_in_place __attribute__((weak));
extern int mpi_fortran_in_place_ __attribute__((weak));
extern int mpi_fortran_in_place__ __attribute__((weak));
extern int MPI_FORTRAN_IN_PLACE __attribute__((weak));
}
#endif

namespace ddtc::fortran {
namespace {

// The handle conversions, functions in Open MPI and macros in MPICH.
MPI_Datatype typeF2c(MPI_Fint F) { return PMPI_Type_f2c(F); }
MPI_Fint typeC2f(MPI_Datatype H) { return PMPI_Type_c2f(H); }
MPI_Comm commF2c(MPI_Fint F) { return PMPI_Comm_f2c(F); }
MPI_Request requestF2c(MPI_Fint F) { return PMPI_Request_f2c(F); }
MPI_Fint requestC2f(MPI_Request H) { return PMPI_Request_c2f(H); }
MPI_Win winF2c(MPI_Fint F) { return PMPI_Win_f2c(F); }
MPI_Fint winC2f(MPI_Win H) { return PMPI_Win_c2f(H); }

/// Whether the f2c conversion of a handle succeeded.
template <typename Handle> bool converted(Handle H) {
#ifdef OPEN_MPI
  return H != nullptr;
#else
  (void)H;
  return true;
#endif
}

#ifdef OPEN_MPI
// What follows, to the #endif, serves Open MPI's rows with a buffer alone
// (MPICH's mpi_f08 makes those calls through its C functions).

MPI_Op opF2c(MPI_Fint F) { return PMPI_Op_f2c(F); }
MPI_Message messageF2c(MPI_Fint F) { return PMPI_Message_f2c(F); }
MPI_Fint messageC2f(MPI_Message H) { return PMPI_Message_c2f(H); }

bool isBottom(const void *P) {
  return P && (P == &mpi_fortran_bottom || P == &mpi_fortran_bottom_ ||
               P == &mpi_fortran_bottom__ || P == &MPI_FORTRAN_BOTTOM);
}

bool isInPlace(const void *P) {
  return P && (P == &mpi_fortran_in_place || P == &mpi_fortran_in_place_ ||
               P == &mpi_fortran_in_place__ || P == &MPI_FORTRAN_IN_PLACE);
}

// The helpers of the trace library's rows: the runtime's leave them unused.

/// The number of processes of a collective on the Fortran communicator
/// Comm (the remote group of an intercommunicator); 0 for an invalid one,
/// which the Comm argument hands to Open MPI's binding.
[[maybe_unused]] int peersOf(const MPI_Fint *Comm) {
  MPI_Comm C = commF2c(*Comm);
  int Inter = 0, N = 0;
  if (!C || PMPI_Comm_test_inter(C, &Inter) != MPI_SUCCESS)
    return 0;
  if (Inter)
    PMPI_Comm_remote_size(C, &N);
  else
    PMPI_Comm_size(C, &N);
  return N;
}

/// The in- or out-degree of the process topology of the Fortran
/// communicator Comm: the lengths of the neighborhood collectives' arrays.
int degreeOf(const MPI_Fint *Comm, bool In) {
  MPI_Comm C = commF2c(*Comm);
  int Topo = MPI_UNDEFINED;
  if (!C || PMPI_Topo_test(C, &Topo) != MPI_SUCCESS)
    return 0;
  if (Topo == MPI_CART) {
    int Dims = 0;
    PMPI_Cartdim_get(C, &Dims);
    return 2 * Dims;
  }
  if (Topo == MPI_GRAPH) {
    int Rank = 0, N = 0;
    PMPI_Comm_rank(C, &Rank);
    PMPI_Graph_neighbors_count(C, Rank, &N);
    return N;
  }
  if (Topo == MPI_DIST_GRAPH) {
    int Indegree = 0, Outdegree = 0, Weighted = 0;
    PMPI_Dist_graph_neighbors_count(C, &Indegree, &Outdegree, &Weighted);
    return In ? Indegree : Outdegree;
  }
  return 0;
}
[[maybe_unused]] int inDegreeOf(const MPI_Fint *Comm) {
  return degreeOf(Comm, true);
}
[[maybe_unused]] int outDegreeOf(const MPI_Fint *Comm) {
  return degreeOf(Comm, false);
}
#endif

// A Fortran status. Open MPI's mpi_f08 hands its statuses to the mpif.h
// bindings: one layout, one MPI_STATUS(ES)_IGNORE (the standard's C names
// of them) for all three bindings. MPICH's rows are of mpi_f08 alone, whose
// type(MPI_Status) is MPI_F08_status, laid out as MPICH's C status.
#ifdef OPEN_MPI
using FortranStatus = MPI_Fint;
bool isStatusIgnore(const FortranStatus *P) { return P == MPI_F_STATUS_IGNORE; }
bool isStatusesIgnore(const FortranStatus *P) {
  return P == MPI_F_STATUSES_IGNORE;
}
void statusToFortran(const MPI_Status *C, FortranStatus *F) {
  PMPI_Status_c2f(C, F);
}
FortranStatus *statusAt(FortranStatus *F, int I) {
  return F + I * static_cast<int>(sizeof(MPI_Status) / sizeof(MPI_Fint));
}
#else
using FortranStatus = MPI_F08_status;
static_assert(sizeof(MPI_F08_status) == sizeof(MPI_Status) &&
              offsetof(MPI_F08_status, MPI_SOURCE) ==
                  offsetof(MPI_Status, MPI_SOURCE) &&
              offsetof(MPI_F08_status, MPI_ERROR) ==
                  offsetof(MPI_Status, MPI_ERROR));
bool isStatusIgnore(const FortranStatus *P) {
  return P == MPI_F08_STATUS_IGNORE;
}
bool isStatusesIgnore(const FortranStatus *P) {
  return P == MPI_F08_STATUSES_IGNORE;
}
void statusToFortran(const MPI_Status *C, FortranStatus *F) {
  std::memcpy(F, C, sizeof(MPI_Status));
}
FortranStatus *statusAt(FortranStatus *F, int I) { return F + I; }
#endif

/// Storage for N converted array elements, on the stack for the short
/// arrays of most calls.
template <typename T> class Scratch {
public:
  explicit Scratch(int N) : Data(N > Inline ? new T[N]() : Small) {
    if (N > Inline)
      Heap.reset(Data);
  }
  Scratch(const Scratch &) = delete;
  Scratch &operator=(const Scratch &) = delete;
  T *data() { return Data; }
  T &operator[](int I) { return Data[I]; }

private:
  static constexpr int Inline = 16;
  T Small[Inline] = {};
  T *Data;
  std::unique_ptr<T[]> Heap;
};

//===----------------------------------------------------------------------===//
// The kinds of FortranCalls.def. Each holds one Fortran argument: its type
// Fortran is what the entry point receives, c() what the C function gets,
// valid() whether its handles convert, finish(Rc) writes back what the C
// call returned (Rc its error code). Outputs are written back, as by Open
// MPI's own bindings, only when the call succeeded.
//===----------------------------------------------------------------------===//

/// The argument needs no conversion.
struct Passed {
  bool valid() const { return true; }
  void finish(int) {}
};

#ifdef OPEN_MPI
/// A buffer, which may be MPI_BOTTOM.
struct Buf : Passed {
  using Fortran = void *;
  void *P;
  explicit Buf(void *F) : P(isBottom(F) ? MPI_BOTTOM : F) {}
  void *c() const { return P; }
};

/// A buffer that may also be MPI_IN_PLACE.
struct InPlaceBuf : Passed {
  using Fortran = void *;
  void *P;
  explicit InPlaceBuf(void *F)
      : P(isInPlace(F)  ? MPI_IN_PLACE
          : isBottom(F) ? MPI_BOTTOM
                        : F) {}
  void *c() const { return P; }
};

/// A buffer Open MPI's binding passes as it is: the packed side of
/// MPI_Pack and MPI_Unpack.
struct Raw : Passed {
  using Fortran = void *;
  void *P;
  explicit Raw(void *F) : P(F) {}
  void *c() const { return P; }
};
#endif

struct Int : Passed {
  using Fortran = MPI_Fint *;
  int V;
  explicit Int(MPI_Fint *F) : V(*F) {}
  int c() const { return V; }
};

/// An INTEGER the call writes (or reads and writes), or an array of them:
/// the same in memory as a C int.
struct IntOut : Passed {
  using Fortran = MPI_Fint *;
  int *P;
  explicit IntOut(MPI_Fint *F) : P(F) {}
  int *c() const { return P; }
};
using Ints = IntOut;

struct Aint : Passed {
  using Fortran = MPI_Aint *;
  MPI_Aint V;
  explicit Aint(MPI_Aint *F) : V(*F) {}
  MPI_Aint c() const { return V; }
};

struct Aints : Passed {
  using Fortran = MPI_Aint *;
  MPI_Aint *P;
  explicit Aints(MPI_Aint *F) : P(F) {}
  MPI_Aint *c() const { return P; }
};

/// An address given as an INTEGER (MPI-1's constructors).
struct IntAint : Passed {
  using Fortran = MPI_Fint *;
  MPI_Aint V;
  explicit IntAint(MPI_Fint *F) : V(*F) {}
  MPI_Aint c() const { return V; }
};

/// N addresses given as INTEGERs.
struct IntsAints : Passed {
  using Fortran = MPI_Fint *;
  Scratch<MPI_Aint> V;
  IntsAints(MPI_Fint *F, int N) : V(N) {
    for (int I = 0; I < N; ++I)
      V[I] = F[I];
  }
  MPI_Aint *c() { return V.data(); }
};

/// An input handle of the class whose conversion is F2c.
template <typename Handle, Handle (*F2c)(MPI_Fint)> struct In {
  using Fortran = MPI_Fint *;
  Handle H;
  explicit In(MPI_Fint *F) : H(F2c(*F)) {}
  bool valid() const { return converted(H); }
  Handle c() const { return H; }
  void finish(int) {}
};
using Type = In<MPI_Datatype, typeF2c>;
using Comm = In<MPI_Comm, commF2c>;
#ifdef OPEN_MPI
using Op = In<MPI_Op, opF2c>;
#endif
using Win = In<MPI_Win, winF2c>;

/// An output handle: nothing is read.
template <typename Handle, MPI_Fint (*C2f)(Handle)> struct Out {
  using Fortran = MPI_Fint *;
  MPI_Fint *F;
  Handle H{};
  explicit Out(MPI_Fint *F) : F(F) {}
  bool valid() const { return true; }
  Handle *c() { return &H; }
  void finish(int Rc) {
    if (Rc == MPI_SUCCESS)
      *F = C2f(H);
  }
};
using TypeOut = Out<MPI_Datatype, typeC2f>;
using RequestOut = Out<MPI_Request, requestC2f>;

/// A handle the call reads and may change (a commit, a free, a completed
/// request).
template <typename Handle, Handle (*F2c)(MPI_Fint), MPI_Fint (*C2f)(Handle)>
struct InOut {
  using Fortran = MPI_Fint *;
  MPI_Fint *F;
  Handle H;
  explicit InOut(MPI_Fint *F) : F(F), H(F2c(*F)) {}
  bool valid() const { return converted(H); }
  Handle *c() { return &H; }
  void finish(int Rc) {
    if (Rc == MPI_SUCCESS)
      *F = C2f(H);
  }
};
using TypeInOut = InOut<MPI_Datatype, typeF2c, typeC2f>;
using RequestInOut = InOut<MPI_Request, requestF2c, requestC2f>;
using WinInOut = InOut<MPI_Win, winF2c, winC2f>;
#ifdef OPEN_MPI
using MessageInOut = InOut<MPI_Message, messageF2c, messageC2f>;
#endif

/// An array of N input handles.
struct Types : Passed {
  using Fortran = MPI_Fint *;
  Scratch<MPI_Datatype> H;
  bool Valid = true;
  Types(MPI_Fint *F, int N) : H(N) {
    for (int I = 0; I < N; ++I)
      Valid &= converted(H[I] = typeF2c(F[I]));
  }
  bool valid() const { return Valid; }
  MPI_Datatype *c() { return H.data(); }
};

/// An array of N requests, which the call may complete or start.
struct Requests {
  using Fortran = MPI_Fint *;
  MPI_Fint *F;
  int N;
  Scratch<MPI_Request> H;
  bool Valid = true;
  Requests(MPI_Fint *F, int N) : F(F), N(N), H(N) {
    for (int I = 0; I < N; ++I)
      Valid &= converted(H[I] = requestF2c(F[I]));
  }
  bool valid() const { return Valid; }
  MPI_Request *c() { return H.data(); }
  void finish(int Rc) {
    if (Rc == MPI_SUCCESS)
      for (int I = 0; I < N; ++I)
        F[I] = requestC2f(H[I]);
  }
};

/// A status, or MPI_STATUS_IGNORE.
struct Status : Passed {
  using Fortran = FortranStatus *;
  FortranStatus *F;
  MPI_Status S{};
  explicit Status(FortranStatus *F) : F(F) {}
  MPI_Status *c() { return isStatusIgnore(F) ? MPI_STATUS_IGNORE : &S; }
  void finish(int Rc) {
    if (Rc == MPI_SUCCESS && !isStatusIgnore(F))
      statusToFortran(&S, F);
  }
};

/// An array of N statuses, or MPI_STATUSES_IGNORE; of them the call fills
/// the first *Written (unless MPI_UNDEFINED) where Written is given, else N.
struct Statuses : Passed {
  using Fortran = FortranStatus *;
  FortranStatus *F;
  int N;
  const MPI_Fint *Written;
  Scratch<MPI_Status> S;
  Statuses(FortranStatus *F, int N, const MPI_Fint *Written = nullptr)
      : F(F), N(N), Written(Written), S(isStatusesIgnore(F) ? 0 : N) {}
  MPI_Status *c() {
    return isStatusesIgnore(F) ? MPI_STATUSES_IGNORE : S.data();
  }
  void finish(int Rc) {
    if (Rc != MPI_SUCCESS || isStatusesIgnore(F))
      return;
    int Filled = Written ? *Written : N;
    if (Filled == MPI_UNDEFINED)
      return;
    for (int I = 0; I < Filled; ++I)
      statusToFortran(&S[I], statusAt(F, I));
  }
};

/// A LOGICAL the call sets. .TRUE. is 1, as gfortran has it (and the MPI
/// libraries built with it).
struct Flag : Passed {
  using Fortran = MPI_Fint *;
  MPI_Fint *F;
  int V = 0;
  explicit Flag(MPI_Fint *F) : F(F) {}
  int *c() { return &V; }
  void finish(int) { *F = V ? 1 : 0; }
};

/// The index of a request: Fortran counts from 1.
struct Index : Passed {
  using Fortran = MPI_Fint *;
  MPI_Fint *F;
  int V = MPI_UNDEFINED;
  explicit Index(MPI_Fint *F) : F(F) {}
  int *c() { return &V; }
  void finish(int Rc) {
    if (Rc == MPI_SUCCESS)
      *F = V == MPI_UNDEFINED ? V : V + 1;
  }
};

/// The indices of the *Count requests completed (MPI_Waitsome), from 1.
struct Indices : Passed {
  using Fortran = MPI_Fint *;
  MPI_Fint *F;
  const MPI_Fint *Count;
  Indices(MPI_Fint *F, const MPI_Fint *Count) : F(F), Count(Count) {}
  int *c() const { return F; }
  void finish(int Rc) {
    if (Rc == MPI_SUCCESS && *Count != MPI_UNDEFINED)
      for (int I = 0; I < *Count; ++I)
        ++F[I];
  }
};

/// The next definition of an entry point after this library's: Open MPI's
/// own binding.
template <typename Fn> Fn nextDefinition(const char *Symbol) {
  return reinterpret_cast<Fn>(dlsym(RTLD_NEXT, Symbol));
}

/// Runs one Fortran call: the C function CFn on the converted arguments,
/// or, when a handle does not convert, Forward (Open MPI's own binding,
/// which reports the error as it would without ddtc). Ierr is null for an
/// absent OPTIONAL ierror of `use mpi_f08`.
template <typename ForwardFn, typename CFn, typename... Kinds>
void run(MPI_Fint *Ierr, ForwardFn Forward, CFn C, Kinds &&...Args) {
  if (!(Args.valid() && ...) && Forward())
    return;
  int Rc = C(Args.c()...);
  (Args.finish(Rc), ...);
  if (Ierr)
    *Ierr = Rc;
}

/// Sets FortranCallSite for the length of one Fortran call.
class CallSiteScope {
public:
  explicit CallSiteScope(const void *ReturnAddress) {
    if (!FortranCallSite)
      FortranCallSite = ReturnAddress;
    else
      Nested = true;
  }
  ~CallSiteScope() {
    if (!Nested)
      FortranCallSite = nullptr;
  }
  CallSiteScope(const CallSiteScope &) = delete;
  CallSiteScope &operator=(const CallSiteScope &) = delete;

private:
  bool Nested = false;
};

// The C functions of the rows whose Fortran binding has other arguments
// than the C one: Fortran programs pass no argc and argv.
int initFromFortran() { return MPI_Init(nullptr, nullptr); }
int initThreadFromFortran(int Required, int *Provided) {
  return MPI_Init_thread(nullptr, nullptr, Required, Provided);
}

/// A Fortran string as C reads it: leading and trailing blanks dropped,
/// as the bindings of both families do.
[[maybe_unused]] std::string fromFortran(const char *S, int Length) {
  int Begin = 0, End = Length;
  while (Begin < End && S[Begin] == ' ')
    ++Begin;
  while (End > Begin && S[End - 1] == ' ')
    --End;
  return std::string(S + Begin, static_cast<size_t>(End - Begin));
}

} // namespace
} // namespace ddtc::fortran

//===----------------------------------------------------------------------===//
// The entry points
//===----------------------------------------------------------------------===//

// DDTC_FORTRAN_EACH(M, (A...), (B...), ...) is M(A...) M(B...) ..., for up
// to 14 parameters (MPI_Rget_accumulate has 13).
#define DDTC_FORTRAN_EACH_0(M)
#define DDTC_FORTRAN_EACH_1(M, X) M X
#define DDTC_FORTRAN_EACH_2(M, X, ...) M X DDTC_FORTRAN_EACH_1(M, __VA_ARGS__)
#define DDTC_FORTRAN_EACH_3(M, X, ...) M X DDTC_FORTRAN_EACH_2(M, __VA_ARGS__)
#define DDTC_FORTRAN_EACH_4(M, X, ...) M X DDTC_FORTRAN_EACH_3(M, __VA_ARGS__)
#define DDTC_FORTRAN_EACH_5(M, X, ...) M X DDTC_FORTRAN_EACH_4(M, __VA_ARGS__)
#define DDTC_FORTRAN_EACH_6(M, X, ...) M X DDTC_FORTRAN_EACH_5(M, __VA_ARGS__)
#define DDTC_FORTRAN_EACH_7(M, X, ...) M X DDTC_FORTRAN_EACH_6(M, __VA_ARGS__)
#define DDTC_FORTRAN_EACH_8(M, X, ...) M X DDTC_FORTRAN_EACH_7(M, __VA_ARGS__)
#define DDTC_FORTRAN_EACH_9(M, X, ...) M X DDTC_FORTRAN_EACH_8(M, __VA_ARGS__)
#define DDTC_FORTRAN_EACH_10(M, X, ...) M X DDTC_FORTRAN_EACH_9(M, __VA_ARGS__)
#define DDTC_FORTRAN_EACH_11(M, X, ...) M X DDTC_FORTRAN_EACH_10(M, __VA_ARGS__)
#define DDTC_FORTRAN_EACH_12(M, X, ...) M X DDTC_FORTRAN_EACH_11(M, __VA_ARGS__)
#define DDTC_FORTRAN_EACH_13(M, X, ...) M X DDTC_FORTRAN_EACH_12(M, __VA_ARGS__)
#define DDTC_FORTRAN_EACH_14(M, X, ...) M X DDTC_FORTRAN_EACH_13(M, __VA_ARGS__)
#define DDTC_FORTRAN_EACH_N(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, \
                            _13, _14, N, ...)                                  \
  N
#define DDTC_FORTRAN_EACH(M, ...)                                              \
  DDTC_FORTRAN_EACH_N(                                                         \
      __VA_ARGS__ __VA_OPT__(, ) DDTC_FORTRAN_EACH_14, DDTC_FORTRAN_EACH_13,   \
      DDTC_FORTRAN_EACH_12, DDTC_FORTRAN_EACH_11, DDTC_FORTRAN_EACH_10,        \
      DDTC_FORTRAN_EACH_9, DDTC_FORTRAN_EACH_8, DDTC_FORTRAN_EACH_7,           \
      DDTC_FORTRAN_EACH_6, DDTC_FORTRAN_EACH_5, DDTC_FORTRAN_EACH_4,           \
      DDTC_FORTRAN_EACH_3, DDTC_FORTRAN_EACH_2, DDTC_FORTRAN_EACH_1,           \
      DDTC_FORTRAN_EACH_0)                                                     \
  (M __VA_OPT__(, ) __VA_ARGS__)

// One parameter, (Kind, name[, extra]), as a parameter of the entry point,
// as an argument of Open MPI's binding, and as a converted argument.
#define DDTC_FORTRAN_PARAM(Kind, Name, ...) ddtc::fortran::Kind::Fortran Name,
#define DDTC_FORTRAN_NAME(Kind, Name, ...) Name,
#define DDTC_FORTRAN_CONVERT(Kind, Name, ...)                                  \
  , ddtc::fortran::Kind(Name __VA_OPT__(, ) __VA_ARGS__)

#define DDTC_FORTRAN_ENTRY(Symbol, CFunction, ...)                             \
  DDTC_EXPORT void Symbol(DDTC_FORTRAN_EACH(DDTC_FORTRAN_PARAM, __VA_ARGS__)   \
                              MPI_Fint *ierr) {                                \
    using namespace ddtc::fortran;                                             \
    CallSiteScope Scope(__builtin_return_address(0));                          \
    run(                                                                       \
        ierr,                                                                  \
        [&] {                                                                  \
          static auto Next = nextDefinition<decltype(&Symbol)>(#Symbol);       \
          if (Next)                                                            \
            Next(DDTC_FORTRAN_EACH(DDTC_FORTRAN_NAME, __VA_ARGS__) ierr);      \
          return Next != nullptr;                                              \
        },                                                                     \
        CFunction DDTC_FORTRAN_EACH(DDTC_FORTRAN_CONVERT, __VA_ARGS__));       \
  }

// The entry points of a row: DDTC_FORTRAN_ENTRIES_77 those of mpif.h and
// `use mpi`, DDTC_FORTRAN_ENTRY_F08 that of `use mpi_f08`.
#define DDTC_FORTRAN_ENTRIES_77(CFunction, Lower, Upper, ...)                  \
  DDTC_FORTRAN_ENTRY(mpi_##Lower, CFunction, __VA_ARGS__)                      \
  DDTC_FORTRAN_ENTRY(mpi_##Lower##_, CFunction, __VA_ARGS__)                   \
  DDTC_FORTRAN_ENTRY(mpi_##Lower##__, CFunction, __VA_ARGS__)                  \
  DDTC_FORTRAN_ENTRY(MPI_##Upper, CFunction, __VA_ARGS__)
#define DDTC_FORTRAN_ENTRY_F08(CFunction, Lower, Upper, ...)                   \
  DDTC_FORTRAN_ENTRY(mpi_##Lower##_f08_, CFunction, __VA_ARGS__)

// The rows of this library: DDTC_FORTRAN_TRACE or DDTC_FORTRAN_RT is
// defined by the build.
#define DDTC_FORTRAN_IN_Both(...) __VA_ARGS__
#if defined(DDTC_FORTRAN_TRACE)
#define DDTC_FORTRAN_IN_Trace(...) __VA_ARGS__
#define DDTC_FORTRAN_IN_Rt(...)
#elif defined(DDTC_FORTRAN_RT)
#define DDTC_FORTRAN_IN_Trace(...)
#define DDTC_FORTRAN_IN_Rt(...) __VA_ARGS__
#else
#error "FortranBindings.cpp is built into one of the preload libraries"
#endif

// Which entry points each kind of row gives in the family's library.
#ifdef OPEN_MPI
#define DDTC_FORTRAN(Libraries, CFunction, Lower, Upper, ...)                  \
  DDTC_FORTRAN_IN_##Libraries(                                                 \
      DDTC_FORTRAN_ENTRIES_77(CFunction, Lower, Upper, __VA_ARGS__)            \
          DDTC_FORTRAN_ENTRY_F08(CFunction, Lower, Upper, __VA_ARGS__))
#define DDTC_FORTRAN_BUF(...) DDTC_FORTRAN(__VA_ARGS__)
#define DDTC_FORTRAN_77(Libraries, CFunction, Lower, Upper, ...)               \
  DDTC_FORTRAN_IN_##Libraries(                                                 \
      DDTC_FORTRAN_ENTRIES_77(CFunction, Lower, Upper, __VA_ARGS__))
#else
#define DDTC_FORTRAN(Libraries, CFunction, Lower, Upper, ...)                  \
  DDTC_FORTRAN_IN_##Libraries(                                                 \
      DDTC_FORTRAN_ENTRY_F08(CFunction, Lower, Upper, __VA_ARGS__))
#endif
#include "FortranCalls.def"

// MPI_Type_set_name: the name is a Fortran string, whose length comes after
// ierr. The trace library names its types by it.
#define DDTC_FORTRAN_SET_NAME(Symbol)                                          \
  DDTC_EXPORT void Symbol(MPI_Fint *datatype, const char *type_name,           \
                          MPI_Fint *ierr, int name_len) {                      \
    using namespace ddtc::fortran;                                             \
    MPI_Datatype T = typeF2c(*datatype);                                       \
    static auto Next = nextDefinition<decltype(&Symbol)>(#Symbol);             \
    if (!converted(T) && Next)                                                 \
      return Next(datatype, type_name, ierr, name_len);                        \
    int Rc = MPI_Type_set_name(T, fromFortran(type_name, name_len).c_str());   \
    if (ierr)                                                                  \
      *ierr = Rc;                                                              \
  }
#if defined(DDTC_FORTRAN_TRACE)
#ifdef OPEN_MPI
DDTC_FORTRAN_SET_NAME(mpi_type_set_name)
DDTC_FORTRAN_SET_NAME(mpi_type_set_name_)
DDTC_FORTRAN_SET_NAME(mpi_type_set_name__)
DDTC_FORTRAN_SET_NAME(MPI_TYPE_SET_NAME)
#endif
DDTC_FORTRAN_SET_NAME(mpi_type_set_name_f08_)
#endif

//===- ddtc/MPI/MPISupport.h - Small helpers around MPI calls ---*- C++ -*-===//
//
// What every MPI-facing part of ddtc needs: an error code as text, a
// datatype handle that frees itself, the main() of the test and benchmark
// programs, and the choice between MPI 4's large-count functions and MPI
// 3.1's int-count ones.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_MPI_MPISUPPORT_H
#define DDTC_MPI_MPISUPPORT_H

#include <mpi.h>

#include <climits>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

// MPI 4 added a large-count (`_c`) form of every datatype constructor and of
// MPI_Type_get_envelope/contents, with MPI_Count counts, lengths and
// displacements. MPICH 4 has them; Open MPI 4.1 implements MPI 3.1 and has
// only the classic functions, whose counts and element displacements are
// ints (byte displacements are MPI_Aint in both). ddtc uses the `_c` form
// where it exists and otherwise the classic one, reporting a value that
// does not fit an int as an error. DDTC_MPI_COUNT_FN(F) is the function F
// of the family in use where the two take the same arguments but for the
// count types, DDTC_MPI_COUNT_NAME(F) its name for messages.
//
// The build detects the `_c` functions of each MPI library it builds for
// and defines DDTC_MPI_LARGE_COUNT to 0 or 1, and DDTC_MPI_4_CALLS for MPI
// 4's other new calls (persistent collectives, MPI_Isendrecv)
// (cmake/ddtcMPIFamilies.cmake); without them, the header's MPI_VERSION
// decides.
//
// MPICount is the count type of the family's functions, and
// DDTC_MPI_QUERY_FN(F) the type query F with MPI_Count results: MPI 4's
// `_c` one, or MPI 3's `_x` one.
#ifndef DDTC_MPI_LARGE_COUNT
#define DDTC_MPI_LARGE_COUNT (MPI_VERSION >= 4)
#endif
#ifndef DDTC_MPI_4_CALLS
#define DDTC_MPI_4_CALLS (MPI_VERSION >= 4)
#endif
#if DDTC_MPI_LARGE_COUNT
#define DDTC_MPI_COUNT_FN(F) F##_c
#define DDTC_MPI_COUNT_NAME(F) #F "_c"
#define DDTC_MPI_QUERY_FN(F) F##_c
#else
#define DDTC_MPI_COUNT_FN(F) F
#define DDTC_MPI_COUNT_NAME(F) #F
#define DDTC_MPI_QUERY_FN(F) F##_x
#endif

// Byte displacements are MPI_Aint in the classic functions: they take the
// IR's 64-bit values as they are.
static_assert(sizeof(MPI_Aint) >= sizeof(int64_t),
              "MPI_Aint narrower than ddtc's 64-bit displacements");

namespace ddtc {

/// Whether V fits an int argument of an MPI function.
inline bool fitsInt(int64_t V) { return V >= INT_MIN && V <= INT_MAX; }

#if DDTC_MPI_LARGE_COUNT
using MPICount = MPI_Count;
#else
using MPICount = int;
#endif
/// The largest count the family's count functions take.
constexpr int64_t MaxMPICount = DDTC_MPI_LARGE_COUNT ? INT64_MAX : INT_MAX;
/// N as a count argument of a DDTC_MPI_COUNT_FN function; the caller has
/// checked that it is at most MaxMPICount.
inline MPICount countArg(int64_t N) { return static_cast<MPICount>(N); }

/// The MPI library's message for an error code, on one line.
std::string mpiErrorString(int Code);

/// The first line of the MPI library's version string, its runs of blanks
/// made single spaces ("MPICH Version: 4.0.2"), through PMPI.
std::string mpiLibraryVersionLine();

/// The MPI library's name and version on one line ("MPICH 4.0.2").
std::string mpiLibraryVersion();

/// Whether the MPI library is MPICH, whose engine and protocols ddtc's
/// defaults were measured on (split sends, forms for sends). Through PMPI:
/// callable from the runtime's wrappers.
bool isMpichLibrary();

/// Runs Body between MPI_Init and MPI_Finalize, with errors returned
/// rather than fatal and the handle of every predefined type; a predefined
/// type the MPI library lacks is an error (status 1) naming Tool. Returns
/// Body's status.
int runWithMpi(
    int &Argc, char **&Argv, const char *Tool,
    const std::function<int(const std::vector<MPI_Datatype> &)> &Body);

/// A datatype handle that frees itself unless it is predefined.
class Handle {
public:
  Handle() = default;
  Handle(MPI_Datatype H, bool Owned) : H(H), Owned(Owned) {}
  Handle(const Handle &) = delete;
  Handle &operator=(const Handle &) = delete;
  Handle(Handle &&O) noexcept : H(O.H), Owned(O.Owned) { O.Owned = false; }
  Handle &operator=(Handle &&O) noexcept {
    reset();
    H = O.H;
    Owned = O.Owned;
    O.Owned = false;
    return *this;
  }
  ~Handle() { reset(); }
  MPI_Datatype get() const { return H; }
  /// Whether the handle is derived (and freed by this object).
  bool owned() const { return Owned; }
  /// Gives the handle up: the caller frees it.
  MPI_Datatype release() {
    Owned = false;
    return H;
  }
  void reset() {
    if (Owned)
      MPI_Type_free(&H);
    Owned = false;
    H = MPI_DATATYPE_NULL;
  }

private:
  MPI_Datatype H = MPI_DATATYPE_NULL;
  bool Owned = false;
};

} // namespace ddtc

#endif // DDTC_MPI_MPISUPPORT_H

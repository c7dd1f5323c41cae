//===- ddtc/MPI/MPISupport.h - Small helpers around MPI calls ---*- C++ -*-===//
//
// What every MPI-facing part of ddtc needs: an error code as text, a
// datatype handle that frees itself, and the main() of the test and
// benchmark programs.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_MPI_MPISUPPORT_H
#define DDTC_MPI_MPISUPPORT_H

#include <mpi.h>

#include <functional>
#include <string>
#include <vector>

namespace ddtc {

/// The MPI library's message for an error code, on one line.
std::string mpiErrorString(int Code);

/// Runs Body between MPI_Init and MPI_Finalize, with errors returned
/// rather than fatal and the handle of every predefined type; a predefined
/// type the MPI library lacks is an error (status 1) naming Tool. Returns
/// Body's status.
int runWithMpi(int &Argc, char **&Argv, const char *Tool,
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

//===- test/MPI/MPIBuilder.h - ddtc types as MPI handles --------*- C++ -*-===//
//
// Builds a ddtc type with real MPI constructor calls, for the tests that
// compare ddtc with MPICH (ddtc-oracle, ddtc-emit-check): the predefined
// handle of every Predefined.def name, one derived handle per distinct
// node, and the knowledge of where MPICH 4.0.2's MPI_Pack is known to crash.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_TEST_MPI_MPIBUILDER_H
#define DDTC_TEST_MPI_MPIBUILDER_H

#include "ddtc/IR/Type.h"

#include <mpi.h>

#include <climits>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace ddtc {

/// The MPI handle of every predefined type, indexed by PredefinedId; the
/// names without a handle are listed in Missing.
std::vector<MPI_Datatype> makeHandleTable(std::string &Missing);

/// Runs Body between MPI_Init and MPI_Finalize, with errors returned
/// rather than fatal and the handle of every predefined type; a predefined
/// type the MPI library lacks is an error (status 1) naming Tool. Returns
/// Body's status.
int runWithMpi(int &Argc, char **&Argv, const char *Tool,
               const std::function<int(const std::vector<MPI_Datatype> &)> &Body);

/// MPICH's message for an error code, on one line.
std::string mpiErrorString(int Code);

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

class MpiBuilder {
public:
  explicit MpiBuilder(const std::vector<MPI_Datatype> &Predefined)
      : Predefined(Predefined) {}

  /// Builds T (not committed) and frees the intermediate types. A node
  /// that occurs several times in T's DAG is built once and its handle
  /// reused, as a program passes one handle several times: ddtc's nodes are
  /// hash-consed, so for ddtc two equal subtrees are one type, and MPICH
  /// looks at the identity of types (Yaksa turns a struct whose members are
  /// all the same type into an hindexed, without the struct's padding). On
  /// failure, Err names the MPI call and MPICH's message.
  std::optional<Handle> build(const Type *T, std::string &Err);

private:
  std::optional<MPI_Datatype> buildNode(const Type *T, std::string &Err);
  std::optional<MPI_Datatype> fail(std::string &Err, const char *Call,
                                   int Code) {
    Err = std::string(Call) + ": " + mpiErrorString(Code);
    return std::nullopt;
  }
  static std::vector<MPI_Count> counts(std::span<const int64_t> L) {
    return std::vector<MPI_Count>(L.begin(), L.end());
  }
  static bool toInt(int64_t V, int &Out) {
    if (V < INT_MIN || V > INT_MAX)
      return false;
    Out = static_cast<int>(V);
    return true;
  }

  const std::vector<MPI_Datatype> &Predefined;
  /// The derived types built so far for the current root, and the order of
  /// their creation (they are freed in that order, so that MPICH's handle
  /// allocation does not depend on addresses).
  std::map<const Type *, MPI_Datatype> Built;
  std::vector<const Type *> BuildOrder;
};

/// Whether MPI_Pack of T may run into the division by zero of MPICH 4.0.2's
/// Yaksa: a struct packs each member with non-zero blocklength through
/// yaksi_ipack_backend, even a member of size 0, and for a non-contiguous
/// member whose num_contig is 0 (e.g. an hvector with blocklength 0 of a
/// resized type) yaksuri_seq_ipack computes `type->size / type->num_contig`
/// and dies of SIGFPE. This over-approximates: any struct member of size 0
/// with a non-zero blocklength, anywhere in the tree.
bool mayCrashYaksaPack(const Type *T);

} // namespace ddtc

#endif // DDTC_TEST_MPI_MPIBUILDER_H

//===- ddtc/MPI/TypeBuilder.h - ddtc types as MPI handles -------*- C++ -*-===//
//
// Builds a ddtc type with real MPI constructor calls: one derived handle
// per distinct node. Used by the tests that compare ddtc with MPICH, the
// benchmarks, and the runtime; with the knowledge of where MPICH 4.0.2's
// MPI_Pack is known to crash.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_MPI_TYPEBUILDER_H
#define DDTC_MPI_TYPEBUILDER_H

#include "ddtc/IR/Type.h"
#include "ddtc/MPI/MPISupport.h"

#include <mpi.h>

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ddtc {

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
  /// failure, Err names the MPI call and the MPI library's message, or the
  /// argument that does not fit the call's int parameter (MPI before 4.0
  /// has only int counts; MPISupport.h).
  std::optional<Handle> build(const Type *T, std::string &Err);

private:
  std::optional<MPI_Datatype> buildNode(const Type *T, std::string &Err);
  std::optional<MPI_Datatype> fail(std::string &Err, const char *Call,
                                   int Code) {
    Err = std::string(Call) + ": " + mpiErrorString(Code);
    return std::nullopt;
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

#endif // DDTC_MPI_TYPEBUILDER_H

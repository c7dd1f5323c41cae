//===- ddtc/MPI/TypeDecoder.h - MPI handles as ddtc types -------*- C++ -*-===//
//
// The inverse of TypeBuilder: reads a datatype that some program built with
// MPI calls -- code ddtc never saw -- back into the IR, through
// MPI_Type_get_envelope_c and MPI_Type_get_contents_c, which return the
// constructor and the arguments each type was made with (MPI-4 §5.1.13).
// Every combiner of MPI-4 that the IR has a kind for is decoded, in its
// classic and its large-count (`_c`) form; the IR then computes bounds,
// typemap and normal form with MPICH's rules, as for a description file.
// With an MPI before 4.0 (Open MPI 4.1), which has neither the `_c` calls
// nor `_c` types, the classic MPI_Type_get_envelope/contents are used.
//
// Calls go to the PMPI_ entry points, so that the decoder works inside the
// interposition libraries, which wrap the MPI_ names (lib/Runtime).
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_MPI_TYPEDECODER_H
#define DDTC_MPI_TYPEDECODER_H

#include "ddtc/IR/TypeContext.h"

#include <mpi.h>

#include <span>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace ddtc {

class TypeDecoder {
public:
  /// Predefined: the handle table of makeHandleTable.
  TypeDecoder(TypeContext &Ctx, std::span<const MPI_Datatype> Predefined)
      : Ctx(Ctx), Predefined(Predefined) {}

  /// The IR of H. Fails, with a message naming the combiner or the
  /// predefined type, for what the IR cannot express: the Fortran 90
  /// parameterized types (MPI_Type_create_f90_*), predefined types outside
  /// Predefined.def, and arguments the IR rejects.
  Expected<const Type *> decode(MPI_Datatype H);

  /// Drops what is cached for H, which the program frees: MPI may give its
  /// handle to the next type created. decode() caches what it returns by
  /// handle, so that a type built on an earlier committed one does not
  /// decode it again; the handles of operands, which MPI_Type_get_contents
  /// returns and the program may have freed already, are cached only
  /// within one call.
  void forget(MPI_Datatype H) { Cache.erase(H); }
  /// Whether decode() also asks the library for the size, bounds and true
  /// bounds of every handle it reads and fails where they are not those the
  /// context's rules compute for its node. Libraries differ in which types
  /// they pad to their alignment (MPI-4 §5.1.6 leaves the padding of
  /// derived types to them), and a kernel laid out by other rules than the
  /// library's would step through memory the program does not own. Off by
  /// default: a trace records the calls, whatever the bounds.
  void setCheckLayout(bool On) { CheckLayout = On; }
  /// Whether the last decode() failed for that check alone.
  bool failedOnLayout() const { return LayoutFailed; }

private:
  using Memo = std::unordered_map<MPI_Datatype, const Type *>;
  /// One decode() call: the operands decoded, and the handles being
  /// decoded (a handle among its own operands is refused, not followed
  /// 1024 levels deep; a library can only answer so when corrupted).
  struct CallState {
    Memo Done;
    std::unordered_set<MPI_Datatype> Open;
  };
  Expected<const Type *> decodeAt(MPI_Datatype H, unsigned Depth,
                                  CallState &Call);
  Expected<const Type *> decodeDerived(MPI_Datatype H, unsigned Depth,
                                       CallState &Call);

  /// T, or an error if H's bounds under the library are not T's.
  Expected<const Type *> checked(MPI_Datatype H, const Type *T) const;

  TypeContext &Ctx;
  std::span<const MPI_Datatype> Predefined;
  Memo Cache;
  bool CheckLayout = false;
  mutable bool LayoutFailed = false;
};

/// Appends H's constructor calls, all the way down, to Out as words: the
/// combiner, the lengths and contents of its four argument arrays, then
/// each operand's words (a predefined operand: its handle). Two handles
/// with equal words were built by the same calls with the same arguments,
/// so they have one typemap and bounds -- without decoding either. False
/// if MPI fails or the nesting exceeds MaxTypeDepth.
bool appendConstructorWords(MPI_Datatype H, std::vector<uint64_t> &Out);

/// The name of an MPI_COMBINER_* value ("MPI_COMBINER_VECTOR").
const char *getCombinerName(int Combiner);

/// The name the program gave H with MPI_Type_set_name, through PMPI; empty
/// if none. Open MPI names every type made by MPI_Type_dup or
/// MPI_Type_create_resized "Dup ..." itself, where the standard gives a new
/// type no name: under Open MPI, such a name on such a type reads as none.
std::string getTypeName(MPI_Datatype H);

/// Whether H is a derived type (its combiner is not MPI_COMBINER_NAMED),
/// asked through PMPI with the envelope call of the MPI family in use;
/// false for an invalid handle.
bool isDerivedType(MPI_Datatype H);

} // namespace ddtc

#endif // DDTC_MPI_TYPEDECODER_H

//===- test/Fuzz/FakeDatatypes.h - MPI answers the fuzzer writes -*- C++ -*-===//
//
// The decoder (lib/MPI/TypeDecoder.cpp) learns a type from the MPI
// library's answers to MPI_Type_get_envelope_c and _contents_c. To feed it
// answers no real library would give -- unknown combiners, arrays too short
// or absurdly long, cycles, operands that are not types -- the fuzz target
// links this file's definitions of those PMPI_ functions (and of the two
// the decoder's messages and cleanup use), which take precedence over
// MPICH's. The answers come from a table the fuzzer's bytes fill; every
// operand handle the contents return is a reference the decoder must free,
// and the table counts them.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_TEST_FUZZ_FAKEDATATYPES_H
#define DDTC_TEST_FUZZ_FAKEDATATYPES_H

#include <mpi.h>

#include <cstdint>
#include <map>
#include <vector>

namespace ddtc::fuzz {

/// What MPI answers for one derived handle.
struct FakeContents {
  int Combiner = MPI_COMBINER_NAMED;
  /// The array sizes the envelope reports (ints, addresses, large counts,
  /// types); may differ from the arrays below, which the contents call
  /// pads with zeros (and the types array with MPI_INT).
  MPI_Count Sizes[4] = {0, 0, 0, 0};
  std::vector<int> Ints;
  std::vector<MPI_Aint> Addresses;
  std::vector<MPI_Count> Counts;
  std::vector<MPI_Datatype> Types;
};

/// The fake library's state: its derived handles (every other handle is a
/// named type), and the references the contents calls handed out and the
/// decoder has not freed.
struct FakeDatatypes {
  std::map<MPI_Datatype, FakeContents> Derived;
  std::map<MPI_Datatype, int64_t> References;

  /// H is a derived type: an entry whose combiner is not MPI_COMBINER_NAMED
  /// (the fuzzer may give one that combiner, making it a named type).
  bool isDerived(MPI_Datatype H) const {
    auto It = Derived.find(H);
    return It != Derived.end() && It->second.Combiner != MPI_COMBINER_NAMED;
  }
  /// The handle of fake derived type I (not a predefined handle of MPICH).
  static MPI_Datatype handle(unsigned I) {
    return static_cast<MPI_Datatype>(0x2c000000 + static_cast<int>(I));
  }
  /// The state the PMPI_ definitions answer from.
  static FakeDatatypes &get();
};

} // namespace ddtc::fuzz

#endif // DDTC_TEST_FUZZ_FAKEDATATYPES_H

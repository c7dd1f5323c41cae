//===- test/Fuzz/FuzzTypeDecoder.cpp - Fuzzing the runtime's decoder ------===//
//
// The runtime decodes every type a program builds from MPI's envelope and
// contents answers (TypeDecoder). Here the answers are the fuzzer's
// (FakeDatatypes.h): up to eight derived handles, each with any combiner
// (valid, Fortran-only, unknown), either argument layout (classic or
// large-count), arrays shorter or longer than the combiner needs or beyond
// any list ddtc reads, operands that are predefined, unmodelled named or
// derived types, cycles included. The decoder must give a diagnostic or a
// type that verifies, the same type again from its cache, and free every
// operand reference the contents calls returned.
//
//===----------------------------------------------------------------------===//
#include "FakeDatatypes.h"
#include "FuzzInput.h"

#include "ddtc/IR/TextForm.h"
#include "ddtc/IR/Verifier.h"
#include "ddtc/MPI/PredefinedHandles.h"
#include "ddtc/MPI/TypeDecoder.h"
#include "ddtc/Target/MPICHRules.h"

#include <cstdio>
#include <cstdlib>

using namespace ddtc;
using fuzz::FakeContents;
using fuzz::FakeDatatypes;

namespace {

const std::vector<MPI_Datatype> &handleTable() {
  static std::string Missing;
  static const std::vector<MPI_Datatype> Table = makeHandleTable(Missing);
  return Table;
}

/// A named handle of MPICH that ddtc has no kind for.
constexpr MPI_Datatype Unmodelled = static_cast<MPI_Datatype>(0x4c00ffff);

/// An array size as the envelope reports it: mostly small, sometimes long,
/// now and then beyond what the decoder may allocate.
MPI_Count arraySize(fuzz::ByteReader &In) {
  uint8_t B = In.byte();
  switch (B) {
  case 0xff:
    return MPI_Count(1) << 62;
  case 0xfe:
    return -1;
  case 0xfd:
    return 4 * MPI_Count(MaxListLength) + 5;
  case 0xfc:
    return MPI_Count(1) << 16;
  default:
    return B % 32;
  }
}

MPI_Datatype operand(fuzz::ByteReader &In, unsigned NumDerived) {
  uint8_t B = In.byte();
  if (B < 0x80) {
    const std::vector<MPI_Datatype> &Table = handleTable();
    MPI_Datatype H = Table[B % Table.size()];
    return H == MPI_DATATYPE_NULL ? MPI_INT : H;
  }
  if (B < 0xf8)
    return FakeDatatypes::handle(B % NumDerived);
  return Unmodelled;
}

[[noreturn]] void fail(const char *What, const std::string &Detail) {
  std::fprintf(stderr, "fuzz-type-decoder: %s\n  %s\n", What, Detail.c_str());
  std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  FakeDatatypes &F = FakeDatatypes::get();
  F = FakeDatatypes();
  fuzz::ByteReader In(Data, Size);
  unsigned NumDerived = 1 + In.byte() % 8;
  for (unsigned I = 0; I < NumDerived; ++I) {
    FakeContents C;
    C.Combiner = 1 + In.byte() % 20;
    bool Large = In.byte() % 2;
    for (int A = 0; A < 4; ++A)
      C.Sizes[A] = A == 2 && !Large ? 0 : arraySize(In);
    // The arrays the contents call fills; what they lack is padding. At
    // most a few hundred values come from the input.
    auto Listed = [&](int A) {
      return std::min<MPI_Count>(std::max<MPI_Count>(C.Sizes[A], 0), 256);
    };
    for (MPI_Count K = 0; K < Listed(0); ++K)
      C.Ints.push_back(static_cast<int>(In.number()));
    for (MPI_Count K = 0; K < Listed(1); ++K)
      C.Addresses.push_back(In.number());
    for (MPI_Count K = 0; K < Listed(2); ++K)
      C.Counts.push_back(In.number());
    for (MPI_Count K = 0; K < Listed(3); ++K)
      C.Types.push_back(operand(In, NumDerived));
    F.Derived.emplace(FakeDatatypes::handle(I), std::move(C));
  }

  TypeContext Ctx(getMPICHRules());
  TypeDecoder Decoder(Ctx, handleTable());
  MPI_Datatype Root = FakeDatatypes::handle(0);
  Expected<const Type *> T = Decoder.decode(Root);
  if (T) {
    if (Error E = verifyType(*T, Ctx.getRules()))
      fail("the decoded type does not verify", E.message());
    Expected<const Type *> Again = Decoder.decode(Root);
    if (!Again || *Again != *T)
      fail("decoding twice gives another answer", printType(*T));
  } else {
    std::string Message = T.takeError().message();
    if (Message.empty())
      fail("a failure without a message", "");
  }
  for (const auto &[H, Count] : F.References)
    if (Count != 0)
      fail("operand references not freed exactly once",
           std::to_string(H) + ": " + std::to_string(Count));
  return 0;
}

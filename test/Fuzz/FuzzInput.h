//===- test/Fuzz/FuzzInput.h - Types from fuzzer bytes ----------*- C++ -*-===//
//
// The structured input of the fuzz targets that need valid types: bytes
// decoded into a type tree through TypeContext's generic factory, so that
// every input is a valid type and a mutation of a few bytes changes one
// argument or one node (libFuzzer's mutations stay local). Numbers are
// mostly small, sometimes negative, now and then as large as 64 bits allow:
// the corners of the layout rules. Arguments MPI would reject fall back to
// a predefined type.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_TEST_FUZZ_FUZZINPUT_H
#define DDTC_TEST_FUZZ_FUZZINPUT_H

#include "ddtc/IR/TypeContext.h"

#include <cstdint>
#include <cstring>
#include <vector>

namespace ddtc::fuzz {

class ByteReader {
public:
  ByteReader(const uint8_t *Data, size_t Size) : Data(Data), Size(Size) {}

  uint8_t byte() { return Pos < Size ? Data[Pos++] : 0; }
  bool empty() const { return Pos >= Size; }

  /// Mostly in [-4, 11]; 1 in 16 a 16-bit value; 1 in 256 any 64 bits.
  int64_t number() {
    uint8_t B = byte();
    if (B == 0xff) {
      uint64_t V = 0;
      for (int I = 0; I < 8; ++I)
        V = V << 8 | byte();
      int64_t S;
      std::memcpy(&S, &V, sizeof S);
      return S;
    }
    if (B >= 0xf0)
      return static_cast<int16_t>(byte() << 8 | byte());
    return static_cast<int64_t>(B % 16) - 4;
  }

private:
  const uint8_t *Data;
  size_t Size;
  size_t Pos = 0;
};

/// A valid type of depth at most Depth from the next bytes.
inline const Type *decodeType(TypeContext &Ctx, ByteReader &In,
                              unsigned Depth) {
  const Type *Fallback =
      Ctx.getPredefined(static_cast<PredefinedId>(In.byte() % NumPredefined));
  uint8_t Pick = In.byte();
  if (Depth == 0 || Pick % 8 == 0)
    return Fallback;
  // Every kind but Predefined, by TypeKinds.def's order.
  TypeKind K = static_cast<TypeKind>(1 + Pick / 8 % 12);
  const KindSpec &Spec = getKindSpec(K);
  size_t Lists = Spec.NumLists ? In.byte() % 6 : 0;
  std::vector<int64_t> Ints;
  for (unsigned I = 0; I < Spec.NumScalars + Spec.NumLists * Lists; ++I)
    Ints.push_back(In.number());
  std::vector<const Type *> Operands;
  size_t NumOperands = K == TypeKind::Struct ? Lists : 1;
  for (size_t I = 0; I < NumOperands; ++I)
    Operands.push_back(decodeType(Ctx, In, Depth - 1));
  Expected<const Type *> T = Ctx.get(K, std::move(Ints), std::move(Operands));
  if (!T) {
    (void)T.takeError();
    return Fallback;
  }
  return *T;
}

} // namespace ddtc::fuzz

#endif // DDTC_TEST_FUZZ_FUZZINPUT_H

//===- lib/IR/TypeFingerprint.cpp - Structural hash of a node -------------===//
//
// Version 1 of the fingerprint, which kernel libraries are keyed by: the
// values are pinned by unittests/IR/FingerprintTest.cpp, and any change here
// orphans every kernel library built before it.
//
// A node is the word sequence
//   name of the kind (as in format v1),
//   predefined types: their MPI name; other kinds: the number of integer
//     arguments, then each one,
//   the number of operands, then each operand's Hi and Lo,
// where a name is its length followed by its bytes, eight to a word, little
// endian. Names rather than TypeKind / PredefinedId values make the result
// independent of the order of the .def files, and the lengths make the
// sequence unambiguous. Each half of the fingerprint is a chain over these
// words with its own seed and its own finalizer (MurmurHash3's fmix64 and
// SplitMix64's), so that the halves are independent hashes.
//
// Apart from TypeContext.cpp, which creates and uniques the nodes, because
// this algorithm is pinned and must change only deliberately.
//
//===----------------------------------------------------------------------===//
#include "TypeFingerprint.h"

#include <string_view>

namespace ddtc {

namespace {

/// MurmurHash3's 64-bit finalizer.
constexpr uint64_t fmix64(uint64_t K) {
  K ^= K >> 33;
  K *= 0xff51afd7ed558ccdull;
  K ^= K >> 33;
  K *= 0xc4ceb9fe1a85ec53ull;
  K ^= K >> 33;
  return K;
}

/// SplitMix64's finalizer (Stafford's variant 13).
constexpr uint64_t splitmix64(uint64_t Z) {
  Z = (Z ^ (Z >> 30)) * 0xbf58476d1ce4e5b9ull;
  Z = (Z ^ (Z >> 27)) * 0x94d049bb133111ebull;
  return Z ^ (Z >> 31);
}

class FingerprintBuilder {
public:
  void add(uint64_t W) {
    Hi = fmix64(Hi ^ (W * 0x9e3779b97f4a7c15ull));
    Lo = splitmix64(Lo + (W ^ 0xd6e8feb86659fd93ull));
    ++Words;
  }
  void add(std::string_view Name) {
    add(Name.size());
    for (size_t I = 0; I < Name.size(); I += 8) {
      uint64_t W = 0;
      for (size_t J = 0; J < 8 && I + J < Name.size(); ++J)
        W |= uint64_t(static_cast<unsigned char>(Name[I + J])) << (8 * J);
      add(W);
    }
  }
  Fingerprint finish() const {
    return {fmix64(Hi ^ Words), splitmix64(Lo ^ Words)};
  }

private:
  // "ddtc-fp1" and "ddtc-fp2" in ASCII: fixed, and different per lane.
  uint64_t Hi = 0x6464'7463'2d66'7031ull;
  uint64_t Lo = 0x6464'7463'2d66'7032ull;
  uint64_t Words = 0;
};

} // namespace

Fingerprint fingerprintNode(TypeKind K, std::span<const int64_t> Ints,
                            std::span<const Type *const> Operands) {
  FingerprintBuilder B;
  B.add(getKindName(K));
  if (K == TypeKind::Predefined) {
    B.add(getPredefinedInfo(static_cast<PredefinedId>(Ints[0])).Name);
  } else {
    B.add(Ints.size());
    for (int64_t V : Ints)
      B.add(static_cast<uint64_t>(V));
  }
  B.add(Operands.size());
  for (const Type *T : Operands) {
    B.add(T->getFingerprint().Hi);
    B.add(T->getFingerprint().Lo);
  }
  return B.finish();
}

} // namespace ddtc

//===- lib/CodeGen/TableCode.cpp - Index tables as text -------------------===//
#include "ddtc/CodeGen/TableCode.h"

#include <cassert>

namespace ddtc {

namespace {

/// The digits of the code, by value.
constexpr char Digits[] =
    "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
static_assert(sizeof(Digits) == 65, "64 digits");

/// Appends Num of kind Repeat: 4 bits in the first digit, 5 in each other.
void appendNumber(std::string &Out, bool Repeat, uint64_t Num) {
  unsigned First = static_cast<unsigned>(Num & 15) | (Repeat ? 16 : 0);
  Num >>= 4;
  Out += Digits[First | (Num ? 32 : 0)];
  while (Num) {
    unsigned D = static_cast<unsigned>(Num & 31);
    Num >>= 5;
    Out += Digits[D | (Num ? 32 : 0)];
  }
}

} // namespace

std::vector<std::string> encodeTable(std::span<const int64_t> Values,
                                     size_t MaxChunk) {
  assert(MaxChunk >= 13 && "a chunk must hold the longest number");
  std::vector<std::string> Chunks(1);
  auto Append = [&](bool Repeat, uint64_t Num) {
    std::string Number;
    appendNumber(Number, Repeat, Num);
    if (Chunks.back().size() + Number.size() > MaxChunk)
      Chunks.emplace_back();
    Chunks.back() += Number;
  };
  // Differences modulo 2^64, so that every pair of 64-bit values has one.
  uint64_t Previous = 0, Step = 0, Run = 0;
  for (int64_t V : Values) {
    uint64_t Diff = static_cast<uint64_t>(V) - Previous;
    Previous = static_cast<uint64_t>(V);
    if (Diff == Step) {
      ++Run;
      continue;
    }
    if (Run)
      Append(true, Run);
    Run = 0;
    Step = Diff;
    // Zigzag: small differences of either sign get small numbers.
    Append(false, (Diff << 1) ^ (0 - (Diff >> 63)));
  }
  if (Run)
    Append(true, Run);
  return Chunks;
}

} // namespace ddtc

//===- ddtc/Runtime/TypedBlockRules.h - DDTC_RT_TYPED_BLOCKS -----*- C++ -*-===//
//
// The value of DDTC_RT_TYPED_BLOCKS (docs/runtime.md, "Large blocks in
// large messages"): up to four rules BLOCK:BYTES, comma-separated, or off.
// One definition for the runtime, which reads it, and ddtc-rt-calibrate,
// which writes it for a machine, so that what one writes the other reads.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_RUNTIME_TYPEDBLOCKRULES_H
#define DDTC_RUNTIME_TYPEDBLOCKRULES_H

#include "ddtc/Support/ByteSize.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace ddtc {

/// One rule: a point-to-point message of more than Above packed bytes on a
/// type whose blocks average at least Block bytes goes to MPI as written.
struct TypedRule {
  uint64_t Block = 0;
  uint64_t Above = 0;
  bool operator==(const TypedRule &) const = default;
};

/// The most rules a setting holds: the runtime checks them on every
/// point-to-point call it could substitute, from a fixed array.
inline constexpr size_t MaxTypedRules = 4;

/// Reads Text into Out[0, N): "off" is no rule; otherwise BLOCK:BYTES
/// pairs of sizes (parseByteSize), BLOCK > 0, at most MaxTypedRules. False,
/// with Out and N untouched, for anything else (an empty rule included).
inline bool parseTypedRules(std::string_view Text,
                            TypedRule (&Out)[MaxTypedRules], size_t &N) {
  if (Text == "off") {
    N = 0;
    return true;
  }
  TypedRule Rules[MaxTypedRules];
  size_t Count = 0;
  for (size_t Start = 0; Start <= Text.size();) {
    size_t End = std::min(Text.find(',', Start), Text.size());
    TypedRule R;
    if (Count == MaxTypedRules ||
        !parseByteSizePair(Text.substr(Start, End - Start), R.Block, R.Above) ||
        R.Block == 0)
      return false;
    Rules[Count++] = R;
    Start = End + 1;
  }
  for (size_t I = 0; I < Count; ++I)
    Out[I] = Rules[I];
  N = Count;
  return true;
}

/// Rules[0, N) as parseTypedRules reads them back: sizes with their
/// largest suffix ("1K:16K,256:256K") where Suffixes, else in bytes
/// ("1024:16384,256:262144", the runtime's report); "off" for none.
inline std::string formatTypedRules(const TypedRule *Rules, size_t N,
                                    bool Suffixes) {
  auto Size = [Suffixes](uint64_t V) {
    return Suffixes ? formatByteSize(V) : std::to_string(V);
  };
  std::string Text;
  for (size_t I = 0; I < N; ++I)
    Text += (I ? "," : "") + Size(Rules[I].Block) + ":" + Size(Rules[I].Above);
  return N ? Text : "off";
}

} // namespace ddtc

#endif // DDTC_RUNTIME_TYPEDBLOCKRULES_H

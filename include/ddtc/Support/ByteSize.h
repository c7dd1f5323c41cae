//===- ddtc/Support/ByteSize.h - Sizes in environment variables -*- C++ -*-===//
//
// The libraries' and tools' environment variables take sizes as "512M":
// one parser, so that every variable reads them alike.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_SUPPORT_BYTESIZE_H
#define DDTC_SUPPORT_BYTESIZE_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace ddtc {

/// Parses a size in bytes: digits with an optional suffix K, M or G (powers
/// of 1024), e.g. "512M". False if Text is anything else or overflows.
inline bool parseByteSize(std::string_view Text, uint64_t &Bytes) {
  uint64_t V = 0;
  size_t I = 0;
  for (; I < Text.size() && Text[I] >= '0' && Text[I] <= '9'; ++I) {
    if (V > (UINT64_MAX - 9) / 10)
      return false;
    V = V * 10 + static_cast<uint64_t>(Text[I] - '0');
  }
  if (I == 0)
    return false;
  unsigned Shift = 0;
  if (I + 1 == Text.size()) {
    switch (Text[I]) {
    case 'K':
      Shift = 10;
      break;
    case 'M':
      Shift = 20;
      break;
    case 'G':
      Shift = 30;
      break;
    default:
      return false;
    }
  } else if (I != Text.size()) {
    return false;
  }
  if (V > (UINT64_MAX >> Shift))
    return false;
  Bytes = V << Shift;
  return true;
}

/// "A:B", two sizes parseByteSize reads (DDTC_RT_SPLIT_SEND's window,
/// DDTC_RT_TYPED_BLOCKS's block and message sizes).
inline bool parseByteSizePair(std::string_view Text, uint64_t &A,
                              uint64_t &B) {
  size_t Colon = Text.find(':');
  return Colon != std::string_view::npos &&
         parseByteSize(Text.substr(0, Colon), A) &&
         parseByteSize(Text.substr(Colon + 1), B);
}

/// Bytes as parseByteSize reads it back, with the largest suffix that
/// divides it ("64K", "1M", "8256").
inline std::string formatByteSize(uint64_t Bytes) {
  const char *Suffix = "GMK";
  for (unsigned Shift = 30; Shift >= 10; Shift -= 10, ++Suffix)
    if (Bytes && Bytes % (uint64_t(1) << Shift) == 0)
      return std::to_string(Bytes >> Shift) + *Suffix;
  return std::to_string(Bytes);
}

} // namespace ddtc

#endif // DDTC_SUPPORT_BYTESIZE_H

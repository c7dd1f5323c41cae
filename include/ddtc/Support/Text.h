//===- ddtc/Support/Text.h - Quoting descriptions ---------------*- C++ -*-===//
//
// Long type descriptions (an index list of 10^6 entries) are quoted in
// reports and generated comments cut to one length, everywhere the same.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_SUPPORT_TEXT_H
#define DDTC_SUPPORT_TEXT_H

#include <cstddef>
#include <string>
#include <string_view>

namespace ddtc {

/// How much of a description a report line or a comment quotes.
constexpr size_t MaxQuoted = 160;

/// Text itself if it has at most Max characters; else its first Max
/// characters followed by " ..." (Max + 4 in all).
inline std::string shorten(std::string_view Text, size_t Max = MaxQuoted) {
  if (Text.size() <= Max)
    return std::string(Text);
  return std::string(Text.substr(0, Max)) + " ...";
}

} // namespace ddtc

#endif // DDTC_SUPPORT_TEXT_H

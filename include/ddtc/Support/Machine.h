//===- ddtc/Support/Machine.h - The target machine's memory ------*- C++ -*-===//
//
// What ddtc assumes of the machine the packed data lives on, in one place
// for the risk analysis (TLB pressure) and the code generator (when to
// tile a transpose): x86-64 with 4 KiB pages, 64 first-level data-TLB
// entries and 64-byte cache lines.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_SUPPORT_MACHINE_H
#define DDTC_SUPPORT_MACHINE_H

#include <cstdint>

namespace ddtc {

constexpr int64_t PageBytes = 4096;
constexpr uint64_t TlbEntries = 64;
constexpr uint64_t CacheLineBytes = 64;

} // namespace ddtc

#endif // DDTC_SUPPORT_MACHINE_H

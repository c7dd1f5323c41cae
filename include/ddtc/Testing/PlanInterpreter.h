//===- ddtc/Testing/PlanInterpreter.h - Bytes a pack plan copies -*- C++ -*-===//
//
// Interprets a pack plan (ddtc/CodeGen/PackPlan.h) the way PackEmitter.cpp
// prints it -- runs, segments with their strided or tabled elements and
// repetitions, dense children, tiled transposes -- into the byte ranges
// pack copies, in packed order. A correct plan copies exactly the bytes of
// the typemap walker, in its order: the fuzz target test/Fuzz/
// FuzzPackPlan.cpp and unittests/CodeGen compare the two.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_TESTING_PLANINTERPRETER_H
#define DDTC_TESTING_PLANINTERPRETER_H

#include "ddtc/CodeGen/PackPlan.h"

#include <cstdint>
#include <vector>

namespace ddtc {

/// The byte ranges that copying Count instances of K's node, Extent bytes
/// apart, moves in packed order, adjacent ranges merged.
std::vector<ByteBlock> interpretPlan(const Kernel &K, int64_t Extent,
                                     uint64_t Count);

/// The typemap walker's byte runs of Count instances of T, adjacent runs
/// merged: what interpretPlan must give for T's kernel.
std::vector<ByteBlock> typemapBytes(const Type *T, uint64_t Count);

} // namespace ddtc

#endif // DDTC_TESTING_PLANINTERPRETER_H

//===- tools/ddtc/LargeStack.h - Run the driver on a large stack -*- C++ -*-===//
//
// Reading, normalizing and emitting recurse once per level of type nesting
// (at most 1024 levels, 2056 of JSON; docs/testing.md). A frame is a few
// hundred bytes in an optimized build but several kilobytes under
// AddressSanitizer, where the main thread's 8 MiB run out before the
// nesting limits are reached. Like clang, which runs its front end on a
// thread of its own stack size, the driver runs on a thread whose stack
// holds the deepest input the limits admit in every build. The stack is
// reserved address space: pages are committed only when touched.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_TOOLS_LARGESTACK_H
#define DDTC_TOOLS_LARGESTACK_H

#include <cstddef>

namespace ddtc {

/// The stack the driver runs on.
inline constexpr std::size_t DriverStackBytes = std::size_t(256) << 20;

/// Runs Main(Argc, Argv) on a thread with a stack of StackBytes and returns
/// its result; runs it on the calling thread if no such thread can be made.
int runOnLargeStack(int (*Main)(int, char **), int Argc, char **Argv,
                    std::size_t StackBytes = DriverStackBytes);

} // namespace ddtc

#endif // DDTC_TOOLS_LARGESTACK_H

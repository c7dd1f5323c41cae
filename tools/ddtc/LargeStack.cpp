//===- tools/ddtc/LargeStack.cpp - Run the driver on a large stack --------===//
#include "LargeStack.h"

#include <pthread.h>

namespace ddtc {

namespace {
struct MainCall {
  int (*Main)(int, char **);
  int Argc;
  char **Argv;
  int Result = 0;
};
} // namespace

static void *runMainCall(void *Arg) {
  auto *Call = static_cast<MainCall *>(Arg);
  Call->Result = Call->Main(Call->Argc, Call->Argv);
  return nullptr;
}

int runOnLargeStack(int (*Main)(int, char **), int Argc, char **Argv,
                    std::size_t StackBytes) {
  MainCall Call{Main, Argc, Argv};
  pthread_attr_t Attr;
  if (pthread_attr_init(&Attr) != 0)
    return Main(Argc, Argv);
  pthread_t Thread;
  bool Started = pthread_attr_setstacksize(&Attr, StackBytes) == 0 &&
                 pthread_create(&Thread, &Attr, runMainCall, &Call) == 0;
  pthread_attr_destroy(&Attr);
  // Without the thread (address space exhausted by a ulimit -v), the
  // limits still hold in optimized builds on the 8 MiB main stack.
  if (!Started)
    return Main(Argc, Argv);
  pthread_join(Thread, nullptr);
  return Call.Result;
}

} // namespace ddtc

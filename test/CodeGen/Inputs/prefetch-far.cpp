// Includes a file emitted from prefetch.json (the macro EMITTED names it)
// and prints farWalk's answers around its bound, for prefetch.test: the
// type `walk` has an extent and a true extent of 15,840 bytes.
#include <cstdio>

#include EMITTED

int main() {
  for (std::size_t Count : {0, 1, 8, 9})
    std::printf("count %zu far %d\n", Count, int(farWalk(Count, 15840, 15840)));
  std::printf("span far %d\n", int(farWalk(1, 0, DDTC_PREFETCH_MIN_BYTES + 1)));
  std::printf("step 0 far %d\n", int(farWalk(1000000, 0, 15840)));
  return 0;
}

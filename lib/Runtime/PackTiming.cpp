//===- lib/Runtime/PackTiming.cpp - A kernel against MPI's engine ---------===//
#include "PackTiming.h"

#include "ddtc/MPI/MPISupport.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <mutex>
#include <vector>

namespace ddtc {

namespace {

/// Rounds of each variant, alternating; the best of each counts, as the
/// least disturbed by the rest of the machine.
constexpr int Rounds = 3;
/// Packs per round: enough for a round to last about this long, so that
/// the clock's resolution and its call do not weigh.
constexpr double RoundNs = 1000;
constexpr int MaxPacksPerRound = 64;

template <typename F> double timeEach(int N, F &&Pack) {
  auto Start = std::chrono::steady_clock::now();
  for (int I = 0; I < N; ++I)
    Pack();
  auto End = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::nano>(End - Start).count() / N;
}

} // namespace

std::optional<PackTiming> timePacking(const Binding &B, MPI_Datatype H,
                                      uint64_t Bytes) {
  if (!B.isBound() || !B.Members.empty() || B.Offset != 0 || B.Size == 0)
    return std::nullopt;
  MPI_Count TrueLb = 0, TrueExtent = 0;
  DDTC_MPI_QUERY_FN(PMPI_Type_get_true_extent)(H, &TrueLb, &TrueExtent);
  // Count instances cover [Lo, Hi) from the buffer's address, whichever
  // way the extent steps.
  auto Span = [&](uint64_t Count, int64_t &Lo) {
    int64_t Step = static_cast<int64_t>(Count - 1) * B.Extent;
    Lo = std::min<int64_t>(TrueLb, TrueLb + Step);
    return std::max<int64_t>(TrueLb + TrueExtent, TrueLb + TrueExtent + Step) -
           Lo;
  };
  // As many instances as an eager message holds, or one where they lie
  // far apart (what a packed byte costs hardly depends on the count).
  uint64_t Count = std::max<uint64_t>(1, Bytes / B.Size);
  int64_t Lo = 0;
  if (Span(Count, Lo) > static_cast<int64_t>(SpreadSpan))
    Count = 1;
  int64_t Size = Span(Count, Lo);
  if (Size <= 0 || Size > static_cast<int64_t>(MaxTimedSpan))
    return std::nullopt;

  // Kept from commit to commit, and only grown: its pages are faulted in
  // once per thread, not at every commit timed (a 1 MiB span: 0.5 ms).
  thread_local std::vector<char> Scratch, Packed;
  if (Scratch.size() < static_cast<size_t>(Size))
    Scratch.resize(static_cast<size_t>(Size), 1);
  Packed.resize(static_cast<size_t>(Count * B.Size));
  char *Buf = Scratch.data() - Lo;
  bool Failed = false;
  auto Kernel = [&] { B.pack(Buf, static_cast<size_t>(Count), Packed.data()); };
  auto Library = [&] {
    MPICount Position = 0;
    Failed |= DDTC_MPI_COUNT_FN(PMPI_Pack)(
                  Buf, countArg(static_cast<int64_t>(Count)), H, Packed.data(),
                  countArg(static_cast<int64_t>(Packed.size())), &Position,
                  MPI_COMM_SELF) != MPI_SUCCESS;
  };
  // MPI_Pack reports an error on MPI_COMM_SELF's handler, which may be
  // fatal: returned instead while timing, and the program's put back --
  // by one thread at a time, or a second would put back the first's.
  static std::mutex HandlerLock;
  std::lock_guard<std::mutex> G(HandlerLock);
  MPI_Errhandler Handler;
  PMPI_Comm_get_errhandler(MPI_COMM_SELF, &Handler);
  PMPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  // Warm: the scratch and the tables in cache, as a program's buffers are
  // in a message it sends again and again.
  double First = timeEach(1, Kernel) + timeEach(1, Library);
  int N = static_cast<int>(std::clamp(RoundNs / std::max(First / 2, 1.0), 1.0,
                                      double(MaxPacksPerRound)));
  // The copy the runtime's path adds: the packed bytes into MPI's buffer.
  thread_local std::vector<char> Copy;
  Copy.resize(Packed.size());
  auto Copied = [&] {
    std::memcpy(Copy.data(), Packed.data(), Packed.size());
    asm volatile("" : : "r"(Copy.data()) : "memory");
  };
  PackTiming T{Count, Count * B.Size, 1e300, 1e300, 1e300};
  for (int R = 0; R < Rounds; ++R) {
    bool KernelFirst = R % 2 == 0;
    if (KernelFirst)
      T.KernelNs = std::min(T.KernelNs, timeEach(N, Kernel));
    T.MPINs = std::min(T.MPINs, timeEach(N, Library));
    if (!KernelFirst)
      T.KernelNs = std::min(T.KernelNs, timeEach(N, Kernel));
    T.CopyNs = std::min(T.CopyNs, timeEach(N, Copied));
  }
  PMPI_Comm_set_errhandler(MPI_COMM_SELF, Handler);
  PMPI_Errhandler_free(&Handler);
  if (Failed)
    return std::nullopt;
  return T;
}

} // namespace ddtc

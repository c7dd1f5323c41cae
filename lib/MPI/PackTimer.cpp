//===- lib/MPI/PackTimer.cpp - How long MPI_Pack takes --------------------===//
#include "ddtc/MPI/PackTimer.h"

#include "ddtc/MPI/MPISupport.h"
#include "ddtc/Support/Address.h"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <vector>

namespace ddtc {

namespace {

/// Median of the per-call times of Batches batches of Call.
template <typename F>
double medianSecondsPerCall(const PackTimerOptions &Options, F Call) {
  // Size a batch once: calls until MinBatchSeconds has passed.
  unsigned Reps = 1;
  for (;;) {
    double Start = MPI_Wtime();
    for (unsigned I = 0; I < Reps; ++I)
      Call();
    double Elapsed = MPI_Wtime() - Start;
    if (Elapsed >= Options.MinBatchSeconds || Reps >= (1u << 24))
      break;
    Reps *= 2;
  }
  std::vector<double> PerCall;
  for (unsigned B = 0; B < std::max(Options.Batches, 1u); ++B) {
    double Start = MPI_Wtime();
    for (unsigned I = 0; I < Reps; ++I)
      Call();
    PerCall.push_back((MPI_Wtime() - Start) / Reps);
  }
  std::nth_element(PerCall.begin(), PerCall.begin() + PerCall.size() / 2,
                   PerCall.end());
  return PerCall[PerCall.size() / 2];
}

} // namespace

std::optional<PackTimes> timePackUnpack(MPI_Datatype T, int Count,
                                        const PackTimerOptions &Options,
                                        std::string &Err) {
  MPI_Count Size = 0, Lb = 0, Extent = 0, TrueLb = 0, TrueExtent = 0;
  if (int E = MPI_Type_size_x(T, &Size); E != MPI_SUCCESS) {
    Err = "MPI_Type_size_x: " + mpiErrorString(E);
    return std::nullopt;
  }
  MPI_Type_get_extent_x(T, &Lb, &Extent);
  MPI_Type_get_true_extent_x(T, &TrueLb, &TrueExtent);
  MPI_Count Packed = Size * Count;
  if (Count < 1 || Size <= 0 || Packed > INT_MAX) {
    Err = "a message of " + std::to_string(Packed) +
          " bytes does not fit MPI_Pack's int sizes";
    return std::nullopt;
  }
  // The typed buffer spans [TrueLb, (Count-1) * Extent + TrueLb +
  // TrueExtent) of the buffer address, and before it if Extent < 0.
  MPI_Count Lo = std::min<MPI_Count>(TrueLb, TrueLb + (Count - 1) * Extent);
  MPI_Count Hi = std::max<MPI_Count>(
      TrueLb + TrueExtent, TrueLb + TrueExtent + (Count - 1) * Extent);
  std::vector<char> Typed(size_t(Hi - Lo) + 64, 1), Out(size_t(Packed) + 64);
  char *Base = displaceAddress(Typed.data(), -Lo);

  int Position = 0;
  auto Pack = [&] {
    Position = 0;
    return MPI_Pack(Base, Count, T, Out.data(), int(Packed), &Position,
                    MPI_COMM_SELF);
  };
  auto Unpack = [&] {
    Position = 0;
    return MPI_Unpack(Out.data(), int(Packed), &Position, Base, Count, T,
                      MPI_COMM_SELF);
  };
  if (int E = Pack(); E != MPI_SUCCESS) {
    Err = "MPI_Pack: " + mpiErrorString(E);
    return std::nullopt;
  }
  if (int E = Unpack(); E != MPI_SUCCESS) {
    Err = "MPI_Unpack: " + mpiErrorString(E);
    return std::nullopt;
  }
  PackTimes R;
  R.PackSeconds = medianSecondsPerCall(Options, Pack);
  R.UnpackSeconds = medianSecondsPerCall(Options, Unpack);
  return R;
}

std::optional<std::vector<double>>
timePackInRounds(std::span<const PackMessage> Messages, unsigned Rounds,
                 const char *Tool, const char *What, size_t &Failed,
                 std::string &Err) {
  std::vector<std::vector<double>> Ns(Messages.size());
  PackTimerOptions OneBatch;
  OneBatch.Batches = 1;
  for (unsigned R = 0; R < Rounds; ++R) {
    std::fprintf(stderr, "\r%s: round %u/%u of %zu %s", Tool, R + 1, Rounds,
                 Messages.size(), What);
    for (size_t I = 0; I < Messages.size(); ++I) {
      std::optional<PackTimes> Times =
          timePackUnpack(Messages[I].T, Messages[I].Count, OneBatch, Err);
      if (!Times) {
        std::fprintf(stderr, "\n");
        Failed = I;
        return std::nullopt;
      }
      Ns[I].push_back(Times->PackSeconds * 1e9);
    }
  }
  if (Rounds && !Messages.empty())
    std::fprintf(stderr, "\n");
  std::vector<double> Median;
  for (std::vector<double> &Times : Ns) {
    if (Times.empty()) {
      Median.push_back(0);
      continue;
    }
    std::nth_element(Times.begin(), Times.begin() + Times.size() / 2,
                     Times.end());
    Median.push_back(Times[Times.size() / 2]);
  }
  return Median;
}

} // namespace ddtc

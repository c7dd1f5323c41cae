//===- tools/ddtc-bench/Collective.cpp - Agreeing over the ranks ----------===//

#include "Collective.h"

namespace ddtc::bench {

std::string broadcastString(std::string S, int Root, MPI_Comm Comm) {
  long long Length = static_cast<long long>(S.size());
  MPI_Bcast(&Length, 1, MPI_LONG_LONG, Root, Comm);
  S.resize(static_cast<size_t>(Length));
  MPI_Bcast(S.data(), static_cast<int>(Length), MPI_CHAR, Root, Comm);
  return S;
}

std::string agree(const std::string &Err) {
  int Rank = 0, Size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &Size);
  int Mine = Err.empty() ? Size : Rank, First = Size;
  MPI_Allreduce(&Mine, &First, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (First == Size)
    return {};
  std::string Text = broadcastString(Err, First, MPI_COMM_WORLD);
  return First == 0 ? Text : "rank " + std::to_string(First) + ": " + Text;
}

} // namespace ddtc::bench

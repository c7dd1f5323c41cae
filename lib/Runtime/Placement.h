//===- lib/Runtime/Placement.h - Which peers share this node -----*- C++ -*-===//
//
// The settings of a message depend on whether its peer is on this node or
// another (docs/runtime.md, "Settings"): shared memory and a network have
// different eager limits and pipelines. The placement is learnt once, at
// MPI_Init:
//
//   - DDTC_RT_PLACEMENT=N0,N1,... gives the node of each rank of
//     MPI_COMM_WORLD by hand (to emulate a placement on one machine, or
//     where the launcher's is not the one to use);
//   - a job of one rank, or one the launcher says runs on one node
//     (MPI_LOCALNRANKS of Hydra, OMPI_COMM_WORLD_LOCAL_SIZE of Open MPI,
//     equal to the world's size), has every peer on this node, and no
//     message pays for a lookup;
//   - otherwise MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) and an
//     MPI_Allgather on a private duplicate of MPI_COMM_WORLD tell every
//     rank the node of every other -- collective calls, which is why a job
//     across nodes loads the runtime on all its ranks.
//
// Per message, a peer's node is found through its rank in MPI_COMM_WORLD:
// directly for MPI_COMM_WORLD, else through a table per communicator that
// is built at its first message and kept as an MPI attribute of it, so
// that MPI frees it with the communicator.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_LIB_RUNTIME_PLACEMENT_H
#define DDTC_LIB_RUNTIME_PLACEMENT_H

#include <mpi.h>

#include <mutex>
#include <string>
#include <vector>

namespace ddtc {

class Placement {
public:
  /// Learns the placement (after PMPI_Init, on every rank). Returns a
  /// warning for a DDTC_RT_PLACEMENT it cannot read (the placement is then
  /// learnt as without it), else "".
  std::string learn();

  /// Whether some rank of MPI_COMM_WORLD is on another node than this one.
  bool spansNodes() const { return Spans; }

  /// Whether Peer, a rank of Comm (of its remote group for an
  /// intercommunicator), is on another node. MPI_ANY_SOURCE and a rank
  /// MPI_COMM_WORLD does not hold (a spawned process) count as remote in a
  /// job across nodes: the settings for remote peers are the ones that lose
  /// nowhere.
  bool isRemote(MPI_Comm Comm, int Peer) {
    return Spans && remoteSlow(Comm, Peer);
  }

  /// Reads DDTC_RT_PLACEMENT's value for a world of Size ranks into Nodes.
  static bool parse(const char *Text, int Size, std::vector<int> &Nodes);

  /// The number of ranks of this job on this node, and in all, as the
  /// launcher tells its processes (Hydra, Open MPI); 0 where it does not.
  /// Known before MPI_Init.
  static int launcherLocalSize();
  static int launcherWorldSize();

private:
  bool remoteSlow(MPI_Comm Comm, int Peer);
  /// The remote flags of Comm's ranks, made at its first use.
  const std::vector<char> &tableOf(MPI_Comm Comm);

  bool Spans = false;
  int MyNode = 0;
  std::vector<int> NodeOf; // by rank in MPI_COMM_WORLD
  int Keyval = MPI_KEYVAL_INVALID;
  std::mutex Lock;
};

} // namespace ddtc

#endif // DDTC_LIB_RUNTIME_PLACEMENT_H

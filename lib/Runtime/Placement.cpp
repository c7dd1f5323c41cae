//===- lib/Runtime/Placement.cpp - Which peers share this node ------------===//
#include "Placement.h"

#include <cstdlib>
#include <initializer_list>
#include <string_view>

namespace ddtc {

namespace {

int firstOf(std::initializer_list<const char *> Names) {
  for (const char *Name : Names)
    if (const char *V = std::getenv(Name); V && *V)
      return std::atoi(V);
  return 0;
}

int deleteTable(MPI_Comm, int, void *Table, void *) {
  delete static_cast<std::vector<char> *>(Table);
  return MPI_SUCCESS;
}

} // namespace

int Placement::launcherLocalSize() {
  return firstOf({"MPI_LOCALNRANKS", "OMPI_COMM_WORLD_LOCAL_SIZE"});
}

int Placement::launcherWorldSize() {
  return firstOf({"PMI_SIZE", "OMPI_COMM_WORLD_SIZE"});
}

bool Placement::parse(const char *Text, int Size, std::vector<int> &Nodes) {
  std::vector<int> Out;
  std::string_view S(Text);
  for (size_t Start = 0; Start <= S.size();) {
    size_t End = std::min(S.find(',', Start), S.size());
    std::string_view Field = S.substr(Start, End - Start);
    if (Field.empty() || Field.size() > 9 ||
        Field.find_first_not_of("0123456789") != std::string_view::npos)
      return false;
    Out.push_back(std::atoi(std::string(Field).c_str()));
    Start = End + 1;
  }
  if (static_cast<int>(Out.size()) != Size)
    return false;
  Nodes = std::move(Out);
  return true;
}

std::string Placement::learn() {
  int Rank = 0, Size = 1;
  PMPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &Size);
  std::string Warning;
  if (const char *Given = std::getenv("DDTC_RT_PLACEMENT"); Given && *Given) {
    if (parse(Given, Size, NodeOf)) {
      MyNode = NodeOf[Rank];
    } else {
      Warning = std::string("DDTC_RT_PLACEMENT='") + Given +
                "' is not a node number (0 to 999999999) for each of the " +
                std::to_string(Size) +
                " ranks, comma-separated; learning the placement from MPI";
    }
  }
  if (NodeOf.empty()) {
    if (Size == 1 || launcherLocalSize() == Size)
      return Warning; // one node
    // The node of a rank is the world rank of its node's first rank.
    MPI_Comm World, Node;
    PMPI_Comm_dup(MPI_COMM_WORLD, &World);
    PMPI_Comm_split_type(World, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &Node);
    MyNode = Rank;
    PMPI_Bcast(&MyNode, 1, MPI_INT, 0, Node);
    NodeOf.resize(static_cast<size_t>(Size));
    PMPI_Allgather(&MyNode, 1, MPI_INT, NodeOf.data(), 1, MPI_INT, World);
    PMPI_Comm_free(&Node);
    PMPI_Comm_free(&World);
  }
  for (int N : NodeOf)
    Spans |= N != MyNode;
  if (Spans)
    PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, deleteTable, &Keyval,
                            nullptr);
  return Warning;
}

const std::vector<char> &Placement::tableOf(MPI_Comm Comm) {
  void *Value = nullptr;
  int Found = 0;
  PMPI_Comm_get_attr(Comm, Keyval, &Value, &Found);
  if (Found)
    return *static_cast<std::vector<char> *>(Value);
  // Built once per communicator; the lock keeps two threads from both
  // setting it (the second set would free the first's table under it).
  std::lock_guard<std::mutex> G(Lock);
  PMPI_Comm_get_attr(Comm, Keyval, &Value, &Found);
  if (Found)
    return *static_cast<std::vector<char> *>(Value);
  int Inter = 0;
  PMPI_Comm_test_inter(Comm, &Inter);
  MPI_Group Peers, WorldGroup;
  if (Inter)
    PMPI_Comm_remote_group(Comm, &Peers);
  else
    PMPI_Comm_group(Comm, &Peers);
  PMPI_Comm_group(MPI_COMM_WORLD, &WorldGroup);
  int N = 0;
  PMPI_Group_size(Peers, &N);
  std::vector<int> Ranks(static_cast<size_t>(N)), World(Ranks.size());
  for (int I = 0; I < N; ++I)
    Ranks[static_cast<size_t>(I)] = I;
  PMPI_Group_translate_ranks(Peers, N, Ranks.data(), WorldGroup, World.data());
  PMPI_Group_free(&Peers);
  PMPI_Group_free(&WorldGroup);
  auto *Table = new std::vector<char>(Ranks.size());
  for (size_t I = 0; I < World.size(); ++I)
    (*Table)[I] = World[I] == MPI_UNDEFINED ||
                  NodeOf[static_cast<size_t>(World[I])] != MyNode;
  PMPI_Comm_set_attr(Comm, Keyval, Table);
  return *Table;
}

bool Placement::remoteSlow(MPI_Comm Comm, int Peer) {
  if (Peer < 0) // MPI_ANY_SOURCE, MPI_PROC_NULL
    return true;
  if (Comm == MPI_COMM_WORLD)
    return static_cast<size_t>(Peer) >= NodeOf.size() ||
           NodeOf[static_cast<size_t>(Peer)] != MyNode;
  const std::vector<char> &Table = tableOf(Comm);
  return static_cast<size_t>(Peer) >= Table.size() ||
         Table[static_cast<size_t>(Peer)];
}

} // namespace ddtc

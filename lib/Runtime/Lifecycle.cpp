//===- lib/Runtime/Lifecycle.cpp - Start, types, report, finish -----------===//
//
// MPI_Init loads the kernel libraries; MPI_Type_commit binds a type to a
// kernel; MPI_Type_free and MPI_Type_dup keep the bindings in step with
// the handles; MPI_Finalize settles what is still in flight and writes the
// report (docs/runtime.md).
//
//===----------------------------------------------------------------------===//
#include "BufferPool.h"
#include "CachedKernels.h"
#include "KernelCompiler.h"
#include "KernelRegistry.h"
#include "Packing.h"
#include "RuntimeLog.h"
#include "RuntimeState.h"
#include "SettingsMeasurement.h"

#include "ddtc/Format/DescriptionWriter.h"
#include "ddtc/MPI/MPISupport.h"
#include "ddtc/MPI/MachineIdentity.h"
#include "ddtc/MPI/PredefinedHandles.h"
#include "ddtc/MPI/SplitSend.h"
#include "ddtc/Runtime/RuntimeSettings.h"
#include "ddtc/Runtime/RuntimeSupport.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#define DDTC_EXPORT extern "C" __attribute__((visibility("default")))

namespace ddtc {

namespace {

/// Each call with its name, in the order of the enum, which the assertion
/// below checks: a call added to the enum without its name here, or out of
/// order, does not compile.
struct CallName {
  SubstitutedCall Call;
  const char *Name;
};
constexpr CallName CallNames[] = {
    {SubstitutedCall::Send, "MPI_Send"},
    {SubstitutedCall::Ssend, "MPI_Ssend"},
    {SubstitutedCall::Isend, "MPI_Isend"},
    {SubstitutedCall::Issend, "MPI_Issend"},
    {SubstitutedCall::Recv, "MPI_Recv"},
    {SubstitutedCall::Irecv, "MPI_Irecv"},
    {SubstitutedCall::Sendrecv, "MPI_Sendrecv"},
    {SubstitutedCall::Bcast, "MPI_Bcast"},
    {SubstitutedCall::Allgather, "MPI_Allgather"},
    {SubstitutedCall::Pack, "MPI_Pack"},
    {SubstitutedCall::Unpack, "MPI_Unpack"},
    {SubstitutedCall::SendInit, "MPI_Send_init"},
    {SubstitutedCall::SsendInit, "MPI_Ssend_init"},
    {SubstitutedCall::RsendInit, "MPI_Rsend_init"},
    {SubstitutedCall::RecvInit, "MPI_Recv_init"},
    {SubstitutedCall::Rsend, "MPI_Rsend"},
    {SubstitutedCall::Irsend, "MPI_Irsend"},
    {SubstitutedCall::SendrecvReplace, "MPI_Sendrecv_replace"},
    {SubstitutedCall::Mrecv, "MPI_Mrecv"},
    {SubstitutedCall::Imrecv, "MPI_Imrecv"},
    {SubstitutedCall::Ibcast, "MPI_Ibcast"},
    {SubstitutedCall::Gather, "MPI_Gather"},
    {SubstitutedCall::Igather, "MPI_Igather"},
    {SubstitutedCall::Gatherv, "MPI_Gatherv"},
    {SubstitutedCall::Igatherv, "MPI_Igatherv"},
    {SubstitutedCall::Scatter, "MPI_Scatter"},
    {SubstitutedCall::Iscatter, "MPI_Iscatter"},
    {SubstitutedCall::Scatterv, "MPI_Scatterv"},
    {SubstitutedCall::Iscatterv, "MPI_Iscatterv"},
    {SubstitutedCall::Iallgather, "MPI_Iallgather"},
    {SubstitutedCall::Allgatherv, "MPI_Allgatherv"},
    {SubstitutedCall::Iallgatherv, "MPI_Iallgatherv"},
    {SubstitutedCall::Alltoall, "MPI_Alltoall"},
    {SubstitutedCall::Ialltoall, "MPI_Ialltoall"},
    {SubstitutedCall::Alltoallv, "MPI_Alltoallv"},
    {SubstitutedCall::Ialltoallv, "MPI_Ialltoallv"},
    {SubstitutedCall::Alltoallw, "MPI_Alltoallw"},
    {SubstitutedCall::Ialltoallw, "MPI_Ialltoallw"},
    {SubstitutedCall::NeighborAllgather, "MPI_Neighbor_allgather"},
    {SubstitutedCall::IneighborAllgather, "MPI_Ineighbor_allgather"},
    {SubstitutedCall::NeighborAllgatherv, "MPI_Neighbor_allgatherv"},
    {SubstitutedCall::IneighborAllgatherv, "MPI_Ineighbor_allgatherv"},
    {SubstitutedCall::NeighborAlltoall, "MPI_Neighbor_alltoall"},
    {SubstitutedCall::IneighborAlltoall, "MPI_Ineighbor_alltoall"},
    {SubstitutedCall::NeighborAlltoallv, "MPI_Neighbor_alltoallv"},
    {SubstitutedCall::IneighborAlltoallv, "MPI_Ineighbor_alltoallv"},
    {SubstitutedCall::NeighborAlltoallw, "MPI_Neighbor_alltoallw"},
    {SubstitutedCall::IneighborAlltoallw, "MPI_Ineighbor_alltoallw"},
    {SubstitutedCall::Put, "MPI_Put"},
    {SubstitutedCall::Get, "MPI_Get"},
    {SubstitutedCall::Accumulate, "MPI_Accumulate"},
    {SubstitutedCall::GetAccumulate, "MPI_Get_accumulate"},
    {SubstitutedCall::Rput, "MPI_Rput"},
    {SubstitutedCall::Rget, "MPI_Rget"},
    {SubstitutedCall::Raccumulate, "MPI_Raccumulate"},
    {SubstitutedCall::RgetAccumulate, "MPI_Rget_accumulate"},
    {SubstitutedCall::BcastInit, "MPI_Bcast_init"},
    {SubstitutedCall::GatherInit, "MPI_Gather_init"},
    {SubstitutedCall::GathervInit, "MPI_Gatherv_init"},
    {SubstitutedCall::ScatterInit, "MPI_Scatter_init"},
    {SubstitutedCall::ScattervInit, "MPI_Scatterv_init"},
    {SubstitutedCall::AllgatherInit, "MPI_Allgather_init"},
    {SubstitutedCall::AllgathervInit, "MPI_Allgatherv_init"},
    {SubstitutedCall::AlltoallInit, "MPI_Alltoall_init"},
    {SubstitutedCall::AlltoallvInit, "MPI_Alltoallv_init"},
    {SubstitutedCall::AlltoallwInit, "MPI_Alltoallw_init"},
    {SubstitutedCall::NeighborAllgatherInit, "MPI_Neighbor_allgather_init"},
    {SubstitutedCall::NeighborAllgathervInit, "MPI_Neighbor_allgatherv_init"},
    {SubstitutedCall::NeighborAlltoallInit, "MPI_Neighbor_alltoall_init"},
    {SubstitutedCall::NeighborAlltoallvInit, "MPI_Neighbor_alltoallv_init"},
    {SubstitutedCall::NeighborAlltoallwInit, "MPI_Neighbor_alltoallw_init"},
};

constexpr bool inEnumOrder() {
  for (size_t I = 0; I < std::size(CallNames); ++I)
    if (static_cast<size_t>(CallNames[I].Call) != I)
      return false;
  return true;
}
static_assert(std::size(CallNames) == NumSubstitutedCalls && inEnumOrder(),
              "CallNames must name every SubstitutedCall, in enum order");

} // namespace

const char *getCallName(SubstitutedCall C) {
  return CallNames[static_cast<size_t>(C)].Name;
}

namespace {

/// The typed-blocks rule where no setting gives one: every point-to-point
/// message above 8 KiB goes to MPI as written. Below, both a packed and a
/// typed message go eagerly and the kernel's copy is the cheaper; above,
/// whether MPI's pipelined engine or a packed message wins depends on the
/// machine and the library, which only a measurement tells -- and a
/// default must lose nowhere (docs/runtime.md, "Settings").
constexpr const char *DefaultTypedBlocks = "1:8K";

/// DDTC_RT_TYPED_BLOCKS (or DDTC_RT_REMOTE_TYPED_BLOCKS where Remote):
/// BLOCK:BYTES[,BLOCK:BYTES...] or off (RuntimeState::TypedBlocks).
void configureTypedBlocks(RuntimeState &R, const RuntimeSettings &Settings,
                          bool Remote) {
  const char *Name =
      Remote ? "DDTC_RT_REMOTE_TYPED_BLOCKS" : "DDTC_RT_TYPED_BLOCKS";
  RuntimeState::TypedBlockRules &T = R.TypedBlocks[Remote];
  parseTypedRules(DefaultTypedBlocks, T.Rules, T.N);
  const char *V = Settings.get(Name);
  if (!V || parseTypedRules(V, T.Rules, T.N))
    return;
  warn(R.Rank, Settings.where(Name) + Name + "='" + V +
                   "' is neither BLOCK:BYTES[,BLOCK:BYTES...] (sizes, BLOCK "
                   "> 0, at most " +
                   std::to_string(MaxTypedRules) + " rules) nor off; keeping " +
                   DefaultTypedBlocks);
}

/// V in JSON and in messages, to four significant digits.
std::string decimal(double V) {
  char Text[32];
  std::snprintf(Text, sizeof Text, "%.4g", V);
  return Text;
}

/// DDTC_RT_PACK_TIES=FACTOR|off (docs/runtime.md, "Types MPI packs as
/// fast"): where MPI_Pack takes at most FACTOR times the kernel's time, an
/// eager message of the type goes to MPI as written. Read after the split
/// windows, whose lower ends bound the eager messages.
void configurePackTies(RuntimeState &R, const RuntimeSettings &Settings) {
  double Factor = DefaultTieFactor;
  if (const char *V = Settings.get("DDTC_RT_PACK_TIES")) {
    char *End = nullptr;
    double F = std::strtod(V, &End);
    if (std::string_view(V) == "off")
      Factor = 0;
    else if (End != V && *End == '\0' && F > 0 && F < 1e6)
      Factor = F;
    else
      warn(R.Rank, Settings.where("DDTC_RT_PACK_TIES") + "DDTC_RT_PACK_TIES='" +
                       V +
                       "' is neither a factor (a number above 0) nor off; "
                       "keeping " +
                       decimal(DefaultTieFactor));
  }
  R.TieFactor = Factor;
  if (Factor == 0)
    return;
  for (bool Remote : {false, true}) {
    uint64_t From = SplitSends::get().from(Remote);
    R.EagerBytes[Remote] = From ? From : DefaultEagerBytes;
  }
  R.Bindings.enablePackTiming(std::max(R.EagerBytes[0], R.EagerBytes[1]),
                              Factor);
}

RuntimeSettings &settings() {
  static RuntimeSettings *S = new RuntimeSettings();
  return *S;
}

/// What prepare() found, for start() to say once the rank is known.
std::vector<std::string> &earlyWarnings() {
  static auto *W = new std::vector<std::string>();
  return *W;
}

/// DDTC_RT_SHAPES: whether types without an emitted kernel get a shape
/// kernel at commit. Off unless on (start() warns of other values): what
/// they gain against plain MPI over whole programs is not measured yet, and
/// the defaults must lose nowhere.
bool wantsShapes() {
  const char *V = settings().get("DDTC_RT_SHAPES");
  return V && std::string_view(V) == "on";
}

/// Whether the runtime will substitute: shape kernels are on, DDTC_KERNELS
/// names kernels, the kernel cache holds some, the program carries its
/// own, or DDTC_RT_FORMS=sends asks for forms alone. The same on every
/// rank of a run: the environment, the settings file, the cache and the
/// program.
bool wantsSubstitution() {
  const char *Kernels = std::getenv("DDTC_KERNELS");
  const char *Forms = std::getenv("DDTC_RT_FORMS");
  return wantsShapes() || (Kernels && *Kernels) ||
         CachedKernels::get().entries() != 0 ||
         !KernelRegistry::get().empty() ||
         (Forms && std::string_view(Forms) == "sends");
}

/// The settings file in force (docs/runtime.md, "Settings"), as loaded:
/// where none is named and the store holds none, or holds one run's
/// measurement, and the runtime substitutes, measures them now (unless
/// DDTC_RT_CALIBRATE=off) and loads what was stored; else keeps what it
/// loaded, or the defaults.
void measureWhereNeeded(const MachineIdentity &Id, RuntimeSettings &Settings,
                        std::vector<std::string> &Warnings) {
  bool Unconfirmed = Settings.source() == RuntimeSettings::Source::Stored &&
                     Settings.measurements() < 2;
  if ((Settings.source() != RuntimeSettings::Source::Defaults &&
       !Unconfirmed) ||
      !wantsSubstitution())
    return;
  std::string Calibrate = getEnvOr("DDTC_RT_CALIBRATE", "on");
  if (Calibrate == "off")
    return;
  if (Calibrate != "on")
    Warnings.push_back("DDTC_RT_CALIBRATE='" + Calibrate +
                       "' is neither on nor off; measuring");
  // Nothing to measure for: a job of one rank (or a process started
  // without a launcher) sends no messages, and a rank alone on its node
  // sends only to other nodes, whose settings two processes of this node
  // cannot measure. They use the defaults.
  if (Placement::launcherWorldSize() <= 1 ||
      Placement::launcherLocalSize() == 1)
    return;
  Measurement M = measureSettings(Id);
  if (!M.Failure.empty()) {
    Warnings.push_back(
        Unconfirmed ? "the settings stored for this machine were measured by "
                      "one run, and measuring them again to confirm them "
                      "failed: " +
                          M.Failure + "; using them as stored"
                    : "no settings for this machine: " + M.Failure +
                          "; using the defaults");
    return;
  }
  for (std::string &W : Settings.loadMeasured(Id.Node, Id.Library, M.Seconds))
    Warnings.push_back(std::move(W));
}

/// Before PMPI_Init: the settings, the kernel cache and its compile server.
void prepare() {
  std::vector<std::string> &Warnings = earlyWarnings();
  MachineIdentity Id = machineIdentity();
  RuntimeSettings &Settings = settings();
  for (std::string &W : Settings.load(Id.Node, Id.Library))
    Warnings.push_back(std::move(W));
  // The compile server's directories first: the index of entries reads
  // them (and later finds there what the server compiles).
  if (wantsShapes())
    KernelCompiler::get().start(Warnings);
  CachedKernels::get().open(Warnings);
  measureWhereNeeded(Id, Settings, Warnings);
  // The server itself only now: starting beside the measurement, it would
  // take a core from it.
  KernelCompiler::get().launch(Warnings);
}

void start() {
  RuntimeState &R = runtime();
  PMPI_Comm_rank(MPI_COMM_WORLD, &R.Rank);
  std::string Missing;
  R.Predefined = makeHandleTable(Missing);
  for (const std::string &W : earlyWarnings())
    warn(R.Rank, W);
  RuntimeSettings &Settings = settings();
  const char *FormsSetting = Settings.get("DDTC_RT_FORMS");
  std::string Forms = FormsSetting ? FormsSetting : "";
  if (!Forms.empty() && Forms != "sends" && Forms != "off") {
    warn(R.Rank, Settings.where("DDTC_RT_FORMS") + "DDTC_RT_FORMS='" + Forms +
                     "' is neither sends nor off; keeping the default");
    Forms.clear();
  }
  if (const char *Shapes = Settings.get("DDTC_RT_SHAPES");
      Shapes && std::string_view(Shapes) != "on" &&
      std::string_view(Shapes) != "off")
    warn(R.Rank, Settings.where("DDTC_RT_SHAPES") + "DDTC_RT_SHAPES='" +
                     Shapes + "' is neither on nor off; keeping off");
  // DDTC_RT_FORMS=sends alone turns the runtime on, without kernels.
  if (!wantsSubstitution() && Forms != "sends")
    return;
  int Level = MPI_THREAD_MULTIPLE;
  PMPI_Query_thread(&Level);
  R.ConcurrentCalls = Level == MPI_THREAD_MULTIPLE;
  tabulatePredefinedLayouts(R.Predefined);
  CachedKernels::get().setRank(R.Rank);
  KernelCompiler::get().setRank(R.Rank);
  if (wantsShapes())
    R.Bindings.enableShapes();
  if (std::string W = R.Peers.learn(); !W.empty())
    warn(R.Rank, W);
  if (const char *Max = Settings.get("DDTC_RT_MAX_BUFFER")) {
    uint64_t Bytes = 0;
    // An MPI 3.1 library counts the packed bytes of a message in an int.
    if (parseByteSize(Max, Bytes))
      BufferPool::get().setMaxBytes(
          static_cast<size_t>(std::min<uint64_t>(Bytes, MaxMPICount)));
    else
      warn(R.Rank, Settings.where("DDTC_RT_MAX_BUFFER") +
                       "DDTC_RT_MAX_BUFFER='" + Max +
                       "' is not a size (bytes, or with K, M or G); keeping " +
                       std::to_string(BufferPool::get().maxBytes()));
  }
  for (bool Remote : {false, true}) {
    const char *Name =
        Remote ? "DDTC_RT_REMOTE_SPLIT_SEND" : "DDTC_RT_SPLIT_SEND";
    if (std::string W = SplitSends::get().configure(Settings.get(Name), Remote);
        !W.empty())
      warn(R.Rank, Settings.where(Name) + W);
    configureTypedBlocks(R, Settings, Remote);
  }
  configurePackTies(R, Settings);
  if (const char *V = Settings.get("DDTC_RT_SPARSE_BLOCKS")) {
    std::string_view S(V);
    if (S == "off" || S == "on")
      R.LeaveSparse = S == "on";
    else
      warn(R.Rank, Settings.where("DDTC_RT_SPARSE_BLOCKS") +
                       "DDTC_RT_SPARSE_BLOCKS='" + V +
                       "' is neither on nor off; keeping on");
  }
  if (const char *V = Settings.get("DDTC_RT_COLLECTIVE_BLOCKS")) {
    uint64_t Bytes = 0;
    if (std::string_view(V) == "off")
      R.CollectiveBlocks = 0;
    else if (parseByteSize(V, Bytes) && Bytes > 0)
      R.CollectiveBlocks = Bytes;
    else
      warn(R.Rank, Settings.where("DDTC_RT_COLLECTIVE_BLOCKS") +
                       "DDTC_RT_COLLECTIVE_BLOCKS='" + V +
                       "' is neither a size (bytes, or with K, M or G) nor "
                       "off; keeping " +
                       std::to_string(R.CollectiveBlocks));
  }
  const char *Kernels = std::getenv("DDTC_KERNELS");
  if (Kernels && *Kernels)
    KernelRegistry::get().loadLibraries(Kernels, R.Rank);
  R.Active = true;
  bool SendForms = Forms != "off";
  if (SendForms && !isMpichLibrary()) {
    // The forms are priced by the model of MPICH's engine.
    if (Forms == "sends")
      warn(R.Rank, Settings.where("DDTC_RT_FORMS") +
                       "DDTC_RT_FORMS=sends: the MPI library is not MPICH, "
                       "whose engine the forms are chosen for; off");
    SendForms = false;
  }
  if (SendForms)
    R.Bindings.enableSendForms(R.Predefined);
}

} // namespace

void RuntimeState::rebindCompiled() {
  for (const TypeStats *S : KernelCompiler::get().poll())
    Bindings.rebind(S, Predefined);
}

namespace {

std::string report() {
  RuntimeState &R = runtime();
  int Size = 0;
  PMPI_Comm_size(MPI_COMM_WORLD, &Size);
  std::string J = "{\n";
  J += "  \"ddtc_rt\": 1,\n";
  J += "  \"version\": " + jsonQuote(DDTC_VERSION) + ",\n";
  J += "  \"rank\": " + std::to_string(R.Rank) + ",\n";
  J += "  \"size\": " + std::to_string(Size) + ",\n";
  J += std::string("  \"active\": ") + (R.Active ? "true" : "false") + ",\n";
  J += "  \"substituted\": " + std::to_string(R.Substituted.load()) + ",\n";
  J +=
      "  \"passed_through\": " + std::to_string(R.PassedThrough.load()) + ",\n";
  J +=
      "  \"split_sends\": " + std::to_string(SplitSends::get().count()) + ",\n";
  J += "  \"sent_in_forms\": " + std::to_string(R.Formed.load()) + ",\n";
  J += "  \"typed_large_blocks\": " + std::to_string(R.Typed.load()) +
       ", \"sparse_blocks\": " + std::to_string(R.Sparse.load()) +
       ", \"collective_large_blocks\": " +
       std::to_string(R.CollectiveLong.load()) +
       ", \"mpi_as_fast\": " + std::to_string(R.AsFast.load()) + ",\n";
  // The settings in force, where they came from and, within a node and
  // between nodes, what they are: a report says which machine's
  // measurement a run used.
  const RuntimeSettings &Settings = settings();
  J += "  \"settings\": {\"source\": " +
       jsonQuote(RuntimeSettings::sourceName(Settings.source())) +
       ", \"file\": " +
       (Settings.path().empty() ? std::string("null")
                                : jsonQuote(Settings.path()));
  if (Settings.source() == RuntimeSettings::Source::Measured)
    J += ", \"measure_seconds\": " +
         std::to_string(Settings.measureSeconds()).substr(0, 6);
  // 1: measured by one run, which the next confirms; 2: confirmed.
  if (int N = Settings.measurements())
    J += ", \"measurements\": " + std::to_string(N);
  for (bool Remote : {false, true}) {
    std::string Prefix = Remote ? "remote_" : "";
    const RuntimeState::TypedBlockRules &T = R.TypedBlocks[Remote];
    J += ", \"" + Prefix +
         "split_send\": " + jsonQuote(SplitSends::get().window(Remote)) +
         ", \"" + Prefix + "typed_blocks\": " +
         jsonQuote(formatTypedRules(T.Rules, T.N, /*Suffixes=*/false));
  }
  J += std::string(", \"spans_nodes\": ") +
       (R.Peers.spansNodes() ? "true" : "false") +
       ", \"max_buffer\": " + std::to_string(BufferPool::get().maxBytes()) +
       ", \"sparse_blocks\": " + jsonQuote(R.LeaveSparse ? "on" : "off") +
       ", \"collective_blocks\": " +
       (R.CollectiveBlocks ? std::to_string(R.CollectiveBlocks)
                           : std::string("\"off\"")) +
       ", \"pack_ties\": " +
       (R.TieFactor ? decimal(R.TieFactor) : std::string("\"off\"")) +
       ", \"eager_bytes\": " + std::to_string(R.EagerBytes[0]) +
       ", \"remote_eager_bytes\": " + std::to_string(R.EagerBytes[1]) +
       ", \"shapes\": " + jsonQuote(R.Bindings.shapesEnabled() ? "on" : "off") +
       ", \"forms\": " +
       jsonQuote(R.Bindings.sendFormsEnabled() ? "sends" : "off") + "},\n";
  J +=
      "  \"pending_at_finalize\": " + std::to_string(R.Requests.size()) + ",\n";
  J += "  \"buffers_outstanding\": " +
       std::to_string(BufferPool::get().outstanding()) + ",\n";
  // Per call, the calls that had a derived type (the others are not
  // counted anywhere).
  J += "  \"calls\": {";
  bool FirstCall = true;
  for (size_t C = 0; C < NumSubstitutedCalls; ++C) {
    uint64_t Sub = R.CallSubstituted[C].load(), Passed = R.CallPassed[C].load();
    if (Sub == 0 && Passed == 0)
      continue;
    J += std::string(FirstCall ? "" : ", ") +
         jsonQuote(getCallName(static_cast<SubstitutedCall>(C))) +
         ": {\"substituted\": " + std::to_string(Sub) +
         ", \"passed_through\": " + std::to_string(Passed) + "}";
    FirstCall = false;
  }
  J += "},\n";
  J += "  \"kernel_libraries\": [";
  bool First = true;
  for (const auto &[Path, N] : KernelRegistry::get().getLibraries()) {
    J += std::string(First ? "\n" : ",\n") +
         "    {\"path\": " + jsonQuote(Path) +
         ", \"kernels\": " + std::to_string(N) + "}";
    First = false;
  }
  J += First ? "],\n" : "\n  ],\n";
  const CachedKernels &Cache = CachedKernels::get();
  J += "  \"kernel_cache\": {\"directory\": " +
       (Cache.directory().empty() ? std::string("null")
                                  : jsonQuote(Cache.directory())) +
       ", \"entries\": " + std::to_string(Cache.entries()) +
       ", \"loaded\": " + std::to_string(Cache.loaded());
  const KernelCompiler &Compiler = KernelCompiler::get();
  J += ", \"compiles_requested\": " + std::to_string(Compiler.requested()) +
       ", \"compiled\": " + std::to_string(Compiler.compiled()) +
       ", \"compiles_failed\": " + std::to_string(Compiler.failed()) + "},\n";
  J += "  \"types\": [";
  First = true;
  for (const TypeStats *S : R.Bindings.stats()) {
    J += std::string(First ? "\n" : ",\n") +
         "    {\"name\": " + jsonQuote(S->Name);
    if (!S->Key.empty())
      J += ", \"key\": " + jsonQuote(S->Key);
    J += ", \"commits\": " + std::to_string(S->Commits.load());
    if (!S->Kernel.empty()) {
      J += ", \"kernel\": " + jsonQuote(S->Kernel);
      if (!S->Library.empty())
        J += ", \"library\": " + jsonQuote(S->Library) +
             ", \"offset\": " + std::to_string(S->Offset);
    } else {
      J += ", \"kernel\": null, \"reason\": " + jsonQuote(S->Reason);
    }
    J += ", \"substituted\": " + std::to_string(S->SubstitutedCalls.load()) +
         ", \"bytes\": " + std::to_string(S->SubstitutedBytes.load()) +
         ", \"passed_through\": " + std::to_string(S->PassedCalls.load());
    if (uint64_t Typed = S->TypedCalls.load())
      J += ", \"typed_large_blocks\": " + std::to_string(Typed);
    if (uint64_t Sparse = S->SparseCalls.load())
      J += ", \"sparse_blocks\": " + std::to_string(Sparse);
    if (uint64_t Long = S->CollectiveLongCalls.load())
      J += ", \"collective_large_blocks\": " + std::to_string(Long);
    if (S->Timing)
      J += ", \"pack_ns\": {\"bytes\": " + std::to_string(S->Timing->Bytes) +
           ", \"kernel\": " + decimal(S->Timing->KernelNs) +
           ", \"mpi\": " + decimal(S->Timing->MPINs) +
           ", \"copy\": " + decimal(S->Timing->CopyNs) +
           "}, \"mpi_as_fast\": " + std::to_string(S->AsFastCalls.load());
    if (const char *Form = S->Form.load(std::memory_order_relaxed))
      J += ", \"form\": " + jsonQuote(Form) +
           ", \"sent_in_form\": " + std::to_string(S->FormCalls.load());
    if (S->OneShape)
      J += ", \"size\": " + std::to_string(S->Size) +
           ", \"extent\": " + std::to_string(S->Extent);
    if (S->Kind)
      J += ", \"kind\": " + jsonQuote(S->Kind);
    if (S->Compiled)
      J += ", \"compiled\": true";
    J += "}";
    First = false;
  }
  J += First ? "]\n" : "\n  ]\n";
  J += "}\n";
  return J;
}

void finish() {
  RuntimeState &R = runtime();
  KernelCompiler::get().stop();
  R.Requests.settleOrphans(/*Wait=*/true);
  SplitSends::get().release();
  R.Bindings.releaseSendForms();
  const char *Pattern = std::getenv("DDTC_RT_REPORT");
  if (!Pattern || !*Pattern)
    return;
  std::string Path =
      expandPattern(Pattern, R.Rank, static_cast<long>(getpid()));
  std::string Err;
  if (!writeFileAtomically(Path, report(), Err))
    warn(R.Rank, Err);
}

} // namespace

} // namespace ddtc

using namespace ddtc;

DDTC_EXPORT int MPI_Init(int *argc, char ***argv) {
  prepare();
  int Rc = PMPI_Init(argc, argv);
  if (Rc == MPI_SUCCESS)
    start();
  return Rc;
}

DDTC_EXPORT int MPI_Init_thread(int *argc, char ***argv, int required,
                                int *provided) {
  prepare();
  int Rc = PMPI_Init_thread(argc, argv, required, provided);
  if (Rc == MPI_SUCCESS)
    start();
  return Rc;
}

DDTC_EXPORT int MPI_Finalize(void) {
  finish();
  return PMPI_Finalize();
}

DDTC_EXPORT int MPI_Type_commit(MPI_Datatype *datatype) {
  int Rc = PMPI_Type_commit(datatype);
  RuntimeState &R = runtime();
  if (Rc == MPI_SUCCESS && R.Active.load(std::memory_order_relaxed))
    R.Bindings.bind(*datatype, R.Predefined);
  return Rc;
}

DDTC_EXPORT int MPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype) {
  int Rc = PMPI_Type_dup(oldtype, newtype);
  // A duplicate of a committed type is committed (MPI-4 §5.1.10), and may
  // be used without MPI_Type_commit.
  RuntimeState &R = runtime();
  if (Rc == MPI_SUCCESS && R.Active.load(std::memory_order_relaxed) &&
      R.Bindings.lookup(oldtype))
    R.Bindings.bind(*newtype, R.Predefined);
  return Rc;
}

DDTC_EXPORT int MPI_Type_free(MPI_Datatype *datatype) {
  // Before MPI frees it: MPI may give the handle to the next type.
  runtime().Bindings.release(*datatype);
  return PMPI_Type_free(datatype);
}

//===- ddtc/Runtime/Tracer.h - What libddtc_trace.so records ----*- C++ -*-===//
//
// The state of the trace library (docs/runtime.md): the datatypes a program
// commits, decoded into the IR at commit time -- the program may free
// their operands right after -- and how it uses them, per operation and
// count. The PMPI wrappers (TraceWrappers.cpp) feed it; at MPI_Finalize it
// becomes one format v1 file per rank.
//
// One mutex guards everything, so wrappers may run in any number of
// threads (MPI_THREAD_MULTIPLE). It is never held across an MPI call that
// can block: uses are recorded before the call they describe.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_RUNTIME_TRACER_H
#define DDTC_RUNTIME_TRACER_H

#include "ddtc/IR/TypeContext.h"
#include "ddtc/MPI/TypeDecoder.h"

#include <mpi.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ddtc {

class Tracer {
public:
  /// The process's tracer, created at its first use and never destroyed
  /// (wrappers may run during static destruction).
  static Tracer &get();

  /// Whether H is certainly a predefined type (or MPI_DATATYPE_NULL), told
  /// without a lock or an MPI call: the wrappers' fast path for the common
  /// case. False means "maybe derived"; the tables decide.
  static bool isPredefinedHandle(MPI_Datatype H) {
#ifdef MPICH
    // MPICH encodes the kind of object in a handle's top two bits: 0 for
    // invalid (MPI_DATATYPE_NULL), 1 for builtin. The pair types
    // (MPI_FLOAT_INT, ...) are "direct" objects like derived types and take
    // the slow path.
    return (static_cast<uint32_t>(H) >> 30) < 2;
#else
    return H == MPI_DATATYPE_NULL;
#endif
  }

  /// The program's name for the trace (argv[0] as MPI_Init received it).
  void noteProgram(const char *Argv0);
  /// A constructor made H; Caller is its call site.
  void noteCreated(MPI_Datatype H, const void *Caller);
  /// The program committed H (Caller: the call site of MPI_Type_commit,
  /// the source when H's constructor was not seen). Decodes it now.
  void noteCommitted(MPI_Datatype H, const void *Caller);
  /// The program named H (MPI_Type_set_name).
  void noteNamed(MPI_Datatype H);
  /// The program is about to free H: its handle may name another type
  /// afterwards. What was recorded for the type stays in the trace.
  void noteFreed(MPI_Datatype H);

  /// A use of H with Count instances by operation Op (which must outlive
  /// the tracer: the wrappers pass string literals). Bottom: the buffer
  /// was MPI_BOTTOM. With Persistent, the use is remembered for that
  /// request and counted at each of its MPI_Start calls instead.
  void recordUse(std::string_view Op, MPI_Datatype H, int64_t Count,
                 bool Bottom, const MPI_Request *Persistent = nullptr);
  /// MPI_Start of R: counts the uses recorded when R was created.
  void noteStarted(MPI_Request R);
  /// R is freed: its handle may name another request afterwards.
  void noteRequestFreed(MPI_Request R);

  /// Writes the trace file of this rank (DDTC_TRACE, docs/runtime.md), once;
  /// later calls and uses do nothing. Aborted: the program called
  /// MPI_Abort. Problems are reported on stderr and never stop the
  /// program.
  void finish(bool Aborted);

private:
  Tracer();

  struct UseStats {
    int64_t Calls = 0;
    int64_t Bytes = 0; ///< saturating
  };
  /// An operation and count. Operations are compared by the address of
  /// their name, a string literal of the wrappers -- the hot path does not
  /// compare strings; the file merges equal names (MPI_Send, MPI_Send_c).
  struct UseKey {
    std::string_view Op;
    int64_t Count;
    bool operator==(const UseKey &O) const {
      return Op.data() == O.Op.data() && Op.size() == O.Op.size() &&
             Count == O.Count;
    }
  };
  struct UseKeyHash {
    size_t operator()(const UseKey &K) const {
      return std::hash<const void *>()(K.Op.data()) ^
             (std::hash<int64_t>()(K.Count) * 0x9E3779B97F4A7C15ull);
    }
  };
  /// One named type of the trace: every committed handle whose decoded
  /// type is the same node shares it.
  struct Entry {
    const Type *T = nullptr; ///< null when the decoder failed
    std::string SkipReason;
    std::string MpiName;              ///< MPI_Type_get_name of the first handle
    std::vector<std::string> Aliases; ///< names of the other handles
    int64_t Size = 0;                 ///< MPI_Type_size, for bytes
    const void *Source = nullptr;
    bool Bottom = false;
    std::unordered_map<UseKey, UseStats, UseKeyHash> Uses;
  };
  struct PendingUse {
    size_t Entry;
    std::string_view Op;
    int64_t Count;
    bool Bottom;
  };

  void addUse(size_t E, std::string_view Op, int64_t Count, bool Bottom);
  void addName(Entry &E, std::string Name);
  std::string buildTrace(bool Aborted, int Rank, int Size);

  std::mutex Mutex;
  TypeContext Ctx;
  std::vector<MPI_Datatype> Handles;
  TypeDecoder Decoder;
  std::string Program;
  bool Finished = false;
  std::vector<Entry> Entries;                         ///< commit order
  std::unordered_map<MPI_Datatype, size_t> Committed; ///< live handles
  std::unordered_map<const Type *, size_t> ByType;
  std::unordered_map<MPI_Datatype, const void *> Sources;
  std::unordered_map<MPI_Request, std::vector<PendingUse>> Persistent;
};

} // namespace ddtc

#endif // DDTC_RUNTIME_TRACER_H

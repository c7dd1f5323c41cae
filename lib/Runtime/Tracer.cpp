//===- lib/Runtime/Tracer.cpp - What libddtc_trace.so records -------------===//
//
// The tables behind the wrappers and the trace file they become. The file
// is a Module -- one named type per distinct committed type, in commit
// order -- written by writeTraceDescription, with the recorded facts as
// `x-` fields (docs/runtime.md):
//
//   x-source   where the type was constructed, resolved with dladdr:
//              "OBJECT+0xOFFSET (SYMBOL+0xDELTA)", OBJECT the base name of
//              the executable or shared object, OFFSET the address of the
//              call instruction as `addr2line -e OBJECT` takes it, SYMBOL
//              the nearest dynamic symbol when dladdr finds one
//   x-bottom   true when a buffer of a use was MPI_BOTTOM
//   x-aliases  the names of the other handles committed as the same type
//   x-uses     one object per operation and count: calls, bytes
//
//===----------------------------------------------------------------------===//
#include "ddtc/Runtime/Tracer.h"

#include "ddtc/Format/DescriptionWriter.h"
#include "ddtc/IR/Module.h"
#include "ddtc/MPI/MPISupport.h"
#include "ddtc/MPI/PredefinedHandles.h"
#include "ddtc/Runtime/RuntimeSupport.h"
#include "ddtc/Support/CheckedInt.h"
#include "ddtc/Target/MPICHRules.h"

#include <cxxabi.h>
#include <dlfcn.h>
#include <link.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>

namespace ddtc {

namespace {

std::string hex(uintptr_t X) {
  char Buf[24];
  std::snprintf(Buf, sizeof(Buf), "0x%lx", static_cast<unsigned long>(X));
  return Buf;
}

std::string baseName(std::string_view Path) {
  size_t Slash = Path.rfind('/');
  return std::string(Slash == std::string_view::npos ? Path
                                                     : Path.substr(Slash + 1));
}

/// The call site of return address Ret, as documented at the top of the file.
std::string describeCallSite(const void *Ret, const std::string &Program) {
  // The return address is the instruction after the call; one byte back is
  // inside the call, which is what addr2line needs to name its line.
  const char *Call = static_cast<const char *>(Ret) - 1;
  Dl_info Info;
  if (!dladdr(Call, &Info) || !Info.dli_fbase)
    return "";
  std::string Object = Info.dli_fname && *Info.dli_fname
                           ? baseName(Info.dli_fname)
                           : baseName(Program);
  // A position-dependent executable is linked at its run-time addresses:
  // addr2line wants the address itself. Anything else is relocated, and the
  // offset from its load address is what addr2line wants.
  auto *Header = static_cast<const ElfW(Ehdr) *>(Info.dli_fbase);
  uintptr_t Where = reinterpret_cast<uintptr_t>(Call);
  if (Header->e_type != ET_EXEC)
    Where -= reinterpret_cast<uintptr_t>(Info.dli_fbase);
  std::string S = Object + "+" + hex(Where);
  if (Info.dli_sname && Info.dli_saddr) {
    int Status = 0;
    char *Demangled =
        abi::__cxa_demangle(Info.dli_sname, nullptr, nullptr, &Status);
    S += " (";
    S += Status == 0 && Demangled ? Demangled : Info.dli_sname;
    S += "+" +
         hex(reinterpret_cast<uintptr_t>(Call) -
             reinterpret_cast<uintptr_t>(Info.dli_saddr)) +
         ")";
    std::free(Demangled);
  }
  return S;
}

/// Name as a C identifier: other characters become '_', and a leading
/// digit gets a '_' in front.
std::string toIdentifier(std::string_view Name) {
  std::string S;
  for (char C : Name)
    S += std::isalnum(static_cast<unsigned char>(C)) ? C : '_';
  if (!S.empty() && std::isdigit(static_cast<unsigned char>(S[0])))
    S.insert(S.begin(), '_');
  return S;
}

std::string selfExecutable() {
  char Buf[4096];
  ssize_t N = readlink("/proc/self/exe", Buf, sizeof(Buf) - 1);
  return N > 0 ? std::string(Buf, static_cast<size_t>(N)) : std::string();
}

} // namespace

Tracer &Tracer::get() {
  // Deliberately leaked: an MPI call from a static destructor still finds
  // a tracer.
  static Tracer *T = new Tracer();
  return *T;
}

static std::vector<MPI_Datatype> makeHandles() {
  // A predefined type MPICH lacks has MPI_DATATYPE_NULL; the decoder then
  // reports it by name if a program ever uses it.
  std::string Missing;
  return makeHandleTable(Missing);
}

Tracer::Tracer()
    : Ctx(getMPICHRules()), Handles(makeHandles()), Decoder(Ctx, Handles) {}

void Tracer::noteProgram(const char *Argv0) {
  std::lock_guard<std::mutex> Lock(Mutex);
  if (Argv0 && *Argv0 && Program.empty())
    Program = Argv0;
}

void Tracer::noteCreated(MPI_Datatype H, const void *Caller) {
  std::lock_guard<std::mutex> Lock(Mutex);
  Sources[H] = Caller;
}

void Tracer::addName(Entry &E, std::string Name) {
  if (Name.empty() || Name == E.MpiName)
    return;
  if (E.MpiName.empty()) {
    E.MpiName = std::move(Name);
    return;
  }
  for (const std::string &A : E.Aliases)
    if (A == Name)
      return;
  E.Aliases.push_back(std::move(Name));
}

void Tracer::noteCommitted(MPI_Datatype H, const void *Caller) {
  // Committing a predefined type is allowed and does nothing; it is not
  // one of the program's types.
  if (!isDerivedType(H))
    return;

  std::lock_guard<std::mutex> Lock(Mutex);
  if (Finished || Committed.count(H))
    return;
  std::string Name = getTypeName(H);
  Expected<const Type *> T = Decoder.decode(H);
  if (T) {
    if (auto It = ByType.find(*T); It != ByType.end()) {
      addName(Entries[It->second], std::move(Name));
      Committed.emplace(H, It->second);
      return;
    }
  }
  Entry E;
  E.MpiName = std::move(Name);
  if (T)
    E.T = *T;
  else
    E.SkipReason = T.takeError().message();
  MPI_Count Size = 0;
  if (DDTC_MPI_QUERY_FN(PMPI_Type_size)(H, &Size) == MPI_SUCCESS)
    E.Size = Size;
  auto Src = Sources.find(H);
  E.Source = Src != Sources.end() ? Src->second : Caller;
  size_t Index = Entries.size();
  Entries.push_back(std::move(E));
  if (Entries.back().T)
    ByType.emplace(Entries.back().T, Index);
  Committed.emplace(H, Index);
}

void Tracer::noteNamed(MPI_Datatype H) {
  if (isPredefinedHandle(H))
    return;
  std::lock_guard<std::mutex> Lock(Mutex);
  if (auto It = Committed.find(H); It != Committed.end())
    addName(Entries[It->second], getTypeName(H));
}

void Tracer::noteFreed(MPI_Datatype H) {
  std::lock_guard<std::mutex> Lock(Mutex);
  Decoder.forget(H);
  Committed.erase(H);
  Sources.erase(H);
}

void Tracer::addUse(size_t E, std::string_view Op, int64_t Count, bool Bottom) {
  Entry &En = Entries[E];
  UseStats &U = En.Uses[{Op, Count}];
  ++U.Calls;
  U.Bytes = saturatingAdd(U.Bytes, saturatingMul(Count, En.Size));
  En.Bottom |= Bottom;
}

void Tracer::recordUse(std::string_view Op, MPI_Datatype H, int64_t Count,
                       bool Bottom, const MPI_Request *Request) {
  std::lock_guard<std::mutex> Lock(Mutex);
  if (Finished)
    return;
  auto It = Committed.find(H);
  if (It == Committed.end())
    return; // predefined, or not committed (an error MPI reports)
  if (Request)
    Persistent[*Request].push_back({It->second, Op, Count, Bottom});
  else
    addUse(It->second, Op, Count, Bottom);
}

void Tracer::noteStarted(MPI_Request R) {
  std::lock_guard<std::mutex> Lock(Mutex);
  if (Finished)
    return;
  if (auto It = Persistent.find(R); It != Persistent.end())
    for (const PendingUse &P : It->second)
      addUse(P.Entry, P.Op, P.Count, P.Bottom);
}

void Tracer::noteRequestFreed(MPI_Request R) {
  std::lock_guard<std::mutex> Lock(Mutex);
  Persistent.erase(R);
}

std::string Tracer::buildTrace(bool Aborted, int Rank, int Size) {
  // Names: the program's own (made C identifiers), else type_N with N the
  // position in commit order; made unique by a suffix, and never the name
  // of a predefined type, which a reference would mean instead.
  std::set<std::string> Used;
  auto unique = [&Used](std::string Base) {
    std::string Name = Base;
    for (int K = 2; lookupPredefined(Name) || !Used.insert(Name).second; ++K)
      Name = Base + "_" + std::to_string(K);
    return Name;
  };

  Module M(Ctx);
  std::string Skipped;
  for (size_t I = 0; I < Entries.size(); ++I) {
    const Entry &E = Entries[I];
    std::string Id = toIdentifier(E.MpiName);
    std::string Name = unique(Id.empty() ? "type_" + std::to_string(I) : Id);
    std::string Source =
        E.Source ? describeCallSite(E.Source, Program) : std::string();
    if (!E.T) {
      Skipped += Skipped.empty() ? "" : ", ";
      Skipped += "{\"name\": " + jsonQuote(Name) +
                 ", \"reason\": " + jsonQuote(E.SkipReason);
      if (!Source.empty())
        Skipped += ", \"source\": " + jsonQuote(Source);
      Skipped += "}";
      continue;
    }
    NamedType N;
    N.Name = std::move(Name);
    N.T = E.T;
    if (!Source.empty())
      N.Extras.emplace_back("x-source", jsonQuote(Source));
    if (E.Bottom)
      N.Extras.emplace_back("x-bottom", "true");
    if (!E.Aliases.empty()) {
      std::string A = "[";
      for (const std::string &Alias : E.Aliases)
        A += (A.size() > 1 ? "," : "") + jsonQuote(toIdentifier(Alias));
      N.Extras.emplace_back("x-aliases", A + "]");
    }
    // By operation name and count: sorted, and with the large-count
    // variants merged into the plain calls.
    std::map<std::pair<std::string_view, int64_t>, UseStats> Merged;
    for (const auto &[Key, Stats] : E.Uses) {
      UseStats &M = Merged[{Key.Op, Key.Count}];
      M.Calls = saturatingAdd(M.Calls, Stats.Calls);
      M.Bytes = saturatingAdd(M.Bytes, Stats.Bytes);
    }
    std::string Uses = "[";
    for (const auto &[Key, Stats] : Merged) {
      Uses += Uses.size() > 1 ? "," : "";
      Uses += "{\"op\":" + jsonQuote(Key.first) +
              ",\"count\":" + std::to_string(Key.second) +
              ",\"calls\":" + std::to_string(Stats.Calls) +
              ",\"bytes\":" + std::to_string(Stats.Bytes) + "}";
    }
    N.Extras.emplace_back("x-uses", Uses + "]");
    M.types().push_back(std::move(N));
  }

  std::string Info = "{\"rank\": " + std::to_string(Rank) +
                     ", \"size\": " + std::to_string(Size) +
                     ", \"pid\": " + std::to_string(getpid()) +
                     ", \"mpi\": " + jsonQuote(mpiLibraryVersionLine()) +
                     ", \"program\": " +
                     jsonQuote(Program.empty() ? selfExecutable() : Program);
  if (Aborted)
    Info += ", \"aborted\": true";
  Info += ", \"skipped\": [" + Skipped + "]}";
  M.extras().emplace_back("x-trace", Info);
  return writeDescription(M);
}

void Tracer::finish(bool Aborted) {
  std::lock_guard<std::mutex> Lock(Mutex);
  if (Finished)
    return;
  Finished = true;
  int Rank = 0, Size = 1;
  PMPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &Size);
  std::string Path = expandPattern(getEnvOr("DDTC_TRACE", "ddtc-trace-%r.json"),
                                   Rank, getpid());
  std::string Err;
  if (!writeFileAtomically(Path, buildTrace(Aborted, Rank, Size), Err))
    std::fprintf(stderr, "ddtc-trace: warning: %s\n", Err.c_str());
}

} // namespace ddtc

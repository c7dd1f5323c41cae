//===- tools/ddtc/RunSummary.cpp - What `ddtc run` says at the end --------===//
//
// Types are counted once however many ranks commit them: ranks of one
// program mostly commit the same types, and a sum over ranks would count
// each as often as there are ranks. A type is told apart by its name and
// layout key, or, where the report has no key (a type bound to a shape
// kernel without a kernel library loaded), by its name, size and extent.
// Calls are summed over the ranks: each rank's calls are its own.
//
//===----------------------------------------------------------------------===//
#include "RunSummary.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sys/wait.h>
#include <system_error>
#include <tuple>

namespace fs = std::filesystem;

namespace ddtc {

namespace {

using Json = nlohmann::json;

/// One rank's report or trace.
struct RankFile {
  std::string Path;
  int Rank = 0;
  int Size = 0;
  Json Doc;
};

/// Path as the user would type it: relative to the current directory
/// where it is below it, else from ~ where it is below the home directory
/// (the store of settings).
std::string displayPath(const std::string &Path) {
  auto Below = [](const fs::path &P, const fs::path &Dir) {
    fs::path Relative = P.lexically_relative(Dir);
    return Relative.empty() || *Relative.begin() == ".." ? fs::path()
                                                         : Relative;
  };
  std::error_code EC;
  fs::path Here = fs::current_path(EC);
  if (fs::path R = EC ? fs::path() : Below(Path, Here); !R.empty())
    return R.string();
  const char *Home = std::getenv("HOME");
  if (fs::path R = Home && *Home == '/' ? Below(Path, Home) : fs::path();
      !R.empty())
    return "~/" + R.string();
  return Path;
}

/// "0-3", "0, 2, 5-7".
std::string formatRanks(const std::vector<int> &Ranks) {
  std::string Out;
  for (size_t I = 0; I < Ranks.size();) {
    size_t J = I;
    while (J + 1 < Ranks.size() && Ranks[J + 1] == Ranks[J] + 1)
      ++J;
    Out += (Out.empty() ? "" : ", ") + std::to_string(Ranks[I]);
    if (J > I)
      Out += "-" + std::to_string(Ranks[J]);
    I = J + 1;
  }
  return Out;
}

std::string plural(size_t N, const std::string &Word) {
  return std::to_string(N) + " " + Word + (N == 1 ? "" : "s");
}

/// One line of the summary: a label in the first column, then the text.
void printLine(const std::string &Label, const std::string &Text) {
  std::fprintf(stderr, "  %-10s %s\n", Label.c_str(), Text.c_str());
}

/// Reads the files; one that cannot be read is one line, and left out.
/// RankOf finds the rank and size in a document (a report's top level, a
/// trace's x-trace); nullopt for a document of another kind, which is
/// described as What.
template <typename RankOfFn>
std::vector<RankFile> readRankFiles(const std::vector<std::string> &Paths,
                                    RankOfFn RankOf, const char *What) {
  std::vector<RankFile> Files;
  for (const std::string &Path : Paths) {
    RankFile F;
    F.Path = Path;
    std::string Problem;
    try {
      std::ifstream In(Path);
      if (!In) {
        Problem = std::strerror(errno);
      } else {
        F.Doc = Json::parse(In);
        if (std::optional<std::pair<int, int>> R = RankOf(F.Doc))
          std::tie(F.Rank, F.Size) = *R;
        else
          Problem = std::string("not ") + What;
      }
    } catch (const Json::exception &E) {
      Problem = E.what();
    }
    if (!Problem.empty()) {
      std::fprintf(stderr, "ddtc run: %s: cannot read it: %s\n",
                   displayPath(Path).c_str(), Problem.c_str());
      continue;
    }
    Files.push_back(std::move(F));
  }
  std::sort(
      Files.begin(), Files.end(),
      [](const RankFile &A, const RankFile &B) { return A.Rank < B.Rank; });
  return Files;
}

/// The rank and size Doc holds, where both are integers.
std::optional<std::pair<int, int>> getRankAndSize(const Json &Doc) {
  if (!Doc.is_object() || !Doc.contains("rank") || !Doc.contains("size") ||
      !Doc["rank"].is_number_integer() || !Doc["size"].is_number_integer())
    return std::nullopt;
  return std::make_pair(Doc["rank"].get<int>(), Doc["size"].get<int>());
}

/// The first line, and the ranks that wrote nothing. Returns false where
/// no file was read (the line says why).
bool printHeader(const RunOutcome &Outcome, const std::vector<RankFile> &Files,
                 const char *What) {
  std::string Where = displayPath(Outcome.Pattern);
  if (Files.empty() && !Outcome.Files.empty()) {
    std::fprintf(stderr, "ddtc run: no %s could be read (%s)\n", What,
                 Where.c_str());
    printLine("library", Outcome.Library);
    return false;
  }
  if (Files.empty()) {
    std::fprintf(stderr,
                 "ddtc run: no %s written (%s): the program ended before "
                 "MPI_Finalize, or did not run under the library\n",
                 What, Where.c_str());
    printLine("library", Outcome.Library);
    return false;
  }
  std::set<int> Seen;
  int Size = 0;
  for (const RankFile &F : Files) {
    Seen.insert(F.Rank);
    Size = std::max(Size, F.Size);
  }
  std::fprintf(stderr, "ddtc run: %ss of %s of %d in %s\n", What,
               plural(Seen.size(), "rank").c_str(), Size, Where.c_str());
  printLine("library", Outcome.Library);
  std::vector<int> Missing;
  for (int R = 0; R < Size; ++R)
    if (!Seen.count(R))
      Missing.push_back(R);
  if (!Missing.empty())
    printLine("missing",
              std::string(Missing.size() == 1 ? "rank " : "ranks ") +
                  formatRanks(Missing) + ": no " + What +
                  " (a rank that crashes or does not reach MPI_Finalize "
                  "writes none)");
  return true;
}

void printExit(int WaitStatus) {
  if (WIFSIGNALED(WaitStatus))
    printLine("exit", "killed by signal " +
                          std::to_string(WTERMSIG(WaitStatus)) + " (" +
                          strsignal(WTERMSIG(WaitStatus)) + ")");
  else if (WIFEXITED(WaitStatus) && WEXITSTATUS(WaitStatus) != 0)
    printLine("exit", "status " + std::to_string(WEXITSTATUS(WaitStatus)));
}

/// The reasons a report gives for a type without a kernel (TypeBinding.cpp
/// and the decoder's), cut to the words they have in common: the rest
/// names the type's own sizes.
std::string groupReason(const std::string &Reason) {
  static const std::pair<const char *, const char *> Groups[] = {
      {"contiguous:", "contiguous"},
      {"the MPI library lays out", "laid out otherwise by MPI"},
      {"cannot decode", "cannot decode"},
      {"failed while binding", "failed while binding"},
      {"no layout key", "no layout key"},
  };
  for (const auto &[Prefix, Group] : Groups)
    if (Reason.rfind(Prefix, 0) == 0)
      return Group;
  if (Reason.find("contiguous blocks, more than") != std::string::npos)
    return "too many blocks to normalize";
  return Reason;
}

/// "11 shape, 1 emitted": the largest first, names in order among equals.
std::string formatCounts(const std::map<std::string, size_t> &Counts) {
  std::vector<std::pair<std::string, size_t>> Sorted(Counts.begin(),
                                                     Counts.end());
  std::stable_sort(
      Sorted.begin(), Sorted.end(),
      [](const auto &A, const auto &B) { return A.second > B.second; });
  std::string Out;
  for (const auto &[Name, N] : Sorted)
    Out += (Out.empty() ? "" : ", ") + std::to_string(N) + " " + Name;
  return Out;
}

/// The settings' source and file ("stored, FILE"); a measurement with the
/// longest of the ranks' times (each rank waits for it, some longer).
std::string describeSource(const Json &S, double MeasureSeconds) {
  std::string Source = S.value("source", "");
  std::string File = S.contains("file") && S["file"].is_string()
                         ? displayPath(S["file"].get<std::string>())
                         : "";
  std::string Text;
  if (Source == "named") {
    Text = "named by DDTC_RT_CONFIG";
  } else if (Source == "measured") {
    char Seconds[32];
    std::snprintf(Seconds, sizeof Seconds, "%.1f", MeasureSeconds);
    Text = std::string("measured in this run (") + Seconds + " s)";
  } else if (Source == "defaults") {
    Text = "defaults (none stored, measured or named)";
  } else {
    Text = Source;
  }
  // A store one run measured is measured again by the next, which keeps,
  // where the two differ, what leaves more to MPI.
  int Measurements = S.value("measurements", 0);
  if (Measurements == 1)
    Text += Source == "measured" ? " and stored; the next run measures again "
                                   "to confirm them"
                                 : " (measured by one run)";
  else if (Measurements >= 2)
    Text += Source == "measured" ? ", confirming the stored ones"
                                 : " (measured by two runs)";
  return File.empty() ? Text : Text + ", " + File;
}

/// The settings' values, as the report names them.
std::string describeValues(const Json &S) {
  auto Value = [&](const char *Name) {
    if (!S.contains(Name))
      return std::string("?");
    return S[Name].is_string() ? S[Name].get<std::string>() : S[Name].dump();
  };
  std::string Text = std::string("split_send ") + Value("split_send") +
                     ", typed_blocks " + Value("typed_blocks");
  if (S.value("spans_nodes", false))
    Text += ", remote_split_send " + Value("remote_split_send") +
            ", remote_typed_blocks " + Value("remote_typed_blocks");
  return Text + ", shapes " + Value("shapes") + ", forms " + Value("forms");
}

void printSettings(const std::vector<RankFile> &Files) {
  // Ranks of one node share their settings; ranks of several node types
  // may not. A group is the source, file and values.
  struct Group {
    const Json *Settings;
    std::vector<int> Ranks;
    double MeasureSeconds = 0;
  };
  std::map<std::string, Group> Groups;
  for (const RankFile &F : Files) {
    if (!F.Doc.contains("settings") || !F.Doc["settings"].is_object())
      continue;
    const Json &S = F.Doc["settings"];
    std::string Id = S.value("source", "") + "\n" +
                     (S.contains("file") ? S["file"].dump() : "") + "\n" +
                     describeValues(S);
    Group &G = Groups.try_emplace(Id, Group{&S, {}, 0}).first->second;
    G.Ranks.push_back(F.Rank);
    if (S.contains("measure_seconds") && S["measure_seconds"].is_number())
      G.MeasureSeconds =
          std::max(G.MeasureSeconds, S["measure_seconds"].get<double>());
  }
  std::string Label = "settings";
  for (const auto &[Id, G] : Groups) {
    std::string Where = Groups.size() == 1
                            ? ""
                            : (G.Ranks.size() == 1 ? " (rank " : " (ranks ") +
                                  formatRanks(G.Ranks) + ")";
    printLine(Label, describeSource(*G.Settings, G.MeasureSeconds) + Where);
    printLine("", describeValues(*G.Settings));
    Label.clear();
  }
}

void printCalls(const std::vector<RankFile> &Files) {
  std::map<std::string, std::pair<uint64_t, uint64_t>> Calls;
  for (const RankFile &F : Files) {
    if (!F.Doc.contains("calls") || !F.Doc["calls"].is_object())
      continue;
    for (const auto &[Name, C] : F.Doc["calls"].items()) {
      Calls[Name].first += C.value("substituted", uint64_t(0));
      Calls[Name].second += C.value("passed_through", uint64_t(0));
    }
  }
  if (Calls.empty()) {
    printLine("calls", "none with a derived type");
    return;
  }
  size_t Width = std::strlen("all");
  std::pair<uint64_t, uint64_t> All;
  for (const auto &[Name, C] : Calls) {
    Width = std::max(Width, Name.size());
    All.first += C.first;
    All.second += C.second;
  }
  auto Row = [&](const std::string &Label, const std::string &Name,
                 const std::string &Sub, const std::string &Passed) {
    std::fprintf(stderr, "  %-10s %-*s  %11s  %14s\n", Label.c_str(),
                 int(Width), Name.c_str(), Sub.c_str(), Passed.c_str());
  };
  Row("calls", "", "substituted", "passed through");
  for (const auto &[Name, C] : Calls)
    Row("", Name, std::to_string(C.first), std::to_string(C.second));
  if (Calls.size() > 1)
    Row("", "all", std::to_string(All.first), std::to_string(All.second));
}

void printTypes(const std::vector<RankFile> &Files) {
  // The identity of a type over the ranks, and what the first rank that
  // reports it says of it.
  std::map<std::tuple<std::string, std::string, std::string>, const Json *>
      Types;
  std::set<std::string> Libraries;
  // The kernel cache's libraries are one line of counts: a run may load
  // hundreds of them.
  std::string CacheDir;
  size_t CacheEntries = 0, CacheLoaded = 0, Asked = 0, Compiled = 0, Failed = 0;
  for (const RankFile &F : Files) {
    if (F.Doc.contains("kernel_cache") && F.Doc["kernel_cache"].is_object()) {
      const Json &C = F.Doc["kernel_cache"];
      if (C.contains("directory") && C["directory"].is_string())
        CacheDir = C["directory"].get<std::string>();
      CacheEntries = std::max(CacheEntries, C.value("entries", size_t(0)));
      CacheLoaded += C.value("loaded", size_t(0));
      Asked += C.value("compiles_requested", size_t(0));
      Compiled += C.value("compiled", size_t(0));
      Failed += C.value("compiles_failed", size_t(0));
    }
  }
  for (const RankFile &F : Files) {
    if (F.Doc.contains("types") && F.Doc["types"].is_array())
      for (const Json &T : F.Doc["types"]) {
        std::string Layout = T.contains("key")
                                 ? T["key"].dump()
                                 : T.value("size", Json()).dump() + "/" +
                                       T.value("extent", Json()).dump();
        Types.emplace(
            std::make_tuple(T.value("name", ""), Layout, T.value("reason", "")),
            &T);
      }
    if (F.Doc.contains("kernel_libraries") &&
        F.Doc["kernel_libraries"].is_array())
      for (const Json &L : F.Doc["kernel_libraries"]) {
        std::string Path = L.value("path", "");
        if (!CacheDir.empty() && Path.rfind(CacheDir + "/", 0) == 0)
          continue;
        Libraries.insert(displayPath(Path) + " (" +
                         plural(L.value("kernels", size_t(0)), "kernel") + ")");
      }
  }
  std::map<std::string, size_t> Kinds, Reasons;
  for (const auto &[Id, T] : Types) {
    if (T->contains("kind") && (*T)["kind"].is_string())
      ++Kinds[(*T)["kind"].get<std::string>()];
    else
      ++Reasons[groupReason(T->value("reason", "unknown"))];
  }
  printLine("types", std::to_string(Types.size()) +
                         " (distinct by name and layout over the ranks)");
  printLine("kernels", Kinds.empty() ? "none" : formatCounts(Kinds));
  if (!Reasons.empty())
    printLine("no kernel", formatCounts(Reasons));
  if (!CacheDir.empty())
    printLine("cache", displayPath(CacheDir) + ": " +
                           std::to_string(CacheEntries) +
                           (CacheEntries == 1 ? " entry" : " entries") +
                           " at the start, " + std::to_string(CacheLoaded) +
                           " loaded over the ranks; compiled this run: " +
                           std::to_string(Compiled) + " of " +
                           std::to_string(Asked) + " asked" +
                           (Failed ? ", " + std::to_string(Failed) + " failed"
                                   : std::string()));
  std::string Label = "libraries";
  for (const std::string &L : Libraries) {
    printLine(Label, L);
    Label.clear();
  }
}

/// The traces' summary, all but its exit line.
void printTraceBody(const RunOutcome &Outcome,
                    const std::vector<RankFile> &Files) {
  if (!printHeader(Outcome, Files, "trace"))
    return;
  std::map<size_t, std::vector<int>> TypesByCount;
  std::vector<int> Aborted;
  for (const RankFile &F : Files) {
    size_t N = F.Doc.contains("types") && F.Doc["types"].is_array()
                   ? F.Doc["types"].size()
                   : 0;
    TypesByCount[N].push_back(F.Rank);
    if (F.Doc.value("aborted", false))
      Aborted.push_back(F.Rank);
  }
  if (!Aborted.empty())
    printLine("aborted", std::string(Aborted.size() == 1 ? "rank " : "ranks ") +
                             formatRanks(Aborted) + " (MPI_Abort)");
  if (TypesByCount.size() == 1) {
    printLine("types", std::to_string(TypesByCount.begin()->first) +
                           " committed per rank");
  } else {
    std::string Text;
    for (const auto &[N, Ranks] : TypesByCount)
      Text += (Text.empty() ? "" : "; ") + std::to_string(N) + " on " +
              (Ranks.size() == 1 ? "rank " : "ranks ") + formatRanks(Ranks);
    printLine("types", Text);
  }
  // The trace with the most types: the kernels of one rank's types serve
  // every rank that commits the same layouts.
  const RankFile *Most = &Files.front();
  for (const RankFile &F : Files)
    if (F.Doc.contains("types") && F.Doc["types"].is_array() &&
        (!Most->Doc.contains("types") ||
         F.Doc["types"].size() > Most->Doc["types"].size()))
      Most = &F;
  if (TypesByCount.rbegin()->first == 0) {
    printLine("next", "nothing to emit: the program committed no derived "
                      "type");
  } else {
    printLine("next", "ddtc emit " + displayPath(Most->Path) + " -o kernels");
    printLine("", "g++ -O2 -shared -fPIC kernels.cpp -o libkernels.so");
    printLine("", Outcome.RunWithKernels);
  }
}

} // namespace

void printReportSummary(const RunOutcome &Outcome) {
  std::vector<RankFile> Files = readRankFiles(
      Outcome.Files,
      [](const Json &Doc) -> std::optional<std::pair<int, int>> {
        if (!Doc.is_object() || Doc.value("ddtc_rt", 0) != 1)
          return std::nullopt;
        return getRankAndSize(Doc);
      },
      "a report of ddtc's runtime (\"ddtc_rt\": 1)");
  // A field of another type than the runtime writes (a report edited, or
  // of another version) ends the summary, not ddtc run.
  try {
    if (printHeader(Outcome, Files, "report")) {
      if (std::none_of(Files.begin(), Files.end(), [](const RankFile &F) {
            return F.Doc.value("active", false);
          }))
        printLine("runtime", "not active on any rank: no kernel library, and "
                             "shape kernels off");
      printTypes(Files);
      printCalls(Files);
      printSettings(Files);
    }
  } catch (const Json::exception &E) {
    std::fprintf(stderr, "ddtc run: cannot summarize the reports: %s\n",
                 E.what());
  }
  printExit(Outcome.WaitStatus);
}

void printTraceSummary(const RunOutcome &Outcome) {
  std::vector<RankFile> Files = readRankFiles(
      Outcome.Files,
      [](const Json &Doc) -> std::optional<std::pair<int, int>> {
        if (!Doc.is_object() || !Doc.contains("x-trace"))
          return std::nullopt;
        return getRankAndSize(Doc["x-trace"]);
      },
      "a trace of ddtc's trace library (\"x-trace\")");
  try {
    printTraceBody(Outcome, Files);
  } catch (const Json::exception &E) {
    std::fprintf(stderr, "ddtc run: cannot summarize the traces: %s\n",
                 E.what());
  }
  printExit(Outcome.WaitStatus);
}

} // namespace ddtc

//===- tools/ddtc-bench/Results.cpp - Measurements and their output -------===//

#include "Results.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <fstream>
#include <map>
#include <numeric>
#include <unistd.h>

namespace ddtc::bench {

double median(std::vector<double> V) {
  std::sort(V.begin(), V.end());
  size_t N = V.size();
  return N % 2 ? V[N / 2] : (V[N / 2 - 1] + V[N / 2]) / 2;
}

double Measurement::median() const { return bench::median(RunMediansUs); }
double Measurement::mean() const {
  return std::accumulate(RunMediansUs.begin(), RunMediansUs.end(), 0.0) /
         double(RunMediansUs.size());
}
double Measurement::min() const {
  return *std::min_element(RunMediansUs.begin(), RunMediansUs.end());
}
double Measurement::max() const {
  return *std::max_element(RunMediansUs.begin(), RunMediansUs.end());
}

namespace {

/// Writes Text to Path through a temporary file in the same directory, so
/// that a failed run leaves no partial output.
bool writeAtomically(const std::string &Path, const std::string &Text,
                     std::string &Err) {
  std::string Tmp = Path + ".tmp." + std::to_string(getpid());
  {
    std::ofstream Out(Tmp, std::ios::binary | std::ios::trunc);
    Out << Text;
    Out.flush();
    if (!Out) {
      Err = Path + ": cannot write: " + std::strerror(errno);
      std::remove(Tmp.c_str());
      return false;
    }
  }
  if (std::rename(Tmp.c_str(), Path.c_str()) != 0) {
    Err = Path + ": cannot write: " + std::strerror(errno);
    std::remove(Tmp.c_str());
    return false;
  }
  return true;
}

std::string utcNow() {
  std::time_t Now = std::time(nullptr);
  char Buf[32];
  std::strftime(Buf, sizeof Buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&Now));
  return Buf;
}

std::string humanBytes(int64_t B) {
  char Buf[32];
  if (B < 1024)
    std::snprintf(Buf, sizeof Buf, "%lld B", static_cast<long long>(B));
  else if (B < 1024 * 1024)
    std::snprintf(Buf, sizeof Buf, "%.1f KiB", double(B) / 1024);
  else
    std::snprintf(Buf, sizeof Buf, "%.1f MiB", double(B) / (1024 * 1024));
  return Buf;
}

std::string csvField(const std::string &S) {
  if (S.find_first_of(",\"\n") == std::string::npos)
    return S;
  std::string Out = "\"";
  for (char C : S)
    Out += C == '"' ? std::string("\"\"") : std::string(1, C);
  return Out + "\"";
}

} // namespace

void printTable(const Report &R, std::FILE *Out) {
  std::fprintf(Out, "%-24s %-19s %-14s %10s %11s %11s %11s %11s %8s\n", "type",
               "op", "variant", "count", "bytes", "median_us", "min_us",
               "max_us", "vs_mpi");
  // The mpi variant's median per (type, count, op), for the last column.
  std::map<std::tuple<std::string, int64_t, Op>, double> Mpi;
  for (const Measurement &M : R.Results)
    if (M.V == Variant::Mpi)
      Mpi[{M.Type, M.Count, M.O}] = M.median();
  for (const Measurement &M : R.Results) {
    auto It = Mpi.find({M.Type, M.Count, M.O});
    char Speedup[16] = "-";
    if (It != Mpi.end() && M.median() > 0)
      std::snprintf(Speedup, sizeof Speedup, "%.2fx", It->second / M.median());
    std::fprintf(Out, "%-24s %-19s %-14s %10lld %11s %11.2f %11.2f %11.2f %8s\n",
                 M.Type.c_str(), getName(M.O), getName(M.V),
                 static_cast<long long>(M.Count), humanBytes(M.Bytes).c_str(),
                 M.median(), M.min(), M.max(), Speedup);
  }
  for (const Skipped &S : R.Skips)
    std::fprintf(Out, "%-24s skipped: %s\n", S.Type.c_str(), S.Reason.c_str());
}

bool writeJson(const Report &R, const std::string &Path, std::string &Err) {
  using nlohmann::ordered_json;
  ordered_json J;
  J["ddtc_bench"] = 1;
  J["file"] = R.File;
  J["source"] = R.FromTrace ? "trace" : "description";
  J["ranks"] = R.Ranks;
  J["runs"] = R.Runs;
  J["chunk"] = R.Chunk;
  J["mpi_library"] = R.MpiLibrary;
  J["ddtc_version"] = DDTC_VERSION;
  J["date"] = utcNow();
  ordered_json Results = ordered_json::array();
  for (const Measurement &M : R.Results) {
    ordered_json Row = {{"type", M.Type},
                        {"op", getName(M.O)},
                        {"variant", getName(M.V)},
                        {"count", M.Count},
                        {"bytes", M.Bytes},
                        {"nrep", M.Nrep},
                        {"median_us", M.median()},
                        {"mean_us", M.mean()},
                        {"min_us", M.min()},
                        {"max_us", M.max()},
                        {"run_medians_us", M.RunMediansUs},
                        {"calls", M.Calls}};
    if (M.KernelUs >= 0)
      Row["kernel_us"] = M.KernelUs;
    Results.push_back(std::move(Row));
  }
  J["results"] = std::move(Results);
  ordered_json Skips = ordered_json::array();
  for (const Skipped &S : R.Skips)
    Skips.push_back({{"type", S.Type}, {"reason", S.Reason}});
  J["skipped"] = std::move(Skips);
  return writeAtomically(Path, J.dump(1) + "\n", Err);
}

bool writeCsv(const Report &R, const std::string &Path, std::string &Err) {
  std::string Text = "type,op,variant,count,bytes,nrep,runs,median_us,"
                     "mean_us,min_us,max_us,calls\n";
  for (const Measurement &M : R.Results) {
    char Buf[256];
    std::snprintf(Buf, sizeof Buf,
                  ",%s,%s,%lld,%lld,%d,%zu,%.3f,%.3f,%.3f,"
                  "%.3f,%llu\n",
                  getName(M.O), getName(M.V), static_cast<long long>(M.Count),
                  static_cast<long long>(M.Bytes), M.Nrep,
                  M.RunMediansUs.size(), M.median(), M.mean(), M.min(), M.max(),
                  static_cast<unsigned long long>(M.Calls));
    Text += csvField(M.Type) + Buf;
  }
  return writeAtomically(Path, Text, Err);
}

} // namespace ddtc::bench

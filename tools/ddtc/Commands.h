//===- tools/ddtc/Commands.h - The ddtc subcommands -------------*- C++ -*-===//
//
// Each subcommand is a function returning the process exit status:
// 0 success, 1 bad input (diagnostic already printed), 2 bad usage.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_TOOLS_DDTC_COMMANDS_H
#define DDTC_TOOLS_DDTC_COMMANDS_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ddtc {

constexpr int ExitSuccess = 0;
constexpr int ExitBadInput = 1;
constexpr int ExitUsage = 2;

enum class ReportFormat { Text, Json };

struct AnalyzeOptions {
  std::string InputPath;
  ReportFormat Format = ReportFormat::Text;
};

int runAnalyze(const AnalyzeOptions &Options);

struct PrintOptions {
  std::string InputPath;
  ReportFormat Format = ReportFormat::Text;
};

/// `ddtc print`: converts between format v1 and the textual IR.
int runPrint(const PrintOptions &Options);

struct NormalizeOptions {
  std::string InputPath;
  std::string OutputPath;
  std::string Passes;
  ReportFormat Format = ReportFormat::Json;
  bool PrintAfterAll = false;
  bool Verify = true;
  /// With a value: describe the message of Count instances (GL1).
  std::optional<uint64_t> Count;
};

/// `ddtc normalize`: runs the pass pipeline and writes the result.
int runNormalize(const NormalizeOptions &Options);

struct EmitOptions {
  std::string InputPath;
  std::string OutputPrefix;
  /// 0: emit the types as given; 1: normalize them first.
  unsigned OptLevel = 1;
};

/// `ddtc emit`: writes pack/unpack and MPI constructor code.
int runEmit(const EmitOptions &Options);

struct PlotOptions {
  /// The arguments after `plot`, for the ddtc-plot script, unparsed.
  std::vector<std::string> Args;
  /// To find the script beside ddtc when /proc/self/exe is unavailable.
  std::string Argv0;
};

/// `ddtc plot`: runs the ddtc-plot script; returns only if it cannot.
int runPlot(const PlotOptions &Options);

/// Prints "error: MESSAGE" on stderr.
void reportError(const std::string &Message);

} // namespace ddtc

#endif // DDTC_TOOLS_DDTC_COMMANDS_H

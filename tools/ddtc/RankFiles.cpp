//===- tools/ddtc/RankFiles.cpp - The files a pattern names per rank ------===//
#include "RankFiles.h"

#include <algorithm>
#include <system_error>

namespace fs = std::filesystem;

namespace ddtc {

namespace {

bool hasRankOrPid(const std::string &Text) {
  return Text.find("%r") != std::string::npos ||
         Text.find("%p") != std::string::npos;
}

/// The regular expression of the file names Pattern expands to, as the
/// runtime expands it (expandPattern, RuntimeSupport.h): a `%` before
/// another character is itself.
std::string toRegex(const std::string &Pattern) {
  std::string Out;
  for (size_t I = 0; I < Pattern.size(); ++I) {
    char C = Pattern[I];
    if (C == '%' && I + 1 < Pattern.size()) {
      char Next = Pattern[I + 1];
      if (Next == 'r' || Next == 'p') {
        Out += "[0-9]+";
        ++I;
        continue;
      }
      if (Next == '%')
        ++I;
    }
    if (std::string_view("\\^$.|?*+()[]{}").find(C) != std::string_view::npos)
      Out += '\\';
    Out += C;
  }
  return Out;
}

} // namespace

RankFiles::RankFiles(const std::string &Pattern) {
  fs::path P(Pattern);
  Dir = P.parent_path();
  if (Dir.empty())
    Dir = ".";
  Listable = !hasRankOrPid(Dir.string());
  Name = std::regex(toRegex(P.filename().string()));
}

std::vector<std::string> RankFiles::list() const {
  std::vector<std::string> Files;
  if (!Listable)
    return Files;
  std::error_code EC;
  for (fs::directory_iterator It(Dir, EC), End; !EC && It != End;
       It.increment(EC)) {
    std::error_code TypeEC;
    if (It->is_regular_file(TypeEC) &&
        std::regex_match(It->path().filename().string(), Name))
      Files.push_back(It->path().string());
  }
  std::sort(Files.begin(), Files.end());
  return Files;
}

Error RankFiles::removeAll() const {
  for (const std::string &File : list()) {
    std::error_code EC;
    if (!fs::remove(File, EC) && EC)
      return makeError("cannot remove " + File + ": " + EC.message());
  }
  return Error::success();
}

void RankFiles::snapshot() {
  Before.clear();
  for (const std::string &File : list()) {
    std::error_code EC;
    fs::file_time_type Time = fs::last_write_time(File, EC);
    if (!EC)
      Before.emplace(File, Time);
  }
}

std::vector<std::string> RankFiles::fresh() const {
  std::vector<std::string> Files;
  for (const std::string &File : list()) {
    auto It = Before.find(File);
    std::error_code EC;
    if (It == Before.end() || fs::last_write_time(File, EC) != It->second)
      Files.push_back(File);
  }
  return Files;
}

} // namespace ddtc

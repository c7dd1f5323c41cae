//===- lib/Runtime/RuntimeSettings.cpp - The runtime's settings -----------===//
#include "ddtc/Runtime/RuntimeSettings.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace ddtc {

namespace {

std::string trim(const std::string &S) {
  size_t B = S.find_first_not_of(" \t\r");
  if (B == std::string::npos)
    return "";
  size_t E = S.find_last_not_of(" \t\r");
  return S.substr(B, E - B + 1);
}

} // namespace

bool RuntimeSettings::isKnown(const std::string &Name) {
  return Name == "DDTC_RT_SPLIT_SEND" || Name == "DDTC_RT_TYPED_BLOCKS" ||
         Name == "DDTC_RT_MAX_BUFFER" || Name == "DDTC_RT_FORMS";
}

std::vector<std::string> RuntimeSettings::load() {
  std::vector<std::string> Warnings;
  FromFile.clear();
  const char *P = std::getenv("DDTC_RT_CONFIG");
  Path = P ? P : "";
  if (Path.empty())
    return Warnings;
  std::ifstream In(Path, std::ios::binary);
  if (!In) {
    Warnings.push_back("DDTC_RT_CONFIG='" + Path +
                       "' cannot be read; using the environment and the "
                       "defaults");
    return Warnings;
  }
  // A settings file is a few lines: a larger one is not read (no line of
  // it is held whole in memory, whatever the file is).
  std::string Content(MaxBytes + 1, '\0');
  In.read(Content.data(), static_cast<std::streamsize>(Content.size()));
  Content.resize(static_cast<size_t>(In.gcount()));
  if (Content.size() > MaxBytes) {
    Warnings.push_back("DDTC_RT_CONFIG='" + Path + "' is larger than " +
                       std::to_string(MaxBytes) +
                       " bytes, not a settings file; using the environment "
                       "and the defaults");
    return Warnings;
  }
  std::istringstream Lines(Content);
  std::string Line;
  for (unsigned No = 1; std::getline(Lines, Line); ++No) {
    std::string Text = trim(Line.substr(0, Line.find('#')));
    if (Text.empty())
      continue;
    size_t Eq = Text.find('=');
    std::string Name = Eq == std::string::npos ? "" : trim(Text.substr(0, Eq));
    std::string Where = Path + ":" + std::to_string(No) + ": ";
    if (Name.empty()) {
      Warnings.push_back(Where + "'" + Text + "' is not NAME=VALUE; ignored");
      continue;
    }
    if (!isKnown(Name)) {
      Warnings.push_back(Where + Name +
                         " is not a setting of the runtime (DDTC_RT_SPLIT_SEND, "
                         "DDTC_RT_TYPED_BLOCKS, DDTC_RT_MAX_BUFFER, "
                         "DDTC_RT_FORMS); ignored");
      continue;
    }
    FromFile[Name] = trim(Text.substr(Eq + 1));
  }
  return Warnings;
}

const char *RuntimeSettings::get(const char *Name) const {
  if (const char *V = std::getenv(Name); V && *V)
    return V;
  auto It = FromFile.find(Name);
  return It == FromFile.end() || It->second.empty() ? nullptr
                                                    : It->second.c_str();
}

std::string RuntimeSettings::where(const char *Name) const {
  const char *V = std::getenv(Name);
  return (V && *V) || !FromFile.count(Name) ? "" : Path + ": ";
}

} // namespace ddtc

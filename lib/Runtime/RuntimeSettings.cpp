//===- lib/Runtime/RuntimeSettings.cpp - The runtime's settings -----------===//
#include "ddtc/Runtime/RuntimeSettings.h"
#include "ddtc/Runtime/SettingsStore.h"

#include <algorithm>
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

constexpr const char *Settings[] = {"DDTC_RT_SPLIT_SEND",
                                    "DDTC_RT_TYPED_BLOCKS",
                                    "DDTC_RT_REMOTE_SPLIT_SEND",
                                    "DDTC_RT_REMOTE_TYPED_BLOCKS",
                                    "DDTC_RT_MAX_BUFFER",
                                    "DDTC_RT_FORMS",
                                    "DDTC_RT_SHAPES",
                                    "DDTC_RT_SPARSE_BLOCKS",
                                    "DDTC_RT_COLLECTIVE_BLOCKS",
                                    "DDTC_RT_PACK_TIES"};

/// What a file says of itself: the version of its contents and what it was
/// measured on.
constexpr const char *Identity[] = {"DDTC_RT_SETTINGS_VERSION", "DDTC_RT_NODE",
                                    "DDTC_RT_MPI", "DDTC_RT_MEASUREMENTS",
                                    "DDTC_RT_REMOTE_MEASUREMENTS"};

} // namespace

const char *RuntimeSettings::sourceName(Source S) {
  switch (S) {
  case Source::Named:
    return "named";
  case Source::Stored:
    return "stored";
  case Source::Measured:
    return "measured";
  case Source::Defaults:
    break;
  }
  return "defaults";
}

bool RuntimeSettings::isKnown(const std::string &Name) {
  for (const char *S : Settings)
    if (Name == S)
      return true;
  for (const char *S : Identity)
    if (Name == S)
      return true;
  return false;
}

bool RuntimeSettings::read(const std::string &File, const std::string &Label,
                           std::vector<std::string> &Warnings) {
  FromFile.clear();
  std::ifstream In(File, std::ios::binary);
  if (!In) {
    Warnings.push_back(Label + " cannot be read; using the environment and the "
                               "defaults");
    return false;
  }
  // A settings file is a few lines: a larger one is not read (no line of
  // it is held whole in memory, whatever the file is).
  std::string Content(MaxBytes + 1, '\0');
  In.read(Content.data(), static_cast<std::streamsize>(Content.size()));
  Content.resize(static_cast<size_t>(In.gcount()));
  if (Content.size() > MaxBytes) {
    Warnings.push_back(Label + " is larger than " + std::to_string(MaxBytes) +
                       " bytes, not a settings file; using the environment "
                       "and the defaults");
    return false;
  }
  std::istringstream Lines(Content);
  std::string Line;
  for (unsigned No = 1; std::getline(Lines, Line); ++No) {
    std::string Text = trim(Line.substr(0, Line.find('#')));
    if (Text.empty())
      continue;
    size_t Eq = Text.find('=');
    std::string Name = Eq == std::string::npos ? "" : trim(Text.substr(0, Eq));
    std::string Where = File + ":" + std::to_string(No) + ": ";
    if (Name.empty()) {
      Warnings.push_back(Where + "'" + Text + "' is not NAME=VALUE; ignored");
      continue;
    }
    if (!isKnown(Name)) {
      Warnings.push_back(
          Where + Name +
          " is not a setting of the runtime (DDTC_RT_SPLIT_SEND, "
          "DDTC_RT_TYPED_BLOCKS, their DDTC_RT_REMOTE_ forms, "
          "DDTC_RT_MAX_BUFFER, DDTC_RT_FORMS, DDTC_RT_SHAPES, "
          "DDTC_RT_SPARSE_BLOCKS, DDTC_RT_COLLECTIVE_BLOCKS, "
          "DDTC_RT_PACK_TIES); ignored");
      continue;
    }
    FromFile[Name] = trim(Text.substr(Eq + 1));
  }
  return true;
}

std::string RuntimeSettings::fileValue(const std::string &Name) const {
  auto It = FromFile.find(Name);
  return It == FromFile.end() ? "" : It->second;
}

bool RuntimeSettings::readStored(const std::string &Node,
                                 const std::string &Library,
                                 std::vector<std::string> &Warnings) {
  FromFile.clear();
  std::string Dir = cacheDirectory();
  if (Dir.empty())
    return false;
  std::string File = storedSettingsPath(Dir, Node, Library);
  std::string Why = whyUntrusted(File, /*Directory=*/false);
  if (Why == "missing")
    return false;
  std::string What = "the file";
  if (Why.empty()) {
    Why = whyUntrusted(Dir, /*Directory=*/true);
    What = "its directory";
  }
  if (!Why.empty()) {
    Warnings.push_back("stored settings '" + File + "' refused: " + What +
                       " is " + Why);
    return false;
  }
  // A file that is not entirely readable, or of another version, node
  // type or library, is measured again rather than half used.
  std::vector<std::string> Problems;
  if (!read(File, "stored settings '" + File + "'", Problems) ||
      !Problems.empty() ||
      fileValue("DDTC_RT_SETTINGS_VERSION") !=
          std::to_string(SettingsVersion) ||
      fileValue("DDTC_RT_NODE") != Node ||
      fileValue("DDTC_RT_MPI") != Library) {
    Warnings.push_back("stored settings '" + File +
                       "' are unreadable or of another version, node type or "
                       "MPI library; ignored");
    FromFile.clear();
    return false;
  }
  Path = File;
  return true;
}

std::vector<std::string> RuntimeSettings::load(const std::string &Node,
                                               const std::string &Library) {
  std::vector<std::string> Warnings;
  FromFile.clear();
  Path.clear();
  Seconds = 0;
  From = Source::Defaults;
  if (const char *P = std::getenv("DDTC_RT_CONFIG"); P && *P) {
    From = Source::Named;
    Path = P;
    if (!read(Path, "DDTC_RT_CONFIG='" + Path + "'", Warnings))
      return Warnings;
    // Named by hand, it wins wherever it was measured; a user who copied
    // a file from another machine is told once.
    std::string FileNode = fileValue("DDTC_RT_NODE");
    std::string FileLibrary = fileValue("DDTC_RT_MPI");
    if ((!FileNode.empty() && FileNode != Node) ||
        (!FileLibrary.empty() && FileLibrary != Library))
      Warnings.push_back(
          "DDTC_RT_CONFIG='" + Path +
          "' was measured on another node type or MPI library (" +
          (FileNode != Node ? FileNode : FileLibrary) + "); using it as named");
    return Warnings;
  }
  if (readStored(Node, Library, Warnings))
    From = Source::Stored;
  return Warnings;
}

std::vector<std::string>
RuntimeSettings::loadStored(const std::string &Node,
                            const std::string &Library) {
  std::vector<std::string> Warnings;
  Path.clear();
  Seconds = 0;
  From =
      readStored(Node, Library, Warnings) ? Source::Stored : Source::Defaults;
  return Warnings;
}

std::vector<std::string>
RuntimeSettings::loadMeasured(const std::string &Node,
                              const std::string &Library, double Took) {
  std::vector<std::string> Warnings;
  Path.clear();
  From = Source::Defaults;
  if (readStored(Node, Library, Warnings)) {
    From = Source::Measured;
    Seconds = Took;
  }
  return Warnings;
}

int RuntimeSettings::measurements(bool Remote) const {
  if (From != Source::Stored && From != Source::Measured)
    return 0;
  std::string Prefix = Remote ? "DDTC_RT_REMOTE_" : "DDTC_RT_";
  if (fileValue(Prefix + "SPLIT_SEND").empty() &&
      fileValue(Prefix + "TYPED_BLOCKS").empty())
    return 0;
  // A stored file without the count (one written with -o and copied in)
  // holds one measurement.
  std::string Count = fileValue(Prefix + "MEASUREMENTS");
  return Count.empty() ? 1 : std::max(1, std::atoi(Count.c_str()));
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

//===- lib/Engine/EngineCosts.cpp - Cost tables ---------------------------===//
#include "ddtc/Engine/EngineCosts.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <vector>

namespace ddtc {

namespace {

struct UnitInfo {
  const char *Name;
  const char *Description;
};

constexpr UnitInfo Units[] = {
#define DDTC_UNIT_INFO(Id, Name, Description) {Name, Description},
    DDTC_ENGINE_UNITS(DDTC_UNIT_INFO)
#undef DDTC_UNIT_INFO
};

/// The shipped MPICH table, made from share/engines/mpich-4.0.2.costs at
/// build time.
constexpr const char *DefaultTableText =
#include "DefaultEngineCosts.inc"
    ;

std::string_view trim(std::string_view S) {
  while (!S.empty() && (S.front() == ' ' || S.front() == '\t'))
    S.remove_prefix(1);
  while (!S.empty() &&
         (S.back() == ' ' || S.back() == '\t' || S.back() == '\r'))
    S.remove_suffix(1);
  return S;
}

} // namespace

const char *getWorkUnitName(WorkUnit U) {
  return Units[static_cast<size_t>(U)].Name;
}

const char *getWorkUnitDescription(WorkUnit U) {
  return Units[static_cast<size_t>(U)].Description;
}

Expected<EngineCosts> parseEngineCosts(std::string_view Text,
                                       const std::string &FileName) {
  EngineCosts C;
  std::array<bool, NumWorkUnits> Seen{};
  // The length of the key that priced each unit: the longest wins.
  std::array<size_t, NumWorkUnits> Specificity{};
  std::set<std::string> FamilyKeys;
  unsigned LineNo = 0;
  auto Fail = [&](const std::string &Message) {
    return makeError(FileName + ":" + std::to_string(LineNo) + ": " + Message);
  };
  while (!Text.empty()) {
    ++LineNo;
    size_t End = Text.find('\n');
    std::string_view Line =
        trim(Text.substr(0, End == std::string_view::npos ? Text.size() : End));
    Text.remove_prefix(End == std::string_view::npos ? Text.size() : End + 1);
    if (Line.empty() || Line.front() == '#')
      continue;
    size_t Space = Line.find_first_of(" \t");
    std::string Key(Line.substr(0, Space));
    std::string Value(Space == std::string_view::npos
                          ? std::string_view()
                          : trim(Line.substr(Space)));
    if (Key == "engine" || Key == "machine" || Key == "fit") {
      (Key == "engine"    ? C.Engine
       : Key == "machine" ? C.Machine
                          : C.Fit) = Value;
      continue;
    }
    size_t Unit = 0;
    while (Unit < NumWorkUnits && Key != Units[Unit].Name)
      ++Unit;
    // A family line ("unrolled-element", "unrolled-element.i8") prices
    // every unit named KEY.something that has no more specific line.
    std::vector<size_t> Family;
    if (Unit == NumWorkUnits)
      for (size_t U = 0; U < NumWorkUnits; ++U)
        if (std::string_view(Units[U].Name).substr(0, Key.size() + 1) ==
            Key + ".")
          Family.push_back(U);
    if (Unit == NumWorkUnits && Family.empty())
      return Fail("unknown key '" + Key + "'");
    if (!FamilyKeys.insert(Key).second)
      return Fail("'" + Key + "' given twice");
    errno = 0;
    char *Rest = nullptr;
    double V = std::strtod(Value.c_str(), &Rest);
    if (Value.empty() || *Rest || errno || !std::isfinite(V) || V < 0)
      return Fail("'" + Key +
                  "' needs a non-negative number of "
                  "nanoseconds, got '" +
                  Value + "'");
    if (Unit < NumWorkUnits)
      Family.push_back(Unit);
    for (size_t U : Family)
      if (Key.size() >= Specificity[U]) {
        C.NsPerUnit[U] = V;
        Specificity[U] = Key.size();
        Seen[U] = true;
      }
  }
  for (size_t I = 0; I < NumWorkUnits; ++I)
    if (!Seen[I]) {
      LineNo = 0;
      return makeError(FileName + ": no '" + Units[I].Name + "' line");
    }
  if (C.Engine.empty())
    return makeError(FileName + ": no 'engine' line");
  return C;
}

Expected<EngineCosts> readEngineCostsFile(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    return makeError(Path + ": cannot read: " + std::strerror(errno));
  std::stringstream S;
  S << In.rdbuf();
  return parseEngineCosts(S.str(), Path);
}

std::string printEngineCosts(const EngineCosts &C, const std::string &Header) {
  std::string Out;
  std::string_view H = Header;
  while (!H.empty()) {
    size_t End = H.find('\n');
    Out += "# ";
    Out += H.substr(0, End);
    Out += "\n";
    H.remove_prefix(End == std::string_view::npos ? H.size() : End + 1);
  }
  Out += "engine " + C.Engine + "\n";
  if (!C.Machine.empty())
    Out += "machine " + C.Machine + "\n";
  if (!C.Fit.empty())
    Out += "fit " + C.Fit + "\n";
  for (size_t I = 0; I < NumWorkUnits; ++I) {
    char Buf[64];
    std::snprintf(Buf, sizeof Buf, " %.4g", C.NsPerUnit[I]);
    Out += "# " + std::string(Units[I].Description) + "\n";
    Out += std::string(Units[I].Name) + Buf + "\n";
  }
  return Out;
}

const EngineCosts &getDefaultEngineCosts() {
  static const EngineCosts Default = [] {
    Expected<EngineCosts> C =
        parseEngineCosts(DefaultTableText, "mpich-4.0.2.costs");
    // The shipped table is checked by the build's tests; an unreadable one
    // is a build defect, not input.
    if (!C) {
      std::fprintf(stderr, "ddtc: internal error: %s\n",
                   C.takeError().message().c_str());
      std::abort();
    }
    return std::move(*C);
  }();
  return Default;
}

Expected<EngineCosts> findEngineCosts(const std::string &NameOrPath) {
  if (NameOrPath.empty() || NameOrPath == "mpich" ||
      NameOrPath == "mpich-4.0.2")
    return getDefaultEngineCosts();
  if (NameOrPath.find('/') == std::string::npos &&
      NameOrPath.find('.') == std::string::npos)
    return makeError("unknown engine '" + NameOrPath +
                     "': ddtc ships a table for 'mpich' (4.0.2); give the "
                     "path of a table written by ddtc calibrate");
  return readEngineCostsFile(NameOrPath);
}

} // namespace ddtc

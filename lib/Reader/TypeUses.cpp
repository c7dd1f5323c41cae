//===- lib/Reader/TypeUses.cpp - How a traced program used a type ---------===//
#include "ddtc/Reader/TypeUses.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>

namespace ddtc {

bool isPointToPointTransfer(std::string_view Op) {
  // MPI_Bsend packs into the attached buffer and MPI_Sendrecv_replace
  // into a temporary one, whole: those are not here.
  static constexpr std::array<std::string_view, 14> Transfers{
      "MPI_Send",  "MPI_Ssend",  "MPI_Rsend",    "MPI_Recv",  "MPI_Mrecv",
      "MPI_Isend", "MPI_Issend", "MPI_Irsend",   "MPI_Irecv", "MPI_Imrecv",
      "MPI_Sendrecv", "MPI_Isendrecv", "MPI_Send_init", "MPI_Recv_init"};
  if (Op.size() > 2 && Op.substr(Op.size() - 2) == "_c")
    Op.remove_suffix(2); // the large-count variants
  return std::find(Transfers.begin(), Transfers.end(), Op) != Transfers.end();
}

namespace {

/// Calls that move no data: the packed size of a type.
bool isSizeQuery(std::string_view Op) {
  return Op.starts_with("MPI_Pack_size") ||
         Op.starts_with("MPI_Pack_external_size");
}

} // namespace

void TypeUses::merge(const TypeUses &Other) {
  if (Other.empty())
    return;
  PointToPointOnly =
      (empty() || PointToPointOnly) && Other.PointToPointOnly;
  for (const auto &[Count, Calls] : Other.Counts)
    Counts[Count] += Calls;
}

std::vector<uint64_t> TypeUses::countsToCompare(size_t Max) const {
  std::vector<uint64_t> Out;
  if (Counts.empty())
    return Out;
  if (Counts.size() <= Max) {
    for (const auto &[Count, Calls] : Counts)
      Out.push_back(uint64_t(Count));
    return Out;
  }
  std::vector<std::pair<uint64_t, int64_t>> ByCalls; // (calls, count)
  for (const auto &[Count, Calls] : Counts)
    if (Count != Counts.begin()->first && Count != Counts.rbegin()->first)
      ByCalls.push_back({Calls, Count});
  std::sort(ByCalls.begin(), ByCalls.end(), [](auto A, auto B) {
    return A.first != B.first ? A.first > B.first : A.second < B.second;
  });
  Out = {uint64_t(Counts.begin()->first), uint64_t(Counts.rbegin()->first)};
  for (size_t I = 0; I < ByCalls.size() && Out.size() < Max; ++I)
    Out.push_back(uint64_t(ByCalls[I].second));
  std::sort(Out.begin(), Out.end());
  return Out;
}

Expected<TypeUses> readTypeUses(const NamedType &N) {
  TypeUses U;
  bool Transfers = true, Any = false;
  for (const auto &[Key, Value] : N.Extras) {
    if (Key != "x-uses")
      continue;
    auto Bad = [&](const std::string &What) {
      return makeError("type '" + N.Name + "': field 'x-uses': " + What);
    };
    nlohmann::json J = nlohmann::json::parse(Value, nullptr, false);
    if (!J.is_array())
      return Bad("expected an array");
    for (const nlohmann::json &Use : J) {
      if (!Use.is_object() || !Use.contains("count") ||
          !Use["count"].is_number_integer())
        return Bad("an entry without an integer \"count\"");
      if (Use.contains("calls") && !Use["calls"].is_number_unsigned())
        return Bad("an entry whose \"calls\" is not a non-negative integer");
      std::string Op =
          Use.contains("op") && Use["op"].is_string() ? Use["op"].get<std::string>() : "";
      if (isSizeQuery(Op))
        continue;
      int64_t Count = Use["count"].get<int64_t>();
      if (Count <= 0)
        continue;
      U.Counts[Count] += Use.value("calls", uint64_t(1));
      Any = true;
      Transfers = Transfers && isPointToPointTransfer(Op);
    }
  }
  U.PointToPointOnly = Any && Transfers;
  return U;
}

} // namespace ddtc

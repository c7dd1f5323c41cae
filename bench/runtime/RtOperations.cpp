//===- bench/runtime/RtOperations.cpp - Timed MPI operations --------------===//
//
// Every operation is laid out the same way: each rank sends from some
// instances ("slots") of the type in one buffer and receives into slots of
// another, slot J at J x Stride bytes from the buffer's base, and the
// reference does the same with Bytes (the type's size) per slot in
// contiguous buffers. What differs per operation is the call, how many
// slots each rank sends and receives, and which sender's slot arrives in
// each received slot ("arrivals"). The check rebuilds each sender's buffer
// on the receiver (the fill pattern depends only on the sender's rank and
// the buffer's role and geometry) and compares slot by slot.
//
// Where the call places instances at the type's extent (MPI_Alltoall,
// MPI_Gather, MPI_Scatter), Stride is the extent; where it takes byte
// displacements (the w-forms), Stride is the true extent rounded up to 64
// bytes, so that every instance is aligned as the first one is.
//
//===----------------------------------------------------------------------===//
#include "RtOperations.h"

#include "ddtc/IR/Predefined.h"
#include "ddtc/IR/Type.h"
#include "ddtc/IR/TypemapWalker.h"

#include "Buffer.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <map>
#include <vector>

namespace ddtc::bench {

//===----------------------------------------------------------------------===//
// Data of one instance
//===----------------------------------------------------------------------===//

bool sameData(const Type *T, const uint8_t *A, const uint8_t *B) {
  TypemapWalker W(T, 1, WalkMode::Typed);
  TypemapRun Run;
  while (W.next(Run)) {
    uint32_t Pad = getPredefinedInfo(Run.Basic).PadMask;
    int64_t Elem = getPredefinedInfo(Run.Basic).Size;
    for (int64_t Off = 0; Off < Run.Length; ++Off) {
      if (Pad && (Pad >> (Off % Elem) & 1))
        continue;
      if (A[Run.Offset + Off] != B[Run.Offset + Off])
        return false;
    }
  }
  return true;
}

void clearData(const Type *T, uint8_t *Buf) {
  TypemapWalker W(T, 1, WalkMode::Bytes);
  TypemapRun Run;
  while (W.next(Run))
    std::memset(Buf + Run.Offset, 0, static_cast<size_t>(Run.Length));
}

void pingPongOnce(const void *Send, void *Recv, int Count, MPI_Datatype T) {
  constexpr int Tag = 7;
  int Rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  if (Rank == 0) {
    MPI_Send(Send, Count, T, 1, Tag, MPI_COMM_WORLD);
    MPI_Recv(Recv, Count, T, 1, Tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (Rank == 1) {
    MPI_Recv(Recv, Count, T, 0, Tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(Recv, Count, T, 0, Tag, MPI_COMM_WORLD);
  }
}

//===----------------------------------------------------------------------===//
// Names
//===----------------------------------------------------------------------===//

namespace {

constexpr std::array<const char *, 7> Names = {
    "pingpong", "pingpong-persistent", "alltoall", "alltoallw", "gather",
    "scatter",  "neighbor-alltoallw"};

} // namespace

std::string opNames() {
  std::string S;
  for (const char *N : Names)
    S += (S.empty() ? "" : ", ") + std::string(N);
  return S;
}

std::optional<OpKind> parseOp(std::string_view Name) {
  for (size_t I = 0; I < Names.size(); ++I)
    if (Name == Names[I])
      return static_cast<OpKind>(I);
  return std::nullopt;
}

const char *opName(OpKind K) { return Names[static_cast<size_t>(K)]; }

bool needsTwoRanks(OpKind K) {
  return K == OpKind::PingPong || K == OpKind::PingPongPersistent;
}

double Operation::time(bool Typed) {
  MPI_Barrier(MPI_COMM_WORLD);
  double Start = MPI_Wtime();
  call(Typed);
  return MPI_Wtime() - Start;
}

std::string Operation::check() {
  clearReceived();
  call(true);
  call(false);
  return verify();
}

//===----------------------------------------------------------------------===//
// Slots
//===----------------------------------------------------------------------===//

namespace {

int worldRank() {
  int R;
  MPI_Comm_rank(MPI_COMM_WORLD, &R);
  return R;
}

int worldSize() {
  int S;
  MPI_Comm_size(MPI_COMM_WORLD, &S);
  return S;
}

/// The pattern of a rank's buffer of one role: each rank's differs, so
/// that data from the wrong sender is noticed.
uint64_t saltOf(int Rank, size_t Role) {
  return 1 + 16 * static_cast<uint64_t>(Rank) + Role / 512;
}

/// N instances of T, Stride bytes apart, filled; no memory for N = 0.
Buffer slotBuffer(const Type *T, int64_t Stride, int N, size_t Role, int Rank) {
  if (N == 0)
    return Buffer();
  Buffer B(T->trueLb(), T->trueLb() + (N - 1) * Stride + T->trueExtent(), Role);
  B.fill(saltOf(Rank, Role));
  return B;
}

/// N blocks of Bytes contiguous bytes, filled.
Buffer byteBuffer(int64_t Bytes, int N, size_t Role, int Rank) {
  if (N == 0)
    return Buffer();
  Buffer B(0, N * Bytes, Role);
  B.fill(saltOf(Rank, Role));
  return B;
}

/// Whether N instances of T at its extent apart share a byte of data: a
/// receive into them would be erroneous.
bool instancesCollide(const Type *T, int N) {
  if (N <= 1 || T->extent() >= T->trueExtent())
    return false;
  std::vector<bool> Used(
      static_cast<size_t>((N - 1) * T->extent() + T->trueExtent()));
  TypemapWalker W(T, N, WalkMode::Bytes);
  TypemapRun Run;
  while (W.next(Run))
    for (int64_t B = 0; B < Run.Length; ++B) {
      size_t At = static_cast<size_t>(Run.Offset + B - T->trueLb());
      if (Used[At])
        return true;
      Used[At] = true;
    }
  return false;
}

/// Where a received slot's data come from: Sender's slot SenderSlot, or
/// where the operation leaves it open (a Cartesian neighbor that is both
/// the lower and the upper one), OrSlot.
struct Arrival {
  int Slot, Sender, SenderSlot, OrSlot = -1;
};

/// An operation whose ranks send and receive slots (file comment).
class SlotOperation : public Operation {
protected:
  /// SendSlots: how many slots each rank sends from, by rank.
  SlotOperation(const Type *T, MPI_Datatype H, int64_t Stride,
                std::vector<int> SendSlots, int RecvSlots,
                std::vector<Arrival> Arrivals)
      : T(T), H(H), Stride(Stride), Bytes(T->size()), Me(worldRank()),
        SendSlots(std::move(SendSlots)), RecvSlots(RecvSlots),
        Arrivals(std::move(Arrivals)), TypedSend(sendBuffer(Me, true)),
        TypedRecv(slotBuffer(T, Stride, RecvSlots, Buffer::TypedRecv, Me)),
        RefSend(sendBuffer(Me, false)),
        RefRecv(byteBuffer(Bytes, RecvSlots, Buffer::RefRecv, Me)) {}

  /// Rank's send buffer, typed or the reference's, as Rank fills it.
  Buffer sendBuffer(int Rank, bool Typed) const {
    int N = SendSlots[static_cast<size_t>(Rank)];
    return Typed ? slotBuffer(T, Stride, N, Buffer::TypedSend, Rank)
                 : byteBuffer(Bytes, N, Buffer::RefSend, Rank);
  }
  uint8_t *typedSlot(const Buffer &B, int Slot) const {
    return B.base() + Slot * Stride;
  }
  uint8_t *refSlot(const Buffer &B, int Slot) const {
    return B.base() + Slot * Bytes;
  }
  int bytesInt() const { return static_cast<int>(Bytes); }

  void clearReceived() override {
    for (int S = 0; S < RecvSlots; ++S)
      clearData(T, typedSlot(TypedRecv, S));
    if (RecvSlots)
      std::memset(RefRecv.base(), 0, static_cast<size_t>(RecvSlots * Bytes));
  }

  std::string verify() override {
    std::map<int, std::pair<Buffer, Buffer>> Sent; // by sender
    for (const Arrival &A : Arrivals) {
      auto It = Sent.find(A.Sender);
      if (It == Sent.end())
        It = Sent.emplace(A.Sender, std::make_pair(sendBuffer(A.Sender, true),
                                                   sendBuffer(A.Sender, false)))
                 .first;
      const Buffer &Typed = It->second.first, &Ref = It->second.second;
      auto typedFrom = [&](int Slot) {
        return sameData(T, typedSlot(Typed, Slot),
                        typedSlot(TypedRecv, A.Slot));
      };
      auto refFrom = [&](int Slot) {
        return std::memcmp(refSlot(Ref, Slot), refSlot(RefRecv, A.Slot),
                           static_cast<size_t>(Bytes)) == 0;
      };
      std::string From = " from rank " + std::to_string(A.Sender);
      if (!typedFrom(A.SenderSlot) && !(A.OrSlot >= 0 && typedFrom(A.OrSlot)))
        return "instance " + std::to_string(A.Slot) + From +
               " differs from what was sent";
      if (!refFrom(A.SenderSlot) && !(A.OrSlot >= 0 && refFrom(A.OrSlot)))
        return "contiguous block " + std::to_string(A.Slot) + From +
               " differs from what was sent";
    }
    return {};
  }

  const Type *T;
  MPI_Datatype H;
  int64_t Stride, Bytes;
  int Me;
  std::vector<int> SendSlots;
  int RecvSlots;
  std::vector<Arrival> Arrivals;
  Buffer TypedSend, TypedRecv, RefSend, RefRecv;
};

//===----------------------------------------------------------------------===//
// The operations
//===----------------------------------------------------------------------===//

/// Ranks 0 and 1: rank 0 sends its instance, rank 1 returns it from its
/// receive buffer; both receive what rank 0 sent.
std::vector<Arrival> pingPongArrivals() { return {{0, 0, 0}}; }

class PingPong : public SlotOperation {
public:
  PingPong(const Type *T, MPI_Datatype H)
      : SlotOperation(T, H, T->extent(), {1, 0}, 1, pingPongArrivals()) {}

private:
  void call(bool Typed) override {
    if (Typed)
      pingPongOnce(TypedSend.base(), TypedRecv.base(), 1, H);
    else
      pingPongOnce(RefSend.base(), RefRecv.base(), bytesInt(), MPI_BYTE);
  }
};

/// The same exchange through requests made once (MPI_Send_init,
/// MPI_Recv_init), started and completed every round.
class PersistentPingPong : public SlotOperation {
public:
  PersistentPingPong(const Type *T, MPI_Datatype H)
      : SlotOperation(T, H, T->extent(), {1, 0}, 1, pingPongArrivals()) {
    constexpr int Tag = 9;
    int Peer = 1 - Me;
    auto make = [&](Requests &R, uint8_t *Send, uint8_t *Recv, int Count,
                    MPI_Datatype D) {
      // Rank 1 returns the data from where they arrived.
      MPI_Send_init(Me == 0 ? Send : Recv, Count, D, Peer, Tag, MPI_COMM_WORLD,
                    &R.Send);
      MPI_Recv_init(Recv, Count, D, Peer, Tag, MPI_COMM_WORLD, &R.Recv);
    };
    make(Typed, TypedSend.base(), TypedRecv.base(), 1, H);
    make(Ref, RefSend.base(), RefRecv.base(), bytesInt(), MPI_BYTE);
  }
  ~PersistentPingPong() override {
    for (Requests *R : {&Typed, &Ref}) {
      MPI_Request_free(&R->Send);
      MPI_Request_free(&R->Recv);
    }
  }

private:
  struct Requests {
    MPI_Request Send = MPI_REQUEST_NULL, Recv = MPI_REQUEST_NULL;
  };
  void call(bool IsTyped) override {
    Requests &R = IsTyped ? Typed : Ref;
    auto run = [](MPI_Request &Q) {
      MPI_Start(&Q);
      MPI_Wait(&Q, MPI_STATUS_IGNORE);
    };
    if (Me == 0) {
      run(R.Send);
      run(R.Recv);
    } else {
      run(R.Recv);
      run(R.Send);
    }
  }
  Requests Typed, Ref;
};

/// Every rank's slot J goes to rank J, and arrives in its slot Me.
std::vector<Arrival> allToAllArrivals(int Me, int Size) {
  std::vector<Arrival> A;
  for (int P = 0; P < Size; ++P)
    A.push_back({P, P, Me});
  return A;
}

class Alltoall : public SlotOperation {
public:
  Alltoall(const Type *T, MPI_Datatype H, int Size)
      : SlotOperation(T, H, T->extent(), std::vector<int>(Size, Size), Size,
                      allToAllArrivals(worldRank(), Size)) {}

private:
  void call(bool Typed) override {
    if (Typed)
      MPI_Alltoall(TypedSend.base(), 1, H, TypedRecv.base(), 1, H,
                   MPI_COMM_WORLD);
    else
      MPI_Alltoall(RefSend.base(), bytesInt(), MPI_BYTE, RefRecv.base(),
                   bytesInt(), MPI_BYTE, MPI_COMM_WORLD);
  }
};

int64_t alignedStride(const Type *T) {
  return std::max<int64_t>(64, (T->trueExtent() + 63) / 64 * 64);
}

/// The arguments of a w-form call: per peer a count, a byte displacement
/// and a type.
template <typename Disp> struct WArgs {
  std::vector<int> Counts;
  std::vector<Disp> Displs;
  std::vector<MPI_Datatype> Types;
  WArgs(int N, int Count, int64_t Stride, MPI_Datatype D)
      : Counts(N, Count), Types(N, D) {
    for (int J = 0; J < N; ++J)
      Displs.push_back(static_cast<Disp>(J * Stride));
  }
};

class Alltoallw : public SlotOperation {
public:
  Alltoallw(const Type *T, MPI_Datatype H, int Size)
      : SlotOperation(T, H, alignedStride(T), std::vector<int>(Size, Size),
                      Size, allToAllArrivals(worldRank(), Size)),
        TypedArgs(Size, 1, Stride, H),
        RefArgs(Size, bytesInt(), Bytes, MPI_BYTE) {}

private:
  void call(bool Typed) override {
    const WArgs<int> &A = Typed ? TypedArgs : RefArgs;
    MPI_Alltoallw(Typed ? TypedSend.base() : RefSend.base(), A.Counts.data(),
                  A.Displs.data(), A.Types.data(),
                  Typed ? TypedRecv.base() : RefRecv.base(), A.Counts.data(),
                  A.Displs.data(), A.Types.data(), MPI_COMM_WORLD);
  }
  WArgs<int> TypedArgs, RefArgs;
};

/// Root 0 receives every rank's one instance, rank P's in slot P.
std::vector<Arrival> gatherArrivals(int Me, int Size) {
  std::vector<Arrival> A;
  if (Me == 0)
    for (int P = 0; P < Size; ++P)
      A.push_back({P, P, 0});
  return A;
}

class Gather : public SlotOperation {
public:
  Gather(const Type *T, MPI_Datatype H, int Size)
      : SlotOperation(T, H, T->extent(), std::vector<int>(Size, 1),
                      worldRank() == 0 ? Size : 0,
                      gatherArrivals(worldRank(), Size)) {}

private:
  void call(bool Typed) override {
    if (Typed)
      MPI_Gather(TypedSend.base(), 1, H, TypedRecv.base(), 1, H, 0,
                 MPI_COMM_WORLD);
    else
      MPI_Gather(RefSend.base(), bytesInt(), MPI_BYTE, RefRecv.base(),
                 bytesInt(), MPI_BYTE, 0, MPI_COMM_WORLD);
  }
};

/// Root 0's slot P goes to rank P.
std::vector<int> scatterSendSlots(int Size) {
  std::vector<int> S(Size, 0);
  S[0] = Size;
  return S;
}

class Scatter : public SlotOperation {
public:
  Scatter(const Type *T, MPI_Datatype H, int Size)
      : SlotOperation(T, H, T->extent(), scatterSendSlots(Size), 1,
                      {{0, 0, worldRank()}}) {}

private:
  void call(bool Typed) override {
    if (Typed)
      MPI_Scatter(TypedSend.base(), 1, H, TypedRecv.base(), 1, H, 0,
                  MPI_COMM_WORLD);
    else
      MPI_Scatter(RefSend.base(), bytesInt(), MPI_BYTE, RefRecv.base(),
                  bytesInt(), MPI_BYTE, 0, MPI_COMM_WORLD);
  }
};

/// A periodic 2-D Cartesian communicator of all ranks, as MPI_Dims_create
/// shapes it; freed with the operation.
MPI_Comm makeTorus() {
  int Dims[2] = {0, 0}, Periods[2] = {1, 1};
  MPI_Dims_create(worldSize(), 2, Dims);
  MPI_Comm Cart;
  MPI_Cart_create(MPI_COMM_WORLD, 2, Dims, Periods, 0, &Cart);
  return Cart;
}

/// In dimension D, slot 2D goes to the lower neighbor and 2D + 1 to the
/// upper one; slot 2D receives what the lower neighbor sent upwards (its
/// slot 2D + 1), and the reverse (MPI 4.0, 8.6). Where one rank is both
/// neighbors (a dimension of 1 or 2 ranks), libraries differ on which of
/// its two slots lands where (MPICH 4.0.2 matches them in the order they
/// were posted: slot 2D lands in slot 2D), so either is accepted.
std::vector<Arrival> torusArrivals(MPI_Comm Cart) {
  std::vector<Arrival> A;
  for (int D = 0; D < 2; ++D) {
    int Lower, Upper;
    MPI_Cart_shift(Cart, D, 1, &Lower, &Upper);
    bool Same = Lower == Upper;
    A.push_back({2 * D, Lower, 2 * D + 1, Same ? 2 * D : -1});
    A.push_back({2 * D + 1, Upper, 2 * D, Same ? 2 * D + 1 : -1});
  }
  return A;
}

class NeighborAlltoallw : public SlotOperation {
public:
  NeighborAlltoallw(const Type *T, MPI_Datatype H, MPI_Comm Cart)
      : SlotOperation(T, H, alignedStride(T), std::vector<int>(worldSize(), 4),
                      4, torusArrivals(Cart)),
        Cart(Cart), TypedArgs(4, 1, Stride, H),
        RefArgs(4, bytesInt(), Bytes, MPI_BYTE) {}
  ~NeighborAlltoallw() override { MPI_Comm_free(&Cart); }

private:
  void call(bool Typed) override {
    const WArgs<MPI_Aint> &A = Typed ? TypedArgs : RefArgs;
    MPI_Neighbor_alltoallw(Typed ? TypedSend.base() : RefSend.base(),
                           A.Counts.data(), A.Displs.data(), A.Types.data(),
                           Typed ? TypedRecv.base() : RefRecv.base(),
                           A.Counts.data(), A.Displs.data(), A.Types.data(),
                           Cart);
  }
  MPI_Comm Cart;
  WArgs<MPI_Aint> TypedArgs, RefArgs;
};

} // namespace

std::unique_ptr<Operation> makeOperation(OpKind K, const Type *T,
                                         MPI_Datatype H, std::string &Why) {
  int Size = worldSize();
  // The calls that place instances at the type's extent: several of them
  // received into one buffer must not share a byte.
  bool ByExtent =
      K == OpKind::Alltoall || K == OpKind::Gather || K == OpKind::Scatter;
  if (ByExtent && T->extent() <= 0 && Size > 1) {
    Why = "extent " + std::to_string(T->extent()) +
          ": instances at the extent apart do not follow one another";
    return nullptr;
  }
  if ((K == OpKind::Alltoall || K == OpKind::Gather) &&
      instancesCollide(T, Size)) {
    Why = "instances at the extent apart share bytes of data";
    return nullptr;
  }
  switch (K) {
  case OpKind::PingPong:
    return std::make_unique<PingPong>(T, H);
  case OpKind::PingPongPersistent:
    return std::make_unique<PersistentPingPong>(T, H);
  case OpKind::Alltoall:
    return std::make_unique<Alltoall>(T, H, Size);
  case OpKind::Alltoallw:
    return std::make_unique<Alltoallw>(T, H, Size);
  case OpKind::Gather:
    return std::make_unique<Gather>(T, H, Size);
  case OpKind::Scatter:
    return std::make_unique<Scatter>(T, H, Size);
  case OpKind::NeighborAlltoallw:
    return std::make_unique<NeighborAlltoallw>(T, H, makeTorus());
  }
  return nullptr;
}

} // namespace ddtc::bench

//===- test/Runtime/rt-exchange.cpp - Communication whose results are compared ===//
//
// An MPI program that does, for every type of a description file, the
// communication the runtime substitutes, and prints a digest of every
// receive buffer -- gaps between the data included, so that a byte written
// outside the typemap shows -- and of every status count. The runtime
// tests run it plain, traced and under libddtc_rt.so and compare the
// outputs line by line: substitution must not change one byte.
//
// The types are built with MPI calls (TypeBuilder) as a program would; the
// program knows nothing of ddtc's kernels.
//
// Operations, each between rank 0 and rank 1 unless said otherwise:
//   send-recv     MPI_Send / MPI_Recv, both directions
//   ssend         MPI_Ssend / MPI_Recv
//   short         MPI_Send of Count-1 instances into MPI_Recv of Count (a
//                 short message: the status count and a partial buffer)
//   bytes         MPI_Send of the type into MPI_Recv of MPI_PACKED (the bytes
//                 on the wire are MPI_Pack's)
//   isend-wait    MPI_Isend / MPI_Irecv with MPI_Wait
//   waitall       ... with MPI_Waitall (statuses ignored)
//   waitany       ... with MPI_Waitany
//   waitsome      ... with MPI_Waitsome
//   test          ... with MPI_Test and MPI_Testall loops
//   request-free  MPI_Isend then MPI_Request_free; MPI_Irecv with MPI_Wait
//   two-in-flight two MPI_Isend and two MPI_Irecv, one MPI_Waitall
//   persistent    MPI_Send_init / MPI_Recv_init, started twice (MPI_Startall,
//                 MPI_Start) with another send buffer each time; the same
//                 with MPI_Ssend_init (persistent-ssend); a send request
//                 freed while active (persistent-free)
//   rsend         MPI_Rsend, MPI_Irsend (irsend) and MPI_Rsend_init
//                 (rsend-init) once the receive is posted
//   sendrecv      MPI_Sendrecv around a ring of all ranks, and
//                 MPI_Sendrecv_replace (sendrecv-replace)
//   bcast         MPI_Bcast from rank 0 and from the last rank
//   allgather     MPI_Allgather, and MPI_Allgather with MPI_IN_PLACE
//   pack          MPI_Pack_size, MPI_Pack, MPI_Unpack (each rank)
//   mprobe-mrecv  MPI_Send / MPI_Mprobe and MPI_Mrecv, and with MPI_Improbe
//                 and MPI_Imrecv (improbe-imrecv); MPI_Mrecv and MPI_Imrecv
//                 of MPI_MESSAGE_NO_PROC (mrecv-no-proc, each rank)
//   ...-c         where the library has MPI 4's large-count calls, the
//                 operations above with the `_c` forms: send-recv-c
//                 (MPI_Send_c, MPI_Ssend_c, MPI_Rsend_c / MPI_Recv_c),
//                 isend-c (MPI_Isend_c, MPI_Issend_c, MPI_Irsend_c /
//                 MPI_Irecv_c), sendrecv-c (MPI_Sendrecv_c,
//                 MPI_Sendrecv_replace_c), persistent-c (the four *_init_c),
//                 mprobe-mrecv-c (MPI_Mrecv_c, MPI_Imrecv_c), pack-c
//                 (MPI_Pack_size_c, MPI_Pack_c, MPI_Unpack_c)
//
// Usage: rt-exchange [--p2p-only] [--large-count-only] [--reversed]
//                    [--count N] [--shapes] FILE...
//   --p2p-only  skip the collectives (for runs where only some ranks have
//               the runtime)
//   --large-count-only  the `_c` operations alone, so that a report counts
//               what their wrappers did (they count under the int forms'
//               names)
//   --reversed  communicate on a communicator of MPI_COMM_WORLD's ranks in
//               reverse order (rank r of it is world rank size-1-r), so
//               that a rank of the communicator is not the world's
//   --shapes    rank 0 also prints `0 shape TYPE size=S extent=E`, MPI's
//               MPI_Type_size and extent of each committed type (what the
//               runtime's report must say of it)
// Output: `RANK OP TYPE DIGEST` lines, in a fixed order.
//
//===----------------------------------------------------------------------===//
#include "ExchangeSupport.h"

#include "ddtc/IR/Module.h"
#include "ddtc/IR/TypeContext.h"
#include "ddtc/IR/TypemapWalker.h"
#include "ddtc/MPI/PredefinedHandles.h"
#include "ddtc/MPI/TypeBuilder.h"
#include "ddtc/Reader/ReadFile.h"
#include "ddtc/Support/Address.h"
#include "ddtc/Target/MPICHRules.h"

#include <mpi.h>

#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

using namespace ddtc;
using namespace rtexchange;

namespace {

/// The exchanges of one type.
class Exchanger {
public:
  Exchanger(const std::string &Name, const Type *T, MPI_Datatype H, int Count)
      : Name(Name), T(T), H(H), Count(Count) {}

  void run(bool P2POnly, bool LargeCountOnly) {
    if (LargeCountOnly) {
      largeCount();
      return;
    }
    pointToPoint();
    nonBlocking();
    twoInFlight();
    persistent();
    ready();
    sendrecv();
    if (!P2POnly)
      collectives();
    pack();
    matched();
    largeCount();
  }

private:
  TypedBuffer send(int Op) { return TypedBuffer(T, H, Count, Salt(Op, 1)); }
  TypedBuffer recv(int Op) { return TypedBuffer(T, H, Count, Salt(Op, 2)); }
  uint64_t Salt(int Op, int Kind) const {
    return static_cast<uint64_t>(Rank) * 1000 + Op * 10 + Kind;
  }
  bool inPair() const { return Rank < 2 && Size >= 2; }
  int peer() const { return 1 - Rank; }

  void pointToPoint() {
    if (!inPair())
      return;
    {
      // Both directions: rank 0 sends first.
      TypedBuffer S = send(1), R = recv(1);
      MPI_Status St;
      for (int Turn = 0; Turn < 2; ++Turn) {
        if (Rank == Turn)
          MPI_Send(S.base(), Count, H, peer(), 1, Comm);
        else
          MPI_Recv(R.base(), Count, H, peer(), 1, Comm, &St);
      }
      report("send-recv", Name, R.digest() + " " + countOf(St, H));
    }
    {
      TypedBuffer S = send(2), R = recv(2);
      MPI_Status St;
      if (Rank == 0)
        MPI_Ssend(S.base(), Count, H, 1, 2, Comm);
      else
        MPI_Recv(R.base(), Count, H, 0, 2, Comm, &St);
      report("ssend", Name, Rank ? R.digest() + " " + countOf(St, H) : "sent");
    }
    if (Count > 1) {
      TypedBuffer S = send(3), R = recv(3);
      MPI_Status St;
      if (Rank == 0)
        MPI_Send(S.base(), Count - 1, H, 1, 3, Comm);
      else
        MPI_Recv(R.base(), Count, H, 0, 3, Comm, &St);
      report("short", Name, Rank ? R.digest() + " " + countOf(St, H) : "sent");
    }
    {
      // The bytes on the wire: what MPI_Pack of the type gives. (Not back
      // into the type: MPICH 4.0.2 reports a truncation receiving
      // MPI_PACKED into some types of MPI_LONG_INT, plain or not.)
      int TypeSize = 0;
      MPI_Type_size(H, &TypeSize);
      std::vector<uint8_t> Wire(static_cast<size_t>(TypeSize) * Count + 1,
                                0xEE);
      TypedBuffer S = send(4);
      int N = static_cast<int>(Wire.size() - 1);
      if (Rank == 0) {
        MPI_Send(S.base(), Count, H, 1, 4, Comm);
        report("bytes", Name, "sent");
      } else {
        MPI_Recv(Wire.data(), N, MPI_PACKED, 0, 4, Comm, MPI_STATUS_IGNORE);
        report("bytes", Name, digestOf(Wire, packedPadding(T, Count)));
      }
    }
  }

  void nonBlocking() {
    if (!inPair())
      return;
    const char *Ops[] = {"isend-wait", "waitall", "waitany",
                         "waitsome",   "test",    "request-free"};
    for (int K = 0; K < 6; ++K) {
      TypedBuffer S = send(10 + K), R = recv(10 + K);
      MPI_Request Req[2];
      MPI_Status St[2];
      int Tag = 10 + K;
      MPI_Irecv(R.base(), Count, H, peer(), Tag, Comm, &Req[0]);
      MPI_Isend(S.base(), Count, H, peer(), Tag, Comm, &Req[1]);
      switch (K) {
      case 0:
        MPI_Wait(&Req[1], MPI_STATUS_IGNORE);
        MPI_Wait(&Req[0], &St[0]);
        break;
      case 1:
        MPI_Waitall(2, Req, MPI_STATUSES_IGNORE);
        break;
      case 2:
        for (int Done = 0; Done < 2; ++Done) {
          int Index;
          MPI_Status X;
          MPI_Waitany(2, Req, &Index, &X);
          if (Index == 0)
            St[0] = X;
        }
        break;
      case 3: {
        int Left = 2;
        while (Left > 0) {
          int Out, Indices[2];
          MPI_Status X[2];
          MPI_Waitsome(2, Req, &Out, Indices, X);
          for (int I = 0; I < Out; ++I)
            if (Indices[I] == 0)
              St[0] = X[I];
          Left -= Out;
        }
        break;
      }
      case 4: {
        int Flag = 0;
        while (!Flag)
          MPI_Test(&Req[0], &Flag, &St[0]);
        Flag = 0;
        while (!Flag)
          MPI_Testall(1, &Req[1], &Flag, MPI_STATUSES_IGNORE);
        break;
      }
      case 5:
        MPI_Request_free(&Req[1]);
        MPI_Wait(&Req[0], &St[0]);
        // The freed send is complete once the peer has its message; the
        // buffer may be reused only then.
        MPI_Sendrecv(nullptr, 0, MPI_BYTE, peer(), 99, nullptr, 0, MPI_BYTE,
                     peer(), 99, Comm, MPI_STATUS_IGNORE);
        break;
      }
      std::string Counted = K == 1 ? "" : " " + countOf(St[0], H);
      report(Ops[K], Name, R.digest() + Counted);
    }
  }

  /// Two sends in flight at once: MPICH may give both the same request
  /// handle (a completed "lightweight" request).
  void twoInFlight() {
    if (!inPair())
      return;
    TypedBuffer S1 = send(60), S2 = send(61), R1 = recv(60), R2 = recv(61);
    MPI_Request Req[4];
    MPI_Isend(S1.base(), Count, H, peer(), 60, Comm, &Req[0]);
    MPI_Isend(S2.base(), Count, H, peer(), 61, Comm, &Req[1]);
    MPI_Irecv(R1.base(), Count, H, peer(), 60, Comm, &Req[2]);
    MPI_Irecv(R2.base(), Count, H, peer(), 61, Comm, &Req[3]);
    MPI_Status St[4];
    MPI_Waitall(4, Req, St);
    report("two-in-flight", Name, R1.digest() + " " + R2.digest());
  }

  /// Persistent requests: two rounds of starts (MPI_Startall, then
  /// MPI_Start each) whose send buffer changes in between, with a standard
  /// and a synchronous send; then a send request freed while active.
  void persistent() {
    if (!inPair())
      return;
    const char *Ops[] = {"persistent", "persistent-ssend"};
    for (int K = 0; K < 2; ++K) {
      TypedBuffer S = send(70 + K), R = recv(70 + K);
      MPI_Request Req[2];
      int Tag = 70 + K;
      MPI_Recv_init(R.base(), Count, H, peer(), Tag, Comm, &Req[0]);
      if (K == 0)
        MPI_Send_init(S.base(), Count, H, peer(), Tag, Comm, &Req[1]);
      else
        MPI_Ssend_init(S.base(), Count, H, peer(), Tag, Comm, &Req[1]);
      std::string Digests;
      for (int Round = 0; Round < 2; ++Round) {
        S.fill(Salt(72 + K, Round + 1));
        if (Round == 0) {
          MPI_Startall(2, Req);
        } else {
          MPI_Start(&Req[0]);
          MPI_Start(&Req[1]);
        }
        MPI_Status St[2];
        MPI_Waitall(2, Req, St);
        Digests += R.digest() + " " + countOf(St[0], H) + " ";
      }
      MPI_Request_free(&Req[0]);
      MPI_Request_free(&Req[1]);
      report(Ops[K], Name, Digests);
    }
    TypedBuffer S = send(74), R = recv(74);
    MPI_Request Req[2];
    MPI_Recv_init(R.base(), Count, H, peer(), 74, Comm, &Req[0]);
    MPI_Send_init(S.base(), Count, H, peer(), 74, Comm, &Req[1]);
    MPI_Startall(2, Req);
    MPI_Request_free(&Req[1]);
    MPI_Status St;
    MPI_Wait(&Req[0], &St);
    // The freed send is complete once the peer has its message.
    MPI_Sendrecv(nullptr, 0, MPI_BYTE, peer(), 99, nullptr, 0, MPI_BYTE,
                 peer(), 99, Comm, MPI_STATUS_IGNORE);
    MPI_Request_free(&Req[0]);
    report("persistent-free", Name, R.digest() + " " + countOf(St, H));
  }

  /// Ready-mode sends, each after the receive is posted: MPI_Rsend,
  /// MPI_Irsend and a start of MPI_Rsend_init.
  void ready() {
    if (!inPair())
      return;
    const char *Ops[] = {"rsend", "irsend", "rsend-init"};
    for (int K = 0; K < 3; ++K) {
      TypedBuffer S = send(80 + K), R = recv(80 + K);
      int Tag = 80 + K;
      MPI_Request Req = MPI_REQUEST_NULL;
      MPI_Status St;
      if (Rank == 1)
        MPI_Irecv(R.base(), Count, H, 0, Tag, Comm, &Req);
      // Rank 0 sends once rank 1's receive is posted.
      MPI_Sendrecv(nullptr, 0, MPI_BYTE, peer(), 98, nullptr, 0, MPI_BYTE,
                   peer(), 98, Comm, MPI_STATUS_IGNORE);
      if (Rank == 0) {
        if (K == 0) {
          MPI_Rsend(S.base(), Count, H, 1, Tag, Comm);
        } else if (K == 1) {
          MPI_Irsend(S.base(), Count, H, 1, Tag, Comm, &Req);
          MPI_Wait(&Req, MPI_STATUS_IGNORE);
        } else {
          MPI_Rsend_init(S.base(), Count, H, 1, Tag, Comm, &Req);
          MPI_Start(&Req);
          MPI_Wait(&Req, MPI_STATUS_IGNORE);
          MPI_Request_free(&Req);
        }
        report(Ops[K], Name, "sent");
      } else {
        MPI_Wait(&Req, &St);
        report(Ops[K], Name, R.digest() + " " + countOf(St, H));
      }
    }
  }

  void sendrecv() {
    TypedBuffer S = send(20), R = recv(20);
    MPI_Status St;
    MPI_Sendrecv(S.base(), Count, H, (Rank + 1) % Size, 20, R.base(), Count, H,
                 (Rank + Size - 1) % Size, 20, Comm, &St);
    report("sendrecv", Name, R.digest() + " " + countOf(St, H));
    // MPICH 4.0.2's own MPI_Sendrecv_replace receives the packed bytes of
    // some types of MPI_LONG_INT as a truncated message (as in "bytes").
    if (hasLongInt(T)) {
      report("sendrecv-replace", Name, "skipped: MPI_LONG_INT");
      return;
    }
    TypedBuffer B = send(21);
    MPI_Sendrecv_replace(B.base(), Count, H, (Rank + 1) % Size, 21,
                         (Rank + Size - 1) % Size, 21, Comm, &St);
    report("sendrecv-replace", Name, B.digest() + " " + countOf(St, H));
  }

  void collectives() {
    for (int Root : {0, Size - 1}) {
      TypedBuffer B = Rank == Root ? send(30 + Root) : recv(30 + Root);
      MPI_Bcast(B.base(), Count, H, Root, Comm);
      report("bcast", Name + "@" + std::to_string(Root), B.digest());
    }
    // Allgather: Size blocks of Count instances each. Into instances that
    // overlap, receiving is erroneous (MPI-4 §3.2.2) and which block lands
    // last depends on the algorithm.
    if (overlaps(T, H, static_cast<uint64_t>(Count) * Size)) {
      report("allgather", Name, "skipped: instances overlap");
      return;
    }
    TypedBuffer S = send(40);
    TypedBuffer R(T, H, static_cast<int64_t>(Count) * Size, Salt(40, 2));
    MPI_Allgather(S.base(), Count, H, R.base(), Count, H, Comm);
    report("allgather", Name, R.digest());
    TypedBuffer P(T, H, static_cast<int64_t>(Count) * Size, Salt(41, 2));
    MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, P.base(), Count, H, Comm);
    report("allgather-in-place", Name, P.digest());
  }

  void pack() {
    int Bound = 0;
    MPI_Pack_size(Count, H, Comm, &Bound);
    int TypeSize = 0;
    MPI_Type_size(H, &TypeSize);
    std::vector<uint8_t> Packed(static_cast<size_t>(Bound) + 8, 0xEE);
    TypedBuffer S = send(50), R = recv(50);
    int Position = 4;
    MPI_Pack(S.base(), Count, H, Packed.data(), static_cast<int>(Packed.size()),
             &Position, Comm);
    int End = Position;
    Position = 4;
    MPI_Unpack(Packed.data(), static_cast<int>(Packed.size()), &Position,
               R.base(), Count, H, Comm);
    // Only the bytes MPI_Pack wrote: the bound may differ with the runtime.
    Packed.resize(static_cast<size_t>(End));
    report("pack", Name,
           digestOf(std::vector<uint8_t>(Packed.begin() + 4, Packed.end()),
                    packedPadding(T, Count)) +
               " " + R.digest() + " position=" + std::to_string(End) +
               " unpacked=" + std::to_string(Position) + " bound_ok=" +
               std::to_string(Bound >= TypeSize * Count ? 1 : 0));
  }

  /// Messages received by handle after a matching probe (MPI_Mprobe and
  /// MPI_Mrecv, MPI_Improbe and MPI_Imrecv); then each rank receives MPI_MESSAGE_NO_PROC, the
  /// message of a probe of MPI_PROC_NULL, which leaves the buffer alone.
  void matched() {
    if (inPair())
      for (int K = 0; K < 2; ++K)
        matchedPair(K == 0 ? "mprobe-mrecv" : "improbe-imrecv", 90 + K,
                    /*NonBlocking=*/K == 1, /*LargeCount=*/false);
    TypedBuffer R = recv(92);
    MPI_Message Msg;
    MPI_Status St[2];
    MPI_Mprobe(MPI_PROC_NULL, 92, Comm, &Msg, MPI_STATUS_IGNORE);
    MPI_Mrecv(R.base(), Count, H, &Msg, &St[0]);
    int Flag = 0;
    MPI_Improbe(MPI_PROC_NULL, 92, Comm, &Flag, &Msg, MPI_STATUS_IGNORE);
    MPI_Request Req;
    MPI_Imrecv(R.base(), Count, H, &Msg, &Req);
    MPI_Wait(&Req, &St[1]);
    std::string What = R.digest() + " flag=" + std::to_string(Flag);
    for (const MPI_Status &S : St)
      What += " source=" + std::to_string(S.MPI_SOURCE) +
              " tag=" + std::to_string(S.MPI_TAG) + " " + countOf(S, H);
    report("mrecv-no-proc", Name, What);
  }

  /// A message each way between ranks 0 and 1, received by handle (rank 0
  /// sends first): the probe's status, the receive's and the buffer, and
  /// that the handle was consumed.
  void matchedPair(const char *Op, int Tag, bool NonBlocking,
                   bool LargeCount) {
    TypedBuffer S = send(Tag), R = recv(Tag);
    MPI_Message Msg = MPI_MESSAGE_NULL;
    MPI_Status Probed, St;
    for (int Turn = 0; Turn < 2; ++Turn) {
      if (Rank == Turn) {
        MPI_Send(S.base(), Count, H, peer(), Tag, Comm);
        continue;
      }
      if (NonBlocking) {
        int Flag = 0;
        while (!Flag)
          MPI_Improbe(peer(), Tag, Comm, &Flag, &Msg, &Probed);
      } else {
        MPI_Mprobe(peer(), Tag, Comm, &Msg, &Probed);
      }
      receiveMatched(R.base(), &Msg, &St, NonBlocking, LargeCount);
    }
    report(Op, Name,
           R.digest() + " probed " + countOf(Probed, H) + " received " +
               countOf(St, H) + " consumed=" +
               std::to_string(Msg == MPI_MESSAGE_NULL ? 1 : 0));
  }

  void receiveMatched(void *Buf, MPI_Message *Msg, MPI_Status *St,
                      bool NonBlocking, bool LargeCount) {
    MPI_Request Req;
#if DDTC_MPI_LARGE_COUNT
    if (LargeCount) {
      if (!NonBlocking) {
        MPI_Mrecv_c(Buf, Count, H, Msg, St);
        return;
      }
      MPI_Imrecv_c(Buf, Count, H, Msg, &Req);
      MPI_Wait(&Req, St);
      return;
    }
#endif
    (void)LargeCount;
    if (!NonBlocking) {
      MPI_Mrecv(Buf, Count, H, Msg, St);
      return;
    }
    MPI_Imrecv(Buf, Count, H, Msg, &Req);
    MPI_Wait(&Req, St);
  }

  /// The `_c` forms of the point-to-point and pack calls, where the
  /// library has them.
  void largeCount() {
#if DDTC_MPI_LARGE_COUNT
    if (inPair()) {
      blockingC();
      nonBlockingC();
      persistentC();
      for (int K = 0; K < 2; ++K)
        matchedPair(K == 0 ? "mprobe-mrecv-c" : "improbe-imrecv-c", 130 + K,
                    /*NonBlocking=*/K == 1, /*LargeCount=*/true);
    }
    sendrecvC();
    packC();
#endif
  }

#if DDTC_MPI_LARGE_COUNT
  /// MPI_Send_c, MPI_Ssend_c and MPI_Rsend_c (once the receive is posted)
  /// into MPI_Recv_c.
  void blockingC() {
    std::string What;
    for (int K = 0; K < 3; ++K) {
      TypedBuffer S = send(100 + K), R = recv(100 + K);
      int Tag = 100 + K;
      MPI_Request Req = MPI_REQUEST_NULL;
      MPI_Status St;
      if (K == 2) {
        if (Rank == 1)
          MPI_Irecv_c(R.base(), Count, H, 0, Tag, Comm, &Req);
        MPI_Sendrecv(nullptr, 0, MPI_BYTE, peer(), 98, nullptr, 0, MPI_BYTE,
                     peer(), 98, Comm, MPI_STATUS_IGNORE);
      }
      if (Rank == 0) {
        if (K == 0)
          MPI_Send_c(S.base(), Count, H, 1, Tag, Comm);
        else if (K == 1)
          MPI_Ssend_c(S.base(), Count, H, 1, Tag, Comm);
        else
          MPI_Rsend_c(S.base(), Count, H, 1, Tag, Comm);
        continue;
      }
      if (K == 2)
        MPI_Wait(&Req, &St);
      else
        MPI_Recv_c(R.base(), Count, H, 0, Tag, Comm, &St);
      What += R.digest() + " " + countOf(St, H) + " ";
    }
    report("send-recv-c", Name, Rank ? What : "sent");
  }

  /// MPI_Isend_c, MPI_Issend_c and MPI_Irsend_c (once the receive is
  /// posted) into MPI_Irecv_c, both directions.
  void nonBlockingC() {
    std::string What;
    for (int K = 0; K < 3; ++K) {
      TypedBuffer S = send(110 + K), R = recv(110 + K);
      int Tag = 110 + K;
      MPI_Request Req[2];
      MPI_Status St[2];
      MPI_Irecv_c(R.base(), Count, H, peer(), Tag, Comm, &Req[0]);
      MPI_Sendrecv(nullptr, 0, MPI_BYTE, peer(), 98, nullptr, 0, MPI_BYTE,
                   peer(), 98, Comm, MPI_STATUS_IGNORE);
      if (K == 0)
        MPI_Isend_c(S.base(), Count, H, peer(), Tag, Comm, &Req[1]);
      else if (K == 1)
        MPI_Issend_c(S.base(), Count, H, peer(), Tag, Comm, &Req[1]);
      else
        MPI_Irsend_c(S.base(), Count, H, peer(), Tag, Comm, &Req[1]);
      MPI_Waitall(2, Req, St);
      What += R.digest() + " " + countOf(St[0], H) + " ";
    }
    report("isend-c", Name, What);
  }

  /// MPI_Send_init_c, MPI_Ssend_init_c and MPI_Rsend_init_c (started once
  /// the receive is), each into MPI_Recv_init_c, started twice with
  /// another send buffer each time.
  void persistentC() {
    std::string What;
    for (int K = 0; K < 3; ++K) {
      TypedBuffer S = send(120 + K), R = recv(120 + K);
      int Tag = 120 + K;
      MPI_Request Req[2];
      MPI_Recv_init_c(R.base(), Count, H, peer(), Tag, Comm, &Req[0]);
      if (K == 0)
        MPI_Send_init_c(S.base(), Count, H, peer(), Tag, Comm, &Req[1]);
      else if (K == 1)
        MPI_Ssend_init_c(S.base(), Count, H, peer(), Tag, Comm, &Req[1]);
      else
        MPI_Rsend_init_c(S.base(), Count, H, peer(), Tag, Comm, &Req[1]);
      for (int Round = 0; Round < 2; ++Round) {
        S.fill(Salt(125 + K, Round + 1));
        MPI_Start(&Req[0]);
        MPI_Sendrecv(nullptr, 0, MPI_BYTE, peer(), 98, nullptr, 0, MPI_BYTE,
                     peer(), 98, Comm, MPI_STATUS_IGNORE);
        MPI_Start(&Req[1]);
        MPI_Status St[2];
        MPI_Waitall(2, Req, St);
        What += R.digest() + " " + countOf(St[0], H) + " ";
      }
      MPI_Request_free(&Req[0]);
      MPI_Request_free(&Req[1]);
    }
    report("persistent-c", Name, What);
  }

  /// MPI_Sendrecv_c around the ring, and MPI_Sendrecv_replace_c.
  void sendrecvC() {
    TypedBuffer S = send(140), R = recv(140);
    MPI_Status St;
    MPI_Sendrecv_c(S.base(), Count, H, (Rank + 1) % Size, 140, R.base(), Count,
                   H, (Rank + Size - 1) % Size, 140, Comm, &St);
    report("sendrecv-c", Name, R.digest() + " " + countOf(St, H));
    // As in sendrecv().
    if (hasLongInt(T)) {
      report("sendrecv-replace-c", Name, "skipped: MPI_LONG_INT");
      return;
    }
    TypedBuffer B = send(141);
    MPI_Sendrecv_replace_c(B.base(), Count, H, (Rank + 1) % Size, 141,
                           (Rank + Size - 1) % Size, 141, Comm, &St);
    report("sendrecv-replace-c", Name, B.digest() + " " + countOf(St, H));
  }

  /// As pack(), with MPI_Pack_size_c, MPI_Pack_c and MPI_Unpack_c.
  void packC() {
    MPI_Count Bound = 0, TypeSize = 0;
    MPI_Pack_size_c(Count, H, Comm, &Bound);
    MPI_Type_size_c(H, &TypeSize);
    std::vector<uint8_t> Packed(static_cast<size_t>(Bound) + 8, 0xEE);
    TypedBuffer S = send(150), R = recv(150);
    MPI_Count Position = 4;
    MPI_Pack_c(S.base(), Count, H, Packed.data(),
               static_cast<MPI_Count>(Packed.size()), &Position, Comm);
    MPI_Count End = Position;
    Position = 4;
    MPI_Unpack_c(Packed.data(), static_cast<MPI_Count>(Packed.size()),
                 &Position, R.base(), Count, H, Comm);
    Packed.resize(static_cast<size_t>(End));
    report("pack-c", Name,
           digestOf(std::vector<uint8_t>(Packed.begin() + 4, Packed.end()),
                    packedPadding(T, Count)) +
               " " + R.digest() + " position=" + std::to_string(End) +
               " unpacked=" + std::to_string(Position) + " bound_ok=" +
               std::to_string(Bound >= TypeSize * Count ? 1 : 0));
  }
#endif

  std::string Name;
  const Type *T;
  MPI_Datatype H;
  int Count;
};

/// The kernel cache entries under Dir (files named *.so).
int countEntries(const std::string &Dir) {
  int N = 0;
  std::error_code EC;
  for (auto It = std::filesystem::recursive_directory_iterator(Dir, EC);
       !EC && It != std::filesystem::recursive_directory_iterator();
       It.increment(EC))
    N += It->path().extension() == ".so";
  return N;
}

/// The point-to-point exchanges of every type of Paths, round after round,
/// until Dir holds Entries entries and three seconds more (the whole at most
/// MaxSeconds and three seconds); each round's output must be the first's.
int untilEntries(const std::vector<std::string> &Paths, MpiBuilder &Builder,
                 int Count, const std::string &Dir, int Entries,
                 int MaxSeconds) {
  std::vector<std::unique_ptr<TypeContext>> Contexts;
  std::vector<std::unique_ptr<Module>> Modules;
  std::vector<CommittedType> Types;
  for (const std::string &Path : Paths) {
    Contexts.push_back(std::make_unique<TypeContext>(getMPICHRules()));
    Modules.push_back(std::make_unique<Module>(*Contexts.back()));
    if (!commitTypes("rt-exchange", Path, *Modules.back(), Builder, Types))
      return 1;
  }
  auto Start = std::chrono::steady_clock::now();
  std::string First;
  int After = -1;
  std::chrono::steady_clock::time_point DoneAt;
  for (int Round = 0;; ++Round) {
    Output.clear();
    for (const CommittedType &C : Types)
      Exchanger(C.Name, C.T, C.get(), Count).run(/*P2POnly=*/true, false);
    if (Round == 0)
      First = Output;
    else if (Output != First) {
      std::fprintf(stderr, "rt-exchange: round %d differs from the first\n",
                   Round);
      return 1;
    }
    int Done = 0;
    if (Rank == 0)
      Done = countEntries(Dir) >= Entries ||
             std::chrono::steady_clock::now() - Start >
                 std::chrono::seconds(MaxSeconds);
    MPI_Bcast(&Done, 1, MPI_INT, 0, Comm);
    // A program's compute between its exchanges: the cores the compiles,
    // at the lowest priority, get (MPI's waits spin).
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    // Then rounds for three seconds more, at least three: the runtime binds a
    // type again when its own compile server answers, which may come after
    // another rank's server wrote the entry.
    if (Done && After < 0) {
      After = 0;
      DoneAt = std::chrono::steady_clock::now();
    }
    int Stop = 0;
    if (Rank == 0 && After >= 0 && ++After >= 3)
      Stop = std::chrono::steady_clock::now() - DoneAt >
             std::chrono::seconds(3);
    MPI_Bcast(&Stop, 1, MPI_INT, 0, Comm);
    if (Stop)
      break;
  }
  Output = First;
  if (Rank == 0)
    Output += "0 entries " + std::to_string(countEntries(Dir)) + "\n";
  return 0;
}

int run(int Argc, char **Argv) {
  bool P2POnly = false, LargeCountOnly = false, Shapes = false;
  int Count = 3;
  // --until-entries DIR N: the exchanges again and again, until DIR holds
  // N kernel cache entries (the runtime compiles hot types while the
  // program runs) and three seconds more, at most --max-seconds (60).
  std::string UntilDir;
  int UntilEntries = 0, MaxSeconds = 60;
  std::vector<std::string> Paths;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    if (A == "--p2p-only") {
      P2POnly = true;
    } else if (A == "--large-count-only") {
      LargeCountOnly = true;
    } else if (A == "--reversed") {
      MPI_Comm_split(MPI_COMM_WORLD, 0, Size - 1 - Rank, &Comm);
      MPI_Comm_rank(Comm, &Rank);
    } else if (A == "--shapes") {
      Shapes = true;
    } else if (A == "--count" && I + 1 < Argc) {
      Count = std::atoi(Argv[++I]);
    } else if (A == "--until-entries" && I + 2 < Argc) {
      UntilDir = Argv[++I];
      UntilEntries = std::atoi(Argv[++I]);
    } else if (A == "--max-seconds" && I + 1 < Argc) {
      MaxSeconds = std::atoi(Argv[++I]);
    } else {
      Paths.push_back(A);
    }
  }
  if (Paths.empty() || Count < 1) {
    std::fprintf(stderr,
                 "usage: rt-exchange [--p2p-only] [--large-count-only] "
                 "[--reversed] [--count N] [--shapes] "
                 "[--until-entries DIR N [--max-seconds S]] FILE...\n");
    return 2;
  }
  std::string Missing;
  std::vector<MPI_Datatype> Predefined = makeHandleTable(Missing);
  MpiBuilder Builder(Predefined);
  if (!UntilDir.empty())
    return untilEntries(Paths, Builder, Count, UntilDir, UntilEntries,
                        MaxSeconds);
  for (const std::string &Path : Paths) {
    TypeContext Ctx(getMPICHRules());
    Module M(Ctx);
    std::vector<CommittedType> Types;
    if (!commitTypes("rt-exchange", Path, M, Builder, Types))
      return 1;
    for (const CommittedType &C : Types) {
      if (Shapes && Rank == 0) {
        MPI_Count Size = 0, Lb = 0, Extent = 0;
        MPI_Type_size_x(C.get(), &Size);
        MPI_Type_get_extent_x(C.get(), &Lb, &Extent);
        Output += "0 shape " + C.Name + " size=" + std::to_string(Size) +
                  " extent=" + std::to_string(Extent) + "\n";
      }
      Exchanger(C.Name, C.T, C.get(), Count).run(P2POnly, LargeCountOnly);
    }
  }
  return 0;
}

} // namespace

int main(int Argc, char **Argv) {
  // Every operation allocates its typed buffers anew, up to tens of
  // megabytes each: kept in the heap rather than mapped and faulted in each
  // time, they cost a fill instead of a fill and a page fault per page.
  mallopt(M_MMAP_THRESHOLD, 1 << 30);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  return runProgram(Argc, Argv, run);
}

//===- lib/Runtime/PointToPoint.cpp - Substituted sends and receives ------===//
//
// A send on a bound type packs with the kernel into a pooled buffer and
// sends the packed bytes as MPI_PACKED; a receive receives MPI_PACKED bytes
// and unpacks them. MPI_PACKED on one side matches any type of the same
// signature on the other (MPI-4 §5.2), so a substituting rank talks to a
// plain one in both directions. The status the program sees counts bytes,
// as MPICH's own does, so MPI_Get_count and MPI_Get_elements with the
// program's type give the same answers.
//
// The packed calls use the `_c` entry points where the library has them:
// count * size may exceed an int where count does not. Without them (an
// MPI 3.1 library) the pack buffers stay below INT_MAX bytes (BufferPool.h),
// and a larger message goes to MPI as written.
//
// Each call's `_c` entry point, where the library has it, is the same call:
// both entry points call one implementation taking MPI_Count, and count
// under the int form's name.
//
// MPI_Mrecv and MPI_Imrecv receive a message MPI_Mprobe or MPI_Improbe
// matched: the sender was fixed by the probe, whose status the program may
// ignore, so the runtime takes the settings of a receive from
// MPI_ANY_SOURCE for it (Placement.h). The message names no communicator
// the runtime could ask; MPI_COMM_SELF serves the local unpacking.
//
//===----------------------------------------------------------------------===//
#include "BufferPool.h"
#include "Packing.h"
#include "RuntimeState.h"

#include "ddtc/MPI/MPISupport.h"
#include "ddtc/MPI/SplitSend.h"

#include <limits>

#define DDTC_EXPORT extern "C" __attribute__((visibility("default")))

using namespace ddtc;

namespace {

/// Whether a substituted call got its pack buffer. If not (above
/// DDTC_RT_MAX_BUFFER, or no memory) the call goes to MPI as the program
/// wrote it, which MPI_PACKED on the other side still matches, and the
/// report counts it as passed through.
bool staged(RuntimeState &R, const Binding &B, const void *Buffer) {
  if (Buffer)
    return true;
  R.notePassed(B);
  return false;
}

/// A blocking send of any kind (MPI_Send, MPI_Ssend) to rank Dest of Comm:
/// Send takes the buffer, count and type to give MPI.
template <typename SendFn>
int sendPacked(const void *Buf, MPI_Count Count, MPI_Datatype T, int Dest,
               MPI_Comm Comm, SendFn Send) {
  RuntimeState &R = runtime();
  MPI_Datatype Passed;
  bool Remote = false;
  BindingRef B = R.substitutableMessage(T, Count, Comm, Dest, Remote, Passed);
  if (!B)
    return Send(Buf, Count, Passed);
  uint64_t Bytes = Count * B->Size;
  PooledBuffer Packed(SplitSends::get().bufferBytes(Bytes, Remote));
  if (!staged(R, *B, Packed.data()))
    return Send(Buf, Count, T);
  B->pack(Buf, Count, Packed.data());
  R.noteSubstituted(*B, Bytes);
  auto [N, Ty] = SplitSends::get().wire(Packed.data(), Bytes, Remote);
  return Send(Packed.data(), N, Ty);
}

/// Starts a non-blocking send or receive of a bound type with rank Peer of
/// Comm, recording it so that its completion frees (and for a receive,
/// first unpacks) the buffer.
template <typename StartFn>
int startPacked(const void *Buf, MPI_Count Count, MPI_Datatype T, int Peer,
                MPI_Comm Comm, bool IsReceive, MPI_Request *Request,
                StartFn Start) {
  RuntimeState &R = runtime();
  if (R.Requests.hasOrphans())
    R.Requests.settleOrphans(/*Wait=*/false);
  MPI_Datatype Passed;
  bool Remote = false;
  BindingRef B = R.substitutableMessage(T, Count, Comm, Peer, Remote, Passed);
  if (!B)
    return Start(Buf, Count, Passed);
  uint64_t Bytes = Count * B->Size;
  uint64_t Allocated =
      IsReceive ? Bytes : SplitSends::get().bufferBytes(Bytes, Remote);
  char *Packed = static_cast<char *>(BufferPool::get().acquire(Allocated));
  if (!staged(R, *B, Packed))
    return Start(Buf, Count, T);
  SplitSends::Wire Wire{static_cast<MPI_Count>(Bytes), MPI_PACKED};
  if (!IsReceive) {
    B->pack(Buf, Count, Packed);
    Wire = SplitSends::get().wire(Packed, Bytes, Remote);
  }
  int Rc = Start(Packed, Wire.Count, Wire.Type);
  if (Rc != MPI_SUCCESS) {
    BufferPool::get().release(Packed, Allocated);
    return Rc;
  }
  R.noteSubstituted(*B, Bytes);
  R.Requests.add(*Request, Pending{IsReceive, Packed, Allocated,
                                   const_cast<void *>(Buf), Count, B});
  return Rc;
}

/// A blocking receive from rank Source of Comm: Recv(Buf, N, Type, Status)
/// makes the call. The status counts the bytes received, which MPI
/// reports for the program's type as it would have.
template <typename RecvFn>
int recvPacked(void *Buf, MPI_Count Count, MPI_Datatype T, int Source,
               MPI_Comm Comm, MPI_Status *Status, RecvFn Recv) {
  RuntimeState &R = runtime();
  MPI_Datatype Passed;
  bool Remote = false;
  BindingRef B = R.substitutableMessage(T, Count, Comm, Source, Remote, Passed);
  if (!B)
    return Recv(Buf, Count, Passed, Status);
  uint64_t Bytes = Count * B->Size;
  PooledBuffer Packed(Bytes);
  if (!staged(R, *B, Packed.data()))
    return Recv(Buf, Count, T, Status);
  MPI_Status Local;
  MPI_Status *St = Status == MPI_STATUS_IGNORE ? &Local : Status;
  int Rc = Recv(Packed.data(), static_cast<MPI_Count>(Bytes), MPI_PACKED, St);
  if (Rc == MPI_SUCCESS) {
    MPICount Got = 0;
    DDTC_MPI_COUNT_FN(PMPI_Get_count)(St, MPI_PACKED, &Got);
    unpackAny(B.get(), T, Packed.data(), Got, Buf, Count, Comm);
    R.noteSubstituted(*B, static_cast<uint64_t>(Got));
  }
  return Rc;
}

/// The MPI function of a blocking send (PMPI_Send, PMPI_Ssend, PMPI_Rsend)
/// and of a non-blocking one (PMPI_Isend, ...), in the count type of the
/// family's packed calls.
using SendFn = decltype(&DDTC_MPI_COUNT_FN(PMPI_Send));
using StartSendFn = decltype(&DDTC_MPI_COUNT_FN(PMPI_Isend));

int send(SubstitutedCall Call, SendFn Fn, const void *buf, MPI_Count count,
         MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  CallScope Scope(Call);
  return sendPacked(buf, count, datatype, dest, comm,
                    [&](const void *B, MPI_Count N, MPI_Datatype T) {
                      return Fn(B, countArg(N), T, dest, tag, comm);
                    });
}

int startSend(SubstitutedCall Call, StartSendFn Fn, const void *buf,
              MPI_Count count, MPI_Datatype datatype, int dest, int tag,
              MPI_Comm comm, MPI_Request *request) {
  CallScope Scope(Call);
  return startPacked(buf, count, datatype, dest, comm, /*IsReceive=*/false,
                     request, [&](const void *B, MPI_Count N, MPI_Datatype T) {
                       return Fn(B, countArg(N), T, dest, tag, comm, request);
                     });
}

int irecv(void *buf, MPI_Count count, MPI_Datatype datatype, int source,
          int tag, MPI_Comm comm, MPI_Request *request) {
  CallScope Scope(SubstitutedCall::Irecv);
  return startPacked(buf, count, datatype, source, comm, /*IsReceive=*/true,
                     request, [&](const void *B, MPI_Count N, MPI_Datatype T) {
                       return DDTC_MPI_COUNT_FN(PMPI_Irecv)(
                           const_cast<void *>(B), countArg(N), T, source, tag,
                           comm, request);
                     });
}

int recv(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
         MPI_Comm comm, MPI_Status *status) {
  CallScope Scope(SubstitutedCall::Recv);
  return recvPacked(buf, count, datatype, source, comm, status,
                    [&](void *B, MPI_Count N, MPI_Datatype T, MPI_Status *St) {
                      return DDTC_MPI_COUNT_FN(PMPI_Recv)(
                          B, countArg(N), T, source, tag, comm, St);
                    });
}

/// Whether Message is a message to receive: MPI_MESSAGE_NO_PROC (a probe
/// of MPI_PROC_NULL) receives nothing, with a status MPI makes alike for
/// every type, and MPI_MESSAGE_NULL is MPI's error to report. Either goes
/// to MPI as written, uncounted: it moves no data, so a bound type's report
/// does not show a call MPI did in its place.
bool isMessage(MPI_Message Message) {
  return Message != MPI_MESSAGE_NO_PROC && Message != MPI_MESSAGE_NULL;
}

int mrecv(void *buf, MPI_Count count, MPI_Datatype datatype,
          MPI_Message *message, MPI_Status *status) {
  CallScope Scope(SubstitutedCall::Mrecv);
  auto Recv = [&](void *B, MPI_Count N, MPI_Datatype T, MPI_Status *St) {
    return DDTC_MPI_COUNT_FN(PMPI_Mrecv)(B, countArg(N), T, message, St);
  };
  if (!isMessage(*message))
    return Recv(buf, count, datatype, status);
  return recvPacked(buf, count, datatype, MPI_ANY_SOURCE, MPI_COMM_SELF, status,
                    Recv);
}

int imrecv(void *buf, MPI_Count count, MPI_Datatype datatype,
           MPI_Message *message, MPI_Request *request) {
  CallScope Scope(SubstitutedCall::Imrecv);
  auto Start = [&](const void *B, MPI_Count N, MPI_Datatype T) {
    return DDTC_MPI_COUNT_FN(PMPI_Imrecv)(const_cast<void *>(B), countArg(N), T,
                                          message, request);
  };
  if (!isMessage(*message))
    return Start(buf, count, datatype);
  return startPacked(buf, count, datatype, MPI_ANY_SOURCE, MPI_COMM_SELF,
                     /*IsReceive=*/true, request, Start);
}

} // namespace

DDTC_EXPORT int MPI_Send(const void *buf, int count, MPI_Datatype datatype,
                         int dest, int tag, MPI_Comm comm) {
  if (runtime().leftAsWritten(datatype, SubstitutedCall::Send))
    return PMPI_Send(buf, count, datatype, dest, tag, comm);
  return send(SubstitutedCall::Send, DDTC_MPI_COUNT_FN(PMPI_Send), buf, count,
              datatype, dest, tag, comm);
}

DDTC_EXPORT int MPI_Ssend(const void *buf, int count, MPI_Datatype datatype,
                          int dest, int tag, MPI_Comm comm) {
  if (runtime().leftAsWritten(datatype, SubstitutedCall::Ssend))
    return PMPI_Ssend(buf, count, datatype, dest, tag, comm);
  return send(SubstitutedCall::Ssend, DDTC_MPI_COUNT_FN(PMPI_Ssend), buf, count,
              datatype, dest, tag, comm);
}

DDTC_EXPORT int MPI_Rsend(const void *buf, int count, MPI_Datatype datatype,
                          int dest, int tag, MPI_Comm comm) {
  if (runtime().leftAsWritten(datatype, SubstitutedCall::Rsend))
    return PMPI_Rsend(buf, count, datatype, dest, tag, comm);
  return send(SubstitutedCall::Rsend, DDTC_MPI_COUNT_FN(PMPI_Rsend), buf, count,
              datatype, dest, tag, comm);
}

DDTC_EXPORT int MPI_Isend(const void *buf, int count, MPI_Datatype datatype,
                          int dest, int tag, MPI_Comm comm,
                          MPI_Request *request) {
  RuntimeState &R = runtime();
  if (!R.Requests.hasOrphans() &&
      R.leftAsWritten(datatype, SubstitutedCall::Isend))
    return PMPI_Isend(buf, count, datatype, dest, tag, comm, request);
  return startSend(SubstitutedCall::Isend, DDTC_MPI_COUNT_FN(PMPI_Isend), buf,
                   count, datatype, dest, tag, comm, request);
}

DDTC_EXPORT int MPI_Issend(const void *buf, int count, MPI_Datatype datatype,
                           int dest, int tag, MPI_Comm comm,
                           MPI_Request *request) {
  RuntimeState &R = runtime();
  if (!R.Requests.hasOrphans() &&
      R.leftAsWritten(datatype, SubstitutedCall::Issend))
    return PMPI_Issend(buf, count, datatype, dest, tag, comm, request);
  return startSend(SubstitutedCall::Issend, DDTC_MPI_COUNT_FN(PMPI_Issend), buf,
                   count, datatype, dest, tag, comm, request);
}

DDTC_EXPORT int MPI_Irsend(const void *buf, int count, MPI_Datatype datatype,
                           int dest, int tag, MPI_Comm comm,
                           MPI_Request *request) {
  RuntimeState &R = runtime();
  if (!R.Requests.hasOrphans() &&
      R.leftAsWritten(datatype, SubstitutedCall::Irsend))
    return PMPI_Irsend(buf, count, datatype, dest, tag, comm, request);
  return startSend(SubstitutedCall::Irsend, DDTC_MPI_COUNT_FN(PMPI_Irsend), buf,
                   count, datatype, dest, tag, comm, request);
}

DDTC_EXPORT int MPI_Irecv(void *buf, int count, MPI_Datatype datatype,
                          int source, int tag, MPI_Comm comm,
                          MPI_Request *request) {
  RuntimeState &R = runtime();
  if (!R.Requests.hasOrphans() &&
      R.leftAsWritten(datatype, SubstitutedCall::Irecv))
    return PMPI_Irecv(buf, count, datatype, source, tag, comm, request);
  return irecv(buf, count, datatype, source, tag, comm, request);
}

DDTC_EXPORT int MPI_Recv(void *buf, int count, MPI_Datatype datatype,
                         int source, int tag, MPI_Comm comm,
                         MPI_Status *status) {
  if (runtime().leftAsWritten(datatype, SubstitutedCall::Recv))
    return PMPI_Recv(buf, count, datatype, source, tag, comm, status);
  return recv(buf, count, datatype, source, tag, comm, status);
}

DDTC_EXPORT int MPI_Mrecv(void *buf, int count, MPI_Datatype datatype,
                          MPI_Message *message, MPI_Status *status) {
  return mrecv(buf, count, datatype, message, status);
}

DDTC_EXPORT int MPI_Imrecv(void *buf, int count, MPI_Datatype datatype,
                           MPI_Message *message, MPI_Request *request) {
  return imrecv(buf, count, datatype, message, request);
}

#if DDTC_MPI_LARGE_COUNT
DDTC_EXPORT int MPI_Send_c(const void *buf, MPI_Count count,
                           MPI_Datatype datatype, int dest, int tag,
                           MPI_Comm comm) {
  return send(SubstitutedCall::Send, PMPI_Send_c, buf, count, datatype, dest,
              tag, comm);
}

DDTC_EXPORT int MPI_Ssend_c(const void *buf, MPI_Count count,
                            MPI_Datatype datatype, int dest, int tag,
                            MPI_Comm comm) {
  return send(SubstitutedCall::Ssend, PMPI_Ssend_c, buf, count, datatype, dest,
              tag, comm);
}

DDTC_EXPORT int MPI_Rsend_c(const void *buf, MPI_Count count,
                            MPI_Datatype datatype, int dest, int tag,
                            MPI_Comm comm) {
  return send(SubstitutedCall::Rsend, PMPI_Rsend_c, buf, count, datatype, dest,
              tag, comm);
}

DDTC_EXPORT int MPI_Isend_c(const void *buf, MPI_Count count,
                            MPI_Datatype datatype, int dest, int tag,
                            MPI_Comm comm, MPI_Request *request) {
  return startSend(SubstitutedCall::Isend, PMPI_Isend_c, buf, count, datatype,
                   dest, tag, comm, request);
}

DDTC_EXPORT int MPI_Issend_c(const void *buf, MPI_Count count,
                             MPI_Datatype datatype, int dest, int tag,
                             MPI_Comm comm, MPI_Request *request) {
  return startSend(SubstitutedCall::Issend, PMPI_Issend_c, buf, count, datatype,
                   dest, tag, comm, request);
}

DDTC_EXPORT int MPI_Irsend_c(const void *buf, MPI_Count count,
                             MPI_Datatype datatype, int dest, int tag,
                             MPI_Comm comm, MPI_Request *request) {
  return startSend(SubstitutedCall::Irsend, PMPI_Irsend_c, buf, count, datatype,
                   dest, tag, comm, request);
}

DDTC_EXPORT int MPI_Irecv_c(void *buf, MPI_Count count, MPI_Datatype datatype,
                            int source, int tag, MPI_Comm comm,
                            MPI_Request *request) {
  return irecv(buf, count, datatype, source, tag, comm, request);
}

DDTC_EXPORT int MPI_Recv_c(void *buf, MPI_Count count, MPI_Datatype datatype,
                           int source, int tag, MPI_Comm comm,
                           MPI_Status *status) {
  return recv(buf, count, datatype, source, tag, comm, status);
}

DDTC_EXPORT int MPI_Mrecv_c(void *buf, MPI_Count count, MPI_Datatype datatype,
                            MPI_Message *message, MPI_Status *status) {
  return mrecv(buf, count, datatype, message, status);
}

DDTC_EXPORT int MPI_Imrecv_c(void *buf, MPI_Count count, MPI_Datatype datatype,
                             MPI_Message *message, MPI_Request *request) {
  return imrecv(buf, count, datatype, message, request);
}
#endif

namespace {

/// MPI_Sendrecv and MPI_Sendrecv_replace: each side substituted on its own,
/// one of them packed into a buffer of its own, so that the two never
/// share memory in MPI. Plain(SendType, RecvType) makes the call as the
/// program wrote it, with the types to hand MPI.
template <typename PlainFn>
int sendrecvPacked(const void *sendbuf, MPI_Count sendcount,
                   MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf,
                   MPI_Count recvcount, MPI_Datatype recvtype, int source,
                   int recvtag, MPI_Comm comm, MPI_Status *status,
                   PlainFn Plain) {
  RuntimeState &R = runtime();
  MPI_Datatype SendPassed, RecvPassed;
  bool SendRemote = false, RecvRemote = false;
  BindingRef SB = R.substitutableMessage(sendtype, sendcount, comm, dest,
                                         SendRemote, SendPassed);
  BindingRef RB = R.substitutableMessage(recvtype, recvcount, comm, source,
                                         RecvRemote, RecvPassed);
  if (!SB && !RB)
    return Plain(SendPassed, RecvPassed);
  uint64_t SendBytes = SB ? sendcount * SB->Size : 0;
  uint64_t RecvBytes = RB ? recvcount * RB->Size : 0;
  PooledBuffer SendPacked(SplitSends::get().bufferBytes(SendBytes, SendRemote)),
      RecvPacked(RecvBytes);
  // Each side on its own: a side without its buffer goes as written.
  if (SB && !staged(R, *SB, SendPacked.data()))
    SB = nullptr;
  if (RB && !staged(R, *RB, RecvPacked.data()))
    RB = nullptr;
  if (!SB && !RB)
    return Plain(sendtype, recvtype);
  const void *SBuf = sendbuf;
  MPI_Count SCount = sendcount;
  MPI_Datatype SType = SendPassed;
  if (SB) {
    SB->pack(sendbuf, sendcount, SendPacked.data());
    SBuf = SendPacked.data();
    auto [N, Ty] =
        SplitSends::get().wire(SendPacked.data(), SendBytes, SendRemote);
    SCount = N;
    SType = Ty;
  }
  void *RBuf = RB ? RecvPacked.data() : recvbuf;
  MPI_Count RCount = RB ? static_cast<MPI_Count>(RecvBytes) : recvcount;
  MPI_Datatype RType = RB ? MPI_PACKED : RecvPassed;
  MPI_Status Local;
  MPI_Status *St = status == MPI_STATUS_IGNORE ? &Local : status;
  int Rc = DDTC_MPI_COUNT_FN(PMPI_Sendrecv)(SBuf, countArg(SCount), SType, dest,
                                            sendtag, RBuf, countArg(RCount),
                                            RType, source, recvtag, comm, St);
  if (SB)
    R.noteSubstituted(*SB, SendBytes);
  if (RB && Rc == MPI_SUCCESS) {
    MPICount Got = 0;
    DDTC_MPI_COUNT_FN(PMPI_Get_count)(St, MPI_PACKED, &Got);
    unpackAny(RB.get(), recvtype, RecvPacked.data(), Got, recvbuf, recvcount,
              comm);
    R.noteSubstituted(*RB, static_cast<uint64_t>(Got));
  }
  return Rc;
}

int sendrecv(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
             int dest, int sendtag, void *recvbuf, MPI_Count recvcount,
             MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
             MPI_Status *status) {
  CallScope Scope(SubstitutedCall::Sendrecv);
  return sendrecvPacked(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
                        recvcount, recvtype, source, recvtag, comm, status,
                        [&](MPI_Datatype SendType, MPI_Datatype RecvType) {
                          return DDTC_MPI_COUNT_FN(PMPI_Sendrecv)(
                              sendbuf, countArg(sendcount), SendType, dest,
                              sendtag, recvbuf, countArg(recvcount), RecvType,
                              source, recvtag, comm, status);
                        });
}

int sendrecvReplace(void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                    int sendtag, int source, int recvtag, MPI_Comm comm,
                    MPI_Status *status) {
  CallScope Scope(SubstitutedCall::SendrecvReplace);
  // As written, MPI_Sendrecv_replace itself (with the program's type: a
  // form for sends would be one side's only).
  return sendrecvPacked(buf, count, datatype, dest, sendtag, buf, count,
                        datatype, source, recvtag, comm, status,
                        [&](MPI_Datatype, MPI_Datatype) {
                          return DDTC_MPI_COUNT_FN(PMPI_Sendrecv_replace)(
                              buf, countArg(count), datatype, dest, sendtag,
                              source, recvtag, comm, status);
                        });
}

} // namespace

DDTC_EXPORT int MPI_Sendrecv(const void *sendbuf, int sendcount,
                             MPI_Datatype sendtype, int dest, int sendtag,
                             void *recvbuf, int recvcount,
                             MPI_Datatype recvtype, int source, int recvtag,
                             MPI_Comm comm, MPI_Status *status) {
  return sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
                  recvcount, recvtype, source, recvtag, comm, status);
}

DDTC_EXPORT int MPI_Sendrecv_replace(void *buf, int count,
                                     MPI_Datatype datatype, int dest,
                                     int sendtag, int source, int recvtag,
                                     MPI_Comm comm, MPI_Status *status) {
  return sendrecvReplace(buf, count, datatype, dest, sendtag, source, recvtag,
                         comm, status);
}

#if DDTC_MPI_LARGE_COUNT
DDTC_EXPORT int MPI_Sendrecv_c(const void *sendbuf, MPI_Count sendcount,
                               MPI_Datatype sendtype, int dest, int sendtag,
                               void *recvbuf, MPI_Count recvcount,
                               MPI_Datatype recvtype, int source, int recvtag,
                               MPI_Comm comm, MPI_Status *status) {
  return sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
                  recvcount, recvtype, source, recvtag, comm, status);
}

DDTC_EXPORT int MPI_Sendrecv_replace_c(void *buf, MPI_Count count,
                                       MPI_Datatype datatype, int dest,
                                       int sendtag, int source, int recvtag,
                                       MPI_Comm comm, MPI_Status *status) {
  return sendrecvReplace(buf, count, datatype, dest, sendtag, source, recvtag,
                         comm, status);
}
#endif

//===----------------------------------------------------------------------===//
// MPI_Pack, MPI_Unpack, MPI_Pack_size
//===----------------------------------------------------------------------===//

namespace {

/// Whether Bytes fit at Position in a buffer of Size bytes. When they do
/// not, the wrappers let MPI report the error as it would without them.
bool fitsAt(MPI_Count Position, uint64_t Bytes, MPI_Count Size) {
  return Position >= 0 && Size >= 0 &&
         static_cast<uint64_t>(Position) + Bytes <= static_cast<uint64_t>(Size);
}

/// MPI_Pack and MPI_Pack_c, whose position is an int or an MPI_Count
/// (Position); Plain() makes the call as the program wrote it.
template <typename Position, typename PlainFn>
int pack(const void *inbuf, MPI_Count incount, MPI_Datatype datatype,
         void *outbuf, MPI_Count outsize, Position *position, PlainFn Plain) {
  CallScope Scope(SubstitutedCall::Pack);
  RuntimeState &R = runtime();
  BindingRef B = R.substitutable(datatype, incount);
  uint64_t Bytes = B ? incount * B->Size : 0;
  if (!B || !fitsAt(*position, Bytes, outsize))
    return Plain();
  B->pack(inbuf, incount, static_cast<char *>(outbuf) + *position);
  *position += static_cast<Position>(Bytes);
  R.noteSubstituted(*B, Bytes);
  return MPI_SUCCESS;
}

/// MPI_Unpack and MPI_Unpack_c, as pack().
template <typename Position, typename PlainFn>
int unpack(const void *inbuf, MPI_Count insize, Position *position,
           void *outbuf, MPI_Count outcount, MPI_Datatype datatype,
           PlainFn Plain) {
  CallScope Scope(SubstitutedCall::Unpack);
  RuntimeState &R = runtime();
  BindingRef B = R.substitutable(datatype, outcount);
  uint64_t Bytes = B ? outcount * B->Size : 0;
  if (!B || !fitsAt(*position, Bytes, insize))
    return Plain();
  B->unpack(static_cast<const char *>(inbuf) + *position, outcount, outbuf);
  *position += static_cast<Position>(Bytes);
  R.noteSubstituted(*B, Bytes);
  return MPI_SUCCESS;
}

/// MPI_Pack_size and MPI_Pack_size_c: the packed size of a bound type is
/// count * MPI_Type_size, what the kernels write; MPI's answer is an upper
/// bound that may be larger. Max is the largest size the call returns.
template <typename Size, typename PlainFn>
int packSize(MPI_Count incount, MPI_Datatype datatype, Size *size,
             PlainFn Plain) {
  BindingRef B = runtime().Active.load(std::memory_order_relaxed)
                     ? runtime().Bindings.lookup(datatype)
                     : nullptr;
  constexpr uint64_t Max = std::numeric_limits<Size>::max();
  if (!B || !B->isBound() || incount < 0 ||
      (B->Size > 0 && static_cast<uint64_t>(incount) > Max / B->Size))
    return Plain();
  *size = static_cast<Size>(incount * B->Size);
  return MPI_SUCCESS;
}

} // namespace

DDTC_EXPORT int MPI_Pack(const void *inbuf, int incount, MPI_Datatype datatype,
                         void *outbuf, int outsize, int *position,
                         MPI_Comm comm) {
  return pack(inbuf, incount, datatype, outbuf, outsize, position, [&] {
    return PMPI_Pack(inbuf, incount, datatype, outbuf, outsize, position, comm);
  });
}

DDTC_EXPORT int MPI_Unpack(const void *inbuf, int insize, int *position,
                           void *outbuf, int outcount, MPI_Datatype datatype,
                           MPI_Comm comm) {
  return unpack(inbuf, insize, position, outbuf, outcount, datatype, [&] {
    return PMPI_Unpack(inbuf, insize, position, outbuf, outcount, datatype,
                       comm);
  });
}

DDTC_EXPORT int MPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm,
                              int *size) {
  return packSize(incount, datatype, size, [&] {
    return PMPI_Pack_size(incount, datatype, comm, size);
  });
}

#if DDTC_MPI_LARGE_COUNT
DDTC_EXPORT int MPI_Pack_c(const void *inbuf, MPI_Count incount,
                           MPI_Datatype datatype, void *outbuf,
                           MPI_Count outsize, MPI_Count *position,
                           MPI_Comm comm) {
  return pack(inbuf, incount, datatype, outbuf, outsize, position, [&] {
    return PMPI_Pack_c(inbuf, incount, datatype, outbuf, outsize, position,
                       comm);
  });
}

DDTC_EXPORT int MPI_Unpack_c(const void *inbuf, MPI_Count insize,
                             MPI_Count *position, void *outbuf,
                             MPI_Count outcount, MPI_Datatype datatype,
                             MPI_Comm comm) {
  return unpack(inbuf, insize, position, outbuf, outcount, datatype, [&] {
    return PMPI_Unpack_c(inbuf, insize, position, outbuf, outcount, datatype,
                         comm);
  });
}

DDTC_EXPORT int MPI_Pack_size_c(MPI_Count incount, MPI_Datatype datatype,
                                MPI_Comm comm, MPI_Count *size) {
  return packSize(incount, datatype, size, [&] {
    return PMPI_Pack_size_c(incount, datatype, comm, size);
  });
}
#endif

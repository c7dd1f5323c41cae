//===- ddtc/MPI/SplitSend.h - The wire layout of packed sends ---*- C++ -*-===//
//
// A send of packed bytes (the runtime's substituted sends, ddtc-bench's
// ddtc variant) hands MPI one contiguous run of them. Under
// MPICH 4.0.2 (ch4:ucx) a contiguous message above UCX's eager limit (8 KiB
// between processes of one node) waits for a rendezvous handshake, about
// 6 us on the benchmark machine, while a non-contiguous one of the same
// size goes eagerly, packed fragment by fragment: from 8,256 to 32,768
// bytes the non-contiguous message is the faster one (a round trip 6.2
// against 9.1 us at 8,256 bytes, 9.8 against 10.5 at 32,768), above it the
// slower (16.2 against 12.2 at 64 KiB). docs/runtime.md, "Split sends".
//
// So a packed send in that window goes as the same bytes in two blocks:
// the kernel packs them contiguously into a buffer Gap bytes longer, the
// last Tail bytes are copied past a gap, and MPI gets an hindexed type of
// MPI_PACKED over the two blocks -- the same type signature, n times
// MPI_PACKED, so any receive that matched the contiguous message matches
// this one, with or without the runtime. The types are made once per
// message size and kept to MPI_Finalize, for at most 64 sizes.
//
// The window depends on the machine and the MPI library: off unless a
// setting gives it -- DDTC_RT_SPLIT_SEND=LO:HI (sizes as parseByteSize
// reads them) for messages between ranks of one node,
// DDTC_RT_REMOTE_SPLIT_SEND for messages between nodes, =off for none --
// as the runtime measures it by itself or ddtc-rt-calibrate writes it.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_MPI_SPLITSEND_H
#define DDTC_MPI_SPLITSEND_H

#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace ddtc {

class SplitSends {
public:
  /// Bytes past the packed stream a split send needs in its buffer.
  static constexpr uint64_t Gap = 64;

  static SplitSends &get();

  /// Sets the window of messages to ranks of this node, or to other nodes
  /// where Remote, from Setting (the value of DDTC_RT_SPLIT_SEND or
  /// DDTC_RT_REMOTE_SPLIT_SEND, or null for off). Returns a warning for a
  /// Setting it cannot read (the window is then off), else "".
  std::string configure(const char *Setting, bool Remote = false);
  /// The size of the buffer a packed stream of Bytes is packed into before
  /// it is sent: Bytes, or Bytes + Gap where the send is split.
  uint64_t bufferBytes(uint64_t Bytes, bool Remote = false) const {
    return wants(Bytes, Remote) ? Bytes + Gap : Bytes;
  }
  /// What to give MPI to send the stream of Bytes packed at Buf (a buffer
  /// of bufferBytes(Bytes) bytes): Bytes times MPI_PACKED, or, split, the
  /// tail copied past the gap and 1 of a type of two blocks. Contiguous
  /// also if MPI could not make that type.
  struct Wire {
    MPI_Count Count;
    MPI_Datatype Type;
  };
  Wire wire(char *Buf, uint64_t Bytes, bool Remote = false);
  /// A split send's buffer packed anew (a persistent request's start):
  /// copies the tail past the gap again, as wire() did.
  void copyTail(char *Buf, uint64_t Bytes);
  /// The window's lower end: the largest packed message sent contiguous
  /// below it (MPI sends it eagerly), or 0 where the window is off.
  uint64_t from(bool Remote = false) const {
    return Windows[Remote].Hi.load(std::memory_order_relaxed)
               ? Windows[Remote].Lo.load(std::memory_order_relaxed)
               : 0;
  }
  /// Sends split so far (the report).
  uint64_t count() const { return Sent.load(std::memory_order_relaxed); }
  /// The window in force, "LO:HI" in bytes, or "off" (the report).
  std::string window(bool Remote = false) const {
    uint64_t L = Windows[Remote].Lo.load(std::memory_order_relaxed);
    uint64_t H = Windows[Remote].Hi.load(std::memory_order_relaxed);
    return H ? std::to_string(L) + ":" + std::to_string(H) : "off";
  }
  /// Frees the types (MPI_Finalize).
  void release();

private:
  bool wants(uint64_t Bytes, bool Remote) const {
    return Bytes > Windows[Remote].Lo.load(std::memory_order_relaxed) &&
           Bytes <= Windows[Remote].Hi.load(std::memory_order_relaxed);
  }
  /// The type of two blocks for a stream of Bytes, made on first use;
  /// MPI_DATATYPE_NULL if it cannot be had.
  MPI_Datatype typeFor(uint64_t Bytes);

  /// Bytes at the end of the stream that go in the second block.
  static constexpr uint64_t Tail = 64;
  /// Message sizes a type is made for; a program sends few distinct
  /// sizes, and sends of further ones go contiguous.
  static constexpr size_t MaxTypes = 64;

  /// (Lo, Hi] of messages within a node [0] and between nodes [1].
  struct Window {
    std::atomic<uint64_t> Lo{0}, Hi{0};
  } Windows[2];
  std::atomic<uint64_t> Sent{0};
  std::mutex Lock;
  std::vector<std::pair<uint64_t, MPI_Datatype>> Types;
};

} // namespace ddtc

#endif // DDTC_MPI_SPLITSEND_H

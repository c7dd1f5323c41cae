//===- lib/Runtime/TypeBinding.h - Committed types and their kernels -*- C++ -*-===//
//
// At MPI_Type_commit the runtime decodes the type (TypeDecoder), computes
// its layout key (the fingerprint of its normal form, translated to a true
// lb of 0) and looks the key up among the loaded kernels. The outcome is a
// Binding: the kernel and the byte offset to apply to the program's buffer
// (non-zero for a translation, e.g. a struct of absolute addresses used
// with MPI_BOTTOM), or the reason there is none. Bindings live in a table
// keyed by handle until MPI_Type_free; a communication call in flight holds
// its binding by shared_ptr, since MPI lets a program free a type while a
// non-blocking call on it runs.
//
// Each binding decodes into its own TypeContext, freed with it: the IR of
// a program that builds and frees types in a loop does not grow, and
// concurrent commits under MPI_THREAD_MULTIPLE share no IR state.
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_LIB_RUNTIME_TYPEBINDING_H
#define DDTC_LIB_RUNTIME_TYPEBINDING_H

#include "KernelRegistry.h"
#include "ddtc/CodeGen/ShapeKernel.h"
#include "ddtc/IR/TypeContext.h"
#include "ddtc/Passes/LayoutKey.h"

#include <mpi.h>

#include <atomic>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace ddtc {

/// How fast a type's kernel packs against MPI's engine, timed at commit
/// (PackTiming.h).
struct PackTiming {
  uint64_t Count = 0;  ///< instances packed
  uint64_t Bytes = 0;  ///< their packed bytes
  double KernelNs = 0; ///< the kernel's pack, nanoseconds
  double MPINs = 0;    ///< MPI_Pack's
  double CopyNs = 0;   ///< a copy of the packed bytes
};

/// What the report says of one type: the bindings of every commit of one
/// name and layout are summed here, so that a program that builds and
/// frees a type in a loop has one entry, and memory that does not grow.
struct TypeStats {
  std::string Name;   ///< MPI_Type_get_name, or type_N: the Nth entry
  std::string Key;    ///< the layout key in hex, empty if none
  std::string Kernel; ///< the kernel's name, empty if none
  /// What kind of kernel: "emitted" (of `ddtc emit`, for this layout),
  /// "members" (a struct bound member by member to emitted kernels) or
  /// "shape" (built at commit, ShapeKernel); null if none.
  const char *Kind = nullptr;
  std::string Library; ///< where the kernel came from
  std::string Reason;  ///< why there is no kernel
  int64_t Offset = 0;
  /// MPI_Type_size and the extent: what "no kernel of this size and extent"
  /// refers to, and with the key how a report entry is found in a trace
  /// (`ddtc analyze` prints all three). Only while every commit summed
  /// here had them (OneShape): the unnamed types without a key share an
  /// entry per reason, whatever their shapes.
  uint64_t Size = 0;
  int64_t Extent = 0;
  bool OneShape = true;
  std::atomic<uint64_t> Commits{0};
  std::atomic<uint64_t> SubstitutedCalls{0};
  std::atomic<uint64_t> SubstitutedBytes{0};
  std::atomic<uint64_t> PassedCalls{0};
  /// DDTC_RT_FORMS: the form sent instead ("list-pieces", ...; a literal,
  /// set once a form is built), null if none, and the point-to-point calls
  /// that handed it to MPI.
  std::atomic<const char *> Form{nullptr};
  std::atomic<uint64_t> FormCalls{0};
  /// Of those, point-to-point calls left to MPI by DDTC_RT_TYPED_BLOCKS,
  /// and for sparse blocks (Binding::SparseFromCount).
  std::atomic<uint64_t> TypedCalls{0};
  std::atomic<uint64_t> SparseCalls{0};
  /// Collective calls left to MPI for the type's long blocks
  /// (DDTC_RT_COLLECTIVE_BLOCKS).
  std::atomic<uint64_t> CollectiveLongCalls{0};
  /// The kernel was compiled while the program ran (KernelCompiler.h).
  bool Compiled = false;
  /// The kernel timed against MPI's engine at the last commit, if it was
  /// (Binding::MPIAsFast), and the calls left to MPI as its engine was as
  /// fast.
  std::optional<PackTiming> Timing;
  std::atomic<uint64_t> AsFastCalls{0};
};

/// The top Bits bits of a multiplicative hash of handle H: handles are
/// integers (MPICH) or pointers (Open MPI), and the product mixes all
/// their bits into the top ones (the lookup cache's slot, the table of
/// predefined layouts).
template <unsigned Bits> size_t handleSlot(MPI_Datatype H) {
  uint64_t V = std::hash<MPI_Datatype>{}(H);
  return static_cast<size_t>((V * 0x9E3779B97F4A7C15ull) >> (64 - Bits));
}

struct Binding : std::enable_shared_from_this<Binding> {
  /// The kernel of the whole type, or null.
  const ddtc_kernel *Kernel = nullptr;
  /// Or, where no emitted kernel serves, the shape kernel built at commit
  /// from the type's normal form: the emitter's plan run as data. It
  /// copies the type where the type is (no offset). A branch more before
  /// the emitted kernel's call, which costs it nothing measurable.
  std::unique_ptr<ShapeKernel> Shape;
  /// Or a struct bound member by member: a struct of absolute addresses
  /// (MPI_BOTTOM) whose arrays were allocated apart moves by a different
  /// amount per member from run to run, so only its members match kernels.
  /// A struct's typemap is its members' in order, so packing it is packing
  /// each member in turn.
  struct Member {
    const ddtc_kernel *Kernel; ///< null: a dense member, copied as it is
    int64_t Offset; ///< from the instance's address to the kernel's buffer
                    ///< (for a dense member, to its data)
    size_t Count;   ///< the member's blocklength
    uint64_t Bytes; ///< packed bytes of the member
  };
  std::vector<Member> Members;
  /// Added to the program's buffer address to get the kernel's.
  int64_t Offset = 0;
  uint64_t Size = 0; ///< MPI_Type_size
  int64_t Extent = 0;
  /// Count instances are one contiguous run of packed bytes starting at
  /// buffer + Lb: packing is the identity, no copy is needed.
  bool Contiguous = false;
  int64_t Lb = 0;
  /// MPI_Type_size over the contiguous blocks of one instance (0 if the
  /// type was not decoded): how much MPI's engine copies per block.
  uint64_t MeanBlock = 0;
  /// For a nest of vectors of blocks at most a cache line long (SparseBlocks.h,
  /// docs/runtime.md, "Sparse blocks"): the count of instances from which a
  /// message touches more pages than a TLB holds; 0 for other types. There
  /// every engine pays a page walk and a line fill per block, so a kernel
  /// packs no faster than MPI's engine, and MPI's pipelined engine overlaps
  /// the two sides' copies, which one packed message cannot: such
  /// point-to-point messages go to MPI, in the type's form for sends where
  /// it has one (SendForms.h).
  uint64_t SparseFromCount = 0;
  /// MPI's engine packs the type about as fast as its kernel (timed at
  /// commit, PackTiming.h): a message MPI sends eagerly goes to MPI as
  /// written, which packs it into its eager buffer with no copy of ours.
  bool MPIAsFast = false;
  /// The predefined type of every entry of the typemap, when there is one
  /// and it is basic (not a pair such as MPI_DOUBLE_INT), else
  /// MPI_DATATYPE_NULL; ElementSize is its size. Packed, such a type is
  /// Size / ElementSize of it with the same type signature, which a
  /// one-sided call may hand MPI in its place: its accumulate operations
  /// and the target type see the same elements (OneSided.cpp).
  MPI_Datatype SinglePredefined = MPI_DATATYPE_NULL;
  uint64_t ElementSize = 0;
  /// The decoded type, for the few cases no kernel serves (partial
  /// messages, MPI_BOTTOM without a kernel); null if decoding failed.
  std::unique_ptr<TypeContext> Ctx;
  const Type *T = nullptr;

  TypeStats *Stats = nullptr; ///< owned by the table, never freed

  /// DDTC_RT_FORMS (SendForms.h): for a type without a kernel, the form
  /// handed to MPI in the point-to-point calls passed through, committed
  /// and owned by the binding; else MPI_DATATYPE_NULL. Built at the first
  /// such call (BindingTable::sendForm), so that types never sent point to
  /// point cost nothing; WantsForm says whether to try.
  MPI_Datatype SendForm = MPI_DATATYPE_NULL;
  bool WantsForm = false;
  std::once_flag FormOnce;
  /// Set once the form was looked for and none pays, so that later calls
  /// on the type go to MPI as written without asking again
  /// (RuntimeState::leftAsWritten).
  std::atomic<bool> NoSendForm{false};

  /// For a shape kernel: the bytes it packed and unpacked, until the type
  /// is hot and its kernel asked for (KernelCompiler.h), once.
  mutable std::atomic<uint64_t> ShapeBytes{0};
  mutable std::atomic<bool> CompileAsked{false};

  Binding() = default;
  Binding(const Binding &) = delete;
  Binding &operator=(const Binding &) = delete;
  ~Binding();

  bool isBound() const { return Kernel || Shape || !Members.empty(); }

  /// Packs Count instances at Buf (the program's buffer) to Out.
  void pack(const void *Buf, size_t Count, void *Out) const {
    transfer<true>(at(Buf, 0), Count, static_cast<char *>(Out));
  }
  /// Unpacks Count instances from In to Buf.
  void unpack(const void *In, size_t Count, void *Buf) const {
    transfer<false>(at(Buf, 0), Count, at(In, 0));
  }

private:
  static char *at(const void *Buf, int64_t Offset) {
    return const_cast<char *>(static_cast<const char *>(Buf)) + Offset;
  }
  /// One loop for both directions, so that pack and unpack cannot disagree
  /// on the order of the members.
  template <bool Pack>
  void transfer(char *Typed, size_t Count, char *Packed) const {
    auto Copy = [](const ddtc_kernel *K, char *T, size_t N, char *P,
                   uint64_t Bytes) {
      if (!K)
        std::memcpy(Pack ? P : T, Pack ? T : P, Bytes);
      else if (Pack)
        K->pack(T, N, P);
      else
        K->unpack(P, N, T);
    };
    if (Kernel) {
      Copy(Kernel, Typed + Offset, Count, Packed, 0);
      return;
    }
    if (Shape) {
      if (Pack)
        Shape->pack(Typed, Count, Packed);
      else
        Shape->unpack(Packed, Count, Typed);
      return;
    }
    for (size_t I = 0; I < Count; ++I)
      for (const Member &M : Members) {
        Copy(M.Kernel, Typed + int64_t(I) * Extent + M.Offset, M.Count, Packed,
             M.Bytes);
        Packed += M.Bytes;
      }
  }

public:
};

using BindingRef = std::shared_ptr<Binding>;

class BindingTable {
public:
  /// Binds the type H, just committed; Predefined is the handle table.
  void bind(MPI_Datatype H, std::span<const MPI_Datatype> Predefined) {
    bindAs(H, Predefined, nullptr);
  }
  /// Binds again every live handle whose binding counts into S, once a
  /// kernel for it arrived in the kernel cache: the calls that start after
  /// use the new binding, a call in flight keeps the one it started with.
  void rebind(const TypeStats *S, std::span<const MPI_Datatype> Predefined);
  /// DDTC_RT_FORMS=sends: types without a kernel get a form for sends
  /// (SendForms.h). Set before the first commit.
  void enableSendForms(std::span<const MPI_Datatype> Handles) {
    Predefined.assign(Handles.begin(), Handles.end());
    SendForms = true;
  }
  bool sendFormsEnabled() const { return SendForms; }
  /// DDTC_RT_PACK_TIES=FACTOR: the kernel of a type of at most Bytes
  /// packed bytes is timed against MPI_Pack on about Bytes of it at
  /// commit, and MPI's engine is as fast where it takes at most FACTOR
  /// times the kernel's pack and a copy of the packed bytes, which is what
  /// the runtime's path costs (Binding::MPIAsFast). Set before the first
  /// commit.
  void enablePackTiming(uint64_t Bytes, double Factor) {
    TimedBytes = Bytes;
    TieFactor = Factor;
  }
  /// DDTC_RT_SHAPES: types without an emitted kernel get a shape kernel
  /// (ShapeKernel.h). Set before the first commit.
  void enableShapes() { Shapes = true; }
  bool shapesEnabled() const { return Shapes; }
  /// B's form for sends (DDTC_RT_FORMS), built at the first call that asks
  /// for it; MPI_DATATYPE_NULL if B has none. Inline for the types that
  /// want none: every passed-through point-to-point call asks.
  MPI_Datatype sendForm(Binding &B) {
    return B.WantsForm ? buildSendFormOnce(B) : MPI_DATATYPE_NULL;
  }
  /// Frees the forms at MPI_Finalize: MPICH warns of types left
  /// allocated, and no call may use them after it. Empties the calling
  /// thread's lookup cache first, so that a binding only it still held (a
  /// type the program freed, not remembered) frees its form while MPI runs;
  /// the program's other threads have exited by then, and their caches
  /// with them.
  void releaseSendForms();
  /// Drops H's binding (MPI_Type_free); the report keeps its counts.
  void release(MPI_Datatype H) {
    std::unique_lock<std::shared_mutex> G(Lock);
    publish(H, nullptr);
  }
  /// The binding of a committed derived type; null for predefined types
  /// and handles the runtime did not see committed. Every communication
  /// call asks, so the answer comes from the calling thread's cache while
  /// no type was committed or freed since (Generation): the shared lock, the
  /// hash's division and the reference counts cost more than MPI's own
  /// work for a small message (docs/performance.md, "Per-call overhead").
  BindingRef lookup(MPI_Datatype H) const { return cachedSlot(H).B; }
  /// lookup() without taking a reference (two locked operations): valid
  /// while H's binding is the table's, until H is freed or bound again.
  Binding *find(MPI_Datatype H) const { return cachedSlot(H).B.get(); }
  /// The statistics of every type committed so far, in commit order.
  std::vector<const TypeStats *> stats() const;

private:
  /// bind(), or with Again the rebinding of a type bound before as Again
  /// says (its name, where it has none of its own), which is no commit.
  void bindAs(MPI_Datatype H, std::span<const MPI_Datatype> Predefined,
              const TypeStats *Again);
  /// The layout key of a decoded type, or why it has none.
  struct KeyResult {
    std::optional<LayoutKey> Key;
    std::string Reason;
  };
  KeyResult keyOf(TypeContext &Ctx, const Type *T);
  /// Binds B to a shape kernel of its normal form; else the reason why
  /// not.
  std::string bindShape(Binding &B);
  /// Binds a struct member by member; false if some member has no kernel.
  bool bindMembers(Binding &B, std::string &Names);
  /// The binding of a type committed before under this name, built by the
  /// same constructor calls (appendConstructorWords), while the loaded
  /// kernels are the same; null if none.
  BindingRef remembered(const std::string &Name,
                        const std::vector<uint64_t> &Words, uint64_t Gen);
  void remember(const std::string &Name, std::vector<uint64_t> Words,
                uint64_t Gen, BindingRef B);
  MPI_Datatype buildSendFormOnce(Binding &B);

  /// One entry of a thread's lookup cache: H's binding (null: none) as the
  /// table had it at Generation. The slot's reference keeps a binding
  /// alive until the slot is reused, as a call in flight does.
  struct LookupSlot {
    const BindingTable *Table = nullptr;
    MPI_Datatype Handle = MPI_DATATYPE_NULL;
    uint64_t Generation = 0;
    BindingRef B;
  };
  /// The calling thread's slot for H: a few, so that a program alternating
  /// between its types and predefined ones (a halo's faces, a reply in
  /// MPI_INT) finds each.
  static constexpr size_t LookupSlots = 8;
  static LookupSlot *threadLookupCache() {
    thread_local LookupSlot Cache[LookupSlots];
    return Cache;
  }
  static LookupSlot &lookupSlot(MPI_Datatype H) {
    static_assert(LookupSlots == 8, "the slot is the hash's top 3 bits");
    return threadLookupCache()[handleSlot<3>(H)];
  }
  /// The calling thread's slot for H, filled from the table where it
  /// holds another handle or a binding of an earlier generation.
  const LookupSlot &cachedSlot(MPI_Datatype H) const {
    LookupSlot &S = lookupSlot(H);
    if (S.Table != this || S.Handle != H ||
        S.Generation != Generation.load(std::memory_order_acquire))
      fillSlot(H, S);
    return S;
  }
  void fillSlot(MPI_Datatype H, LookupSlot &S) const;
  /// Makes B the binding of H (null: none), and the threads' lookup caches
  /// stale. Lock held for writing: every change of Live goes through here.
  void publish(MPI_Datatype H, BindingRef B) {
    if (B)
      Live[H] = std::move(B);
    else
      Live.erase(H);
    Generation.fetch_add(1, std::memory_order_release);
  }

  bool SendForms = false;
  bool Shapes = false;
  uint64_t TimedBytes = 0; ///< 0: no timing
  double TieFactor = 0;
  std::vector<MPI_Datatype> Predefined; ///< for building forms
  mutable std::shared_mutex Lock;
  std::unordered_map<MPI_Datatype, BindingRef> Live;
  /// Changed, under Lock, with every change of Live (publish): what the
  /// lookup caches are checked against.
  std::atomic<uint64_t> Generation{1};
  std::vector<std::unique_ptr<TypeStats>> Stats;
  std::unordered_map<std::string, TypeStats *> StatsByName;
  /// Keys by the fingerprint of the decoded type: a program that commits
  /// the same type again (per message, per iteration) normalizes it once.
  std::mutex KeyLock;
  std::map<std::pair<uint64_t, uint64_t>, KeyResult> KeyCache;
  /// Bindings by the constructor calls of their types: a program that
  /// builds, commits and frees a type per iteration decodes it once.
  struct Remembered {
    std::string Name;
    std::vector<uint64_t> Words;
    uint64_t Generation;
    BindingRef Binding;
  };
  std::mutex RememberLock;
  std::unordered_multimap<size_t, Remembered> ByWords;
  size_t RememberedWords = 0;
};

} // namespace ddtc

#endif // DDTC_LIB_RUNTIME_TYPEBINDING_H

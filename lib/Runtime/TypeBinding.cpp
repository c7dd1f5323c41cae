//===- lib/Runtime/TypeBinding.cpp - Committed types and their kernels ----===//
#include "TypeBinding.h"

#include "CachedKernels.h"
#include "PackTiming.h"
#include "SendForms.h"
#include "SparseBlocks.h"

#include "ddtc/MPI/MPISupport.h"
#include "ddtc/MPI/PredefinedHandles.h"
#include "ddtc/MPI/TypeDecoder.h"
#include "ddtc/Passes/Normalizer.h"
#include "ddtc/Target/MPICHRules.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <exception>

namespace ddtc {

namespace {

/// Types with more contiguous blocks are not normalized at commit: the
/// reconstruction is near-linear, but a commit should not take seconds.
/// They pass through, and the report says why -- unless built exactly as
/// the description a kernel was emitted for, which binds by its
/// fingerprint without being normalized.
constexpr uint64_t MaxBindBlocks = uint64_t(1) << 20;

/// The longest block sequences a shape kernel's normalization plans
/// exactly (ReconstructOptions::DPBlocks and the element limits; ddtc
/// normalize's are 2,048 and 512): longer ones are rewritten by the
/// near-linear steps alone.
constexpr size_t ShapeDPBlocks = 64;

/// Layout keys remembered by the fingerprint of the type they were
/// computed for.
constexpr size_t MaxCachedKeys = 4096;

/// Bindings remembered by their types' constructor calls: at most this
/// many, holding at most this many words of calls (32 MB), beyond which
/// they are forgotten and remembered anew.
constexpr size_t MaxRemembered = 1024;
constexpr size_t MaxRememberedWords = size_t(4) << 20;
/// The words of one commit are read into a buffer kept per thread up to
/// this many (8 MB); a longer one is freed at the thread's next commit.
constexpr size_t MaxKeptWords = size_t(1) << 20;

size_t hashWords(const std::string &Name, const std::vector<uint64_t> &Words) {
  std::string_view Bytes(reinterpret_cast<const char *>(Words.data()),
                         Words.size() * sizeof(uint64_t));
  return std::hash<std::string_view>{}(Bytes) ^
         (std::hash<std::string>{}(Name)*0x9e3779b97f4a7c15ull);
}

} // namespace

Binding::~Binding() {
  // Bindings are remembered past MPI_Type_free, and the table outlives
  // MPI_Finalize (never destroyed): a form is freed only while MPI runs.
  int Finalized = 1;
  if (SendForm != MPI_DATATYPE_NULL &&
      PMPI_Finalized(&Finalized) == MPI_SUCCESS && !Finalized)
    PMPI_Type_free(&SendForm);
}

namespace {

/// Why T is not normalized at commit (MaxBindBlocks), or empty.
std::string pastBudget(const Type *T) {
  uint64_t Blocks = T->getLayout().Blocks.Count;
  if (Blocks <= MaxBindBlocks)
    return "";
  return std::to_string(Blocks) + " contiguous blocks, more than the " +
         std::to_string(MaxBindBlocks) + " the runtime normalizes at commit";
}

/// What the report says of a shape kernel: its loops, and how many of them
/// copy a constant size.
std::string describeShape(const ShapeKernel &K) {
  if (K.loops() == 0)
    return "shape: runs";
  return "shape: " + std::to_string(K.loops()) +
         (K.loops() == 1 ? " loop, " : " loops, ") +
         std::to_string(K.specializedLoops()) + " specialized";
}

/// Binds B to the kernel of key K, or says in Reason why not.
const LoadedKernel *findKernel(Binding &B, const LayoutKey &K,
                               std::string &Reason) {
  const LoadedKernel *L = KernelRegistry::get().lookup(K.Print);
  if (!L && CachedKernels::get().load(K.Print))
    L = KernelRegistry::get().lookup(K.Print);
  if (!L) {
    Reason = "no kernel for this layout";
    return nullptr;
  }
  // Keys are 128-bit fingerprints; size and extent guard the improbable
  // collision, which would otherwise corrupt data.
  if (L->Kernel->size != static_cast<uint64_t>(B.T->size()) ||
      L->Kernel->extent != B.T->extent()) {
    Reason = "the kernel with this key has another size or extent";
    return nullptr;
  }
  B.Kernel = L->Kernel;
  B.Offset = K.TrueLb - L->Kernel->true_lb;
  return L;
}

/// The basic predefined type every leaf of T is, if one is. Every leaf, not
/// only those holding data: a member of no data is rare, and a type left
/// out passes through.
std::optional<PredefinedId> singlePredefined(const Type *T) {
  if (const auto *P = dyn_cast<PredefinedType>(T)) {
    if (!P->getInfo().isBasic())
      return std::nullopt;
    return P->getId();
  }
  std::optional<PredefinedId> One;
  for (const Type *Op : T->getOperands()) {
    std::optional<PredefinedId> Leaf = singlePredefined(Op);
    if (!Leaf || (One && *One != *Leaf))
      return std::nullopt;
    One = Leaf;
  }
  return One;
}

/// Sets B's single predefined type (Binding::SinglePredefined) from its
/// decoded type.
void setSinglePredefined(Binding &B, std::span<const MPI_Datatype> Predefined) {
  std::optional<PredefinedId> Id = singlePredefined(B.T);
  if (!Id || static_cast<size_t>(*Id) >= Predefined.size())
    return;
  int64_t Size = getPredefinedInfo(*Id).Size;
  if (Size <= 0 || B.Size % static_cast<uint64_t>(Size) != 0)
    return;
  B.SinglePredefined = Predefined[static_cast<size_t>(*Id)];
  B.ElementSize = static_cast<uint64_t>(Size);
}

/// The page size, for the sparse-blocks rule (SparseBlocks.h).
uint64_t pageSize() {
  static const uint64_t Page = [] {
    long P = sysconf(_SC_PAGESIZE);
    return P > 0 ? static_cast<uint64_t>(P) : uint64_t(4096);
  }();
  return Page;
}

} // namespace

BindingTable::KeyResult BindingTable::keyOf(TypeContext &Ctx, const Type *T) {
  if (T->size() == 0)
    return {std::nullopt, "no data to pack"};
  // MPI sends a dense type straight from the program's memory; a kernel
  // would only add a copy.
  if (T->getLayout().isDense())
    return {std::nullopt, "contiguous: MPI moves it without packing"};
  // Only a kernel of the same size and extent can match, loaded or in the
  // kernel cache: the types of a program that have none are not
  // normalized at all.
  uint64_t Size = static_cast<uint64_t>(T->size());
  if (!KernelRegistry::get().hasShape(Size, T->extent()) &&
      !CachedKernels::get().hasShape(Size, T->extent()))
    return {std::nullopt, "no kernel of this size and extent"};
  // The description a kernel was emitted for, built again (a trace's
  // kernels in the traced program): its key is the kernel's, with nothing
  // to normalize, however many blocks it has, and it sits where the
  // kernel's type does (the same tree, the same displacements).
  if (const LoadedKernel *L =
          KernelRegistry::get().lookupGiven(T->getFingerprint()))
    return {LayoutKey{Fingerprint{L->Kernel->key_hi, L->Kernel->key_lo},
                      L->Kernel->true_lb},
            ""};
  if (std::string Why = pastBudget(T); !Why.empty())
    return {std::nullopt, Why};
  std::pair<uint64_t, uint64_t> Print(T->getFingerprint().Hi,
                                      T->getFingerprint().Lo);
  {
    std::lock_guard<std::mutex> G(KeyLock);
    if (auto It = KeyCache.find(Print); It != KeyCache.end())
      return It->second;
  }
  Normalizer N(Ctx);
  KeyResult R;
  R.Key = computeLayoutKey(N, Ctx, T);
  if (!R.Key)
    R.Reason = "no layout key: its displacements overflow when translated";
  std::lock_guard<std::mutex> G(KeyLock);
  // Bounded: a program that commits ever new types does not grow it.
  if (KeyCache.size() >= MaxCachedKeys)
    KeyCache.clear();
  KeyCache.emplace(Print, R);
  return R;
}

std::string BindingTable::bindShape(Binding &B) {
  const Type *T = B.T;
  if (T->size() == 0)
    return "no data to pack";
  if (T->getLayout().isDense())
    return "contiguous: MPI moves it without packing";
  if (std::string Why = pastBudget(T); !Why.empty())
    return Why;
  // The normal form: the plan follows the layout, and the normal form's
  // layout has its blocks merged and its lists turned into loops where
  // they are regular, so it has fewer and longer moves. At commit, and a
  // program may commit a new index list per iteration: the exact dynamic
  // program over long block sequences, which finds the cheapest
  // description rather than a faster plan, is cut to short ones (a list
  // of 517 particles took 30 ms a commit with it).
  ReconstructOptions Options;
  Options.DPBlocks = ShapeDPBlocks;
  Options.ElementBlocks = ShapeDPBlocks;
  Options.ElementCutBlocks = ShapeDPBlocks;
  Normalizer N(*B.Ctx, Options);
  const Type *Normal = N.normalize(T);
  // Normalization keeps the typemap and bounds; a kernel of other bounds
  // would step through instances wrongly, so a broken pass must not bind.
  if (Normal->size() != T->size() || Normal->extent() != T->extent())
    return "its normal form has another size or extent";
  B.Shape = ShapeKernel::build(Normal);
  return "";
}

bool BindingTable::bindMembers(Binding &B, std::string &Names) {
  auto *S = cast<StructType>(B.T);
  std::vector<Binding::Member> Members;
  for (size_t I = 0; I < S->getTypes().size(); ++I) {
    const Type *M = S->getTypes()[I];
    int64_t Count = S->getBlockLengths()[I];
    if (Count == 0 || M->size() == 0)
      continue;
    uint64_t Bytes = static_cast<uint64_t>(Count) * M->size();
    int64_t At = S->getDisplacements()[I];
    std::string Name;
    if (M->getLayout().isDense()) {
      Members.push_back({nullptr, At + M->lb(), size_t(Count), Bytes});
      Name = "(dense)";
    } else {
      KeyResult K = keyOf(*B.Ctx, M);
      if (!K.Key)
        return false;
      const LoadedKernel *L = KernelRegistry::get().lookup(K.Key->Print);
      if (!L && CachedKernels::get().load(K.Key->Print))
        L = KernelRegistry::get().lookup(K.Key->Print);
      if (!L || L->Kernel->size != static_cast<uint64_t>(M->size()) ||
          L->Kernel->extent != M->extent())
        return false;
      Members.push_back({L->Kernel, At + K.Key->TrueLb - L->Kernel->true_lb,
                         size_t(Count), Bytes});
      Name = L->Kernel->name ? L->Kernel->name : "?";
    }
    Names += (Names.empty() ? "members: " : ", ") + Name;
  }
  if (Members.empty())
    return false;
  B.Members = std::move(Members);
  return true;
}

BindingRef BindingTable::remembered(const std::string &Name,
                                    const std::vector<uint64_t> &Words,
                                    uint64_t Gen) {
  std::lock_guard<std::mutex> G(RememberLock);
  auto [Lo, Hi] = ByWords.equal_range(hashWords(Name, Words));
  for (auto It = Lo; It != Hi; ++It) {
    const Remembered &R = It->second;
    if (R.Generation == Gen && R.Name == Name && R.Words == Words)
      return R.Binding;
  }
  return nullptr;
}

void BindingTable::remember(const std::string &Name,
                            std::vector<uint64_t> Words, uint64_t Gen,
                            BindingRef B) {
  std::lock_guard<std::mutex> G(RememberLock);
  if (ByWords.size() >= MaxRemembered ||
      RememberedWords + Words.size() > MaxRememberedWords) {
    ByWords.clear();
    RememberedWords = 0;
  }
  RememberedWords += Words.size();
  size_t Hash = hashWords(Name, Words);
  ByWords.emplace(Hash, Remembered{Name, std::move(Words), Gen, std::move(B)});
}

void BindingTable::rebind(const TypeStats *S,
                          std::span<const MPI_Datatype> Predefined) {
  std::vector<MPI_Datatype> Handles;
  {
    std::shared_lock<std::shared_mutex> G(Lock);
    for (const auto &[H, B] : Live)
      if (B->Stats == S)
        Handles.push_back(H);
  }
  for (MPI_Datatype H : Handles)
    bindAs(H, Predefined, S);
}

void BindingTable::bindAs(MPI_Datatype H,
                          std::span<const MPI_Datatype> Predefined,
                          const TypeStats *Again) {
  if (lookupPredefinedHandle(Predefined, H))
    return;
  // A type built by the same calls as one committed before (a program
  // that builds, commits and frees its types per iteration) has that
  // one's typemap, bounds and name: it shares its binding, and nothing is
  // decoded. The calls are read with MPI_Type_get_contents, in a tenth of
  // the time of a decode (LAMMPS_full: 13,458 displacements).
  const std::string GivenName = getTypeName(H);
  // Kept from commit to commit: a fresh vector of a long list's words
  // would be fresh pages each time, and their faults cost more than
  // reading the calls.
  thread_local std::vector<uint64_t> Words;
  if (Words.capacity() > MaxKeptWords)
    std::vector<uint64_t>().swap(Words); // the last commit's was huge
  Words.clear();
  uint64_t Gen = KernelRegistry::get().generation();
  bool HaveWords =
      appendConstructorWords(H, Words) && Words.size() <= MaxRememberedWords;
  // Binding again, the binding remembered is the one being replaced.
  if (HaveWords && !Again)
    if (BindingRef Known = remembered(GivenName, Words, Gen)) {
      ++Known->Stats->Commits;
      std::unique_lock<std::shared_mutex> G(Lock);
      publish(H, std::move(Known));
      return;
    }
  auto B = std::make_shared<Binding>();
  MPI_Count Size = 0, Lb = 0, Extent = 0;
  DDTC_MPI_QUERY_FN(PMPI_Type_size)(H, &Size);
  DDTC_MPI_QUERY_FN(PMPI_Type_get_extent)(H, &Lb, &Extent);
  B->Size = static_cast<uint64_t>(Size);
  B->Lb = Lb;
  B->Extent = Extent;

  std::string Key, Reason, MemberNames;
  const LoadedKernel *Found = nullptr;
  try {
    B->Ctx = std::make_unique<TypeContext>(getMPICHRules());
    TypeDecoder Decoder(*B->Ctx, Predefined);
    Decoder.setCheckLayout(true);
    Expected<const Type *> T = Decoder.decode(H);
    if (!T) {
      Reason = Decoder.failedOnLayout()
                   ? T.takeError().message()
                   : "cannot decode: " + T.takeError().message();
    } else {
      B->T = *T;
      B->Contiguous = B->T->getLayout().isDense();
      setSinglePredefined(*B, Predefined);
      if (uint64_t Blocks = B->T->getLayout().Blocks.Count) {
        B->MeanBlock = B->Size / Blocks;
        if (isStridedNest(B->T))
          B->SparseFromCount =
              sparseFromCount(B->T->getLayout(), B->MeanBlock, pageSize());
      }
      KeyResult K = keyOf(*B->Ctx, B->T);
      Reason = K.Reason;
      if (K.Key) {
        Key = formatKey(K.Key->Print);
        Found = findKernel(*B, *K.Key, Reason);
      }
      // A struct dense as a whole is MPI's to send from the program's
      // memory, whatever kernels its members have.
      if (!Found && !B->Contiguous && isa<StructType>(B->T) &&
          bindMembers(*B, MemberNames))
        Reason.clear();
      // Emitted kernels first, for the whole type or its members; then a
      // shape kernel, which every type the decoder expresses can have. A
      // struct bound member by member without an emitted kernel among its
      // members (all dense) is not kept: its shape kernel copies the same
      // blocks without a call per member.
      bool EmittedMember =
          std::any_of(B->Members.begin(), B->Members.end(),
                      [](const Binding::Member &M) { return M.Kernel; });
      if (!Found && !EmittedMember && Shapes) {
        B->Members.clear();
        std::string Why = bindShape(*B);
        Reason = B->Shape ? "" : Why;
      }
      // A form for sends is built at the first point-to-point call that
      // hands the type to MPI (sendForm), if the type is large enough for
      // one to pay: any call of a type without a kernel, a message the
      // sparse-blocks or typed-blocks rules leave to MPI of one with.
      B->WantsForm = SendForms && wantsSendForm(B->T);
    }
  } catch (const std::exception &E) {
    // Out of memory on a huge type: the program goes on without a kernel
    // (and tries again at the next commit).
    B->Kernel = nullptr;
    B->Shape.reset();
    B->Members.clear();
    Reason = std::string("failed while binding: ") + E.what();
    HaveWords = false;
  }

  // Timed outside the table's lock, where the messages of the type can be
  // eager ones: a few microseconds at its commit.
  std::optional<PackTiming> Timing;
  if (TimedBytes && B->isBound() && !B->Contiguous && B->Size <= TimedBytes)
    if ((Timing = timePacking(*B, H, TimedBytes)))
      B->MPIAsFast =
          Timing->MPINs <= (Timing->KernelNs + Timing->CopyNs) * TieFactor;

  // Commits of one name and layout share their statistics; an unnamed
  // type is known by its layout alone (and by its reason when it has no
  // key, so that a program committing undecodable types in a loop still
  // has one entry).
  std::string Name = GivenName.empty() && Again ? Again->Name : GivenName;
  std::string StatsKey = Name + '\0' + (Key.empty() ? Reason : Key);
  // Types without a kernel that may be sent in a form, and types with a
  // shape kernel, are told apart by their description (without emitted
  // kernels they have no key), so that each form and each shape has its
  // entry.
  if ((B->WantsForm && !B->isBound()) || B->Shape)
    StatsKey += '\0' + formatKey(B->T->getFingerprint());
  std::unique_lock<std::shared_mutex> G(Lock);
  TypeStats *&S = StatsByName[StatsKey];
  if (!S) {
    if (Name.empty())
      Name = "type_" + std::to_string(Stats.size());
    Stats.push_back(std::make_unique<TypeStats>());
    S = Stats.back().get();
    S->Name = Name;
    S->Key = Key;
    S->Size = B->Size;
    S->Extent = B->Extent;
    if (Found) {
      S->Kernel = Found->Kernel->name ? Found->Kernel->name : "";
      S->Kind = "emitted";
      S->Library = Found->Library;
      S->Offset = B->Offset;
    } else if (!B->Members.empty()) {
      S->Kernel = MemberNames;
      S->Kind = "members";
    } else if (B->Shape) {
      S->Kernel = describeShape(*B->Shape);
      S->Kind = "shape";
    } else {
      S->Reason = Reason;
    }
  }
  // An entry without a key may sum types of several shapes (see above):
  // then it names none.
  if (S->Size != B->Size || S->Extent != B->Extent)
    S->OneShape = false;
  if (Timing)
    S->Timing = Timing;
  if (Again)
    S->Compiled |= Found != nullptr;
  else
    ++S->Commits;
  B->Stats = S;
  publish(H, B);
  G.unlock();
  if (HaveWords)
    remember(GivenName, Words, Gen, std::move(B));
}

MPI_Datatype BindingTable::buildSendFormOnce(Binding &B) {
  // Once per binding, whichever thread comes first; the others wait. No
  // lock of the table is held: the builder frees its intermediate handles
  // through MPI_Type_free, which releases.
  std::call_once(B.FormOnce, [&] {
    try {
      SendForm F = buildSendForm(*B.Ctx, B.T, Predefined);
      B.SendForm = F.Handle;
      if (F.Origin)
        B.Stats->Form.store(F.Origin, std::memory_order_relaxed);
    } catch (const std::exception &) {
      // Out of memory while choosing: sent as described.
    }
    if (B.SendForm == MPI_DATATYPE_NULL)
      B.NoSendForm.store(true, std::memory_order_release);
  });
  return B.SendForm;
}

void BindingTable::fillSlot(MPI_Datatype H, LookupSlot &S) const {
  std::shared_lock<std::shared_mutex> G(Lock);
  auto It = Live.find(H);
  // Read under the lock, the generation is the one of the Live just read.
  S = {this, H, Generation.load(std::memory_order_relaxed),
       It == Live.end() ? nullptr : It->second};
}

void BindingTable::releaseSendForms() {
  LookupSlot *Cache = threadLookupCache();
  for (size_t I = 0; I < LookupSlots; ++I)
    Cache[I] = LookupSlot();
  // Every binding holding a form is live or remembered.
  auto Release = [](Binding &B) {
    if (B.SendForm != MPI_DATATYPE_NULL)
      PMPI_Type_free(&B.SendForm);
  };
  {
    std::unique_lock<std::shared_mutex> G(Lock);
    for (auto &[H, B] : Live)
      Release(*B);
  }
  std::lock_guard<std::mutex> G(RememberLock);
  for (auto &[Hash, R] : ByWords)
    Release(*R.Binding);
}

std::vector<const TypeStats *> BindingTable::stats() const {
  std::shared_lock<std::shared_mutex> G(Lock);
  std::vector<const TypeStats *> V;
  for (const auto &S : Stats)
    V.push_back(S.get());
  return V;
}

} // namespace ddtc

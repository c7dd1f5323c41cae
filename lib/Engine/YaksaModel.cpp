//===- lib/Engine/YaksaModel.cpp - How MPICH's engine packs a type --------===//
//
// Two steps: lower() builds Yaksa's tree for a ddtc type (its shortcuts
// applied), then the work functions walk that tree as yaksi_ipack and its
// backend would, multiplying instead of iterating. The header tells what
// Yaksa does; the comments here say where each count comes from.
//
//===----------------------------------------------------------------------===//
#include "ddtc/Engine/YaksaModel.h"

#include "ddtc/IR/Predefined.h"
#include "ddtc/Support/Casting.h"
#include "ddtc/Support/Machine.h"
#include "ddtc/Target/MPICHRules.h"
#include "ddtc/Target/YaksaBuiltin.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>
#include <unordered_map>
#include <vector>

namespace ddtc {

namespace {

/// Yaksa packs a type with a kernel by memcpy of each contiguous piece
/// instead when its pieces are this large on average
/// (YAKSURI_SEQI_INFO__DEFAULT_IOV_PUP_THRESHOLD).
constexpr double IovThresholdBytes = 16384;

enum class YKind {
  Empty,   ///< size 0: nothing is packed
  Builtin, ///< a basic type; Kernel says whether kernels exist for it
  Pair,    ///< MPI_DOUBLE_INT and friends with a gap: one call per member
  Contig,
  HVector,
  BlkHindx,
  HIndexed,
  Struct,
  Resized,
  Subarray, ///< delegates to its expansion (Yaksa's "primary")
};

struct YNode {
  YKind Kind = YKind::Empty;
  double Size = 0;
  bool IsContig = false;
  /// Yaksa's num_contig: contiguous pieces, counted structurally.
  double NumContig = 1;
  /// Levels of loop-making nodes (Yaksa's tree_depth).
  unsigned Depth = 0;
  /// Builtin: a kernel's element type, and the class of its C type.
  bool KernelElement = false;
  ElementClass Class = ElementClass::I8;
  const YNode *Child = nullptr;
  double Count = 0;        ///< Contig, HVector, BlkHindx, HIndexed
  int64_t BlockLength = 0; ///< HVector, BlkHindx
  /// HIndexed: how many blocks have each non-zero block length.
  std::vector<std::pair<int64_t, double>> Lengths;
  /// Struct and Pair: the members with non-zero block length.
  std::vector<std::pair<const YNode *, int64_t>> Members;
  /// HIndexed, Struct: entries of the list, zero lengths included (the
  /// fragment search steps over them).
  double ListEntries = 0;

  /// Memos, filled on first use (the tree is otherwise immutable once
  /// lowered). The work of packing m instances at once is Fixed + m * Per.
  mutable bool HaveAffine = false;
  mutable EngineWork Fixed, Per;
  /// The work of one instance packed through Yaksa's element descent.
  mutable bool HaveElement = false;
  mutable EngineWork Element;
};

bool isLoopKind(YKind K) {
  return K == YKind::Contig || K == YKind::HVector || K == YKind::BlkHindx ||
         K == YKind::HIndexed || K == YKind::Resized;
}

/// The kernel levels of N, outermost first, or empty when Yaksa has no
/// kernel for it.
std::vector<const YNode *> kernelLevels(const YNode *N) {
  std::vector<const YNode *> Levels;
  const YNode *At = N;
  while (At && isLoopKind(At->Kind) &&
         Levels.size() < MPICHRules::MaxKernelLevels) {
    Levels.push_back(At);
    At = At->Child;
  }
  if (!At || At->Kind != YKind::Builtin || !At->KernelElement)
    return {};
  return Levels;
}

/// The class of the C type Yaksa's kernels use for a basic MPI type.
ElementClass elementClassOf(PredefinedId Id) {
  switch (getYaksaBuiltin(Id)) {
  case YaksaBuiltin::Int8:
    return ElementClass::I8;
  case YaksaBuiltin::Int16:
    return ElementClass::I16;
  case YaksaBuiltin::Int32:
    return ElementClass::I32;
  case YaksaBuiltin::Int64:
    return ElementClass::I64;
  case YaksaBuiltin::Float:
    return ElementClass::F32;
  case YaksaBuiltin::Double:
    return ElementClass::F64;
  case YaksaBuiltin::FloatComplex:
  case YaksaBuiltin::DoubleComplex:
    return ElementClass::Wide;
  case YaksaBuiltin::Own: // wchar_t, long double and its complex, by size
    break;
  }
  switch (getPredefinedInfo(Id).Size) {
  case 1:
    return ElementClass::I8;
  case 2:
    return ElementClass::I16;
  case 4:
    return ElementClass::I32;
  case 8:
    return ElementClass::I64;
  default:
    return ElementClass::Wide;
  }
}

} // namespace

struct YaksaModel::Impl {
  explicit Impl(uint64_t Fragment) : Fragment(double(Fragment)) {}

  double Fragment;
  std::unordered_map<const Type *, const YNode *> Lowered;
  std::deque<YNode> Nodes;
  std::map<std::pair<ElementClass, int64_t>, const YNode *> Builtins;

  const YNode *lower(const Type *T);
  const YNode *lowerUncached(const Type *T);
  const YNode *builtin(PredefinedId Id);
  YNode &make(YKind K, const Type *T) {
    YNode &N = Nodes.emplace_back();
    N.Kind = K;
    N.Size = double(T->size());
    N.IsContig = T->size() > 0 && T->size() == T->extent() &&
                 T->getLayout().Blocks.Count == 1;
    return N;
  }
  const YNode *contig(double Count, const YNode *Child, const Type *T);
  const YNode *hvector(double Count, int64_t BlockLength, const YNode *Child,
                       const Type *T);
  const YNode *blockIndexed(std::span<const int64_t> ByteDispls,
                            int64_t BlockLength, const YNode *Child,
                            const Type *T);
  const YNode *indexed(std::span<const int64_t> Lengths,
                       std::span<const int64_t> ByteDispls, const YNode *Child,
                       const Type *T);

  void affine(const YNode &N);
  EngineWork pack(const YNode *N, double M) {
    affine(*N);
    EngineWork W = N->Per.scaled(M);
    W += N->Fixed;
    return W;
  }
  void kernel(const std::vector<const YNode *> &Levels, double Size,
              EngineWork &Per);
  EngineWork fragmented(const YNode *N, double M);
  const EngineWork &element(const YNode *N);
};

const YNode *YaksaModel::Impl::builtin(PredefinedId Id) {
  ElementClass Class = elementClassOf(Id);
  int64_t Size = getPredefinedInfo(Id).Size;
  auto [It, New] = Builtins.try_emplace({Class, Size}, nullptr);
  if (New) {
    YNode &N = Nodes.emplace_back();
    N.Kind = YKind::Builtin;
    N.Size = double(Size);
    N.IsContig = true;
    N.KernelElement = true;
    N.Class = Class;
    It->second = &N;
  }
  return It->second;
}

const YNode *YaksaModel::Impl::lower(const Type *T) {
  auto It = Lowered.find(T);
  if (It != Lowered.end())
    return It->second;
  const YNode *N = lowerUncached(T);
  Lowered.emplace(T, N);
  return N;
}

const YNode *YaksaModel::Impl::contig(double Count, const YNode *Child,
                                      const Type *T) {
  if (Count == 1)
    return Child; // yaksi_type_create_contig: count 1 is a dup
  YNode &N = make(YKind::Contig, T);
  N.Child = Child;
  N.Count = Count;
  N.Depth = Child->Depth + 1;
  N.NumContig = N.IsContig ? 1 : Count * Child->NumContig;
  return &N;
}

const YNode *YaksaModel::Impl::hvector(double Count, int64_t BlockLength,
                                       const YNode *Child, const Type *T) {
  if (Count == 1) // yaksi_type_create_hvector: count 1 is a contig
    return contig(double(BlockLength), Child, T);
  YNode &N = make(YKind::HVector, T);
  N.Child = Child;
  N.Count = Count;
  N.BlockLength = BlockLength;
  N.Depth = Child->Depth + 1;
  N.NumContig = N.IsContig ? 1
                : Child->IsContig
                    ? Count * Child->NumContig
                    : Count * double(BlockLength) * Child->NumContig;
  return &N;
}

const YNode *YaksaModel::Impl::blockIndexed(std::span<const int64_t> Displs,
                                            int64_t BlockLength,
                                            const YNode *Child, const Type *T) {
  // yaksi_type_create_hindexed_block: displacements from 0, equally
  // spaced, make an hvector.
  bool IsVector = !Displs.empty() && Displs[0] == 0;
  for (size_t I = 2; IsVector && I < Displs.size(); ++I)
    IsVector = Displs[I] - Displs[I - 1] == Displs[1] - Displs[0];
  if (IsVector)
    return hvector(double(Displs.size()), BlockLength, Child, T);
  YNode &N = make(YKind::BlkHindx, T);
  N.Child = Child;
  N.Count = double(Displs.size());
  N.BlockLength = BlockLength;
  N.Depth = Child->Depth + 1;
  N.NumContig = N.IsContig ? 1
                : Child->IsContig
                    ? N.Count * Child->NumContig
                    : N.Count * double(BlockLength) * Child->NumContig;
  return &N;
}

const YNode *YaksaModel::Impl::indexed(std::span<const int64_t> Lengths,
                                       std::span<const int64_t> Displs,
                                       const YNode *Child, const Type *T) {
  // yaksi_type_create_hindexed: equal lengths make a block-indexed type.
  if (std::adjacent_find(Lengths.begin(), Lengths.end(),
                         std::not_equal_to<>()) == Lengths.end() &&
      !Lengths.empty())
    return blockIndexed(Displs, Lengths[0], Child, T);
  YNode &N = make(YKind::HIndexed, T);
  N.Child = Child;
  N.Count = double(Lengths.size());
  N.ListEntries = N.Count;
  N.Depth = Child->Depth + 1;
  std::map<int64_t, double> Histogram;
  double Blocks = 0, Elements = 0;
  for (int64_t L : Lengths) {
    if (L == 0)
      continue;
    Histogram[L] += 1;
    Blocks += 1;
    Elements += double(L);
  }
  N.Lengths.assign(Histogram.begin(), Histogram.end());
  N.NumContig = N.IsContig        ? 1
                : Child->IsContig ? Blocks * Child->NumContig
                                  : Elements * Child->NumContig;
  return &N;
}

const YNode *YaksaModel::Impl::lowerUncached(const Type *T) {
  if (T->size() == 0)
    return &make(YKind::Empty, T);
  switch (T->getKind()) {
  case TypeKind::Predefined: {
    const PredefinedInfo &Info = cast<PredefinedType>(T)->getInfo();
    if (Info.isBasic())
      return builtin(Info.Id);
    if (T->getLayout().Blocks.Count == 1 && Info.Size == Info.Extent) {
      YNode &N = make(YKind::Builtin, T); // MPI_2INT: contiguous, no kernel
      return &N;
    }
    YNode &N = make(YKind::Pair, T);
    for (unsigned I = 0; I < Info.NumComponents; ++I)
      N.Members.push_back({builtin(Info.Components[I].Basic), 1});
    N.NumContig = double(Info.NumComponents);
    return &N;
  }
  case TypeKind::Dup:
    return lower(T->getOldType());
  case TypeKind::Contiguous:
    return contig(double(cast<ContiguousType>(T)->getCount()),
                  lower(T->getOldType()), T);
  case TypeKind::Vector:
  case TypeKind::HVector: {
    auto *V = cast<VectorType>(T);
    return hvector(double(V->getCount()), V->getBlockLength(),
                   lower(T->getOldType()), T);
  }
  case TypeKind::IndexedBlock:
  case TypeKind::HIndexedBlock: {
    auto *B = cast<IndexedBlockType>(T);
    std::vector<int64_t> Displs(B->getDisplacements().begin(),
                                B->getDisplacements().end());
    if (!B->isByteDisplacement())
      for (int64_t &D : Displs)
        D *= T->getOldType()->extent();
    return blockIndexed(Displs, B->getBlockLength(), lower(T->getOldType()), T);
  }
  case TypeKind::Indexed:
  case TypeKind::HIndexed: {
    auto *X = cast<IndexedType>(T);
    std::vector<int64_t> Displs(X->getDisplacements().begin(),
                                X->getDisplacements().end());
    if (!X->isByteDisplacement())
      for (int64_t &D : Displs)
        D *= T->getOldType()->extent();
    return indexed(X->getBlockLengths(), Displs, lower(T->getOldType()), T);
  }
  case TypeKind::Struct: {
    auto *S = cast<StructType>(T);
    std::span<const Type *const> Types = S->getTypes();
    // yaksi_type_create_struct: members of one object make an hindexed.
    if (getMPICHRules().isHIndexedStruct(Types))
      return indexed(S->getBlockLengths(), S->getDisplacements(),
                     lower(Types[0]), T);
    YNode &N = make(YKind::Struct, T);
    N.ListEntries = double(Types.size());
    N.NumContig = 0;
    for (size_t I = 0; I < Types.size(); ++I) {
      int64_t L = S->getBlockLengths()[I];
      const YNode *M = lower(Types[I]);
      N.Depth = std::max(N.Depth, M->Depth + 1);
      if (L == 0 || M->Kind == YKind::Empty)
        continue;
      N.Members.push_back({M, L});
      N.NumContig += M->IsContig ? 1 : double(L) * M->NumContig;
    }
    if (N.IsContig)
      N.NumContig = 1;
    return &N;
  }
  case TypeKind::Resized: {
    const Type *Old = T->getOldType();
    const YNode *Child = lower(Old);
    if (T->lb() == Old->lb() && T->extent() == Old->extent())
      return Child; // yaksi_type_create_resized: the old bounds are a dup
    YNode &N = make(YKind::Resized, T);
    N.Child = Child;
    N.Depth = Child->Depth + 1;
    N.NumContig = Child->NumContig;
    return &N;
  }
  case TypeKind::Subarray:
  case TypeKind::Darray: {
    YNode &N = make(YKind::Subarray, T);
    N.Child = lower(T->getExpansion());
    N.Depth = N.Child->Depth;
    N.NumContig = N.Child->NumContig;
    return &N;
  }
  }
  return &make(YKind::Empty, T);
}

/// The loops of a generated kernel for Per instances (the `i` loop is the
/// count passed in): each level multiplies the entries of the next. The
/// copy loop is the deepest level that loops; its step is the element's
/// size only when it is the kernel's last level (genpup.py: a level above
/// a resize steps by the child's extent, and a contiguous level always by
/// its child's extent, both read at run time).
void YaksaModel::Impl::kernel(const std::vector<const YNode *> &Levels,
                              double Size, EngineWork &Per) {
  size_t Copy = Levels.size();
  for (size_t I = 0; I < Levels.size(); ++I)
    if (Levels[I]->Kind != YKind::Resized)
      Copy = I;
  double Enter = 1; // per instance: the outer i loop runs once
  Per[WorkUnit::LoopIteration] += 1;
  // The copy loop: unrolled (of blocks of Unrolled), a block loop of a
  // node of kind Block, or strided.
  enum { UnrolledCopy, BlockCopy, StridedCopy } Copies = StridedCopy;
  int64_t Unrolled = 1;
  BlockLoop Block = BlockLoop::HVector;
  for (size_t I = 0; I < Levels.size(); ++I) {
    const YNode &L = *Levels[I];
    bool Innermost = I == Copy, Last = I + 1 == Levels.size();
    switch (L.Kind) {
    case YKind::Resized:
      break;
    case YKind::Contig:
      if (Innermost)
        Per[WorkUnit::InnerLoop] += Enter;
      Enter *= L.Count;
      if (!Innermost)
        Per[WorkUnit::LoopIteration] += Enter;
      break;
    case YKind::HVector:
    case YKind::BlkHindx: {
      double J = Enter * L.Count;
      Per[WorkUnit::LoopIteration] += J;
      if (L.Kind == YKind::BlkHindx)
        Per[WorkUnit::IndexLoad] += J;
      Enter = J * double(L.BlockLength);
      // Only the innermost block loop has constant trip counts.
      if (Innermost) {
        Unrolled = L.BlockLength;
        Block =
            L.Kind == YKind::HVector ? BlockLoop::HVector : BlockLoop::BlkHindx;
        Copies = L.BlockLength <= MaxUnrolledBlockLength ? UnrolledCopy
                 : Last                                  ? BlockCopy
                                                         : StridedCopy;
      }
      if (Innermost && L.BlockLength > MaxUnrolledBlockLength)
        Per[WorkUnit::InnerLoop] += J;
      if (!Innermost)
        Per[WorkUnit::LoopIteration] += Enter;
      break;
    }
    case YKind::HIndexed: {
      double J = Enter * L.Count, Elements = 0;
      for (auto [Length, Blocks] : L.Lengths)
        Elements += double(Length) * Blocks;
      Per[WorkUnit::LoopIteration] += J;
      Per[WorkUnit::IndexLoad] += 2 * J; // length and displacement
      if (Innermost) {
        Per[WorkUnit::InnerLoop] += J;
        Block = BlockLoop::HIndexed;
        Copies = Last ? BlockCopy : StridedCopy;
      }
      Enter *= Elements;
      if (!Innermost)
        Per[WorkUnit::LoopIteration] += Enter;
      break;
    }
    default:
      break;
    }
  }
  ElementClass Class = Levels.back()->Child->Class;
  Per[Copies == UnrolledCopy ? unrolledUnit(Class, Unrolled)
      : Copies == BlockCopy  ? blockUnit(Class, Block)
                             : stridedUnit(Class, unsigned(Levels.size()))] +=
      Enter;
  Per[WorkUnit::KernelByte] += Size;
}

/// yaksi_ipack_backend on m instances, as Fixed + m * Per.
void YaksaModel::Impl::affine(const YNode &N) {
  if (N.HaveAffine)
    return;
  N.HaveAffine = true;
  EngineWork &Fixed = N.Fixed, &Per = N.Per;
  if (N.Kind == YKind::Empty)
    return;
  Fixed[WorkUnit::Dispatch] += 1;
  if (N.IsContig) {
    Fixed[WorkUnit::CopyCall] += 1;
    Per[WorkUnit::CopyByte] += N.Size;
    return;
  }
  std::vector<const YNode *> Levels = kernelLevels(&N);
  if (!Levels.empty()) {
    if (N.Size / N.NumContig >= IovThresholdBytes) {
      Per[WorkUnit::CopyCall] += N.NumContig;
      Per[WorkUnit::CopyByte] += N.Size;
    } else {
      kernel(Levels, N.Size, Per);
    }
    return;
  }
  // The interpreter: yaksi_ipack_backend's pack_backend.
  switch (N.Kind) {
  case YKind::Pair:
  case YKind::Struct:
    for (auto [M, L] : N.Members)
      Per += pack(M, double(L));
    break;
  case YKind::HVector:
  case YKind::BlkHindx:
    Per += pack(N.Child, double(N.BlockLength)).scaled(N.Count);
    if (N.Kind == YKind::BlkHindx)
      Per[WorkUnit::IndexLoad] += N.Count;
    break;
  case YKind::HIndexed:
    for (auto [Length, Blocks] : N.Lengths)
      Per += pack(N.Child, double(Length)).scaled(Blocks);
    Per[WorkUnit::IndexLoad] += 2 * N.Count;
    break;
  case YKind::Resized:
    Per += pack(N.Child, 1);
    break;
  case YKind::Contig: // one call for count * m children
    affine(*N.Child);
    Fixed += N.Child->Fixed;
    Per += N.Child->Per.scaled(N.Count);
    break;
  case YKind::Subarray:
    affine(*N.Child);
    Fixed += N.Child->Fixed;
    Per += N.Child->Per;
    break;
  default: // a Builtin without kernel is contiguous, handled above
    break;
  }
}

/// yaksi_ipack_element: one instance packed by descending into it, as for
/// an instance a fragment boundary cuts (yaksi_ipack_element.c). Each
/// block is a yaksi_ipack_backend call of its own; a block larger than a
/// fragment is itself cut into fragments.
const EngineWork &YaksaModel::Impl::element(const YNode *C) {
  const YNode &N = *C;
  if (N.HaveElement)
    return N.Element;
  EngineWork W;
  auto Block = [&](const YNode *Child, double Length) {
    return Child->Size * Length <= Fragment ? pack(Child, Length)
                                            : fragmented(Child, Length);
  };
  // Fragments that start inside this instance: each searches its first
  // block from the start of a list.
  double Cuts = std::ceil(N.Size / Fragment);
  switch (N.Kind) {
  case YKind::Empty:
    break;
  case YKind::Builtin:
  case YKind::Pair:
    W = pack(&N, 1);
    break;
  case YKind::HVector:
  case YKind::BlkHindx:
    W = Block(N.Child, double(N.BlockLength)).scaled(N.Count);
    if (N.Kind == YKind::BlkHindx)
      W[WorkUnit::IndexLoad] += N.Count;
    break;
  case YKind::HIndexed:
    for (auto [Length, Blocks] : N.Lengths)
      W += Block(N.Child, double(Length)).scaled(Blocks);
    W[WorkUnit::IndexLoad] += 2 * N.Count;
    W[WorkUnit::LoopIteration] += Cuts * N.ListEntries / 2;
    break;
  case YKind::Struct:
    for (auto [M, L] : N.Members)
      W += Block(M, double(L));
    W[WorkUnit::LoopIteration] += Cuts * N.ListEntries / 2;
    break;
  case YKind::Contig:
    W = fragmented(N.Child, N.Count);
    break;
  case YKind::Resized:
    W = fragmented(N.Child, 1);
    break;
  case YKind::Subarray:
    W = element(N.Child);
    W[WorkUnit::Dispatch] += 1;
    break;
  }
  N.Element = W;
  N.HaveElement = true;
  return N.Element;
}

/// yaksi_ipack of m instances, called once per fragment of the stream.
EngineWork YaksaModel::Impl::fragmented(const YNode *N, double M) {
  EngineWork W;
  if (N->Kind == YKind::Empty || M == 0)
    return W;
  double Fragments = std::ceil(N->Size * M / Fragment);
  if (N->IsContig) {
    W[WorkUnit::Dispatch] += Fragments;
    W[WorkUnit::CopyCall] += Fragments;
    W[WorkUnit::CopyByte] += N->Size * M;
    return W;
  }
  if (N->Size * 2 <= Fragment) {
    // Whole instances in one backend call per fragment, and the instance
    // cut at each fragment boundary through the descent.
    affine(*N);
    W = N->Per.scaled(M);
    W += N->Fixed.scaled(Fragments);
    W += element(N).scaled(std::min(Fragments - 1, M));
    return W;
  }
  // Instances larger than a fragment: every one goes through the descent.
  return element(N).scaled(M);
}

namespace {

/// The pages of the typed buffer Count instances of T touch: the pages the
/// instances span, but at most one per block plus the pages of the data
/// (a block rarely crosses a page). Every description of a layout touches
/// the same pages, so this dilutes the differences between them where the
/// TLB, not the engine, bounds the time (a column of a large matrix).
double pagesTouched(const Type *T, uint64_t Count) {
  const TypeLayout &L = T->getLayout();
  double N = double(Count);
  double Span =
      (N - 1) * std::fabs(double(L.extent())) + double(L.trueExtent());
  double Spanned = std::ceil(Span / double(PageBytes)) + 1;
  double PerBlock =
      N * double(L.Blocks.Count) + std::ceil(N * double(L.Size) / PageBytes);
  return std::min(Spanned, PerBlock);
}

} // namespace

YaksaModel::YaksaModel(uint64_t FragmentBytes)
    : FragmentBytes(FragmentBytes),
      P(std::make_unique<Impl>(std::max<uint64_t>(FragmentBytes, 1))) {}

YaksaModel::~YaksaModel() = default;

EngineWork YaksaModel::packWork(const Type *T, uint64_t Count) {
  EngineWork W;
  W[WorkUnit::Call] = 1;
  const YNode *N = P->lower(T);
  if (N->Kind == YKind::Empty || Count == 0)
    return W;
  // MPIR_Typerep_pack copies a contiguous type itself; anything else
  // enters Yaksa.
  if (!N->IsContig)
    W[WorkUnit::EngineCall] = 1;
  W[WorkUnit::Page] = pagesTouched(T, Count);
  W += P->pack(N, double(Count));
  return W;
}

EngineWork YaksaModel::fragmentedPackWork(const Type *T, uint64_t Count) {
  EngineWork W;
  W[WorkUnit::Call] = 1;
  const YNode *N = P->lower(T);
  if (N->Kind == YKind::Empty || Count == 0)
    return W;
  // Each fragment is an MPIR_Typerep_pack call of its own.
  if (!N->IsContig)
    W[WorkUnit::EngineCall] =
        std::ceil(N->Size * double(Count) / double(FragmentBytes));
  W[WorkUnit::Page] = pagesTouched(T, Count);
  W += P->fragmented(N, double(Count));
  return W;
}

namespace {

const char *kindName(YKind K) {
  switch (K) {
  case YKind::Empty:
    return "empty";
  case YKind::Builtin:
    return "builtin";
  case YKind::Pair:
    return "pair";
  case YKind::Contig:
    return "contig";
  case YKind::HVector:
    return "hvector";
  case YKind::BlkHindx:
    return "blkhindx";
  case YKind::HIndexed:
    return "hindexed";
  case YKind::Struct:
    return "struct";
  case YKind::Resized:
    return "resized";
  case YKind::Subarray:
    return "subarray";
  }
  return "?";
}

} // namespace

namespace {

/// describePath for a node: the interpreter's steps down to the first
/// kernel or memcpy ("interpreter contig -> kernel resized_contig").
std::string describeNode(const YNode *N) {
  if (N->Kind == YKind::Empty)
    return "nothing to pack";
  if (N->IsContig)
    return "memcpy";
  std::vector<const YNode *> Levels = kernelLevels(N);
  if (!Levels.empty()) {
    if (N->Size / N->NumContig >= IovThresholdBytes)
      return "memcpy per piece (iovec)";
    std::string S = "kernel ";
    for (size_t I = 0; I < Levels.size(); ++I)
      S += std::string(I ? "_" : "") + kindName(Levels[I]->Kind);
    return S;
  }
  std::string S = std::string("interpreter ") + kindName(N->Kind);
  if (N->Kind == YKind::Struct || N->Kind == YKind::Pair)
    return S + " (" + std::to_string(N->Members.size()) + " members)";
  return N->Child ? S + " -> " + describeNode(N->Child) : S;
}

} // namespace

std::string YaksaModel::describePath(const Type *T) {
  return describeNode(P->lower(T));
}

} // namespace ddtc

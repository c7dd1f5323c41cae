//===- lib/Testing/RandomType.cpp - Random datatype generator -------------===//
//
// A recursive generator: a node picks a kind, builds its operands one level
// shallower, then draws arguments until TypeContext accepts them and the
// result is within the size limits. Later attempts draw smaller counts, so
// that a node over big operands still has a chance to fit; when nothing
// fits, the node is replaced by its first operand.
//
// All randomness goes through below(), which draws raw words from the
// engine (std::mt19937_64 is fully specified by the standard), so a seed
// gives the same types with every standard library.
//
//===----------------------------------------------------------------------===//
#include "ddtc/Testing/RandomType.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <vector>

namespace ddtc {

namespace {

constexpr std::array<TypeKind, 12> ConstructorKinds = {
    TypeKind::Contiguous,    TypeKind::Vector,   TypeKind::HVector,
    TypeKind::Indexed,       TypeKind::HIndexed, TypeKind::IndexedBlock,
    TypeKind::HIndexedBlock, TypeKind::Struct,   TypeKind::Resized,
    TypeKind::Subarray,      TypeKind::Darray,   TypeKind::Dup,
};

class Generator {
public:
  Generator(TypeContext &Ctx, std::mt19937_64 &Rng,
            const RandomTypeOptions &Opts)
      : Ctx(Ctx), Rng(Rng), Opts(Opts) {}

  const Type *generate(unsigned DepthLeft, bool Root);

private:
  // --- Random numbers -----------------------------------------------------

  /// Uniform in [0, N) (0 when N <= 1), by rejection.
  uint64_t below(uint64_t N) {
    if (N <= 1)
      return 0;
    uint64_t Limit = UINT64_MAX - (UINT64_MAX % N + 1) % N;
    uint64_t V;
    do
      V = Rng();
    while (V > Limit);
    return V % N;
  }
  /// Uniform in [Lo, Hi].
  int64_t range(int64_t Lo, int64_t Hi) {
    return Lo + static_cast<int64_t>(below(static_cast<uint64_t>(Hi - Lo) + 1));
  }
  bool chance(unsigned Percent) { return below(100) < Percent; }

  /// A count or list length; Shrink halves the upper bound per step. Zero
  /// is rarer than the other values: it compounds over the levels of a
  /// tree, and a zero-size type hides everything below it.
  int64_t count(unsigned Shrink) {
    if (Opts.AllowZero && chance(6))
      return 0;
    int64_t Max = std::max<int64_t>(1, Opts.MaxCount >> Shrink);
    return range(1, Max);
  }
  int64_t blockLength(unsigned Shrink) {
    if (Opts.AllowZero && chance(6))
      return 0;
    int64_t Max = std::max<int64_t>(1, Opts.MaxBlockLength >> Shrink);
    return range(1, Max);
  }
  /// A stride or displacement in units of the oldtype's extent.
  int64_t units() {
    int64_t M = Opts.MaxStride;
    return Opts.AllowNegative ? range(-M, M) : range(0, M);
  }
  /// A few bytes of jitter (0 half of the time).
  int64_t jitter(int64_t M) {
    if (chance(50))
      return 0;
    return Opts.AllowNegative ? range(-M, M) : range(0, M);
  }
  /// A byte stride or displacement: near a multiple of Old's extent, or
  /// anything small when the extent is 0.
  int64_t bytes(const Type *Old) {
    int64_t Ext = Old->extent();
    int64_t V = Ext != 0 ? units() * Ext + jitter(8) : range(-32, 32);
    return Opts.AllowNegative ? V : std::abs(V);
  }

  // --- Nodes --------------------------------------------------------------

  const Type *leaf() {
    return Ctx.getPredefined(static_cast<PredefinedId>(below(NumPredefined)));
  }
  bool fits(const Type *T) const;
  Expected<const Type *> draw(TypeKind K, std::span<const Type *const> Ops,
                              unsigned Shrink);
  Expected<const Type *> drawStruct(std::span<const Type *const> Ops,
                                    unsigned Shrink);
  Expected<const Type *> drawResized(const Type *Old);
  Expected<const Type *> drawSubarray(const Type *Old, unsigned Shrink);
  Expected<const Type *> drawDarray(const Type *Old, unsigned Shrink);

  TypeContext &Ctx;
  std::mt19937_64 &Rng;
  const RandomTypeOptions &Opts;
};

bool Generator::fits(const Type *T) const {
  const TypeLayout &L = T->getLayout();
  int64_t Max = Opts.MaxBytes;
  auto Small = [&](int64_t V) { return V >= -4 * Max && V <= 4 * Max; };
  return L.Size <= Max && L.extent() >= 0 && L.extent() <= Max &&
         L.trueExtent() <= Max && Small(L.Lb) && Small(L.Ub) &&
         Small(L.TrueLb) && Small(L.TrueUb) && L.Elements <= Opts.MaxElements;
}

const Type *Generator::generate(unsigned DepthLeft, bool Root) {
  if (DepthLeft == 0 || (!Root && chance(Opts.LeafPercent)))
    return leaf();

  TypeKind K = ConstructorKinds[below(ConstructorKinds.size())];
  std::vector<const Type *> Ops;
  if (K == TypeKind::Struct) {
    int64_t N = count(0);
    for (int64_t I = 0; I < N; ++I)
      Ops.push_back(generate(DepthLeft - 1, false));
  } else {
    Ops.push_back(generate(DepthLeft - 1, false));
  }

  for (unsigned Attempt = 0; Attempt < Opts.MaxAttempts; ++Attempt) {
    // Every four failed attempts halve the counts.
    Expected<const Type *> T = draw(K, Ops, Attempt / 4);
    if (T && fits(*T))
      return *T;
    // An Error (arguments MPI declares erroneous): draw again.
  }
  return Ops.empty() ? leaf() : Ops[0];
}

Expected<const Type *>
Generator::draw(TypeKind K, std::span<const Type *const> Ops, unsigned Shrink) {
  switch (K) {
  case TypeKind::Contiguous:
    return Ctx.getContiguous(count(Shrink), Ops[0]);
  case TypeKind::Vector: {
    int64_t N = count(Shrink), B = blockLength(Shrink);
    return Ctx.getVector(N, B, units(), Ops[0]);
  }
  case TypeKind::HVector: {
    int64_t N = count(Shrink), B = blockLength(Shrink);
    return Ctx.getHVector(N, B, bytes(Ops[0]), Ops[0]);
  }
  case TypeKind::Indexed:
  case TypeKind::HIndexed: {
    int64_t N = count(Shrink);
    bool AllZero = Opts.AllowZero && chance(5);
    std::vector<int64_t> Lengths, Disps;
    for (int64_t I = 0; I < N; ++I) {
      Lengths.push_back(AllZero ? 0 : blockLength(Shrink));
      Disps.push_back(K == TypeKind::Indexed ? units() : bytes(Ops[0]));
    }
    return K == TypeKind::Indexed ? Ctx.getIndexed(Lengths, Disps, Ops[0])
                                  : Ctx.getHIndexed(Lengths, Disps, Ops[0]);
  }
  case TypeKind::IndexedBlock:
  case TypeKind::HIndexedBlock: {
    int64_t N = count(Shrink), B = blockLength(Shrink);
    std::vector<int64_t> Disps;
    for (int64_t I = 0; I < N; ++I)
      Disps.push_back(K == TypeKind::IndexedBlock ? units() : bytes(Ops[0]));
    return K == TypeKind::IndexedBlock ? Ctx.getIndexedBlock(B, Disps, Ops[0])
                                       : Ctx.getHIndexedBlock(B, Disps, Ops[0]);
  }
  case TypeKind::Struct:
    return drawStruct(Ops, Shrink);
  case TypeKind::Resized:
    return drawResized(Ops[0]);
  case TypeKind::Subarray:
    return drawSubarray(Ops[0], Shrink);
  case TypeKind::Darray:
    return drawDarray(Ops[0], Shrink);
  case TypeKind::Dup:
    return Ctx.getDup(Ops[0]);
  case TypeKind::Predefined:
    break;
  }
  return leaf();
}

Expected<const Type *> Generator::drawStruct(std::span<const Type *const> Ops,
                                             unsigned Shrink) {
  std::vector<int64_t> Lengths, Disps;
  // Half of the structs are laid out like a C struct: members in order,
  // each at the next multiple of its alignment. The others scatter their
  // members around (overlaps and negative displacements included).
  bool Natural = chance(50);
  int64_t Offset = 0;
  for (const Type *Op : Ops) {
    int64_t B = blockLength(Shrink);
    Lengths.push_back(B);
    if (Natural) {
      int64_t A = std::max<int64_t>(1, Op->getLayout().Align);
      Offset = (Offset + A - 1) / A * A;
      Disps.push_back(Offset - Op->lb());
      Offset += B * Op->extent();
    } else {
      Disps.push_back(bytes(Op) +
                      (Opts.AllowNegative ? range(-64, 64) : range(0, 64)));
    }
  }
  return Ctx.getStruct(Lengths, Disps, Ops);
}

Expected<const Type *> Generator::drawResized(const Type *Old) {
  int64_t Lb;
  switch (below(3)) {
  case 0:
    Lb = Old->lb() + jitter(16);
    break;
  case 1:
    Lb = Old->trueLb() - (Opts.AllowNegative ? range(0, 16) : 0);
    break;
  default:
    Lb = Opts.AllowNegative ? range(-64, 64) : range(0, 64);
    break;
  }
  // Never a negative extent (see the header).
  int64_t Extent;
  switch (below(5)) {
  case 0:
    Extent = Old->extent();
    break;
  case 1:
    Extent = Old->extent() + range(0, 16);
    break;
  case 2:
    Extent = Old->trueExtent() + range(0, 32);
    break;
  case 3:
    Extent = range(0, 64);
    break;
  default:
    Extent = std::max<int64_t>(0, Old->extent() - range(0, 16));
    break;
  }
  return Ctx.getResized(Lb, std::max<int64_t>(0, Extent), Old);
}

Expected<const Type *> Generator::drawSubarray(const Type *Old,
                                               unsigned Shrink) {
  int64_t NDims = range(1, 3);
  int64_t MaxSize = std::max<int64_t>(1, 5 >> Shrink);
  std::vector<int64_t> Sizes, Subsizes, Starts;
  for (int64_t I = 0; I < NDims; ++I) {
    int64_t S = range(1, MaxSize);
    int64_t Sub = range(1, S);
    Sizes.push_back(S);
    Subsizes.push_back(Sub);
    Starts.push_back(range(0, S - Sub));
  }
  ArrayOrder Order = chance(50) ? ArrayOrder::C : ArrayOrder::Fortran;
  return Ctx.getSubarray(Sizes, Subsizes, Starts, Order, Old);
}

Expected<const Type *> Generator::drawDarray(const Type *Old, unsigned Shrink) {
  int64_t NDims = range(1, 3);
  int64_t MaxSize = std::max<int64_t>(1, 6 >> Shrink);
  std::vector<int64_t> Gsizes, Distribs, Dargs, Psizes;
  int64_t Procs = 1;
  for (int64_t I = 0; I < NDims; ++I) {
    int64_t G = range(1, MaxSize);
    auto D = static_cast<Distribution>(below(3));
    int64_t P = D == Distribution::None ? 1 : range(1, 3);
    int64_t Darg = DefaultDarg;
    if (chance(50)) {
      if (D == Distribution::Block) {
        // Sometimes one less than needed to cover the array, which MPI
        // declares erroneous: TypeContext refuses it and we draw again.
        int64_t Min = (G + P - 1) / P;
        Darg = range(std::max<int64_t>(1, Min - 1), Min + 2);
      } else if (D == Distribution::Cyclic) {
        Darg = range(1, 3);
      }
    }
    Gsizes.push_back(G);
    Distribs.push_back(static_cast<int64_t>(D));
    Dargs.push_back(Darg);
    Psizes.push_back(P);
    Procs *= P;
  }
  int64_t Rank = range(0, Procs - 1);
  ArrayOrder Order = chance(50) ? ArrayOrder::C : ArrayOrder::Fortran;
  return Ctx.getDarray(Procs, Rank, Gsizes, Distribs, Dargs, Psizes, Order,
                       Old);
}

} // namespace

const Type *randomType(TypeContext &Ctx, std::mt19937_64 &Rng,
                       const RandomTypeOptions &Options) {
  return Generator(Ctx, Rng, Options).generate(Options.MaxDepth, true);
}

} // namespace ddtc

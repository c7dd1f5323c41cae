//===- lib/MPI/TypeDecoder.cpp - MPI handles as ddtc types ----------------===//
//
// MPI_Type_get_contents_c returns a constructor's arguments in four arrays
// (ints, addresses, large counts, datatypes) whose layout the standard
// fixes per combiner, with a second layout for types made by the `_c`
// constructors: there every count, length and displacement is a large
// count, and only enumerations (ndims, order, distributions) stay ints.
// Contents reads both layouts into one list of integers in the order of the
// IR's field table (getKindSpec), so that each combiner is a few lines.
//
// MPI before 4.0 (Open MPI 4.1) has only MPI_Type_get_envelope/contents,
// without the large counts: there every type has the classic layout, and
// getEnvelope/getContents below return no large counts.
//
//===----------------------------------------------------------------------===//
#include "ddtc/MPI/TypeDecoder.h"

#include "ddtc/MPI/MPISupport.h"
#include "ddtc/MPI/PredefinedHandles.h"

#include <cstring>
#include <string>

namespace ddtc {

const char *getCombinerName(int Combiner) {
  switch (Combiner) {
#define DDTC_COMBINER(C)                                                       \
  case C:                                                                      \
    return #C;
    DDTC_COMBINER(MPI_COMBINER_NAMED)
    DDTC_COMBINER(MPI_COMBINER_DUP)
    DDTC_COMBINER(MPI_COMBINER_CONTIGUOUS)
    DDTC_COMBINER(MPI_COMBINER_VECTOR)
    DDTC_COMBINER(MPI_COMBINER_HVECTOR)
    DDTC_COMBINER(MPI_COMBINER_INDEXED)
    DDTC_COMBINER(MPI_COMBINER_HINDEXED)
    DDTC_COMBINER(MPI_COMBINER_INDEXED_BLOCK)
    DDTC_COMBINER(MPI_COMBINER_HINDEXED_BLOCK)
    DDTC_COMBINER(MPI_COMBINER_STRUCT)
    DDTC_COMBINER(MPI_COMBINER_SUBARRAY)
    DDTC_COMBINER(MPI_COMBINER_DARRAY)
    DDTC_COMBINER(MPI_COMBINER_F90_REAL)
    DDTC_COMBINER(MPI_COMBINER_F90_COMPLEX)
    DDTC_COMBINER(MPI_COMBINER_F90_INTEGER)
    DDTC_COMBINER(MPI_COMBINER_RESIZED)
#undef DDTC_COMBINER
  default:
    return "an unknown combiner";
  }
}

namespace {

/// The arguments of one constructor call, as MPI returns them.
struct Contents {
  int Combiner = MPI_COMBINER_NAMED;
  std::vector<int> Ints;
  std::vector<MPI_Aint> Addresses;
  std::vector<MPI_Count> Counts;
  std::vector<MPI_Datatype> Types;

  /// Made by a `_c` constructor: counts and displacements are in Counts.
  bool isLarge() const { return !Counts.empty(); }
};

// The envelope and contents calls of the family in use (MPISupport.h), with
// the large-count signature: Sizes holds the numbers of ints, addresses,
// large counts and datatypes. Without MPI 4 there are no large counts.
#if DDTC_MPI_LARGE_COUNT
int getEnvelope(MPI_Datatype H, MPI_Count (&Sizes)[4], int &Combiner) {
  return PMPI_Type_get_envelope_c(H, &Sizes[0], &Sizes[1], &Sizes[2], &Sizes[3],
                                  &Combiner);
}

int getContents(MPI_Datatype H, const MPI_Count (&Sizes)[4], int *Ints,
                MPI_Aint *Addresses, MPI_Count *Counts, MPI_Datatype *Types) {
  return PMPI_Type_get_contents_c(H, Sizes[0], Sizes[1], Sizes[2], Sizes[3],
                                  Ints, Addresses, Counts, Types);
}
#else
int getEnvelope(MPI_Datatype H, MPI_Count (&Sizes)[4], int &Combiner) {
  int NumInts = 0, NumAddrs = 0, NumTypes = 0;
  int Rc = PMPI_Type_get_envelope(H, &NumInts, &NumAddrs, &NumTypes, &Combiner);
  Sizes[0] = NumInts;
  Sizes[1] = NumAddrs;
  Sizes[2] = 0;
  Sizes[3] = NumTypes;
  return Rc;
}

int getContents(MPI_Datatype H, const MPI_Count (&Sizes)[4], int *Ints,
                MPI_Aint *Addresses, MPI_Count *, MPI_Datatype *Types) {
  // The sizes come from getEnvelope's ints.
  return PMPI_Type_get_contents(
      H, static_cast<int>(Sizes[0]), static_cast<int>(Sizes[1]),
      static_cast<int>(Sizes[3]), Ints, Addresses, Types);
}
#endif

} // namespace

namespace {

std::string nameOf(MPI_Datatype H) {
  char Buf[MPI_MAX_OBJECT_NAME + 1] = {};
  int Len = 0;
  if (PMPI_Type_get_name(H, Buf, &Len) != MPI_SUCCESS || Len <= 0)
    return "";
  return std::string(Buf, static_cast<size_t>(Len));
}

} // namespace

bool isDerivedType(MPI_Datatype H) {
  MPI_Count Sizes[4];
  int Combiner;
  return getEnvelope(H, Sizes, Combiner) == MPI_SUCCESS &&
         Combiner != MPI_COMBINER_NAMED;
}

namespace {

/// Whether the handles of derived operands that MPI_Type_get_contents
/// returns are references of their own, which the caller frees (MPI-4
/// §5.1.13). Open MPI 4 returns the operands without taking a reference:
/// freeing them releases the reference the decoded type holds, its
/// operand is destroyed while still in use, and the next type created
/// gets its handle (a dup of a freed vector, read and freed three times,
/// leaves a dangling operand).
#if defined(OPEN_MPI) && OMPI_MAJOR_VERSION < 5
constexpr bool ContentsAreReferences = false;
#else
constexpr bool ContentsAreReferences = true;
#endif

/// Frees the handles of derived operands that MPI_Type_get_contents
/// returned, where they are new references to the operands.
class OperandReferences {
public:
  explicit OperandReferences(std::vector<MPI_Datatype> &Types) : Types(Types) {}
  OperandReferences(const OperandReferences &) = delete;
  OperandReferences &operator=(const OperandReferences &) = delete;
  ~OperandReferences() {
    if (ContentsAreReferences)
      for (MPI_Datatype &T : Types)
        if (isDerivedType(T))
          PMPI_Type_free(&T);
  }

private:
  std::vector<MPI_Datatype> &Types;
};

Error mpiError(const char *Call, int Code) {
  return makeError(std::string(Call) + ": " + mpiErrorString(Code));
}

Expected<Contents> readContents(MPI_Datatype H) {
  MPI_Count Sizes[4];
  Contents C;
  if (int Rc = getEnvelope(H, Sizes, C.Combiner))
    return mpiError(DDTC_MPI_COUNT_NAME(MPI_Type_get_envelope), Rc);
  if (C.Combiner == MPI_COMBINER_NAMED)
    return C;
  // The longest contents are a struct's (a count, and three arrays of
  // count elements) and a darray's (four arrays of ndims and four ints);
  // arrays longer than the IR admits are refused before they are allocated.
  for (MPI_Count N : Sizes)
    if (N < 0 || static_cast<uint64_t>(N) > 4 * MaxListLength + 4)
      return makeError(std::string(getCombinerName(C.Combiner)) + ": " +
                       DDTC_MPI_COUNT_NAME(MPI_Type_get_envelope) +
                       " returned an array of " + std::to_string(N) +
                       " arguments; ddtc reads lists of at most " +
                       std::to_string(MaxListLength) + " elements");
  C.Ints.resize(static_cast<size_t>(Sizes[0]));
  C.Addresses.resize(static_cast<size_t>(Sizes[1]));
  C.Counts.resize(static_cast<size_t>(Sizes[2]));
  std::vector<MPI_Datatype> Types(static_cast<size_t>(Sizes[3]));
  if (int Rc = getContents(H, Sizes, C.Ints.data(), C.Addresses.data(),
                           C.Counts.data(), Types.data()))
    return mpiError(DDTC_MPI_COUNT_NAME(MPI_Type_get_contents), Rc);
  C.Types = std::move(Types);
  return C;
}

/// Reads arguments off the front of the arrays of a Contents, in the order
/// the standard lists them for the combiner.
class ArgReader {
public:
  explicit ArgReader(const Contents &C) : C(C) {}

  /// An int argument (counts in the classic layout, enumerations always).
  int64_t nextInt() { return At(C.Ints, NextInt); }
  /// A count or length: an int, or a large count for `_c` types.
  int64_t nextCount() {
    return C.isLarge() ? At(C.Counts, NextCount) : At(C.Ints, NextInt);
  }
  /// A byte displacement: an address, or a large count for `_c` types.
  int64_t nextAddress() {
    return C.isLarge() ? At(C.Counts, NextCount) : At(C.Addresses, NextAddr);
  }
  std::vector<int64_t> counts(int64_t N) {
    std::vector<int64_t> V;
    for (int64_t I = 0; I < N && Ok; ++I)
      V.push_back(nextCount());
    return V;
  }
  std::vector<int64_t> addresses(int64_t N) {
    std::vector<int64_t> V;
    for (int64_t I = 0; I < N && Ok; ++I)
      V.push_back(nextAddress());
    return V;
  }
  std::vector<int64_t> ints(int64_t N) {
    std::vector<int64_t> V;
    for (int64_t I = 0; I < N && Ok; ++I)
      V.push_back(nextInt());
    return V;
  }
  /// False if an array was shorter than the combiner needs.
  bool ok() const { return Ok; }

private:
  template <typename T> int64_t At(const std::vector<T> &V, size_t &Next) {
    if (Next >= V.size()) {
      Ok = false;
      return 0;
    }
    return static_cast<int64_t>(V[Next++]);
  }

  const Contents &C;
  size_t NextInt = 0, NextAddr = 0, NextCount = 0;
  bool Ok = true;
};

std::optional<ArrayOrder> decodeOrder(int64_t O) {
  if (O == MPI_ORDER_C)
    return ArrayOrder::C;
  if (O == MPI_ORDER_FORTRAN)
    return ArrayOrder::Fortran;
  return std::nullopt;
}

std::optional<int64_t> decodeDistrib(int64_t D) {
  if (D == MPI_DISTRIBUTE_BLOCK)
    return static_cast<int64_t>(Distribution::Block);
  if (D == MPI_DISTRIBUTE_CYCLIC)
    return static_cast<int64_t>(Distribution::Cyclic);
  if (D == MPI_DISTRIBUTE_NONE)
    return static_cast<int64_t>(Distribution::None);
  return std::nullopt;
}

std::string typeName(MPI_Datatype H) {
  char Name[MPI_MAX_OBJECT_NAME] = {};
  int Len = 0;
  if (PMPI_Type_get_name(H, Name, &Len) != MPI_SUCCESS || Len == 0)
    return "a predefined type";
  return std::string(Name, static_cast<size_t>(Len));
}

/// The node for one combiner, its integer arguments read from A. Ops holds
/// at least one type for every combiner but struct.
Expected<const Type *> buildNode(TypeContext &Ctx, int Combiner, ArgReader &A,
                                 const std::vector<const Type *> &Ops) {
  switch (Combiner) {
  case MPI_COMBINER_DUP:
    return Ctx.getDup(Ops[0]);
  case MPI_COMBINER_CONTIGUOUS: {
    int64_t Count = A.nextCount();
    return Ctx.getContiguous(Count, Ops[0]);
  }
  case MPI_COMBINER_VECTOR:
  case MPI_COMBINER_HVECTOR: {
    int64_t Count = A.nextCount(), BlockLength = A.nextCount();
    if (Combiner == MPI_COMBINER_VECTOR)
      return Ctx.getVector(Count, BlockLength, A.nextCount(), Ops[0]);
    return Ctx.getHVector(Count, BlockLength, A.nextAddress(), Ops[0]);
  }
  case MPI_COMBINER_INDEXED:
  case MPI_COMBINER_HINDEXED: {
    int64_t N = A.nextCount();
    std::vector<int64_t> Lengths = A.counts(N);
    if (Combiner == MPI_COMBINER_INDEXED)
      return Ctx.getIndexed(Lengths, A.counts(N), Ops[0]);
    return Ctx.getHIndexed(Lengths, A.addresses(N), Ops[0]);
  }
  case MPI_COMBINER_INDEXED_BLOCK:
  case MPI_COMBINER_HINDEXED_BLOCK: {
    int64_t N = A.nextCount(), BlockLength = A.nextCount();
    if (Combiner == MPI_COMBINER_INDEXED_BLOCK)
      return Ctx.getIndexedBlock(BlockLength, A.counts(N), Ops[0]);
    return Ctx.getHIndexedBlock(BlockLength, A.addresses(N), Ops[0]);
  }
  case MPI_COMBINER_STRUCT: {
    int64_t N = A.nextCount();
    std::vector<int64_t> Lengths = A.counts(N);
    std::vector<int64_t> Disps = A.addresses(N);
    if (static_cast<int64_t>(Ops.size()) != N)
      return makeError("the number of types is not the count");
    return Ctx.getStruct(Lengths, Disps, Ops);
  }
  case MPI_COMBINER_RESIZED: {
    int64_t Lb = A.nextAddress();
    return Ctx.getResized(Lb, A.nextAddress(), Ops[0]);
  }
  case MPI_COMBINER_SUBARRAY: {
    // Classic: ndims, sizes, subsizes, starts, order (all ints). Large:
    // ndims and order are ints, the three lists large counts.
    int64_t NDims = A.nextInt();
    std::vector<int64_t> Sizes = A.counts(NDims);
    std::vector<int64_t> Subsizes = A.counts(NDims);
    std::vector<int64_t> Starts = A.counts(NDims);
    std::optional<ArrayOrder> Order = decodeOrder(A.nextInt());
    if (!Order)
      return makeError("unknown order");
    return Ctx.getSubarray(Sizes, Subsizes, Starts, *Order, Ops[0]);
  }
  case MPI_COMBINER_DARRAY: {
    // Classic: size, rank, ndims, gsizes, distribs, dargs, psizes, order.
    // Large: the same ints without gsizes, which are the large counts.
    int64_t Size = A.nextInt(), Rank = A.nextInt(), NDims = A.nextInt();
    std::vector<int64_t> Gsizes = A.counts(NDims);
    std::vector<int64_t> Distribs = A.ints(NDims);
    std::vector<int64_t> Dargs = A.ints(NDims);
    std::vector<int64_t> Psizes = A.ints(NDims);
    std::optional<ArrayOrder> Order = decodeOrder(A.nextInt());
    for (int64_t &D : Distribs) {
      std::optional<int64_t> X = decodeDistrib(D);
      if (!X)
        return makeError("unknown distribution");
      D = *X;
    }
    for (int64_t &D : Dargs)
      if (D == MPI_DISTRIBUTE_DFLT_DARG)
        D = DefaultDarg;
    if (!Order)
      return makeError("unknown order");
    return Ctx.getDarray(Size, Rank, Gsizes, Distribs, Dargs, Psizes, *Order,
                         Ops[0]);
  }
  default:
    return makeError("has no ddtc kind");
  }
}

} // namespace

std::string getTypeName(MPI_Datatype H) {
  std::string Name = nameOf(H);
#ifdef OPEN_MPI
  // Open MPI names the types MPI_Type_dup and MPI_Type_create_resized make
  // "Dup " and the name of what they copied (for a resized type, an inner
  // dup of its operand, itself named "Dup "): such a name is the library's.
  if (Name.starts_with("Dup ")) {
    MPI_Count Sizes[4];
    int Combiner = MPI_COMBINER_NAMED;
    if (getEnvelope(H, Sizes, Combiner) == MPI_SUCCESS &&
        (Combiner == MPI_COMBINER_DUP || Combiner == MPI_COMBINER_RESIZED))
      return "";
  }
#endif
  return Name;
}

Expected<const Type *> TypeDecoder::decode(MPI_Datatype H) {
  if (auto It = Cache.find(H); It != Cache.end())
    return It->second;
  LayoutFailed = false;
  CallState Call;
  Expected<const Type *> T = decodeAt(H, 0, Call);
  if (T)
    Cache[H] = *T;
  return T;
}

Expected<const Type *> TypeDecoder::decodeAt(MPI_Datatype H, unsigned Depth,
                                             CallState &Call) {
  if (std::optional<PredefinedId> Id = lookupPredefinedHandle(Predefined, H))
    return checked(H, Ctx.getPredefined(*Id));
  if (auto It = Cache.find(H); It != Cache.end())
    return It->second;
  if (auto It = Call.Done.find(H); It != Call.Done.end())
    return It->second;
  if (Depth > MaxTypeDepth)
    return makeError("types nested more than " + std::to_string(MaxTypeDepth) +
                     " levels deep");
  if (!Call.Open.insert(H).second)
    return makeError("a type is among its own operands");
  Expected<const Type *> T = decodeDerived(H, Depth, Call);
  Call.Open.erase(H);
  if (T)
    T = checked(H, *T);
  if (T)
    Call.Done[H] = *T;
  return T;
}

Expected<const Type *> TypeDecoder::checked(MPI_Datatype H,
                                            const Type *T) const {
  if (!CheckLayout)
    return T;
  MPI_Count Size = 0, Lb = 0, Extent = 0, TrueLb = 0, TrueExtent = 0;
  if (DDTC_MPI_QUERY_FN(PMPI_Type_size)(H, &Size) != MPI_SUCCESS ||
      DDTC_MPI_QUERY_FN(PMPI_Type_get_extent)(H, &Lb, &Extent) !=
          MPI_SUCCESS ||
      DDTC_MPI_QUERY_FN(PMPI_Type_get_true_extent)(H, &TrueLb, &TrueExtent) !=
          MPI_SUCCESS)
    return makeError("the MPI library does not give the bounds of " +
                     typeName(H));
  // An empty type's true bounds are the library's choice; nothing is
  // moved by them.
  bool Empty = T->size() == 0;
  if (Size == MPI_Count(T->size()) && Lb == T->lb() && Extent == T->extent() &&
      (Empty || (TrueLb == T->trueLb() && TrueExtent == T->trueExtent())))
    return T;
  auto Bounds = [](int64_t Size, int64_t Lb, int64_t Extent, int64_t TrueLb,
                   int64_t TrueExtent) {
    return "size " + std::to_string(Size) + ", lb " + std::to_string(Lb) +
           ", extent " + std::to_string(Extent) + ", true lb " +
           std::to_string(TrueLb) + ", true extent " +
           std::to_string(TrueExtent);
  };
  LayoutFailed = true;
  std::string What = getTypeName(H);
  MPI_Count Sizes[4];
  int Combiner = MPI_COMBINER_NAMED;
  if (What.empty() && getEnvelope(H, Sizes, Combiner) == MPI_SUCCESS)
    What = Combiner == MPI_COMBINER_NAMED
               ? "a predefined type"
               : std::string("a type of ") + getCombinerName(Combiner);
  return makeError("the MPI library lays out " + What + " as " +
                   Bounds(Size, Lb, Extent, TrueLb, TrueExtent) + ", ddtc's " +
                   std::string(Ctx.getRules().getEngineName()) +
                   " rules as " +
                   Bounds(int64_t(T->size()), T->lb(), T->extent(),
                          T->trueLb(), T->trueExtent()));
}

namespace {

template <typename T>
void appendWords(std::vector<uint64_t> &Out, const std::vector<T> &V) {
  static_assert(sizeof(T) <= sizeof(uint64_t));
  Out.push_back(V.size());
  for (const T &X : V) {
    uint64_t W = 0;
    std::memcpy(&W, &X, sizeof X);
    Out.push_back(W);
  }
}

bool appendWordsAt(MPI_Datatype H, unsigned Depth, std::vector<uint64_t> &Out) {
  if (Depth > MaxTypeDepth)
    return false;
  Expected<Contents> C = readContents(H);
  if (!C) {
    (void)C.takeError();
    return false;
  }
  Out.push_back(static_cast<uint64_t>(static_cast<int64_t>(C->Combiner)));
  if (C->Combiner == MPI_COMBINER_NAMED) {
    // Predefined handles are fixed for the process.
    appendWords(Out, std::vector<MPI_Datatype>{H});
    return true;
  }
  OperandReferences Release(C->Types);
  appendWords(Out, C->Ints);
  appendWords(Out, C->Addresses);
  appendWords(Out, C->Counts);
  Out.push_back(C->Types.size());
  for (MPI_Datatype Op : C->Types)
    if (!appendWordsAt(Op, Depth + 1, Out))
      return false;
  return true;
}

} // namespace

bool appendConstructorWords(MPI_Datatype H, std::vector<uint64_t> &Out) {
  return appendWordsAt(H, 0, Out);
}

Expected<const Type *>
TypeDecoder::decodeDerived(MPI_Datatype H, unsigned Depth, CallState &Call) {
  Expected<Contents> C = readContents(H);
  if (!C)
    return C.takeError();
  int Combiner = C->Combiner;
  if (Combiner == MPI_COMBINER_NAMED)
    return makeError("predefined type " + typeName(H) +
                     " is not one ddtc models");
  OperandReferences Release(C->Types);
  switch (Combiner) {
  case MPI_COMBINER_F90_REAL:
  case MPI_COMBINER_F90_COMPLEX:
  case MPI_COMBINER_F90_INTEGER:
    // Their contents are (precision, range), not a type to decode.
    return makeError(std::string(getCombinerName(Combiner)) +
                     " has no ddtc kind");
  default:
    break;
  }

  std::vector<const Type *> Ops;
  for (MPI_Datatype Op : C->Types) {
    Expected<const Type *> T = decodeAt(Op, Depth + 1, Call);
    if (!T)
      return T;
    Ops.push_back(*T);
  }
  auto Truncated = [&] {
    return makeError(std::string(getCombinerName(Combiner)) +
                     ": MPI_Type_get_contents returned fewer arguments than "
                     "the combiner has");
  };
  if (Ops.empty() && Combiner != MPI_COMBINER_STRUCT)
    return Truncated();

  ArgReader A(*C);
  Expected<const Type *> T = buildNode(Ctx, Combiner, A, Ops);
  if (!A.ok())
    return Truncated();
  if (!T)
    return makeError(std::string(getCombinerName(Combiner)) + ": " +
                     T.takeError().message());
  return T;
}

} // namespace ddtc

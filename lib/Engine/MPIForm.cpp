//===- lib/Engine/MPIForm.cpp - The description to hand an MPI library ----===//
#include "ddtc/Engine/MPIForm.h"

#include "ddtc/IR/TypeContext.h"
#include "ddtc/Passes/Normalizer.h"
#include "ddtc/Support/Casting.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <unordered_map>

namespace ddtc {

namespace {

/// Messages of about this size stand for "a large message".
constexpr uint64_t LargeMessageBytes = 1 << 20;

std::vector<uint64_t> defaultCounts(const Type *T) {
  std::vector<uint64_t> Counts{1};
  if (T->size() > 0 && uint64_t(T->size()) < LargeMessageBytes)
    Counts.push_back(LargeMessageBytes / uint64_t(T->size()));
  return Counts;
}

} // namespace

namespace {

/// Form, a vector (resized or not), cut into pieces of PieceBlocks blocks
/// under a contiguous: resized(contiguous(C / p, resized(hvector(p, ...),
/// lb, p * stride)), Form's bounds) -- the same typemap and bounds. A send
/// packs a type fragment by fragment, and Yaksa cuts an instance larger
/// than a fragment block by block, one call each (YaksaModel.h); in
/// pieces, whole pieces go to one kernel call and only the piece a
/// fragment boundary cuts is packed block by block. The model picks the
/// piece size, or none.
void addPieces(TypeContext &Ctx, const Type *Form,
               std::vector<FormCandidate> &Out) {
  const Type *Top = Form;
  if (isa<ResizedType>(Form))
    Top = Form->getOldType();
  auto *V = dyn_cast<VectorType>(Top);
  if (!V || V->getByteStride() <= 0 || V->getCount() < 4)
    return;
  int64_t Count = V->getCount(), Stride = V->getByteStride();
  for (int64_t Blocks : {8, 16, 32, 64, 128, 256}) {
    if (Blocks >= Count || Count % Blocks)
      continue;
    Expected<const Type *> Piece =
        Ctx.getHVector(Blocks, V->getBlockLength(), Stride, V->getOldType());
    if (!Piece)
      return;
    Expected<const Type *> Unit =
        Ctx.getResized((*Piece)->lb(), Blocks * Stride, *Piece);
    if (!Unit)
      return;
    Expected<const Type *> All = Ctx.getContiguous(Count / Blocks, *Unit);
    if (!All)
      return;
    Expected<const Type *> Whole =
        Ctx.getResized(Form->lb(), Form->extent(), *All);
    if (!Whole)
      return;
    const Type *W = *Whole;
    if (W->size() != Form->size() || W->trueLb() != Form->trueLb() ||
        W->trueExtent() != Form->trueExtent())
      return; // cannot happen for a positive stride; never hand MPI a guess
    Out.push_back({W, "pieces"});
  }
}

/// T's bounds and data, as MPI sees them, equal Want's.
bool sameBounds(const Type *T, const Type *Want) {
  return T->hasSameBounds(Want) && T->size() == Want->size() &&
         T->trueLb() == Want->trueLb() && T->trueExtent() == Want->trueExtent();
}

/// S, a struct built to hold Want's data, with Want's bounds: S itself, or
/// resized where struct padding (or Want's own resize) moved them; null if
/// even then they differ -- never hand MPI a guess.
const Type *withBoundsOf(TypeContext &Ctx, const Type *S, const Type *Want) {
  if (sameBounds(S, Want))
    return S;
  Expected<const Type *> R = Ctx.getResized(Want->lb(), Want->extent(), S);
  return R && sameBounds(*R, Want) ? *R : nullptr;
}

/// The most struct members a list-pieces candidate may have: its
/// description grows with them, and so does MPICH's dispatch per member.
constexpr size_t MaxListPieces = 4096;

bool isIndexList(const Type *T) {
  return isa<IndexedType>(T) || isa<IndexedBlockType>(T);
}

/// The entries [Lo, Hi) of the index list L, as a list of L's kind over
/// L's oldtype at the same displacements: L's scalars (a blocklength),
/// then the slice of each of its lists.
const Type *listSlice(TypeContext &Ctx, const Type *L, size_t Lo, size_t Hi) {
  const KindSpec &Spec = getKindSpec(L->getKind());
  std::vector<int64_t> Ints(L->getInts().begin(),
                            L->getInts().begin() + Spec.NumScalars);
  for (unsigned I = 0; I < Spec.NumLists; ++I) {
    std::span<const int64_t> Part = L->getList(I).subspan(Lo, Hi - Lo);
    Ints.insert(Ints.end(), Part.begin(), Part.end());
  }
  Expected<const Type *> R =
      Ctx.get(L->getKind(), std::move(Ints), {L->getOldType()});
  return R ? *R : nullptr;
}

/// Form's long index lists -- Form itself, under its resized, or a
/// top-level struct's members of block length 1 -- cut into struct members
/// of Entries consecutive entries each, in order (the typemap's order is
/// kept), with Form's bounds. A send packs fragment by fragment, and Yaksa
/// packs the instance a fragment boundary cuts by descending into it block
/// by block (YaksaModel.h): a count-1 struct of two 2,000-entry lists is
/// sent block by block nearly whole, the same lists in pieces of 32
/// entries one kernel call per piece (3.4-4.3x faster sends of
/// LAMMPS_full, docs/mpi-forms.md). MPI_Pack pays a dispatch per member
/// instead, so the model takes it only where the program does not pack
/// (MPIFormOptions::SendsOnly), or where it pays anyway.
void addListPieces(TypeContext &Ctx, const Type *Form,
                   std::vector<FormCandidate> &Out) {
  const Type *Top = isa<ResizedType>(Form) ? Form->getOldType() : Form;
  std::vector<int64_t> Lengths, Displs;
  std::vector<const Type *> Members;
  if (auto *S = dyn_cast<StructType>(Top)) {
    Lengths.assign(S->getBlockLengths().begin(), S->getBlockLengths().end());
    Displs.assign(S->getDisplacements().begin(), S->getDisplacements().end());
    Members.assign(S->getTypes().begin(), S->getTypes().end());
  } else {
    Lengths = {1};
    Displs = {0};
    Members = {Top};
  }
  for (size_t Entries : {32, 128, 512}) {
    std::vector<int64_t> PieceLengths, PieceDispls;
    std::vector<const Type *> Pieces;
    bool Cut = false;
    for (size_t I = 0; I < Members.size(); ++I) {
      size_t N = Lengths[I] == 1 && isIndexList(Members[I])
                     ? Members[I]->getListLength()
                     : 0;
      if (N < 2 * Entries) {
        PieceLengths.push_back(Lengths[I]);
        PieceDispls.push_back(Displs[I]);
        Pieces.push_back(Members[I]);
        continue;
      }
      Cut = true;
      for (size_t Lo = 0; Lo < N; Lo += Entries) {
        const Type *P = listSlice(Ctx, Members[I], Lo, std::min(N, Lo + Entries));
        if (!P || Pieces.size() == MaxListPieces)
          return;
        PieceLengths.push_back(1);
        PieceDispls.push_back(Displs[I]);
        Pieces.push_back(P);
      }
    }
    if (!Cut)
      return; // no list is long enough for these pieces, nor for longer ones
    Expected<const Type *> S = Ctx.getStruct(PieceLengths, PieceDispls, Pieces);
    const Type *W = S ? withBoundsOf(Ctx, *S, Form) : nullptr;
    if (!W)
      return;
    Out.push_back({W, "list-pieces"});
  }
}

/// Index lists with more members than this are not rewritten: MPICH's
/// interpreter pays a dispatch per struct member, so long lists of short
/// blocks never gain, and the candidate's description grows with the list.
constexpr size_t MaxMembers = 1024;

/// An index list of blocks of several lengths over a dense element, as a
/// struct of one contiguous member per block: struct(1, ..., byte
/// displacements, contiguous(length, element)). Yaksa runs an hindexed
/// list through a kernel that copies element by element, and a struct
/// through its interpreter, which copies a contiguous member with one
/// memcpy: MPICH 4.0.2 packs seed 000's Bucket layout 3x (A = 100) to 8x
/// (A = 1000) faster so (docs/mpi-forms.md). Lists of one block length
/// are left alone: a struct of one member type is an hindexed to Yaksa
/// again. Null where the list does not qualify.
const Type *listAsMembers(TypeContext &Ctx, const IndexedType *X) {
  const Type *Old = X->getOldType();
  const TypeLayout &L = Old->getLayout();
  if (Old->size() == 0 || Old->size() != Old->extent() || L.Blocks.Count != 1)
    return nullptr;
  std::span<const int64_t> Lengths = X->getBlockLengths();
  std::vector<int64_t> Ones, Displs;
  std::vector<const Type *> Members;
  for (size_t I = 0; I < Lengths.size(); ++I) {
    if (Lengths[I] == 0)
      continue;
    if (Members.size() == MaxMembers)
      return nullptr;
    Expected<const Type *> M = Ctx.getContiguous(Lengths[I], Old);
    if (!M)
      return nullptr;
    int64_t D = X->getDisplacements()[I];
    Members.push_back(*M);
    Displs.push_back(X->isByteDisplacement() ? D : D * Old->extent());
    Ones.push_back(1);
  }
  bool OneLength =
      std::all_of(Members.begin(), Members.end(),
                  [&](const Type *M) { return M == Members.front(); });
  if (Members.size() < 2 || OneLength)
    return nullptr;
  Expected<const Type *> S = Ctx.getStruct(Ones, Displs, Members);
  return S ? withBoundsOf(Ctx, *S, X) : nullptr;
}

/// T with every qualifying index list rewritten by listAsMembers. Done
/// once per node: trees share subtrees (a chain of 50 structs of two
/// copies of the one before is 50 nodes and 2^50 paths).
const Type *
listsAsMembers(TypeContext &Ctx, const Type *T,
               std::unordered_map<const Type *, const Type *> &Done) {
  auto [It, New] = Done.try_emplace(T, T);
  if (!New)
    return It->second;
  const Type *R = nullptr;
  if (auto *X = dyn_cast<IndexedType>(T))
    R = listAsMembers(Ctx, X);
  if (!R)
    R = Ctx.mapOperands(T, [&](const Type *Op) {
      return listsAsMembers(Ctx, Op, Done);
    });
  Done[T] = R;
  return R;
}

} // namespace

std::vector<FormCandidate> getFormCandidates(TypeContext &Ctx, Normalizer &N,
                                             const Type *Given) {
  std::vector<FormCandidate> Out;
  auto Add = [&](const Type *T, const char *Origin) {
    if (T == Given)
      return;
    for (const FormCandidate &C : Out)
      if (C.T == T)
        return;
    Out.push_back({T, Origin});
  };
  Add(N.canonicalize(Given), "canonical");
  const Type *Normal = N.normalize(Given);
  Add(Normal, "normal");
  std::vector<FormCandidate> Pieces;
  addPieces(Ctx, Normal, Pieces);
  for (const Type *From : {Given, Normal})
    addListPieces(Ctx, From, Pieces);
  for (const FormCandidate &C : Pieces)
    Add(C.T, C.Origin);
  std::unordered_map<const Type *, const Type *> Done;
  for (const Type *From : {Given, Normal}) {
    const Type *M = listsAsMembers(Ctx, From, Done);
    if (M != From && sameBounds(M, Given))
      Add(M, "members");
  }
  return Out;
}

MPIForm chooseMPIForm(const Type *Given,
                      const std::vector<FormCandidate> &Candidates,
                      YaksaModel &Model, const EngineCosts &Costs,
                      const MPIFormOptions &Options) {
  std::vector<uint64_t> Counts =
      Options.Counts.empty() ? defaultCounts(Given) : Options.Counts;
  size_t Last = Counts.size() - 1;

  struct Times {
    std::vector<double> Pack, Send;
  };
  auto Estimate = [&](const Type *T) {
    Times R;
    for (uint64_t N : Counts) {
      R.Pack.push_back(Costs.estimateNs(Model.packWork(T, N)));
      R.Send.push_back(Costs.estimateNs(Model.fragmentedPackWork(T, N)));
    }
    return R;
  };
  auto Ratio = [](double Given_, double Form) {
    return Form > 0 ? Given_ / Form : (Given_ > 0 ? INFINITY : 1.0);
  };
  Times G = Estimate(Given);

  MPIForm Best;
  Best.Chosen = {Given, "given"};
  Best.Count = Counts[Last];
  Best.SendsOnly = Options.SendsOnly;
  Best.GivenPackNs = Best.FormPackNs = G.Pack[Last];
  Best.GivenSendNs = Best.FormSendNs = G.Send[Last];
  for (const FormCandidate &C : Candidates) {
    Times F = Estimate(C.T);
    double Worst = INFINITY;
    for (size_t I = 0; I < Counts.size(); ++I) {
      Worst = std::min(Worst, Ratio(G.Send[I], F.Send[I]));
      if (!Options.SendsOnly)
        Worst = std::min(Worst, Ratio(G.Pack[I], F.Pack[I]));
    }
    double PackGain = Ratio(G.Pack[Last], F.Pack[Last]);
    double SendGain = Ratio(G.Send[Last], F.Send[Last]);
    double Gain = Options.SendsOnly ? SendGain : PackGain;
    if (Worst < Options.MinWorstRatio || Gain < 1 + Options.MinGain ||
        Gain <= Best.gain())
      continue;
    Best.Chosen = C;
    Best.FormPackNs = F.Pack[Last];
    Best.FormSendNs = F.Send[Last];
    Best.WorstGain = Worst;
    Best.PackGain = PackGain;
    Best.SendGain = SendGain;
  }
  return Best;
}

std::string describeMPIForm(const MPIForm &F, const std::string &Engine) {
  char Gain[64];
  std::snprintf(Gain, sizeof Gain, "%.2fx", F.gain());
  const char *Uses = F.SendsOnly ? " (its uses: point-to-point only)" : "";
  if (F.isGiven())
    return "MPI-facing form for " + Engine +
           ": the type as given (no candidate is modelled at least 1.3x "
           "faster and nowhere slower)" + Uses;
  return "MPI-facing form for " + Engine + ": the " + F.Chosen.Origin +
         " form, " + (F.SendsOnly ? "sends" : "MPI_Pack") + " modelled " +
         Gain + " faster than the type as given" + Uses;
}

} // namespace ddtc

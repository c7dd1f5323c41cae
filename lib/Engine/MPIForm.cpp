//===- lib/Engine/MPIForm.cpp - The description to hand an MPI library ----===//
#include "ddtc/Engine/MPIForm.h"

#include "ddtc/IR/TypeContext.h"
#include "ddtc/Passes/Normalizer.h"
#include "ddtc/Support/Casting.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

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
  for (const FormCandidate &C : Pieces)
    Add(C.T, C.Origin);
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
  Best.GivenPackNs = Best.FormPackNs = G.Pack[Last];
  Best.GivenSendNs = Best.FormSendNs = G.Send[Last];
  for (const FormCandidate &C : Candidates) {
    Times F = Estimate(C.T);
    double Worst = INFINITY;
    for (size_t I = 0; I < Counts.size(); ++I)
      Worst = std::min(
          {Worst, Ratio(G.Pack[I], F.Pack[I]), Ratio(G.Send[I], F.Send[I])});
    double Gain = Ratio(G.Pack[Last], F.Pack[Last]);
    if (Worst < Options.MinWorstRatio || Gain < 1 + Options.MinGain ||
        Gain <= Best.PackGain)
      continue;
    Best.Chosen = C;
    Best.FormPackNs = F.Pack[Last];
    Best.FormSendNs = F.Send[Last];
    Best.WorstGain = Worst;
    Best.PackGain = Gain;
  }
  return Best;
}

std::string describeMPIForm(const MPIForm &F, const std::string &Engine) {
  char Gain[64];
  std::snprintf(Gain, sizeof Gain, "%.2fx", F.PackGain);
  if (F.isGiven())
    return "MPI-facing form for " + Engine +
           ": the type as given (no candidate is modelled at least 1.3x "
           "faster and nowhere slower)";
  return "MPI-facing form for " + Engine + ": the " + F.Chosen.Origin +
         " form, MPI_Pack modelled " + Gain + " faster than the type as given";
}

} // namespace ddtc

//===- test/Runtime/rt-onesided.cpp - One-sided calls whose results are compared ===//
//
// An MPI program that moves derived origin types with every one-sided call
// the runtime substitutes, in every kind of epoch, and prints a digest of
// the windows and of the origin and result buffers (gaps included, so that
// a byte written outside the typemap shows) after each epoch. The runtime
// tests run it plain and under libddtc_rt.so and compare the outputs line
// by line.
//
// Origin types: a vector, an hvector, an indexed, an indexed_block, a
// subarray and a struct of MPI_DOUBLE, and a struct of MPI_DOUBLE and
// MPI_INT (which the runtime must pass through: Put and Get only, with the
// same struct as target, since accumulate operations need one predefined
// type). Of MPI_DOUBLE only: Open MPI 4.1.4's MPI_Get_accumulate writes a
// wrong result into a noncontiguous result type of MPI_INT or MPI_LONG
// (and the right one under the runtime, whose result is contiguous), so
// plain and substituted runs would differ there. Targets are contiguous runs of the element type,
// and a vector of it in the `derived-target` case. Each rank targets the
// next one (and in `flush`, also the one after), into a slot of its own.
//
// Cases, each an epoch or a sequence of them:
//   fence-put, fence-acc, fence-get, fence-getacc, derived-target
//                  MPI_Win_fence epochs: MPI_Put, MPI_Accumulate (MPI_SUM),
//                  MPI_Get, MPI_Get_accumulate (MPI_SUM, and MPI_NO_OP)
//   pscw           MPI_Win_post/start/complete/wait: a put and a get
//   lock           MPI_Win_lock exclusive (put), then shared (get)
//   flush          MPI_Win_lock_all with MPI_Win_flush, MPI_Win_flush_local,
//                  MPI_Win_flush_all, MPI_Win_flush_local_all
//   requests       MPI_Rput, MPI_Rget, MPI_Raccumulate, MPI_Rget_accumulate
//                  completed by MPI_Wait and MPI_Test, and an MPI_Rget read
//                  after MPI_Win_unlock_all and waited for after it
//
// Usage: rt-onesided [--check-completion]
//   --check-completion  also prints `RANK requests TYPE rget-complete yes|no`:
//                       whether the data of an MPI_Rget is in the program's
//                       buffer once MPI_Test completes its request (not under
//                       plain MPICH 4.0.2 for a noncontiguous origin; under
//                       the runtime, which unpacks at the completion, always)
// Output: `RANK CASE TYPE WHAT DIGEST` lines, in a fixed order: rank 0's,
// then rank 1's, ...
//
//===----------------------------------------------------------------------===//
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

int Rank = 0, Size = 1;
/// --check-completion: say whether an MPI_Rget's data is in its buffer
/// when MPI_Test completes its request (see requests()).
bool CheckCompletion = false;

/// Instances of the origin type per call.
constexpr int Count = 2;

struct OriginType {
  const char *Name;
  MPI_Datatype Type;
  MPI_Datatype Element; ///< MPI_DATATYPE_NULL: several (the mixed struct)
  int Elements;         ///< typemap entries of one instance
};

uint64_t digestOf(const void *P, size_t Bytes) {
  uint64_t H = 1469598103934665603ull;
  for (size_t I = 0; I < Bytes; ++I)
    H = (H ^ static_cast<const uint8_t *>(P)[I]) * 1099511628211ull;
  return H;
}

/// This rank's lines, printed by rank 0 at the end: lines written by
/// several processes to one pipe interleave.
std::string Output;

void report(const char *Case, const char *Type, const char *What,
            const void *P, size_t Bytes) {
  char Line[256];
  std::snprintf(Line, sizeof Line, "%d %s %s %s %016llx\n", Rank, Case, Type,
                What, static_cast<unsigned long long>(digestOf(P, Bytes)));
  Output += Line;
}

void printAll() {
  int Length = static_cast<int>(Output.size());
  std::vector<int> Lengths(Size), Displs(Size);
  MPI_Gather(&Length, 1, MPI_INT, Lengths.data(), 1, MPI_INT, 0,
             MPI_COMM_WORLD);
  int Total = 0;
  for (int R = 0; R < Size; ++R) {
    Displs[R] = Total;
    Total += Lengths[R];
  }
  std::string All(Rank == 0 ? Total : 0, ' ');
  MPI_Gatherv(Output.data(), Length, MPI_CHAR, All.data(), Lengths.data(),
              Displs.data(), MPI_CHAR, 0, MPI_COMM_WORLD);
  if (Rank == 0)
    std::fwrite(All.data(), 1, All.size(), stdout);
}

/// Fills Bytes of P with doubles (small integers, exact: sums do not
/// depend on their order), starting from Seed.
void fill(void *P, size_t Bytes, int Seed) {
  auto *V = static_cast<double *>(P);
  for (size_t I = 0; I < Bytes / sizeof(double); ++I)
    V[I] = (Seed * 31 + static_cast<int>(I) * 7) % 1000;
}

MPI_Datatype named(MPI_Datatype T, const char *Name) {
  MPI_Type_set_name(T, Name);
  MPI_Type_commit(&T);
  return T;
}

std::vector<OriginType> makeOriginTypes() {
  std::vector<OriginType> Types;
  MPI_Datatype T;
  MPI_Type_vector(4, 2, 5, MPI_DOUBLE, &T);
  Types.push_back({"vector", named(T, "vector"), MPI_DOUBLE, 8});
  MPI_Type_create_hvector(3, 3, 7 * sizeof(double), MPI_DOUBLE, &T);
  Types.push_back({"hvector", named(T, "hvector"), MPI_DOUBLE, 9});
  int Lens[] = {2, 1, 3}, Displs[] = {0, 4, 9};
  MPI_Type_indexed(3, Lens, Displs, MPI_DOUBLE, &T);
  Types.push_back({"indexed", named(T, "indexed"), MPI_DOUBLE, 6});
  int BlockDispls[] = {1, 5, 8};
  MPI_Type_create_indexed_block(3, 2, BlockDispls, MPI_DOUBLE, &T);
  Types.push_back({"indexed_block", named(T, "indexed_block"), MPI_DOUBLE, 6});
  int Sizes[] = {6, 8}, Sub[] = {3, 4}, Starts[] = {1, 2};
  MPI_Type_create_subarray(2, Sizes, Sub, Starts, MPI_ORDER_C, MPI_DOUBLE, &T);
  Types.push_back({"subarray", named(T, "subarray"), MPI_DOUBLE, 12});
  int SLens[] = {2, 3};
  MPI_Aint SDispls[] = {0, 5 * sizeof(double)};
  MPI_Datatype Doubles[] = {MPI_DOUBLE, MPI_DOUBLE};
  MPI_Type_create_struct(2, SLens, SDispls, Doubles, &T);
  Types.push_back({"struct", named(T, "struct"), MPI_DOUBLE, 5});
  int MLens[] = {2, 1};
  MPI_Aint MDispls[] = {0, 3 * sizeof(double)};
  MPI_Datatype Mixed[] = {MPI_DOUBLE, MPI_INT};
  MPI_Type_create_struct(2, MLens, MDispls, Mixed, &T);
  Types.push_back({"mixed", named(T, "mixed"), MPI_DATATYPE_NULL, 3});
  return Types;
}

/// The buffers and window of one origin type.
struct Setup {
  const OriginType &O;
  MPI_Aint Span;        ///< bytes of Count instances
  int Elements;         ///< typemap entries of Count instances
  MPI_Datatype Element; ///< of the window
  int ElementSize;
  int Slot;             ///< elements of one origin's slot in a window
  std::vector<char> Window, Origin, Result;
  MPI_Win Win = MPI_WIN_NULL;
  MPI_Datatype Target = MPI_DATATYPE_NULL; ///< of the contiguous target
  int TargetCount = 0;
  int TargetSpan = 0; ///< elements the contiguous target covers

  explicit Setup(const OriginType &O) : O(O) {
    MPI_Aint Lb, Extent;
    MPI_Type_get_extent(O.Type, &Lb, &Extent);
    Span = Lb + Count * Extent;
    Elements = Count * O.Elements;
    Element = O.Element == MPI_DATATYPE_NULL ? MPI_DOUBLE : O.Element;
    ElementSize = sizeof(double);
    Slot = static_cast<int>(Span / ElementSize) + 2 * Elements + 2;
    // The mixed struct has no element type: its target is itself.
    Target = O.Element == MPI_DATATYPE_NULL ? O.Type : O.Element;
    TargetCount = O.Element == MPI_DATATYPE_NULL ? Count : Elements;
    TargetSpan = O.Element == MPI_DATATYPE_NULL
                     ? static_cast<int>(Span / ElementSize)
                     : Elements;
    Window.resize(static_cast<size_t>(Slot) * ElementSize * Size);
    Origin.resize(Span);
    Result.resize(Span);
    MPI_Win_create(Window.data(), Window.size(), ElementSize, MPI_INFO_NULL,
                   MPI_COMM_WORLD, &Win);
    reset();
  }
  ~Setup() { MPI_Win_free(&Win); }

  /// Fresh contents everywhere; call outside any epoch.
  void reset() {
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, Rank, 0, Win);
    fill(Window.data(), Window.size(), Rank + 1);
    MPI_Win_unlock(Rank, Win);
    fill(Origin.data(), Origin.size(), Rank + 11);
    fill(Result.data(), Result.size(), Rank + 21);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  int next(int K = 1) const { return (Rank + K) % Size; }
  MPI_Aint slot() const { return static_cast<MPI_Aint>(Rank) * Slot; }

  /// Digests of the window, the origin and the result, once every rank
  /// has ended the epoch (a fence, MPI_Win_wait, or the origins' unlocks
  /// before the barrier make the window's memory current).
  void show(const char *Case) {
    MPI_Barrier(MPI_COMM_WORLD);
    report(Case, O.Name, "window", Window.data(), Window.size());
    report(Case, O.Name, "origin", Origin.data(), Origin.size());
    report(Case, O.Name, "result", Result.data(), Result.size());
    MPI_Barrier(MPI_COMM_WORLD);
  }

  bool accumulates() const { return O.Element != MPI_DATATYPE_NULL; }

  void put(int To, MPI_Aint Disp) {
    MPI_Put(Origin.data(), Count, O.Type, To, Disp, TargetCount, Target, Win);
  }
  void get(int From, MPI_Aint Disp, void *Into) {
    MPI_Get(Into, Count, O.Type, From, Disp, TargetCount, Target, Win);
  }
  void accumulate(int To, MPI_Aint Disp) {
    MPI_Accumulate(Origin.data(), Count, O.Type, To, Disp, TargetCount, Target,
                   MPI_SUM, Win);
  }
  void getAccumulate(int To, MPI_Aint Disp, MPI_Op Op) {
    MPI_Get_accumulate(Origin.data(), Count, O.Type, Result.data(), Count,
                       O.Type, To, Disp, TargetCount, Target, Op, Win);
  }
};

void fenceEpochs(Setup &S) {
  MPI_Win_fence(0, S.Win);
  S.put(S.next(), S.slot());
  MPI_Win_fence(0, S.Win);
  S.show("fence-put");
  if (S.accumulates()) {
    S.accumulate(S.next(), S.slot());
    MPI_Win_fence(0, S.Win);
    S.show("fence-acc");
  }
  S.get(S.next(), S.slot() + 1, S.Result.data());
  MPI_Win_fence(0, S.Win);
  S.show("fence-get");
  if (S.accumulates()) {
    S.getAccumulate(S.next(), S.slot(), MPI_SUM);
    MPI_Win_fence(0, S.Win);
    S.show("fence-getacc");
    fill(S.Result.data(), S.Result.size(), Rank + 31);
    // MPI_NO_OP: the origin is ignored, so a null one must do.
    MPI_Get_accumulate(nullptr, 0, S.O.Type, S.Result.data(), Count, S.O.Type,
                       S.next(), S.slot(), S.TargetCount, S.Target, MPI_NO_OP,
                       S.Win);
    MPI_Win_fence(0, S.Win);
    S.show("fence-noop");
  }
  MPI_Win_fence(MPI_MODE_NOSUCCEED, S.Win);
}

void derivedTarget(Setup &S) {
  if (!S.accumulates())
    return;
  MPI_Datatype Strided;
  MPI_Type_vector(S.Elements, 1, 2, S.Element, &Strided);
  MPI_Type_commit(&Strided);
  MPI_Win_fence(0, S.Win);
  MPI_Put(S.Origin.data(), Count, S.O.Type, S.next(), S.slot(), 1, Strided,
          S.Win);
  MPI_Win_fence(0, S.Win);
  MPI_Accumulate(S.Origin.data(), Count, S.O.Type, S.next(), S.slot() + 1, 1,
                 Strided, MPI_SUM, S.Win);
  MPI_Win_fence(0, S.Win);
  MPI_Get(S.Result.data(), Count, S.O.Type, S.next(), S.slot() + 1, 1, Strided,
          S.Win);
  MPI_Win_fence(MPI_MODE_NOSUCCEED, S.Win);
  S.show("derived-target");
  MPI_Type_free(&Strided);
}

void pscw(Setup &S) {
  MPI_Group World, From, To;
  MPI_Comm_group(MPI_COMM_WORLD, &World);
  int Prev = (Rank + Size - 1) % Size, Next = S.next();
  MPI_Group_incl(World, 1, &Prev, &From);
  MPI_Group_incl(World, 1, &Next, &To);
  MPI_Win_post(From, 0, S.Win);
  MPI_Win_start(To, 0, S.Win);
  S.put(Next, S.slot());
  // Apart from the put's elements: the two would conflict.
  S.get(Next, S.slot() + S.TargetSpan, S.Result.data());
  MPI_Win_complete(S.Win);
  MPI_Win_wait(S.Win);
  S.show("pscw");
  MPI_Group_free(&From);
  MPI_Group_free(&To);
  MPI_Group_free(&World);
}

void locks(Setup &S) {
  MPI_Win_lock(MPI_LOCK_EXCLUSIVE, S.next(), 0, S.Win);
  S.put(S.next(), S.slot());
  MPI_Win_unlock(S.next(), S.Win);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_lock(MPI_LOCK_SHARED, S.next(), 0, S.Win);
  S.get(S.next(), S.slot() + 2, S.Result.data());
  MPI_Win_unlock(S.next(), S.Win);
  S.show("lock");
}

void flushes(Setup &S) {
  std::vector<char> Second(S.Result.size());
  fill(Second.data(), Second.size(), Rank + 41);
  MPI_Win_lock_all(0, S.Win);
  S.put(S.next(), S.slot());
  MPI_Win_flush(S.next(), S.Win);
  // Two targets in flight; flushing one completes its get alone.
  S.get(S.next(), S.slot(), S.Result.data());
  S.get(S.next(2), S.slot() + 1, Second.data());
  MPI_Win_flush(S.next(), S.Win);
  report("flush", S.O.Name, "first", S.Result.data(), S.Result.size());
  MPI_Win_flush_local(S.next(2), S.Win);
  report("flush", S.O.Name, "second", Second.data(), Second.size());
  if (S.accumulates()) {
    S.accumulate(S.next(), S.slot());
    MPI_Win_flush_all(S.Win);
    S.getAccumulate(S.next(), S.slot(), MPI_SUM);
    MPI_Win_flush_local_all(S.Win);
    report("flush", S.O.Name, "fetched", S.Result.data(), S.Result.size());
  }
  MPI_Win_unlock_all(S.Win);
  S.show("flush");
}

/// Whether the typemap of Buf holds the origin's data.
bool samePacked(Setup &S, std::vector<char> &Buf) {
  int Bytes = 0;
  MPI_Pack_size(Count, S.O.Type, MPI_COMM_SELF, &Bytes);
  std::vector<char> A(Bytes), B(Bytes);
  int PA = 0, PB = 0;
  MPI_Pack(S.Origin.data(), Count, S.O.Type, A.data(), Bytes, &PA,
           MPI_COMM_SELF);
  MPI_Pack(Buf.data(), Count, S.O.Type, B.data(), Bytes, &PB, MPI_COMM_SELF);
  return PA == PB && std::memcmp(A.data(), B.data(), PA) == 0;
}

void requests(Setup &S) {
  MPI_Request R;
  MPI_Win_lock_all(0, S.Win);
  MPI_Rput(S.Origin.data(), Count, S.O.Type, S.next(), S.slot(), S.TargetCount,
           S.Target, S.Win, &R);
  MPI_Wait(&R, MPI_STATUS_IGNORE);
  MPI_Win_flush(S.next(), S.Win);
  MPI_Rget(S.Result.data(), Count, S.O.Type, S.next(), S.slot(), S.TargetCount,
           S.Target, S.Win, &R);
  for (int Done = 0; !Done;)
    MPI_Test(&R, &Done, MPI_STATUS_IGNORE);
  if (CheckCompletion && S.accumulates())
    Output += std::to_string(Rank) + " requests " + S.O.Name +
              " rget-complete " + (samePacked(S, S.Result) ? "yes" : "no") +
              "\n";
  // MPICH 4.0.2 completes the request of an MPI_Rget to a noncontiguous
  // origin before its data is there; a flush makes it arrive.
  MPI_Win_flush(S.next(), S.Win);
  report("requests", S.O.Name, "rget", S.Result.data(), S.Result.size());
  if (S.accumulates()) {
    MPI_Raccumulate(S.Origin.data(), Count, S.O.Type, S.next(), S.slot(),
                    S.TargetCount, S.Target, MPI_SUM, S.Win, &R);
    MPI_Wait(&R, MPI_STATUS_IGNORE);
    MPI_Win_flush(S.next(), S.Win);
    MPI_Rget_accumulate(S.Origin.data(), Count, S.O.Type, S.Result.data(),
                        Count, S.O.Type, S.next(), S.slot(), S.TargetCount,
                        S.Target, MPI_SUM, S.Win, &R);
    MPI_Wait(&R, MPI_STATUS_IGNORE);
    report("requests", S.O.Name, "rgetacc", S.Result.data(), S.Result.size());
  }
  // Ended by the epoch before its request: the data is there at the unlock.
  fill(S.Result.data(), S.Result.size(), Rank + 51);
  MPI_Rget(S.Result.data(), Count, S.O.Type, S.next(), S.slot() + 1,
           S.TargetCount, S.Target, S.Win, &R);
  MPI_Win_unlock_all(S.Win);
  report("requests", S.O.Name, "unlocked", S.Result.data(), S.Result.size());
  MPI_Wait(&R, MPI_STATUS_IGNORE);
  S.show("requests");
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &Size);
  CheckCompletion = argc > 1 && std::strcmp(argv[1], "--check-completion") == 0;
  std::vector<OriginType> Types = makeOriginTypes();
  for (const OriginType &O : Types) {
    Setup S(O);
    fenceEpochs(S);
    derivedTarget(S);
    pscw(S);
    locks(S);
    flushes(S);
    requests(S);
  }
  for (OriginType &O : Types)
    MPI_Type_free(&O.Type);
  printAll();
  MPI_Finalize();
  return 0;
}

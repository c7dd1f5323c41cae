//===- test/MPI/emit-check.cpp - Compare emitted code with MPICH ----------===//
//
// Checks the code `ddtc emit` wrote for a description file, compiled into a
// shared library, against MPICH. For every named type NAME of the file (the
// types as the user wrote them: the MPI handles are built from the input
// IR, one handle per node, like ddtc-oracle does) and counts 1, 2 and 17:
//
//   packed-size  ddtc_NAME_packed_size == count * MPI_Type_size == the
//                position MPI_Pack reaches
//   pack         ddtc_NAME_pack writes MPI_Pack's bytes, and nothing after
//   unpack       ddtc_NAME_unpack of MPI's packed bytes writes what
//                MPI_Unpack writes, and no byte outside the typemap (the
//                typed buffer is filled with a pattern, guard bytes around
//                it, and every byte not in the typemap must keep it)
//   range        ddtc_NAME_pack_range over a random partition of the packed
//                stream concatenates to the whole stream; random ranges,
//                also empty, reversed or past the end, write exactly
//                min(last, size) - first bytes (or none) and return that
//   unpack-range ddtc_NAME_unpack_range of MPI's stream over a random
//                partition writes what MPI_Unpack writes; random ranges
//                write exactly the typed bytes of their packed bytes (the
//                later of two that land on one byte, as unpack does) and
//                nothing else, and return min(last, size) - first or 0
//   build        ddtc_NAME_build makes a type with MPICH's size, lb and
//                extent of the input, whose MPI_Pack bytes are the input's,
//                and whose true bounds lie between the bounds of the data
//                and the input's true bounds (MPICH's true bounds include
//                parts without data, blocklength 0 or zero-size members,
//                which normalization may drop: equivalence (docs/format.md)
//                does not include them); with --strict-bounds, for code
//                emitted with -O0, the true bounds must be the input's
//
// For MPI_LONG_DOUBLE only the 10 value bytes are compared (see the
// oracle's header): in the packed stream and in the typed buffer.
//
// Types on which MPICH 4.0.2's MPI_Pack crashes (mayCrashYaksaPack) are not
// given to MPI_Pack/MPI_Unpack; the emitted code is compared with ddtc's
// typemap walker instead (itself checked against MPICH by the oracle), and a
// SKIP line says so.
//
// Usage:
//   ddtc-emit-check [--quiet] [--exact] [--strict-bounds] [--build-only]
//                   FILE LIBRARY.so
//       --quiet  print only mismatches and skips, not `ok NAME`
//       --exact  no guard bytes: buffers are exactly as large as the data
//                they hold, so that AddressSanitizer sees any access past
//                them (for the sanitizer build of this checker)
//       --strict-bounds  see `build` above
//       --build-only  check ddtc_NAME_build only, without packing (for
//                types too large to pack)
// The random descriptions it checks are written by ddtc-random-corpus
// (random-corpus.cpp).
//
// Output: `ok NAME`, `MISMATCH NAME: ...` and `SKIP NAME: ...` lines, then
// `emit-check: N types, M mismatches` (+ ", K compared with the typemap
// walker (MPICH would crash)"). Exit status 0 when everything agrees, 1 on
// a mismatch or error, 2 on bad usage.
//
//===----------------------------------------------------------------------===//
#include "ddtc/IR/Module.h"
#include "ddtc/IR/TextForm.h"
#include "ddtc/IR/TypeContext.h"
#include "ddtc/IR/TypemapWalker.h"
#include "ddtc/Reader/ReadFile.h"
#include "ddtc/Support/Address.h"

#include "ddtc/MPI/PredefinedHandles.h"
#include "ddtc/MPI/TypeBuilder.h"
#include "ddtc/MPI/TypeDecoder.h"
#include "ddtc/Target/MPICHRules.h"

#include <mpi.h>

#include <dlfcn.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <utility>
#include <vector>

using namespace ddtc;

namespace {

//===----------------------------------------------------------------------===//
// The emitted library
//===----------------------------------------------------------------------===//

struct EmittedType {
  size_t (*PackedSize)(size_t);
  void (*Pack)(const void *, size_t, void *);
  void (*Unpack)(const void *, size_t, void *);
  size_t (*PackRange)(const void *, size_t, size_t, size_t, void *);
  size_t (*UnpackRange)(const void *, size_t, size_t, size_t, void *);
  int (*Build)(MPI_Datatype *);
};

class Library {
public:
  /// A path without a slash is taken relative to the working directory,
  /// not looked up in the library path.
  explicit Library(const std::string &Path)
      : Handle(dlopen(
            (Path.find('/') == std::string::npos ? "./" + Path : Path).c_str(),
            RTLD_NOW | RTLD_LOCAL)) {}
  ~Library() {
    if (Handle)
      dlclose(Handle);
  }
  Library(const Library &) = delete;
  Library &operator=(const Library &) = delete;

  bool loaded() const { return Handle; }

  /// The six functions of NAME; Missing names the first one not found.
  bool lookup(const std::string &Name, EmittedType &E, std::string &Missing) {
    auto Get = [&](const char *Suffix, auto &Fn) {
      std::string Symbol = "ddtc_" + Name + Suffix;
      void *P = dlsym(Handle, Symbol.c_str());
      if (!P && Missing.empty())
        Missing = Symbol;
      Fn = reinterpret_cast<std::remove_reference_t<decltype(Fn)>>(P);
    };
    Get("_packed_size", E.PackedSize);
    Get("_pack", E.Pack);
    Get("_unpack", E.Unpack);
    Get("_pack_range", E.PackRange);
    Get("_unpack_range", E.UnpackRange);
    Get("_build", E.Build);
    return Missing.empty();
  }

private:
  void *Handle;
};

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

/// A byte pattern: a hash of the index and a salt, so that a byte read
/// from or written to the wrong place almost never has the right value.
uint8_t patternByte(uint64_t I, uint64_t Salt) {
  uint64_t X = (I + Salt * 0x632BE59BD9B4E019ull) * 0x9E3779B97F4A7C15ull;
  X ^= X >> 29;
  X *= 0xBF58476D1CE4E5B9ull;
  X ^= X >> 32;
  return static_cast<uint8_t>(X);
}

constexpr uint8_t Filler = 0xEE;

/// A typed buffer for Count instances of T: every byte the typemap can
/// touch, relative to the buffer pointer, plus Guard bytes either side.
struct TypedBuffer {
  int64_t Lo = 0; ///< offset of the first byte from the buffer pointer
  size_t Guard = 0;
  std::vector<uint8_t> Bytes;

  TypedBuffer(const Type *T, int64_t Count, size_t Guard, uint64_t Salt,
              bool IncludePointer)
      : Guard(Guard) {
    int64_t Shift = (Count - 1) * T->extent();
    int64_t TrueUb = T->trueLb() + T->trueExtent();
    Lo = std::min(T->trueLb(), T->trueLb() + Shift);
    int64_t Hi = std::max(TrueUb, TrueUb + Shift);
    if (IncludePointer) {
      Lo = std::min<int64_t>(Lo, 0);
      Hi = std::max<int64_t>(Hi, 0);
    }
    // MPI refuses null buffers, even for no data: never allocate 0 bytes.
    Bytes.resize(std::max<size_t>(static_cast<size_t>(Hi - Lo) + 2 * Guard, 1));
    for (size_t I = 0; I < Bytes.size(); ++I)
      Bytes[I] = patternByte(I, Salt);
  }
  /// The pointer one passes to MPI: byte 0 of the typemap's coordinates.
  /// It may lie outside the allocation (lb > 0, negative displacements);
  /// only the typemap's bytes are ever accessed through it.
  uint8_t *base() {
    return displaceAddress(Bytes.data(), static_cast<int64_t>(Guard) - Lo);
  }
  size_t index(int64_t Offset) const {
    return static_cast<size_t>(Offset - Lo) + Guard;
  }
};

/// Marks, for Count instances of T, the typed-buffer bytes in the typemap
/// (Covered) and those of them that are padding of a long double (Pad).
void typedMasks(const Type *T, int64_t Count, const TypedBuffer &Buf,
                std::vector<bool> &Covered, std::vector<bool> &Pad) {
  Covered.assign(Buf.Bytes.size(), false);
  Pad.assign(Buf.Bytes.size(), false);
  TypemapWalker W(T, static_cast<uint64_t>(Count), WalkMode::Bytes);
  for (TypemapRun R; W.next(R);)
    for (int64_t B = 0; B < R.Length; ++B)
      Covered[Buf.index(R.Offset + B)] = true;
  forEachPaddingByte(
      T, static_cast<uint64_t>(Count),
      [&](int64_t Typed, int64_t) { Pad[Buf.index(Typed)] = true; });
}

/// Marks the packed bytes of Count instances of T that carry no value.
std::vector<bool> packedPadMask(const Type *T, int64_t Count, size_t Length) {
  std::vector<bool> Mask(Length, false);
  forEachPaddingByte(T, static_cast<uint64_t>(Count),
                     [&](int64_t, int64_t Packed) {
                       Mask[static_cast<size_t>(Packed)] = true;
                     });
  return Mask;
}

/// ddtc's reference unpack: the walker's runs, in typemap order.
void unpackTypemap(const Type *T, int64_t Count, const uint8_t *Packed,
                   uint8_t *Base) {
  TypemapWalker W(T, static_cast<uint64_t>(Count), WalkMode::Bytes);
  TypemapRun R;
  while (W.next(R)) {
    std::memcpy(Base + R.Offset, Packed, static_cast<size_t>(R.Length));
    Packed += R.Length;
  }
}

/// A random partition of [0, Total) into consecutive pieces: its cuts, 0
/// and Total included.
std::vector<size_t> randomCuts(std::mt19937_64 &Rng, size_t Total) {
  std::vector<size_t> Cuts{0, Total};
  for (uint64_t N = Rng() % 12; N > 0; --N)
    Cuts.push_back(Total ? Rng() % (Total + 1) : 0);
  std::sort(Cuts.begin(), Cuts.end());
  return Cuts;
}

/// Eight arbitrary ranges [first, last) of a stream of Total bytes, also
/// empty, reversed and (the first) past the end.
std::vector<std::pair<size_t, size_t>> trialRanges(std::mt19937_64 &Rng,
                                                   size_t Total) {
  std::vector<std::pair<size_t, size_t>> Ranges;
  for (int Trial = 0; Trial < 8; ++Trial) {
    size_t First = Rng() % (Total + 9), Last = Rng() % (Total + 9);
    Ranges.emplace_back(First, Trial == 0 ? Total + 100 : Last);
  }
  return Ranges;
}

/// The first index where A and B differ outside Mask, or -1.
int64_t firstDifference(const std::vector<uint8_t> &A,
                        const std::vector<uint8_t> &B, size_t Length,
                        const std::vector<bool> *Mask) {
  for (size_t I = 0; I < Length; ++I)
    if (A[I] != B[I] && !(Mask && (*Mask)[I]))
      return static_cast<int64_t>(I);
  return -1;
}

//===----------------------------------------------------------------------===//
// Checking one type
//===----------------------------------------------------------------------===//

constexpr int64_t Counts[] = {1, 2, 17};

class Checker {
public:
  Checker(const std::vector<MPI_Datatype> &Predefined, bool Exact,
          bool StrictBounds, bool BuildOnly)
      : Predefined(Predefined), Builder(Predefined), Guard(Exact ? 0 : 64),
        StrictBounds(StrictBounds), BuildOnly(BuildOnly) {}

  struct Result {
    std::vector<std::string> Mismatches;
    std::vector<std::string> Skips;
  };
  Result check(const std::string &Name, const Type *T, const EmittedType &E);

private:
  void mismatch(const std::string &What) {
    R.Mismatches.push_back("MISMATCH " + Name + ": " + What);
  }
  template <typename V> void compare(const std::string &What, V Mpich, V Ddtc) {
    if (Mpich != Ddtc)
      mismatch(What + " mpich=" + std::to_string(Mpich) +
               " ddtc=" + std::to_string(Ddtc));
  }
  void compareBytes(const std::string &What, const std::vector<uint8_t> &Want,
                    const std::vector<uint8_t> &Got, size_t Length,
                    const std::vector<bool> *Mask);

  /// Packs with MPI (or the walker when MPI cannot); false on an MPI error.
  bool referencePack(MPI_Datatype H, int64_t Count, TypedBuffer &In,
                     std::vector<uint8_t> &Out);
  void checkCount(MPI_Datatype H, int64_t Count);
  void checkRanges(int64_t Count, TypedBuffer &In,
                   const std::vector<uint8_t> &Full,
                   const std::vector<bool> &Pad);
  void checkUnpackRanges(int64_t Count, const std::vector<uint8_t> &Stream,
                         const TypedBuffer &Full,
                         const std::vector<bool> &TypedPad);
  void checkBuild(MPI_Datatype Input);

  const std::vector<MPI_Datatype> &Predefined;
  MpiBuilder Builder;
  size_t Guard;
  bool StrictBounds;
  bool BuildOnly;
  // The type being checked.
  std::string Name;
  const Type *T = nullptr;
  EmittedType E{};
  bool UseMpi = true;
  Result R;
};

Checker::Result Checker::check(const std::string &TypeName, const Type *Ty,
                               const EmittedType &Fns) {
  Name = TypeName;
  T = Ty;
  E = Fns;
  R = Result();
  UseMpi = !mayCrashYaksaPack(T);
  if (!UseMpi)
    R.Skips.push_back("SKIP " + Name +
                      ": MPI_Pack/MPI_Unpack not run (MPICH 4.0.2 Yaksa "
                      "bug: zero-size struct member); compared with ddtc's "
                      "typemap walker");

  std::string Err;
  std::optional<Handle> H = Builder.build(T, Err);
  if (!H) {
    mismatch("construct mpich=error(" + Err + ")");
    return R;
  }
  MPI_Datatype D = H->get();
  if (int Rc = MPI_Type_commit(&D); Rc != MPI_SUCCESS) {
    mismatch("commit mpich=error(" + mpiErrorString(Rc) + ")");
    return R;
  }
  if (!BuildOnly)
    for (int64_t Count : Counts)
      checkCount(D, Count);
  checkBuild(D);
  return R;
}

void Checker::compareBytes(const std::string &What,
                           const std::vector<uint8_t> &Want,
                           const std::vector<uint8_t> &Got, size_t Length,
                           const std::vector<bool> *Mask) {
  int64_t At = firstDifference(Want, Got, Length, Mask);
  if (At < 0)
    return;
  char Buf[96];
  std::snprintf(Buf, sizeof Buf, " offset=%lld want=0x%02x ddtc=0x%02x",
                static_cast<long long>(At), Want[static_cast<size_t>(At)],
                Got[static_cast<size_t>(At)]);
  mismatch(What + Buf);
}

bool Checker::referencePack(MPI_Datatype H, int64_t Count, TypedBuffer &In,
                            std::vector<uint8_t> &Out) {
  std::string C = " count=" + std::to_string(Count);
  if (!UseMpi) {
    packTypemap(T, static_cast<uint64_t>(Count), In.base(), Out.data());
    return true;
  }
  MPI_Count Position = 0;
  int Rc =
      MPI_Pack_c(In.base(), Count, H, Out.data(),
                 static_cast<MPI_Count>(Out.size()), &Position, MPI_COMM_SELF);
  if (Rc != MPI_SUCCESS) {
    mismatch("pack" + C + " mpich=error(" + mpiErrorString(Rc) + ")");
    return false;
  }
  compare<int64_t>("packed-size" + C, Position, Count * T->size());
  return true;
}

void Checker::checkCount(MPI_Datatype H, int64_t Count) {
  std::string C = " count=" + std::to_string(Count);
  size_t Packed = static_cast<size_t>(Count * T->size());
  compare<uint64_t>("packed_size" + C, Packed,
                    E.PackedSize(static_cast<size_t>(Count)));

  // Pack: MPI (or the walker) and ddtc from the same typed buffer.
  TypedBuffer In(T, Count, Guard, 1, /*IncludePointer=*/Guard != 0);
  size_t OutLen = std::max<size_t>(Packed + Guard, 1);
  std::vector<uint8_t> Want(OutLen, Filler), Got(OutLen, Filler);
  if (!referencePack(H, Count, In, Want))
    return;
  E.Pack(In.base(), static_cast<size_t>(Count), Got.data());
  std::vector<bool> PackedPad = packedPadMask(T, Count, Want.size());
  compareBytes("pack" + C, Want, Got, Want.size(), &PackedPad);

  // Unpack MPI's stream into buffers of a second pattern.
  TypedBuffer WantU(T, Count, Guard, 2, Guard != 0),
      GotU(T, Count, Guard, 2, Guard != 0);
  const std::vector<uint8_t> Initial = GotU.Bytes;
  if (UseMpi) {
    MPI_Count Position = 0;
    int Rc = MPI_Unpack_c(Want.data(), static_cast<MPI_Count>(Packed),
                          &Position, WantU.base(), Count, H, MPI_COMM_SELF);
    if (Rc != MPI_SUCCESS) {
      mismatch("unpack" + C + " mpich=error(" + mpiErrorString(Rc) + ")");
      return;
    }
  } else {
    unpackTypemap(T, Count, Want.data(), WantU.base());
  }
  E.Unpack(Want.data(), static_cast<size_t>(Count), GotU.base());
  std::vector<bool> Covered, TypedPad;
  typedMasks(T, Count, GotU, Covered, TypedPad);
  compareBytes("unpack" + C, WantU.Bytes, GotU.Bytes, GotU.Bytes.size(),
               &TypedPad);
  for (size_t I = 0; I < Initial.size(); ++I)
    if (!Covered[I] && GotU.Bytes[I] != Initial[I]) {
      mismatch("unpack" + C + " wrote outside the typemap at offset " +
               std::to_string(static_cast<int64_t>(I) -
                              static_cast<int64_t>(Guard) + GotU.Lo));
      break;
    }

  checkRanges(Count, In, Want, PackedPad);
  checkUnpackRanges(Count, Want, WantU, TypedPad);
}

/// Stream is MPI's packed stream, Full what MPI_Unpack made of it in a
/// buffer of pattern 2, TypedPad its bytes that carry no value.
void Checker::checkUnpackRanges(int64_t Count,
                                const std::vector<uint8_t> &Stream,
                                const TypedBuffer &Full,
                                const std::vector<bool> &TypedPad) {
  std::string C = " count=" + std::to_string(Count);
  size_t Total = static_cast<size_t>(Count * T->size());
  std::mt19937_64 Rng(std::hash<std::string>()(Name) ^
                      (static_cast<uint64_t>(Count) * 0x9E3779B97F4A7C15ull));
  auto Unpack = [&](size_t First, size_t Last, TypedBuffer &Out) {
    return E.UnpackRange(Stream.data() + std::min(First, Total),
                         static_cast<size_t>(Count), First, Last, Out.base());
  };

  // A random partition, unpacked piece by piece into one buffer.
  std::vector<size_t> Cuts = randomCuts(Rng, Total);
  TypedBuffer Joined(T, Count, Guard, 2, Guard != 0);
  for (size_t I = 0; I + 1 < Cuts.size(); ++I) {
    size_t N = Unpack(Cuts[I], Cuts[I + 1], Joined);
    if (N != Cuts[I + 1] - Cuts[I]) {
      mismatch("unpack_range" + C + " [" + std::to_string(Cuts[I]) + ", " +
               std::to_string(Cuts[I + 1]) + ") returned " + std::to_string(N));
      return;
    }
  }
  compareBytes("unpack_range partition" + C, Full.Bytes, Joined.Bytes,
               Joined.Bytes.size(), &TypedPad);

  // Where each packed byte lands in the typed buffer.
  std::vector<size_t> Where;
  Where.reserve(Total);
  TypemapWalker W(T, static_cast<uint64_t>(Count), WalkMode::Bytes);
  for (TypemapRun Run; W.next(Run);)
    for (int64_t B = 0; B < Run.Length; ++B)
      Where.push_back(Full.index(Run.Offset + B));

  // Arbitrary ranges, also empty, reversed and past the end.
  for (auto [First, Last] : trialRanges(Rng, Total)) {
    size_t End = std::min(Last, Total);
    size_t Expect = First < End ? End - First : 0;
    TypedBuffer Got(T, Count, Guard, 2, Guard != 0);
    std::vector<uint8_t> Want = Got.Bytes;
    for (size_t P = First; P < End; ++P)
      Want[Where[P]] = Stream[P];
    size_t N = Unpack(First, Last, Got);
    std::string Range =
        " [" + std::to_string(First) + ", " + std::to_string(Last) + ")" + C;
    if (N != Expect) {
      mismatch("unpack_range" + Range + " returned " + std::to_string(N) +
               ", want " + std::to_string(Expect));
      return;
    }
    compareBytes("unpack_range" + Range, Want, Got.Bytes, Got.Bytes.size(),
                 &TypedPad);
  }
}

/// Full is the reference stream, Pad its bytes that carry no value.
void Checker::checkRanges(int64_t Count, TypedBuffer &In,
                          const std::vector<uint8_t> &Full,
                          const std::vector<bool> &Pad) {
  std::string C = " count=" + std::to_string(Count);
  size_t Total = static_cast<size_t>(Count * T->size());
  // Deterministic per type and count.
  std::mt19937_64 Rng(std::hash<std::string>()(Name) ^
                      static_cast<uint64_t>(Count));

  // A random partition of [0, Total) into consecutive pieces.
  std::vector<size_t> Cuts = randomCuts(Rng, Total);
  std::vector<uint8_t> Joined(Total + Guard, Filler);
  for (size_t I = 0; I + 1 < Cuts.size(); ++I) {
    size_t N = E.PackRange(In.base(), static_cast<size_t>(Count), Cuts[I],
                           Cuts[I + 1], Joined.data() + Cuts[I]);
    if (N != Cuts[I + 1] - Cuts[I]) {
      mismatch("pack_range" + C + " [" + std::to_string(Cuts[I]) + ", " +
               std::to_string(Cuts[I + 1]) + ") returned " + std::to_string(N));
      return;
    }
  }
  compareBytes("pack_range partition" + C, Full, Joined, Joined.size(), &Pad);

  // Arbitrary ranges, also empty, reversed and past the end.
  for (auto [First, Last] : trialRanges(Rng, Total)) {
    size_t Expect =
        First < std::min(Last, Total) ? std::min(Last, Total) - First : 0;
    std::vector<uint8_t> Out(Expect + Guard, Filler);
    size_t N = E.PackRange(In.base(), static_cast<size_t>(Count), First, Last,
                           Out.data());
    std::string Range =
        " [" + std::to_string(First) + ", " + std::to_string(Last) + ")" + C;
    if (N != Expect) {
      mismatch("pack_range" + Range + " returned " + std::to_string(N) +
               ", want " + std::to_string(Expect));
      return;
    }
    // The expected bytes and their padding, shifted to the range's start.
    std::vector<uint8_t> Slice(Out.size(), Filler);
    std::vector<bool> SlicePad(Out.size(), false);
    for (size_t I = 0; I < Expect; ++I) {
      Slice[I] = Full[First + I];
      SlicePad[I] = Pad[First + I];
    }
    compareBytes("pack_range" + Range, Slice, Out, Out.size(), &SlicePad);
  }
}

void Checker::checkBuild(MPI_Datatype Input) {
  MPI_Datatype Built = MPI_DATATYPE_NULL;
  if (int Rc = E.Build(&Built); Rc != MPI_SUCCESS) {
    mismatch("build returned error (" + mpiErrorString(Rc) + ")");
    return;
  }
  Handle Owner(Built, true);
  if (int Rc = MPI_Type_commit(&Built); Rc != MPI_SUCCESS) {
    mismatch("build: commit failed (" + mpiErrorString(Rc) + ")");
    return;
  }
  MPI_Count Want[5], Got[5];
  MPI_Type_size_x(Input, &Want[0]);
  MPI_Type_get_extent_x(Input, &Want[1], &Want[2]);
  MPI_Type_get_true_extent_x(Input, &Want[3], &Want[4]);
  MPI_Type_size_x(Built, &Got[0]);
  MPI_Type_get_extent_x(Built, &Got[1], &Got[2]);
  MPI_Type_get_true_extent_x(Built, &Got[3], &Got[4]);
  if (StrictBounds) {
    // Code emitted with -O0 builds the type as given, with the classic int
    // API where the arguments fit: the decoder must read it back exactly
    // (the `_c` layouts are checked by ddtc-oracle).
    TypeContext Ctx(getMPICHRules());
    Expected<const Type *> Back = TypeDecoder(Ctx, Predefined).decode(Built);
    if (!Back)
      mismatch("build: decode error (" + Back.takeError().message() + ")");
    else if (printType(*Back) != printType(T))
      mismatch("build: decode gives " + printType(*Back));
  }
  const char *What[] = {"size", "lb", "extent", "true_lb", "true_extent"};
  bool Same = true;
  for (int I = 0; I < (StrictBounds ? 5 : 3); ++I) {
    compare<int64_t>(std::string("build ") + What[I], Want[I], Got[I]);
    Same &= Want[I] == Got[I];
  }
  if (!StrictBounds && T->size() > 0) {
    // MPICH's true bounds also span parts without data (blocklength 0,
    // zero-size members), which normalization may drop: the built type's
    // true bounds must lie between the data's bounds and the input's.
    int64_t DataLo = INT64_MAX, DataHi = INT64_MIN;
    TypemapWalker W(T, 1, WalkMode::Bytes);
    for (TypemapRun Run; W.next(Run);) {
      DataLo = std::min(DataLo, Run.Offset);
      DataHi = std::max(DataHi, Run.end());
    }
    int64_t Lo = Got[3], Hi = Got[3] + Got[4];
    if (Lo > DataLo || Hi < DataHi || Lo < Want[3] || Hi > Want[3] + Want[4])
      mismatch("build true bounds [" + std::to_string(Lo) + ", " +
               std::to_string(Hi) + ") not between the data's [" +
               std::to_string(DataLo) + ", " + std::to_string(DataHi) +
               ") and the input's [" + std::to_string(Want[3]) + ", " +
               std::to_string(Want[3] + Want[4]) + ")");
  }
  // Packing the built type could crash MPICH like the input would.
  if (!Same || !UseMpi || BuildOnly)
    return;
  for (int64_t Count : Counts) {
    std::string C = " count=" + std::to_string(Count);
    size_t Packed = static_cast<size_t>(Count * T->size());
    TypedBuffer In(T, Count, Guard, 3, Guard != 0);
    std::vector<uint8_t> A(Packed + 1, Filler), B(Packed + 1, Filler);
    MPI_Count PosA = 0, PosB = 0;
    int RcA =
        MPI_Pack_c(In.base(), Count, Input, A.data(),
                   static_cast<MPI_Count>(A.size()), &PosA, MPI_COMM_SELF);
    int RcB =
        MPI_Pack_c(In.base(), Count, Built, B.data(),
                   static_cast<MPI_Count>(B.size()), &PosB, MPI_COMM_SELF);
    if (RcA != MPI_SUCCESS || RcB != MPI_SUCCESS) {
      mismatch("build: MPI_Pack failed" + C);
      return;
    }
    compare<int64_t>("build packed-size" + C, PosA, PosB);
    std::vector<bool> Pad = packedPadMask(T, Count, A.size());
    compareBytes("build pack" + C, A, B, A.size(), &Pad);
  }
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

constexpr int ExitOk = 0, ExitFail = 1, ExitUsage = 2;

struct Options {
  bool Quiet = false;
  bool Exact = false;
  bool StrictBounds = false;
  bool BuildOnly = false;
  std::vector<std::string> Positional;
};

void usage() {
  std::fprintf(stderr,
               "usage: ddtc-emit-check [--quiet] [--exact] [--strict-bounds] "
               "[--build-only] FILE LIBRARY.so\n");
}

bool parseArgs(int Argc, char **Argv, Options &O) {
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    if (A == "--quiet") {
      O.Quiet = true;
    } else if (A == "--exact") {
      O.Exact = true;
    } else if (A == "--strict-bounds") {
      O.StrictBounds = true;
    } else if (A == "--build-only") {
      O.BuildOnly = true;
    } else if (A.size() > 1 && A[0] == '-') {
      std::fprintf(stderr, "ddtc-emit-check: unknown option %s\n", A.c_str());
      return false;
    } else {
      O.Positional.push_back(A);
    }
  }
  return O.Positional.size() == 2;
}

int run(const Options &O, const std::vector<MPI_Datatype> &Handles) {
  const std::string &Path = O.Positional[0];
  TypeContext Ctx(getMPICHRules());
  Module M(Ctx);
  if (Error Err = readAnyDescriptionFile(Path, M)) {
    std::fprintf(stderr, "ddtc-emit-check: %s\n", Err.message().c_str());
    return ExitFail;
  }
  Library Lib(O.Positional[1]);
  if (!Lib.loaded()) {
    std::fprintf(stderr, "ddtc-emit-check: %s\n", dlerror());
    return ExitFail;
  }

  Checker C(Handles, O.Exact, O.StrictBounds, O.BuildOnly);
  uint64_t NumMismatches = 0, NumSkips = 0;
  for (const NamedType &N : M.types()) {
    EmittedType E{};
    std::string Missing;
    Checker::Result R;
    if (!Lib.lookup(N.Name, E, Missing))
      R.Mismatches.push_back("MISMATCH " + N.Name + ": no symbol " + Missing);
    else
      R = C.check(N.Name, N.T, E);
    NumMismatches += !R.Mismatches.empty();
    NumSkips += !R.Skips.empty();
    for (const std::string &L : R.Mismatches)
      std::printf("%s\n", L.c_str());
    for (const std::string &L : R.Skips)
      std::printf("%s\n", L.c_str());
    if (R.Mismatches.empty() && R.Skips.empty() && !O.Quiet)
      std::printf("ok %s\n", N.Name.c_str());
  }
  std::printf("emit-check: %zu types, %llu mismatches", M.types().size(),
              static_cast<unsigned long long>(NumMismatches));
  if (NumSkips)
    std::printf(", %llu compared with the typemap walker (MPICH would crash)",
                static_cast<unsigned long long>(NumSkips));
  std::printf("\n");
  std::fflush(stdout);
  return NumMismatches ? ExitFail : ExitOk;
}

} // namespace

int main(int argc, char **argv) {
  Options O;
  if (!parseArgs(argc, argv, O)) {
    usage();
    return ExitUsage;
  }
  return runWithMpi(argc, argv, "ddtc-emit-check",
                    [&](const std::vector<MPI_Datatype> &Handles) {
                      return run(O, Handles);
                    });
}

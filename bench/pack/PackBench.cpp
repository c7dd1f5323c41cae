//===- bench/pack/PackBench.cpp - Pack/unpack against MPI and the machine -===//
//
// The pack/unpack benchmark (docs/performance.md, "Pack and unpack"; run by
// bench/pack/pack-bench.sh). For every named type of each description file,
// sent with a count that makes a packed message of 1-8 MB (or --count, or
// --target-bytes for small messages), it measures side by side in one
// process:
//
//   ddtc     ddtc_NAME_pack / ddtc_NAME_unpack, from the code `ddtc emit`
//            wrote for the file, compiled into LIBRARY.so and loaded here
//   shape    the shape kernel the runtime builds at commit for a type
//            without an emitted kernel (ddtc/CodeGen/ShapeKernel.h): the
//            same plan, its numbers read from tables ("the price of
//            parameters")
//   mpi      MPI_Pack / MPI_Unpack of the MPI library the benchmark is built
//            with (MPICH by default; Open MPI in a second build), with the
//            type as the file writes it (one handle per node, what the
//            application would build)
//   mpi-n    MPI_Pack with the type ddtc_NAME_build makes: its MPI-facing
//            form (docs/mpi-forms.md), the type as given where no form is
//            modelled clearly faster
//   hand     a hand-written loop (HandLoops.h): nested element loops for
//            the seed-000 (docs/design.md#references) layouts (names
//            GROUP_A<n>), otherwise one memcpy per block of the flattened block
//            list
//   memcpy   one memcpy of the packed size
//   memcpy-L one memcpy of (64 * L + P) / 2 bytes, L the distinct cache
//            lines the message touches in its typed buffer and P its packed
//            size: the bandwidth of the roofline over pack's footprint
//            (Roofline.h)
//   walk     one byte loaded from each of those L lines in address order
//            (walk-read, pack's typed buffer) and stored into each
//            (walk-write, unpack's): touching the lines and nothing else
//            (Roofline.h)
//
// Before timing, every pack result (ddtc, shape, mpi-n, hand) must equal
// MPI_Pack and every unpack result (ddtc, shape, hand) must equal MPI_Unpack, byte for
// byte over the whole typed buffer; otherwise the benchmark fails (exit 1).
//
// Timing: a repetition times a batch of calls lasting at least --min-ms,
// after a read of twice the last-level cache (which writes back the lines
// the previous method left dirty) and one untimed call of the same method,
// so that every method starts from clean caches and a TLB holding its own
// data. Without them, the method that followed the hand unpack of 140 MB
// paid for it: 35 % on NAS_MG_x, whichever method it was. The methods take
// turns, one batch each, so that a noisy moment hits all of them. Reported:
// the median over --reps repetitions of the throughput in GB/s (10^9 bytes
// of packed data per second); with --best, the best repetition instead
// (for A/B experiments on a busy machine).
//
// With --cold, every repetition is one call after the cache flush and an
// eviction of the address translations, and no warm-up call: the typed and
// packed buffers come from memory and their pages must be walked again, as
// in an application whose working set exceeds the last-level cache between
// two exchanges; the turn starts at another method in every repetition. The
// default (warm) measures a message packed again and again, as a ping-pong
// does; the two can order the methods differently (software prefetching of
// table walks, docs/performance.md).
//
// Usage:
//   ddtc-pack-bench [--reps N] [--min-ms T] [--target-bytes B] [--count N]
//                   [--max-footprint B] [--best] [--cold] FILE LIBRARY.so
//                   [FILE LIBRARY.so...]
//
// Output: JSON on stdout (one object per type; bench/pack/pack-report.py turns
// one or more such files into the tables of docs/performance.md), and a
// line per type on stderr.
//
//===----------------------------------------------------------------------===//
#include "HandLoops.h"
#include "Roofline.h"

#include "ddtc/CodeGen/ShapeKernel.h"
#include "ddtc/IR/Module.h"
#include "ddtc/IR/TypeContext.h"
#include "ddtc/IR/TypemapWalker.h"
#include "ddtc/Reader/ReadFile.h"

#include "ddtc/MPI/PredefinedHandles.h"
#include "ddtc/MPI/TypeBuilder.h"
#include "ddtc/Passes/Normalizer.h"
#include "ddtc/Support/UsageStatus.h"
#include "ddtc/Target/MPICHRules.h"

#include <CLI/CLI.hpp>
#include <mpi.h>

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

using namespace ddtc;
using namespace ddtc::bench;

namespace {

struct Options {
  int Reps = 11;
  double MinMs = 10;
  int64_t TargetBytes = 2 << 20;
  int64_t MinBytes = 1 << 20;
  int64_t MaxFootprint = 256 << 20;
  int64_t Count = 0; ///< fixed count; 0: from the target size
  bool Best = false;
  bool Cold = false; ///< one call per repetition, from memory
  std::vector<std::string> Positional;
};

[[noreturn]] void fail(const std::string &Msg) {
  std::fprintf(stderr, "ddtc-pack-bench: %s\n", Msg.c_str());
  std::fflush(stdout);
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::exit(1);
}

//===----------------------------------------------------------------------===//
// The emitted library
//===----------------------------------------------------------------------===//

struct Emitted {
  size_t (*PackedSize)(size_t);
  void (*Pack)(const void *, size_t, void *);
  void (*Unpack)(const void *, size_t, void *);
  int (*Build)(MPI_Datatype *);
};

class Library {
public:
  explicit Library(const std::string &Path)
      : H(dlopen(
            (Path.find('/') == std::string::npos ? "./" + Path : Path).c_str(),
            RTLD_NOW | RTLD_LOCAL)) {
    if (!H)
      fail(dlerror());
  }
  ~Library() { dlclose(H); }
  Library(const Library &) = delete;
  Library &operator=(const Library &) = delete;

  Emitted lookup(const std::string &Name) {
    Emitted E;
    E.PackedSize =
        reinterpret_cast<decltype(E.PackedSize)>(get(Name, "_packed_size"));
    E.Pack = reinterpret_cast<decltype(E.Pack)>(get(Name, "_pack"));
    E.Unpack = reinterpret_cast<decltype(E.Unpack)>(get(Name, "_unpack"));
    E.Build = reinterpret_cast<decltype(E.Build)>(get(Name, "_build"));
    return E;
  }

private:
  void *get(const std::string &Name, const char *Suffix) {
    std::string Symbol = "ddtc_" + Name + Suffix;
    void *P = dlsym(H, Symbol.c_str());
    if (!P)
      fail("no symbol " + Symbol);
    return P;
  }
  void *H;
};

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

struct FreeDeleter {
  void operator()(void *P) const { std::free(P); }
};

/// Bytes aligned to 64, filled with a pattern.
class Bytes {
public:
  explicit Bytes(size_t N, uint64_t Salt) : N(N) {
    size_t Alloc = (std::max<size_t>(N, 1) + 63) / 64 * 64;
    P.reset(static_cast<uint8_t *>(std::aligned_alloc(64, Alloc)));
    if (!P)
      fail("out of memory");
    fill(Salt);
  }
  void fill(uint64_t Salt) {
    uint64_t X = Salt * 0x9E3779B97F4A7C15ull + 1;
    for (size_t I = 0; I < N; ++I) {
      X ^= X << 13;
      X ^= X >> 7;
      X ^= X << 17;
      P[I] = static_cast<uint8_t>(X);
    }
  }
  uint8_t *data() { return P.get(); }
  size_t size() const { return N; }

private:
  size_t N;
  std::unique_ptr<uint8_t[], FreeDeleter> P;
};

/// The typed buffer of Count instances of T: the pointer one passes to MPI
/// (base) is 64-byte aligned, as an application's array would be, and the
/// allocation covers every byte the typemap touches.
class TypedBuffer {
public:
  TypedBuffer(const Type *T, int64_t Count, uint64_t Salt)
      : Lo(lowest(T, Count)),
        Mem(static_cast<size_t>(highest(T, Count) - Lo) + 64, Salt) {}
  static int64_t lowest(const Type *T, int64_t Count) {
    return std::min(T->trueLb(), T->trueLb() + (Count - 1) * T->extent());
  }
  static int64_t highest(const Type *T, int64_t Count) {
    int64_t TrueUb = T->trueLb() + T->trueExtent();
    return std::max(TrueUb, TrueUb + (Count - 1) * T->extent());
  }
  static int64_t footprint(const Type *T, int64_t Count) {
    return highest(T, Count) - lowest(T, Count);
  }
  /// Byte 0 of the typemap's coordinates: the first 64-aligned address at
  /// least -Lo bytes into the allocation, so that base + Lo is inside it.
  uint8_t *base() {
    uintptr_t B =
        reinterpret_cast<uintptr_t>(Mem.data()) - static_cast<uintptr_t>(Lo);
    return reinterpret_cast<uint8_t *>((B + 63) / 64 * 64);
  }
  Bytes &bytes() { return Mem; }

private:
  int64_t Lo;
  Bytes Mem;
};

//===----------------------------------------------------------------------===//
// Timing
//===----------------------------------------------------------------------===//

using Clock = std::chrono::steady_clock;

struct Method {
  Method(std::string Name, std::function<void()> Run)
      : Name(std::move(Name)), Run(std::move(Run)) {}
  std::string Name;
  std::function<void()> Run;
  int64_t Batch = 1;
  std::vector<double> Seconds; ///< per call, one entry per repetition
};

double median(std::vector<double> V) {
  std::sort(V.begin(), V.end());
  size_t N = V.size();
  return N % 2 ? V[N / 2] : (V[N / 2 - 1] + V[N / 2]) / 2;
}

double secondsOf(Method &M, int64_t Calls) {
  auto Start = Clock::now();
  for (int64_t I = 0; I < Calls; ++I)
    M.Run();
  return std::chrono::duration<double>(Clock::now() - Start).count();
}

/// Reads a buffer twice the size of the last-level cache, so that the
/// lines another method left dirty are written back now, not during the
/// next method's batch (a pack that followed an unpack of 30 MB paid for
/// its write-backs: 0.88 against 1.25 GB/s on SPECFEM3D_oc).
void flushCaches() {
  // Twice the 32 MiB L3 of the Zen 4/5 parts the benchmark ran on; fixed,
  // since sysconf(_SC_LEVEL3_CACHE_SIZE) reports 532 MB under this VM.
  static std::vector<uint64_t> Big((64 << 20) / sizeof(uint64_t), 1);
  uint64_t Sum = 0;
  for (size_t I = 0; I < Big.size(); I += 8) // one word per line
    Sum += Big[I];
  static volatile uint64_t Sink;
  Sink = Sink + Sum;
}

/// Touches one word of every page of 2 GiB, so that no address
/// translation of the previous method survives into the next: neither in
/// the TLBs nor as page-table lines in the caches. flushCaches() alone does
/// not evict them (it touches 16,384 pages), and what survived showed: a
/// cold pack that followed a method reading the same typed buffer ran up to
/// 1.6x faster than one that followed an unpack elsewhere (MILC_su3_zd: the
/// same kernel 126-170 us after MPI_Pack, 205-228 us after an unpack; a
/// 256 MiB flush kept the difference, pages of 512 MiB most of it, pages of
/// 1 GiB and more none). About 17 ms per call on the benchmark's machine.
void evictTranslations() {
  static std::vector<uint64_t> Pages((size_t(2) << 30) / sizeof(uint64_t), 1);
  constexpr size_t WordsPerPage = 4096 / sizeof(uint64_t);
  uint64_t Sum = 0;
  for (size_t I = 0; I < Pages.size(); I += WordsPerPage)
    Sum += Pages[I];
  static volatile uint64_t Sink;
  Sink = Sink + Sum;
}

/// Times every method Reps times, in turns.
void timeAll(std::vector<Method> &Ms, const Options &O) {
  if (O.Cold) {
    // Repetition R starts at method R (mod the number of methods), so that
    // every method takes every place in the turn; each call starts from
    // the same state, caches and translations evicted, whatever ran before
    // it (the predecessor, which the rotation does not change, decided up
    // to 30 % while translations survived: evictTranslations()).
    for (int R = 0; R < O.Reps; ++R)
      for (size_t I = 0; I < Ms.size(); ++I) {
        Method &M = Ms[(static_cast<size_t>(R) + I) % Ms.size()];
        flushCaches();
        evictTranslations();
        M.Seconds.push_back(secondsOf(M, 1));
      }
    return;
  }
  for (Method &M : Ms) {
    M.Run(); // warm up
    double T = secondsOf(M, 1);
    M.Batch = std::max<int64_t>(
        1, static_cast<int64_t>(std::ceil(O.MinMs * 1e-3 / std::max(T, 1e-9))));
  }
  for (int R = 0; R < O.Reps; ++R)
    for (Method &M : Ms) {
      // Every batch starts from the same state: clean caches holding this
      // method's data, not the previous method's dirty lines.
      flushCaches();
      M.Run();
      M.Seconds.push_back(secondsOf(M, M.Batch) / static_cast<double>(M.Batch));
    }
}

//===----------------------------------------------------------------------===//
// One type
//===----------------------------------------------------------------------===//

struct Row {
  std::string Name;
  int64_t Count = 0, Packed = 0, Footprint = 0, Runs = 0;
  int64_t MemcpyBytes = 0; ///< of the roofline's memcpy ("memcpy_L")
  LineCount Lines;
  bool HandIsGeneric = false;
  /// Method name and seconds per call (median or best over repetitions).
  std::vector<std::pair<std::string, double>> Seconds;
};

int64_t chooseCount(const Type *T, const Options &O) {
  if (O.Count)
    return O.Count;
  int64_t Size = T->size();
  auto CountFor = [&](int64_t Bytes) {
    return std::max<int64_t>(1, (Bytes + Size - 1) / Size);
  };
  int64_t C = CountFor(O.TargetBytes);
  if (TypedBuffer::footprint(T, C) > O.MaxFootprint)
    C = CountFor(std::min(O.MinBytes, O.TargetBytes));
  return C;
}

void comparePacked(const std::string &Name, const char *What,
                   const uint8_t *Got, const uint8_t *Want, size_t N) {
  if (std::memcmp(Got, Want, N) == 0)
    return;
  size_t I = 0;
  while (Got[I] == Want[I])
    ++I;
  fail(Name + ": " + What + " differs from MPI_Pack at byte " +
       std::to_string(I) + " of " + std::to_string(N));
}

/// Where the line walk's loads go, so that the compiler keeps them.
volatile uint64_t WalkSink;

Row benchType(const std::string &Name, const Type *T, Library &Lib,
              MpiBuilder &Builder, const Options &O, TypeContext &Ctx) {
  Row R;
  R.Name = Name;
  Emitted E = Lib.lookup(Name);
  // Built as the runtime builds it at commit: from the normal form.
  Normalizer Norm(Ctx);
  std::unique_ptr<ShapeKernel> Shape = ShapeKernel::build(Norm.normalize(T));
  int64_t Count = chooseCount(T, O);
  size_t Packed = static_cast<size_t>(Count * T->size());
  if (E.PackedSize(static_cast<size_t>(Count)) != Packed)
    fail(Name + ": ddtc_" + Name + "_packed_size differs from the type's size");
  R.Count = Count;
  R.Packed = static_cast<int64_t>(Packed);
  R.Footprint = TypedBuffer::footprint(T, Count);

  // The blocks: of one instance for the generic hand loop, of the whole
  // message for the mean contiguous block (runs merge across instances).
  std::vector<Block> Blocks;
  {
    TypemapWalker W(T, 1, WalkMode::Bytes);
    TypemapRun Run;
    while (W.next(Run))
      Blocks.push_back({Run.Offset, Run.Length});
    TypemapWalker WAll(T, static_cast<uint64_t>(Count), WalkMode::Bytes);
    while (WAll.next(Run))
      ++R.Runs;
  }
  std::vector<int64_t> LineStarts;
  R.Lines = countLines(Blocks, T->extent(), Count, &LineStarts);
  Seed000Layout Layout;
  int A = 0;
  R.HandIsGeneric = !parseSeed000Name(Name, Layout, A);

  std::string Err;
  std::optional<Handle> Mpi = Builder.build(T, Err);
  if (!Mpi)
    fail(Name + ": " + Err);
  MPI_Datatype MpiType = Mpi->get();
  MPI_Type_commit(&MpiType);
  MPI_Datatype NormType;
  if (E.Build(&NormType) != MPI_SUCCESS)
    fail(Name + ": ddtc_" + Name + "_build failed");
  MPI_Type_commit(&NormType);

  TypedBuffer Src(T, Count, 1), Dst(T, Count, 2);
  Bytes Ref(Packed, 3), Out(Packed, 4), Copy(Packed, 5);
  // The roofline's memcpy: as many bytes in its two buffers as pack has in
  // the lines it touches and its packed stream, so that both live at the
  // same level of the memory hierarchy.
  R.MemcpyBytes =
      (LineBytes * R.Lines.Lines + R.Packed) / 2 / LineBytes * LineBytes;
  size_t MemcpyBytes = static_cast<size_t>(R.MemcpyBytes);
  Bytes LinesFrom(MemcpyBytes, 9), LinesTo(MemcpyBytes, 10);
  uint8_t *SrcBase = Src.base(), *DstBase = Dst.base();
  int PackedInt = static_cast<int>(Packed);
  int ICount = static_cast<int>(Count);
  auto MpiPack = [&](MPI_Datatype Ty, uint8_t *To) {
    int Pos = 0;
    MPI_Pack(SrcBase, ICount, Ty, To, PackedInt, &Pos, MPI_COMM_SELF);
  };
  auto MpiUnpack = [&] {
    int Pos = 0;
    MPI_Unpack(Ref.data(), PackedInt, &Pos, DstBase, ICount, MpiType,
               MPI_COMM_SELF);
  };
  auto HandPack = [&](uint8_t *To) {
    if (R.HandIsGeneric)
      packBlocks(Blocks.data(), Blocks.size(), T->extent(),
                 reinterpret_cast<const char *>(SrcBase),
                 static_cast<size_t>(Count), reinterpret_cast<char *>(To));
    else
      packSeed000(Layout, A, reinterpret_cast<const int *>(SrcBase),
                  static_cast<size_t>(Count), reinterpret_cast<int *>(To));
  };
  auto HandUnpack = [&] {
    if (R.HandIsGeneric)
      unpackBlocks(Blocks.data(), Blocks.size(), T->extent(),
                   reinterpret_cast<const char *>(Ref.data()),
                   static_cast<size_t>(Count),
                   reinterpret_cast<char *>(DstBase));
    else
      unpackSeed000(Layout, A, reinterpret_cast<const int *>(Ref.data()),
                    static_cast<size_t>(Count),
                    reinterpret_cast<int *>(DstBase));
  };

  // Check once: every pack against MPI_Pack, every unpack against
  // MPI_Unpack over the whole typed buffer (so also bytes it must not
  // touch).
  MpiPack(MpiType, Ref.data());
  E.Pack(SrcBase, static_cast<size_t>(Count), Out.data());
  comparePacked(Name, "ddtc pack", Out.data(), Ref.data(), Packed);
  Out.fill(11);
  Shape->pack(SrcBase, static_cast<size_t>(Count), Out.data());
  comparePacked(Name, "shape pack", Out.data(), Ref.data(), Packed);
  Out.fill(6);
  MpiPack(NormType, Out.data());
  comparePacked(Name, "MPI_Pack of the MPI-facing form", Out.data(), Ref.data(),
                Packed);
  Out.fill(7);
  HandPack(Out.data());
  comparePacked(Name, "hand pack", Out.data(), Ref.data(), Packed);
  {
    Bytes &D = Dst.bytes();
    D.fill(8);
    MpiUnpack();
    std::vector<uint8_t> Want(D.data(), D.data() + D.size());
    D.fill(8);
    E.Unpack(Ref.data(), static_cast<size_t>(Count), DstBase);
    comparePacked(Name, "ddtc unpack (typed buffer)", D.data(), Want.data(),
                  D.size());
    D.fill(8);
    Shape->unpack(Ref.data(), static_cast<size_t>(Count), DstBase);
    comparePacked(Name, "shape unpack (typed buffer)", D.data(), Want.data(),
                  D.size());
    D.fill(8);
    HandUnpack();
    comparePacked(Name, "hand unpack (typed buffer)", D.data(), Want.data(),
                  D.size());
  }

  std::vector<Method> Ms;
  Ms.push_back({"ddtc_pack", [&] {
                  E.Pack(SrcBase, static_cast<size_t>(Count), Out.data());
                }});
  Ms.push_back({"shape_pack", [&] {
                  Shape->pack(SrcBase, static_cast<size_t>(Count), Out.data());
                }});
  Ms.push_back({"mpi_pack", [&] { MpiPack(MpiType, Out.data()); }});
  Ms.push_back({"mpi_n_pack", [&] { MpiPack(NormType, Out.data()); }});
  Ms.push_back({"hand_pack", [&] { HandPack(Out.data()); }});
  Ms.push_back(
      {"memcpy", [&] { std::memcpy(Copy.data(), Ref.data(), Packed); }});
  Ms.push_back({"memcpy_L", [&] {
                  std::memcpy(LinesTo.data(), LinesFrom.data(), MemcpyBytes);
                }});
  // The line walk (Roofline.h): touching the lines alone, read in pack's
  // typed buffer and written in unpack's.
  Ms.push_back(
      {"walk_read", [&] { WalkSink = walkLinesRead(SrcBase, LineStarts); }});
  Ms.push_back({"walk_write", [&] { walkLinesWrite(DstBase, LineStarts); }});
  Ms.push_back({"ddtc_unpack", [&] {
                  E.Unpack(Ref.data(), static_cast<size_t>(Count), DstBase);
                }});
  Ms.push_back({"shape_unpack", [&] {
                  Shape->unpack(Ref.data(), static_cast<size_t>(Count),
                                DstBase);
                }});
  Ms.push_back({"mpi_unpack", MpiUnpack});
  Ms.push_back({"hand_unpack", HandUnpack});
  timeAll(Ms, O);
  for (Method &M : Ms)
    R.Seconds.push_back(
        {M.Name, O.Best ? *std::min_element(M.Seconds.begin(), M.Seconds.end())
                        : median(M.Seconds)});

  MPI_Type_free(&NormType); // MpiType is freed by its Handle
  return R;
}

//===----------------------------------------------------------------------===//
// Report
//===----------------------------------------------------------------------===//

/// The first line of MPI_Get_library_version: "MPICH Version: 4.0.2",
/// "Open MPI v4.1.4, ...".
std::string mpiLibrary() {
  char V[MPI_MAX_LIBRARY_VERSION_STRING];
  int Len = 0;
  MPI_Get_library_version(V, &Len);
  std::string S(V, static_cast<size_t>(Len));
  S = S.substr(0, S.find_first_of("\n\r"));
  while (!S.empty() && (S.back() == ' ' || S.back() == '\t'))
    S.pop_back();
  // Put into a JSON string as it is: no quote, backslash or tab in it.
  for (char &C : S)
    if (C == '"' || C == '\\' || C == '\t')
      C = ' ';
  return S;
}

/// Writes the results as JSON (schema in bench/pack/pack-report.py).
void printJson(const std::vector<Row> &Rows, const Options &O) {
  std::printf("{\n  \"schema\": 1,\n  \"mpi\": \"%s\",\n  \"reps\": %d,\n"
              "  \"statistic\": \"%s\",\n  \"cache\": \"%s\",\n  \"types\": [",
              mpiLibrary().c_str(), O.Reps, O.Best ? "best" : "median",
              O.Cold ? "cold" : "warm");
  for (size_t I = 0; I < Rows.size(); ++I) {
    const Row &R = Rows[I];
    std::printf("%s\n    {\"name\": \"%s\", \"count\": %lld, \"packed\": %lld, "
                "\"footprint\": %lld, \"runs\": %lld, \"hand\": \"%s\",\n"
                "     \"lines\": %lld, \"full_lines\": %lld, "
                "\"instance_lines\": %lld, \"overlap_bytes\": %lld, "
                "\"bound_bytes\": %lld, \"memcpy_L_bytes\": %lld,\n"
                "     \"seconds\": {",
                I ? "," : "", R.Name.c_str(), static_cast<long long>(R.Count),
                static_cast<long long>(R.Packed),
                static_cast<long long>(R.Footprint),
                static_cast<long long>(R.Runs),
                R.HandIsGeneric ? "blocks" : "element loops",
                static_cast<long long>(R.Lines.Lines),
                static_cast<long long>(R.Lines.FullLines),
                static_cast<long long>(R.Lines.InstanceLines),
                static_cast<long long>(R.Lines.OverlapBytes),
                static_cast<long long>(boundBytes(R.Lines, R.Packed)),
                static_cast<long long>(R.MemcpyBytes));
    for (size_t J = 0; J < R.Seconds.size(); ++J)
      std::printf("%s\"%s\": %.6e", J ? ", " : "", R.Seconds[J].first.c_str(),
                  R.Seconds[J].second);
    std::printf("}}");
  }
  std::printf("\n  ]\n}\n");
}

/// Reads the command line into O; -1 to go on, else the exit status (0 for
/// --help, 2 for a usage error naming the option).
int parseArgs(int Argc, char **Argv, Options &O) {
  CLI::App App{"ddtc-pack-bench: MPI_Pack/MPI_Unpack against the emitted "
               "kernels, hand loops and the roofline, per type of each "
               "description file with the kernel library emitted for it",
               "ddtc-pack-bench"};
  App.add_option("pairs", O.Positional, "FILE LIBRARY.so [FILE LIBRARY.so...]")
      ->required();
  constexpr int64_t MaxBytes = int64_t(1) << 46;
  App.add_option("--reps", O.Reps, "repetitions, the median taken")
      ->check(CLI::Range(1, 1000000));
  App.add_option("--min-ms", O.MinMs, "the least time of one repetition")
      ->check(CLI::Range(0.001, 1e6));
  App.add_option("--target-bytes", O.TargetBytes,
                 "the packed bytes of a message")
      ->check(CLI::Range(int64_t(1), MaxBytes));
  App.add_option("--count", O.Count, "instances per message (instead)")
      ->check(CLI::Range(int64_t(1), MaxBytes));
  App.add_option("--max-footprint", O.MaxFootprint,
                 "skip a message whose buffers exceed this many bytes")
      ->check(CLI::Range(int64_t(1), MaxBytes));
  App.add_flag("--best", O.Best, "report the best repetition");
  App.add_flag("--cold", O.Cold, "one call per repetition, from memory");
  try {
    App.parse(Argc, Argv);
    if (O.Positional.size() % 2 != 0)
      throw CLI::ValidationError("pairs",
                                 "a LIBRARY.so for every FILE is missing");
  } catch (const CLI::ParseError &E) {
    return usageStatus(App, E);
  }
  return -1;
}

} // namespace

int main(int argc, char **argv) {
  Options O;
  if (int Status = parseArgs(argc, argv, O); Status >= 0)
    return Status;
  return runWithMpi(
      argc, argv, "ddtc-pack-bench",
      [&](const std::vector<MPI_Datatype> &Handles) {
        MpiBuilder Builder(Handles);
        std::vector<Row> Rows;
        for (size_t F = 0; F < O.Positional.size(); F += 2) {
          TypeContext Ctx(getMPICHRules());
          Module M(Ctx);
          if (Error Err = readAnyDescriptionFile(O.Positional[F], M))
            fail(Err.message());
          Library Lib(O.Positional[F + 1]);
          for (const NamedType &N : M.types()) {
            Rows.push_back(benchType(N.Name, N.T, Lib, Builder, O, Ctx));
            std::fprintf(stderr, "done %s\n", N.Name.c_str());
          }
        }
        printJson(Rows, O);
        return 0;
      });
}

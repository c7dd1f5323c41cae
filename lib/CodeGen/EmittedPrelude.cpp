//===- lib/CodeGen/EmittedPrelude.cpp - Helpers of every PREFIX.cpp -------===//
//
// Not part of ddtc: the text between the two marker lines below is printed
// verbatim at the top of every PREFIX.cpp that `ddtc emit` writes, inside
// its anonymous namespace (PackEmitter.cpp, SourcePrinter::printPrelude).
// CMake turns it into a string literal at configure time
// (lib/CodeGen/CMakeLists.txt), so that the helpers can be read, edited and
// compiled here as C++ rather than as lines of string literals;
// test/CodeGen/prelude.test compiles this file as it stands.
//
// The includes and the namespace around the markers are the ones the
// emitter prints before and after the prelude. Everything between the
// markers is emitted code: it must compile as C++11 without a warning
// (-Wall -Wextra -Wpedantic), use nothing but the standard library, and any
// change to it changes every emitted file.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cstddef>
#include <cstring>

namespace {

// clang-format off: the lines below are emitted as they stand.
// ddtc-prelude-begin
typedef std::ptrdiff_t Off;

// Moves N bytes between the user's buffer and the packed stream: to the
// stream when packing, from it when unpacking. N is a constant almost
// everywhere, and the compiler turns such a copy into register moves.
template <bool Pack> inline void xfer(char *Buf, char *Packed, std::size_t N) {
  if (Pack)
    std::memcpy(Packed, Buf, N);
  else
    std::memcpy(Buf, Packed, N);
}

// The same for a constant N above 256 bytes, as a call of the C library's
// memcpy: g++ would expand it as `rep movsq`, slow to start, and the
// library's vector loop is faster than any inline expansion there. The
// volatile zero hides the constant from the compiler.
template <bool Pack>
inline void xferLong(char *Buf, char *Packed, std::size_t N) {
  static volatile std::size_t OpaqueZero = 0;
  xfer<Pack>(Buf, Packed, N + OpaqueZero);
}

// Asks for the line at Buf ahead of its use, to be read (pack) or
// written (unpack): table walks, whose addresses the hardware cannot
// guess. A hint only, and only where the compiler has the builtin.
template <bool Pack> inline void prefetch(const char *Buf) {
#if defined(__GNUC__) || defined(__clang__)
  __builtin_prefetch(Buf, Pack ? 0 : 1);
#else
  (void)Buf;
#endif
}

// Whether a message walks more memory than the cache holds: Count
// instances Step bytes apart, each Span bytes from its first byte of data
// to its last. The prefetches above pay only there. On a buffer in the
// cache (a small message the program has just written, a ping-pong's) they
// cost an instruction and a table load per element for nothing, 1.2-1.5x
// on one SPECFEM3D_oc instance; from memory they make a table walk 2x
// faster. The bound is a quarter of a core's L2 cache (512 KiB on Zen 3):
// the message's buffer shares it with the packed one and the program's
// other data (one 256 KB LAMMPS_full instance, sent and received, gained
// from its prefetches). It may be set when the file is compiled. (A
// template: clang warns of an unused function, and a file with no table
// walk does not call it.)
#ifndef DDTC_PREFETCH_MIN_BYTES
#define DDTC_PREFETCH_MIN_BYTES 131072
#endif
template <int = 0>
inline bool farWalk(std::size_t Count, std::size_t Step, std::size_t Span) {
  const std::size_t Near = DDTC_PREFETCH_MIN_BYTES;
  if (Span > Near)
    return true;
  return Step != 0 && Count > 1 && Count - 1 > (Near - Span) / Step;
}

// Hides the typed address E of a small move in a loop whose typed side is
// far apart (or read from a table): the empty statement claims to change
// E, so the compiler cannot see the loop's access pattern and keeps it
// scalar, with the instructions it would use otherwise (the loop's counter
// and pointers stay as they are; an opaque counter made g++ -O2 compute
// every address anew, 1.5-2x slower on NAS_MG_x). Vectorized, such moves
// cannot be loaded or stored as vectors, and g++ -O3 builds the vectors
// through the stack, a store-forwarding stall per pair (4x slower).
// (A template, as the other helpers: clang warns of an unused function.)
template <class Ptr> inline void keepScalar(Ptr &E) {
#if defined(__GNUC__) || defined(__clang__)
  __asm__("" : "+r"(E));
#else
  (void)E;
#endif
}

// Moves a square of a transpose through registers: 16 / Lanes-byte blocks,
// Lanes rows of Lanes consecutive blocks in the user's buffer (row i at
// B + i * BS) and as many columns in the packed stream (column j at
// P + j * PS). A transpose is its own inverse: the same shuffles take rows
// to columns (pack) and columns to rows (unpack). One 16-byte load and
// store per row instead of Lanes of each: unpack, whose stores wait for
// their lines, 1.1-1.8x (docs/emit.md, "Transposes in registers"). GNU
// vector extensions, where the compiler has __builtin_shufflevector
// (clang, g++ 12); other compilers get the scalar nest.
#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 12)
#define DDTC_TRANSPOSE_IN_REGISTERS 1
template <bool Pack, int Lanes>
inline void transposeSquare(char *B, Off BS, char *P, Off PS) {
  typedef int V4 __attribute__((vector_size(16)));
  typedef long long V2 __attribute__((vector_size(16)));
  char *From = Pack ? B : P, *To = Pack ? P : B;
  const Off FS = Pack ? BS : PS, TS = Pack ? PS : BS;
  if (Lanes == 2) {
    V2 R0, R1;
    std::memcpy(&R0, From, 16);
    std::memcpy(&R1, From + FS, 16);
    V2 C0 = __builtin_shufflevector(R0, R1, 0, 2);
    V2 C1 = __builtin_shufflevector(R0, R1, 1, 3);
    std::memcpy(To, &C0, 16);
    std::memcpy(To + TS, &C1, 16);
  } else {
    V4 R0, R1, R2, R3;
    std::memcpy(&R0, From, 16);
    std::memcpy(&R1, From + FS, 16);
    std::memcpy(&R2, From + 2 * FS, 16);
    std::memcpy(&R3, From + 3 * FS, 16);
    V4 A0 = __builtin_shufflevector(R0, R1, 0, 4, 1, 5);
    V4 A1 = __builtin_shufflevector(R0, R1, 2, 6, 3, 7);
    V4 A2 = __builtin_shufflevector(R2, R3, 0, 4, 1, 5);
    V4 A3 = __builtin_shufflevector(R2, R3, 2, 6, 3, 7);
    V4 C0 = __builtin_shufflevector(A0, A2, 0, 1, 4, 5);
    V4 C1 = __builtin_shufflevector(A0, A2, 2, 3, 6, 7);
    V4 C2 = __builtin_shufflevector(A1, A3, 0, 1, 4, 5);
    V4 C3 = __builtin_shufflevector(A1, A3, 2, 3, 6, 7);
    std::memcpy(To, &C0, 16);
    std::memcpy(To + TS, &C1, 16);
    std::memcpy(To + 2 * TS, &C2, 16);
    std::memcpy(To + 3 * TS, &C3, 16);
  }
}
#endif

// Walks bytes [F, L) of the packed stream of a sequence of elements of E
// packed bytes each: Wholes(k0, k1, P) copies the whole elements [k0, k1)
// (in an order of its own if it likes: the tiles of a transpose),
// Part(k, P, A, Z) the bytes [A, Z) of element k, to or from the stream at
// P; both return the end of the bytes they copied.
template <class WholesFn, class PartFn>
inline char *rangeOfSpans(std::size_t E, std::size_t F, std::size_t L, char *P,
                          WholesFn Wholes, PartFn Part) {
  if (F >= L)
    return P;
  Off K = Off(F / E);
  std::size_t A = F % E;
  if (A != 0) { // starts inside element K
    std::size_t Z = L - F < E - A ? A + (L - F) : E;
    P = Part(K, P, A, Z);
    F += Z - A;
    ++K;
  }
  Off N = Off((L - F) / E);
  std::size_t Rest = (L - F) % E;
  if (N > 0)
    P = Wholes(K, K + N, P);
  return Rest ? Part(K + N, P, 0, Rest) : P;
}

// The same with Whole(k, P) copying element k: the whole elements in a
// loop of their own, which the compiler treats as the copy kernel's loop
// (a piece of a pipeline is mostly these).
template <class WholeFn, class PartFn>
inline char *rangeOf(std::size_t E, std::size_t F, std::size_t L, char *P,
                     WholeFn Whole, PartFn Part) {
  return rangeOfSpans(E, F, L, P, [&](Off K0, Off K1, char *Q) {
    for (Off K = K0; K < K1; ++K)
      Q = Whole(K, Q);
    return Q;
  }, Part);
}

// The same for elements of different sizes: element k holds the packed
// bytes [Starts[k], Starts[k + 1]).
template <class WholeFn, class PartFn>
inline char *rangeOfTable(const std::size_t *Starts, std::size_t N,
                          std::size_t F, std::size_t L, char *P, WholeFn Whole,
                          PartFn Part) {
  Off K = Off(std::upper_bound(Starts, Starts + N + 1, F) - Starts) - 1;
  while (F < L) {
    std::size_t S = Starts[K], E = Starts[K + 1] - S, A = F - S;
    std::size_t Z = L - F < E - A ? A + (L - F) : E;
    P = A == 0 && Z == E ? Whole(K, P) : Part(K, P, A, Z);
    F += Z - A;
    ++K;
  }
  return P;
}

// A contiguous block of an instance: byte offset and length.
struct Run {
  Off Offset;
  std::size_t Length;
};

// Copies bytes [F, L) of the packed stream of a list of N runs to P
// (Pack) or from P (!Pack).
template <bool Pack, class RunT>
inline char *rangeRuns(char *B, char *P, std::size_t F, std::size_t L,
                       const RunT *R, std::size_t N) {
  std::size_t S = 0;
  for (std::size_t I = 0; I < N && S < L; S += R[I].Length, ++I) {
    std::size_t A = F > S ? F - S : 0;
    std::size_t Z = L - S < R[I].Length ? L - S : R[I].Length;
    if (A < Z) {
      xfer<Pack>(B + (R[I].Offset + Off(A)), P, Z - A);
      P += Z - A;
    }
  }
  return P;
}

// Long index tables (docs/emit.md, "Index tables") are emitted as text the
// compiler reads as string literals -- a brace list of a million integers
// takes g++ minutes to parse, a string of the same table a fraction of a
// second -- and decoded into a static array on the first call of an entry
// point that uses them (under a function-local static, so once, and safely
// from several threads); the kernels read the array as they would a list.
//
// The code is a sequence of numbers, each in 6-bit digits, least
// significant first: the characters ./0-9A-Za-z stand for 0 to 63 (no
// character a string literal must escape). A digit with bit 5 set is
// followed by another of the same number; the first digit holds 4 bits of
// the number and, in bit 4, its kind, the others 5 bits. Kind 0: the
// number is the zigzag form of the difference between this entry and the
// previous one (0 before the first), which becomes the current difference;
// kind 1: the number of entries that follow at the current difference. An
// arithmetic run of any length thus costs a few characters, a random entry
// a few more than its decimal digits. The code is split into chunks of
// less than 64 KiB (the longest literal C++ compilers must accept), each
// ending between two numbers; Chunks lists them.
template <int = 0> inline unsigned tableDigit(char C) {
  return unsigned(C >= 'a' ? C - ('a' - 38) : C >= 'A' ? C - ('A' - 12)
                                                       : C - '.');
}

template <class T>
inline void decodeTable(T *Out, std::size_t N, const char *const *Chunks) {
  typedef unsigned long long U;
  const char *C = *Chunks;
  U Value = 0, Step = 0;
  std::size_t I = 0;
  while (I < N) {
    if (!*C)
      C = *++Chunks;
    unsigned D = tableDigit<>(*C++);
    const bool Repeat = (D & 16) != 0;
    U Num = D & 15;
    for (unsigned Shift = 4; D & 32; Shift += 5) {
      D = tableDigit<>(*C++);
      Num |= U(D & 31) << Shift;
    }
    if (!Repeat) {
      Step = (Num >> 1) ^ (U(0) - (Num & 1));
      Num = 1;
    }
    for (; Num > 0 && I < N; --Num) {
      Value += Step;
      Out[I++] = T(Value);
    }
  }
}

// Intersects the requested bytes [F, L) with the part [S, E) of a packed
// stream; on overlap, sets [Lo, Hi) to the intersection relative to S.
template <class SizeT>
inline bool clip(SizeT F, SizeT L, SizeT S, SizeT E, SizeT &Lo, SizeT &Hi) {
  if (F >= E || L <= S)
    return false;
  Lo = F > S ? F - S : 0;
  Hi = (L < E ? L : E) - S;
  return true;
}

// ddtc-prelude-end
// clang-format on
} // namespace

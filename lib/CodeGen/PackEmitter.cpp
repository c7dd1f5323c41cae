//===- lib/CodeGen/PackEmitter.cpp - PREFIX.h and PREFIX.cpp --------------===//
//
// Prints the kernels of a PackPlan as C++. Every kernel becomes
//
//   template <bool Pack> char *copyN(char *B, char *P)
//     copies one instance at B to the packed stream at P (Pack) or back
//     (!Pack) and returns the end of its packed bytes: pack and unpack are
//     one function, so they cannot disagree on the order of the bytes;
//   template <bool Pack> char *rangeN(char *B, char *P, size_t F, size_t L)
//     copies bytes [F, L) of one instance's packed stream to P (Pack) or
//     from P (!Pack), for pack_range and unpack_range; emitted only for
//     kernels that a range can reach.
//
// A kernel that walks an index table with prefetches, or calls one that
// does, takes a second parameter, `bool Far`: whether the message is too
// large to be in the cache, where the prefetches pay; the entry points
// decide it from count and extent (farWalk, docs/emit.md "Prefetching").
//
// Every count, stride, displacement and block size is a literal, so the
// compiler sees fixed-trip loops and fixed-size memcpy calls, which it
// turns into register and vector moves. Index lists become static arrays
// next to the kernel: short ones const arrays with a brace list, long ones
// arrays that the prelude decodes from string literals on first use
// (TableCode.h), which compilers read far faster than a list of integers.
// A transpose (Kernel::Tile) is copied tile by
// tile instead of in typemap order; its range function keeps the typemap
// order, which a byte range follows anyway. A prelude, EmittedPrelude.cpp,
// holds the helpers: the copy of a block, and the split of a byte range
// over a sequence of equally sized (or tabled) elements.
//
//===----------------------------------------------------------------------===//
#include "ddtc/CodeGen/CodeWriter.h"
#include "ddtc/CodeGen/Emit.h"
#include "ddtc/CodeGen/TableCode.h"
#include "ddtc/IR/TextForm.h"
#include "ddtc/Support/Text.h"

#include <algorithm>
#include <cassert>
#include <cstdio>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

namespace ddtc {

namespace {

std::string str(int64_t V) { return intLiteral(V); }
std::string str(uint64_t V) {
  return std::to_string(V) + (V > INT32_MAX ? "UL" : "");
}

/// The copy helper for a block of a constant Bytes: xferLong, a call of
/// the C library's memcpy, above 256 bytes, the size up to which g++ -O2
/// expands a memcpy as vector moves; above, g++ emits `rep movsq` up to
/// 16 KiB, which packs 384- to 1024-byte blocks at half the speed of the
/// library's memcpy (docs/performance.md).
std::string xferFn(int64_t Bytes) { return Bytes > 256 ? "xferLong" : "xfer"; }

/// A byte address relative to a base pointer: variable terms plus a
/// constant, printed as one integer sum added to the pointer.
struct Address {
  std::string Base = "B";
  std::vector<std::string> Terms;
  int64_t Offset = 0;

  Address plus(int64_t C) const {
    Address A = *this;
    A.Offset += C;
    return A;
  }
  Address plus(std::string Term) const {
    Address A = *this;
    A.Terms.push_back(std::move(Term));
    return A;
  }
  std::string print() const {
    if (Terms.empty()) {
      if (Offset == 0)
        return Base;
      return Base + (Offset < 0 && Offset != INT64_MIN ? " - " + str(-Offset)
                                                       : " + " + str(Offset));
    }
    if (Terms.size() == 1 && Offset == 0)
      return Base + " + " + Terms[0];
    std::string Sum;
    for (const std::string &T : Terms)
      Sum += (Sum.empty() ? "" : " + ") + T;
    if (Offset != 0)
      Sum += Offset < 0 && Offset != INT64_MIN ? " - " + str(-Offset)
                                               : " + " + str(Offset);
    return Base + " + (" + Sum + ")";
  }
};

/// Text as a C string literal. Octal escapes for everything but printable
/// ASCII: they end after three digits, where a hex escape would run on
/// into a following digit; and '?' escaped, so that no trigraph forms
/// (-std=c++11 has them).
std::string stringLiteral(std::string_view Text) {
  std::string S = "\"";
  for (char C : Text) {
    unsigned char U = static_cast<unsigned char>(C);
    if (C == '"' || C == '\\' || C == '?') {
      S += '\\';
      S += C;
    } else if (U < 0x20 || U >= 0x7f) {
      char Buf[5];
      std::snprintf(Buf, sizeof Buf, "\\%03o", U);
      S += Buf;
    } else {
      S += C;
    }
  }
  return S + "\"";
}

/// V as a 64-bit hex literal of type unsigned long long.
std::string hexLiteral(uint64_t V) {
  char Buf[24];
  std::snprintf(Buf, sizeof Buf, "0x%016llxULL",
                static_cast<unsigned long long>(V));
  return Buf;
}

/// Prints fixed text (the prelude, the kernel ABI), whose lines end in
/// '\n', through the writer, which takes one line at a time.
void printLines(CodeWriter &W, std::string_view Text) {
  while (!Text.empty()) {
    size_t End = Text.find('\n');
    if (End == std::string_view::npos)
      End = Text.size();
    W.line(Text.substr(0, End));
    Text = Text.substr(std::min(End + 1, Text.size()));
  }
}

/// "k * 24", or nothing for a stride of 0.
std::string scaled(const char *Var, int64_t Stride) {
  return Stride == 0 ? std::string() : std::string(Var) + " * " + str(Stride);
}

class SourcePrinter {
public:
  SourcePrinter(const Module &M, const CodeGenOptions &Options)
      : M(M), Options(Options), Plan(Options.Plan) {}

  std::string print();

private:
  // Names of the generated functions and tables.
  static std::string copyFn(const Kernel &K) {
    return "copy" + std::to_string(K.Id);
  }
  static std::string rangeFn(const Kernel &K) {
    return "range" + std::to_string(K.Id);
  }
  static std::string tileFn(const Kernel &K) {
    return "tile" + std::to_string(K.Id);
  }
  static std::string decodeFn(const Kernel &K) {
    return "tables" + std::to_string(K.Id);
  }
  static std::string table(const char *What, const Kernel &K, size_t S) {
    return What + std::to_string(K.Id) + "_" + std::to_string(S);
  }
  /// The template head of K's functions: Far only where K or a kernel it
  /// calls prefetches (Walks).
  std::string templateHead(const Kernel &K) const {
    return Walks[K.Id] ? "template <bool Pack, bool Far> inline char *"
                       : "template <bool Pack> inline char *";
  }
  /// The template arguments of a call of K's functions: the direction
  /// PackArg and, if K takes it, FarArg.
  std::string templateArgs(const Kernel &K, const std::string &PackArg,
                           const std::string &FarArg = "Far") const {
    return "<" + PackArg + (Walks[K.Id] ? ", " + FarArg : "") + ">";
  }

  bool needsRoot(const Type *T) const {
    return T->size() > 0 && !T->getLayout().isDense();
  }
  void markRanges();
  void markWalks();
  void markCoded();
  /// The tables segment SI of K needs: displacements when they are not
  /// strided, copies per element when they vary, and packed starts of the
  /// elements for the range function then; none where the code has
  /// literals instead (an unrolled loop outside range functions).
  bool hasDisps(const Kernel &K, const Segment &S) const {
    return !S.Strided && (!unrolled(S) || NeedsRange[K.Id]);
  }
  bool hasReps(const Kernel &K, const Segment &S) const {
    return !S.uniformReps() && (!unrolled(S) || NeedsRange[K.Id]);
  }
  bool hasStarts(const Kernel &K, const Segment &S) const {
    return !S.uniformReps() && NeedsRange[K.Id];
  }
  /// The tables of S are coded (TableCode.h), not brace lists.
  bool coded(const Kernel &K, const Segment &S) const {
    return S.Count > Options.MaxListedTable && (hasDisps(K, S) || hasReps(K, S));
  }
  bool unrolled(const Segment &S) const {
    return S.Count <= Plan.getOptions().MaxUnrolledLoop;
  }

  void printPrelude();
  void printKernel(const Kernel &K);
  void printTables(const Kernel &K);
  /// A table of Values as a const brace list, or, if Code, as an array
  /// and its code (TableCode.h).
  void printTable(const std::string &Type, const std::string &Name,
                  std::span<const int64_t> Values, bool Code);
  void printDecode(const Kernel &K);
  void printCopy(const Kernel &K);
  void printTiledCopy(const Kernel &K);
  void printTileSpan(const Kernel &K);
  void printTiledRange(const Kernel &K);
  void printTileNest(const Kernel &K, bool Span);
  void printSquares(const Tiling &T, const Address &A, const std::string &Column,
                    bool TestColumns, bool TestRows);
  void printRange(const Kernel &K);
  void printSegmentCopy(const Kernel &K, size_t SI);
  void printSegmentRange(const Kernel &K, size_t SI, const std::string &Lo,
                         const std::string &Hi);
  /// Copies an element of segment S at address A, made of Reps copies of
  /// the child (a literal or an expression), and advances the packed
  /// pointer Var; PackArg is the direction (the template parameter "Pack").
  void printElementCopy(const Segment &S, const Address &A,
                        const std::string &Reps, const std::string &PackArg,
                        const std::string &Var);
  /// The statements of a range lambda: copies bytes [Lo, Hi) of element at
  /// A to Q (Pack) or from Q (!Pack) and returns the new end.
  void printElementRange(const Segment &S, const Address &A,
                         const std::string &Reps);
  void printEntryPoints(const NamedType &N);
  /// The five functions of T, named Fn + "_packed_size", Fn + "_pack", ...
  void printEntryFunctions(const Type *T, const std::string &Fn);
  /// The five functions of Fn as calls of those of To.
  void printForwarders(const std::string &Fn, const std::string &To);
  void printKernelTable();
  void printKernelABI();

  /// Address of element Var of segment SI of K.
  Address elementAddress(const Kernel &K, size_t SI, const char *Var) const;
  std::string repsExpr(const Kernel &K, size_t SI, const char *Var) const;

  const Module &M;
  const CodeGenOptions &Options;
  PackPlan Plan;
  CodeWriter W;
  std::vector<bool> NeedsRange; ///< by kernel id
  /// By kernel id: the kernel or one it calls prefetches (Segment::Prefetch).
  std::vector<bool> Walks;
  /// By kernel id: the kernel or one it calls reads a coded table, which
  /// tablesN decodes before the first use.
  std::vector<bool> Coded;
  /// The text of the entry points printed so far (under a placeholder
  /// name), with the function prefix of the type they were printed for.
  std::unordered_map<std::string, std::string> EntryTexts;
};

std::string SourcePrinter::print() {
  // Plan the roots first: the plan then holds exactly the kernels used.
  std::vector<const Kernel *> Roots;
  for (const NamedType &N : M.types())
    if (needsRoot(N.T))
      Roots.push_back(&Plan.getKernel(N.T));
  NeedsRange.assign(Plan.kernels().size(), false);
  if (Options.RangeFunctions)
    for (const Kernel *K : Roots)
      NeedsRange[K->Id] = true;
  markRanges();
  markWalks();
  markCoded();

  W.line(GeneratedBanner);
  W.line("// Pack and unpack code for the types of " + Options.SourceName +
         " (see " + Options.BaseName + ".h).");
  W.line();
  W.line("#include \"" + Options.BaseName + ".h\"");
  W.line();
  W.line("#include <algorithm>");
  W.line("#include <cstddef>");
  W.line("#include <cstring>");
  W.line();
  W.line("namespace {");
  W.line();
  printPrelude();
  for (const std::unique_ptr<Kernel> &K : Plan.kernels())
    printKernel(*K);
  W.line("} // namespace");
  for (const NamedType &N : M.types())
    printEntryPoints(N);
  printKernelTable();
  return W.str();
}

void SourcePrinter::markRanges() {
  // Parents come after their children: one backward sweep propagates.
  for (size_t I = Plan.kernels().size(); I-- > 0;) {
    const Kernel &K = *Plan.kernels()[I];
    if (!NeedsRange[I])
      continue;
    for (const Segment &S : K.Segments)
      if (S.ChildKernel)
        NeedsRange[S.ChildKernel->Id] = true;
  }
}

void SourcePrinter::markWalks() {
  // Children come before their parents: one forward sweep propagates.
  Walks.assign(Plan.kernels().size(), false);
  for (const std::unique_ptr<Kernel> &K : Plan.kernels())
    for (const Segment &S : K->Segments)
      if (S.Prefetch || (S.ChildKernel && Walks[S.ChildKernel->Id]))
        Walks[K->Id] = true;
}

void SourcePrinter::markCoded() {
  // Children come before their parents: one forward sweep propagates.
  Coded.assign(Plan.kernels().size(), false);
  for (const std::unique_ptr<Kernel> &K : Plan.kernels())
    for (const Segment &S : K->Segments)
      if (coded(*K, S) || (S.ChildKernel && Coded[S.ChildKernel->Id]))
        Coded[K->Id] = true;
}

void SourcePrinter::printPrelude() {
  static const char Prelude[] =
#include "EmittedPrelude.inc"
      ;
  printLines(W, Prelude);
}

void SourcePrinter::printKernel(const Kernel &K) {
  W.line("// node " + std::to_string(K.Id) + ": " + shorten(printType(K.T)));
  printTables(K);
  printCopy(K);
  if (NeedsRange[K.Id]) {
    if (K.tiled())
      printTileSpan(K);
    printRange(K);
  }
  W.line();
}

void SourcePrinter::printTables(const Kernel &K) {
  bool Range = NeedsRange[K.Id];
  if (K.Shape == KernelShape::Runs && Range) {
    W.line("const Run " + table("runs", K, 0) + "[] = {");
    for (const ByteBlock &R : K.Runs)
      W.line("    {" + str(R.Offset) + ", " + str(R.Length) + "},");
    W.line("};");
  }
  for (size_t SI = 0; SI < K.Segments.size(); ++SI) {
    const Segment &S = K.Segments[SI];
    bool Code = coded(K, S);
    if (hasDisps(K, S))
      printTable("Off", table("disps", K, SI), S.Disps, Code);
    if (hasReps(K, S))
      printTable("Off", table("reps", K, SI), S.RepsList, Code);
    if (hasStarts(K, S)) {
      // Packed start of every element, relative to the segment.
      std::vector<int64_t> Starts{0};
      for (int64_t R : S.RepsList)
        Starts.push_back(Starts.back() + R * S.Child->size());
      printTable("std::size_t", table("starts", K, SI), Starts, Code);
    }
  }
  printDecode(K);
}

void SourcePrinter::printTable(const std::string &Type, const std::string &Name,
                               std::span<const int64_t> Values, bool Code) {
  if (!Code) {
    W.line("const " + Type + " " + Name + "[] = " + initializerList(Values) +
           ";");
    return;
  }
  // Filled by decodeTable from Name_code (the prelude, TableCode.h).
  W.line(Type + " " + Name + "[" + std::to_string(Values.size()) + "];");
  W.open("const char *const " + Name + "_code[] = {");
  // Lines of at most 100 characters, adjacent literals of one chunk.
  constexpr size_t LineChars = 100;
  for (const std::string &Chunk : encodeTable(Values)) {
    for (size_t At = 0; At < Chunk.size(); At += LineChars)
      W.line("\"" + Chunk.substr(At, LineChars) + "\"" +
             (At + LineChars >= Chunk.size() ? "," : ""));
  }
  W.close("};");
}

void SourcePrinter::printDecode(const Kernel &K) {
  if (!Coded[K.Id])
    return;
  // Decodes K's coded tables and those of the kernels K calls, once: the
  // entry points call it before the first copy.
  std::vector<std::string> Steps;
  std::vector<bool> Called(Plan.kernels().size(), false);
  for (const Segment &S : K.Segments)
    if (S.ChildKernel && Coded[S.ChildKernel->Id] &&
        !Called[S.ChildKernel->Id]) {
      Called[S.ChildKernel->Id] = true;
      Steps.push_back(decodeFn(*S.ChildKernel) + "()");
    }
  for (size_t SI = 0; SI < K.Segments.size(); ++SI) {
    const Segment &S = K.Segments[SI];
    if (!coded(K, S))
      continue;
    auto Decode = [&](const char *What, uint64_t N) {
      std::string T = table(What, K, SI);
      Steps.push_back("decodeTable(" + T + ", " + str(N) + ", " + T + "_code)");
    };
    if (hasDisps(K, S))
      Decode("disps", S.Count);
    if (hasReps(K, S))
      Decode("reps", S.Count);
    if (hasStarts(K, S))
      Decode("starts", S.Count + 1);
  }
  W.open("inline void " + decodeFn(K) + "() {");
  W.line("static const bool Decoded = (");
  for (const std::string &Step : Steps)
    W.line("    " + Step + ",");
  W.line("    true);");
  W.line("(void)Decoded;");
  W.close();
}

Address SourcePrinter::elementAddress(const Kernel &K, size_t SI,
                                      const char *Var) const {
  const Segment &S = K.Segments[SI];
  Address A;
  if (!S.Strided)
    return A.plus(table("disps", K, SI) + "[" + Var + "]");
  if (S.Count > 1 && S.Stride != 0)
    A = A.plus(scaled(Var, S.Stride));
  return A.plus(S.Disp0);
}

std::string SourcePrinter::repsExpr(const Kernel &K, size_t SI,
                                    const char *Var) const {
  const Segment &S = K.Segments[SI];
  if (S.uniformReps())
    return str(S.Reps);
  return table("reps", K, SI) + "[" + Var + "]";
}

void SourcePrinter::printCopy(const Kernel &K) {
  W.open(templateHead(K) + copyFn(K) + "(char *B, char *P) {");
  switch (K.Shape) {
  case KernelShape::Empty:
    W.line("(void)B;");
    break;
  case KernelShape::Block:
  case KernelShape::Runs: {
    int64_t Pos = 0;
    for (const ByteBlock &R : K.Runs) {
      W.line(xferFn(R.Length) + "<Pack>(" + Address().plus(R.Offset).print() +
             ", " + (Pos ? "P + " + str(Pos) : std::string("P")) + ", " +
             str(R.Length) + ");");
      Pos += R.Length;
    }
    W.line("return P + " + str(Pos) + ";");
    W.close();
    return;
  }
  case KernelShape::Loops:
    if (K.tiled()) {
      printTiledCopy(K);
      W.close();
      return;
    }
    for (size_t SI = 0; SI < K.Segments.size(); ++SI)
      printSegmentCopy(K, SI);
    break;
  }
  W.line("return P;");
  W.close();
}

void SourcePrinter::printTiledCopy(const Kernel &K) {
  // Seed 001's (docs/design.md#references) cache blocking: in typemap order, a
  // transpose reads (pack) or writes (unpack) one block per row of a column,
  // each on another page, and comes back to the same cache lines only a column
  // later, by when the lines and TLB entries are gone. A tile of TC columns x
  // TR rows touches TR pages of the strided side and TC of the packed side and
  // uses every cache line it loads for all of its columns. The packed
  // position is computed from (c, r), so the bytes land exactly where
  // typemap order puts them; the blocks are disjoint (planTiling), so the
  // order of the copies does not show.
  const Tiling &T = K.Tile;
  std::string Cols = str(static_cast<int64_t>(T.Columns));
  std::string Rows = str(static_cast<int64_t>(T.Rows));
  std::string TC = str(static_cast<int64_t>(T.TileColumns));
  std::string TR = str(static_cast<int64_t>(T.TileRows));
  if (T.Planes)
    // PlanOptions::PlanesInFlight: TC planes at a time, one row of each.
    W.line("// planes in flight: " + Cols + " planes x " + Rows + " rows of " +
           str(T.BlockBytes) + "-byte blocks, " + TC + " planes at a time");
  else
    W.line("// transpose: " + Cols + " columns x " + Rows + " rows of " +
           str(T.BlockBytes) + "-byte blocks, in tiles of " + TC + " x " + TR);
  printTileNest(K, false);
  W.line("return P + " + str(static_cast<uint64_t>(K.size())) + ";");
}

void SourcePrinter::printTileSpan(const Kernel &K) {
  // The tile nest over the whole columns [cA, cB) of a byte range, packed
  // from P on: pack_range and unpack_range of a long range (a piece of a
  // pipelined message) are as fast as pack and unpack.
  W.open(templateHead(K) + tileFn(K) + "(char *B, char *P, Off cA, Off cB) {");
  printTileNest(K, true);
  W.line("return P + (cB - cA) * " +
         str(static_cast<int64_t>(K.Tile.Rows) * K.Tile.BlockBytes) + ";");
  W.close();
}

void SourcePrinter::printTileNest(const Kernel &K, bool Span) {
  const Tiling &T = K.Tile;
  std::string Cols = str(static_cast<int64_t>(T.Columns));
  std::string Rows = str(static_cast<int64_t>(T.Rows));
  std::string TC = str(static_cast<int64_t>(T.TileColumns));
  std::string TR = str(static_cast<int64_t>(T.TileRows));
  // Columns [0, Columns) in the copy kernel, [cA, cB) in a span, whose
  // packed stream starts at column cA.
  std::string Lo = Span ? "cA" : "0", Hi = Span ? "cB" : Cols;
  std::string Column = Span ? "(c - cA)" : "c";
  // A last partial tile needs a bound; full tiles get a constant trip count
  // the compiler can unroll.
  auto Bound = [&](const char *Var, const char *From, const std::string &Tile,
                   const std::string &N, bool Divides) {
    if (Divides)
      W.line(std::string("const Off ") + Var + " = " + From + " + " + Tile +
             ";");
    else
      W.line(std::string("const Off ") + Var + " = std::min<Off>(" + From +
             " + " + Tile + ", " + N + ");");
  };
  bool FullColumns = !Span && T.Columns % T.TileColumns == 0;
  bool FullRows = T.Rows % T.TileRows == 0;
  W.open("for (Off c0 = " + Lo + "; c0 < " + Hi + "; c0 += " + TC + ") {");
  Bound("c1", "c0", TC, Hi, FullColumns);
  W.open("for (Off r0 = 0; r0 < " + Rows + "; r0 += " + TR + ") {");
  Bound("r1", "r0", TR, Rows, FullRows);
  Address A = Address()
                  .plus(scaled("c", T.ColumnStride))
                  .plus(scaled("r", T.RowStride))
                  .plus(T.Offset);
  if (T.Lanes)
    printSquares(T, A, Column, !FullColumns, !FullRows);
  W.open("for (Off c = c0; c < c1; ++c) {");
  // A column of a tile is a few rows: unrolled, the loop no longer
  // mispredicts its exit at every column (512 x 512 doubles: 2.0-2.2x
  // pack, 1.05-1.4x unpack; docs/emit.md).
  if (!T.Planes && T.TileRows > 1)
    W.line("#pragma GCC unroll " + TR);
  W.open("for (Off r = r0; r < r1; ++r) {");
  std::string At = A.print();
  if (T.Scalar) { // PlanOptions::ScalarMinStride
    W.line("char *E = " + At + ";");
    W.line("keepScalar(E);");
    At = "E";
  }
  W.line(xferFn(T.BlockBytes) + "<Pack>(" + At + ", P + (" + Column + " * " +
         Rows + " + r) * " + str(T.BlockBytes) + ", " + str(T.BlockBytes) +
         ");");
  W.close();
  W.close();
  W.close();
  W.close();
}

void SourcePrinter::printSquares(const Tiling &T, const Address &A,
                                 const std::string &Column, bool TestColumns,
                                 bool TestRows) {
  // PlanOptions::UnpackTransposeInRegisters: unpack takes a full tile
  // Lanes x Lanes blocks at a time (the prelude's transposeSquare), where
  // the compiler has the vector extensions; pack, and partial tiles, go on
  // to the nest of single moves below.
  std::string L = str(uint64_t{T.Lanes});
  std::string Rows = str(static_cast<int64_t>(T.Rows));
  std::string Full = "!Pack";
  if (TestColumns)
    Full += " && c1 - c0 == " + str(static_cast<int64_t>(T.TileColumns));
  if (TestRows)
    Full += " && r1 - r0 == " + str(static_cast<int64_t>(T.TileRows));
  W.line("#if defined(DDTC_TRANSPOSE_IN_REGISTERS)");
  W.open("if (" + Full + ") {");
  W.open("for (Off c = c0; c < c1; c += " + L + ") {");
  W.line("#pragma GCC unroll " + str(T.TileRows / T.Lanes));
  W.open("for (Off r = r0; r < r1; r += " + L + ") {");
  W.line("transposeSquare<Pack, " + L + ">(" + A.print() + ", " +
         str(T.RowStride) + ", P + (" + Column + " * " + Rows + " + r) * " +
         str(T.BlockBytes) + ", " +
         str(static_cast<int64_t>(T.Rows) * T.BlockBytes) + ");");
  W.close();
  W.close();
  W.line("continue;");
  W.close();
  W.line("#endif");
}

void SourcePrinter::printSegmentCopy(const Kernel &K, size_t SI) {
  const Segment &S = K.Segments[SI];
  if (S.Count == 1 || unrolled(S)) {
    for (uint64_t I = 0; I < S.Count; ++I)
      printElementCopy(S, Address().plus(S.dispAt(I)), str(S.repsAt(I)), "Pack",
                       "P");
    return;
  }
  if (S.Unroll) // PlanOptions::UnrollFactor
    W.line("#pragma GCC unroll " + str(uint64_t{S.Unroll}));
  W.open("for (Off k = 0; k < " + str(S.Count) + "; ++k) {");
  if (S.Prefetch) {
    // A table walk: the element Prefetch iterations ahead, for reading
    // (pack) or writing (unpack); see PlanOptions::PrefetchDistance.
    std::string Ahead = "(k + " + str(S.Prefetch) + ")";
    W.line("if (Far && " + Ahead + " < " + str(S.Count) + ")");
    W.line("  prefetch<Pack>(" +
           elementAddress(K, SI, Ahead.c_str()).plus(S.Child->lb()).print() +
           ");");
  }
  printElementCopy(S, elementAddress(K, SI, "k"), repsExpr(K, SI, "k"), "Pack",
                   "P");
  W.close();
}

void SourcePrinter::printElementCopy(const Segment &S, const Address &A,
                                     const std::string &Reps,
                                     const std::string &PackArg,
                                     const std::string &Var) {
  const Type *C = S.Child;
  if (S.DenseChild) {
    // All copies of a dense child are one block.
    std::string Bytes = S.uniformReps()
                            ? str(S.Reps * C->size())
                            : "std::size_t(" + Reps + ") * " + str(C->size());
    std::string At = A.plus(C->lb()).print();
    if (S.Scalar) { // PlanOptions::ScalarMinStride: hide the typed address
      W.line("char *E = " + At + ";");
      W.line("keepScalar(E);");
      At = "E";
    }
    W.line((S.uniformReps() ? xferFn(S.Reps * C->size()) : "xfer") + "<" +
           PackArg + ">(" + At + ", " + Var + ", " + Bytes + ");");
    W.line(Var + " += " + Bytes + ";");
    return;
  }
  std::string Call =
      copyFn(*S.ChildKernel) + templateArgs(*S.ChildKernel, PackArg);
  if (Reps == "1") {
    W.line(Var + " = " + Call + "(" + A.print() + ", " + Var + ");");
    return;
  }
  W.line("for (Off r = 0; r < " + Reps + "; ++r)");
  W.line("  " + Var + " = " + Call + "(" +
         (C->extent() ? A.plus(scaled("r", C->extent())) : A).print() + ", " +
         Var + ");");
}

void SourcePrinter::printRange(const Kernel &K) {
  W.open(templateHead(K) + rangeFn(K) +
         "(char *B, char *P, std::size_t F, std::size_t L) {");
  switch (K.Shape) {
  case KernelShape::Empty:
    W.line("(void)B;");
    W.line("(void)F;");
    W.line("(void)L;");
    W.line("return P;");
    break;
  case KernelShape::Block:
    W.line("xfer<Pack>(" +
           Address().plus("Off(F)").plus(K.Runs[0].Offset).print() +
           ", P, L - F);");
    W.line("return P + (L - F);");
    break;
  case KernelShape::Runs:
    W.line("return rangeRuns<Pack>(B, P, F, L, " + table("runs", K, 0) + ", " +
           std::to_string(K.Runs.size()) + ");");
    break;
  case KernelShape::Loops:
    if (K.tiled()) {
      printTiledRange(K);
      break;
    }
    if (K.Segments.size() == 1) {
      printSegmentRange(K, 0, "F", "L");
    } else {
      W.line("std::size_t Lo, Hi;");
      for (size_t SI = 0; SI < K.Segments.size(); ++SI) {
        const Segment &S = K.Segments[SI];
        W.open("if (clip<std::size_t>(F, L, " + str(S.PackedStart) + ", " +
               str(S.PackedStart + S.PackedSize) + ", Lo, Hi)) {");
        printSegmentRange(K, SI, "Lo", "Hi");
        W.close();
      }
    }
    W.line("return P;");
    break;
  }
  W.close();
}

void SourcePrinter::printTiledRange(const Kernel &K) {
  // The whole columns of the range go through the tile nest, a partial
  // first or last column through the column's own range function. Column c
  // is the one segment's element c, or its copy c of one element
  // (planTiling): in both, the child at Disp0 + c x ColumnStride.
  const Tiling &T = K.Tile;
  const Segment &S = K.Segments[0];
  Address Column =
      Address().plus(scaled("c", T.ColumnStride)).plus(S.Disp0);
  // One column alone is the column's own loop: tiles of one column only
  // add their nest (768 x 2,048 ints in 8 KiB pieces: 0.8x).
  W.open("return rangeOfSpans(" +
         str(static_cast<int64_t>(T.Rows) * T.BlockBytes) +
         ", F, L, P, [&](Off cA, Off cB, char *Q) {");
  W.line("if (cB - cA == 1)");
  W.line("  return " + copyFn(*S.ChildKernel) +
         templateArgs(*S.ChildKernel, "Pack") + "(" +
         Address().plus(scaled("cA", T.ColumnStride)).plus(S.Disp0).print() +
         ", Q);");
  W.line("return " + tileFn(K) + templateArgs(K, "Pack") + "(B, Q, cA, cB);");
  W.middle("}, [&](Off c, char *Q, std::size_t A, std::size_t Z) {");
  W.line("return " + rangeFn(*S.ChildKernel) +
         templateArgs(*S.ChildKernel, "Pack") + "(" + Column.print() +
         ", Q, A, Z);");
  W.close("});");
}

void SourcePrinter::printSegmentRange(const Kernel &K, size_t SI,
                                      const std::string &Lo,
                                      const std::string &Hi) {
  const Segment &S = K.Segments[SI];
  // Name the element index only where it is used (-Wunused-parameter):
  // the address uses it unless all elements are at one place, the whole
  // element also for its number of copies.
  bool AddressUsesK = !S.Strided || (S.Count > 1 && S.Stride != 0);
  std::string WholeK = AddressUsesK || !S.uniformReps() ? "Off k" : "Off";
  std::string PartK = AddressUsesK ? "Off k" : "Off";
  Address A = elementAddress(K, SI, "k");
  std::string Reps = repsExpr(K, SI, "k");
  if (S.uniformReps())
    W.open("P = rangeOf(" +
           str(static_cast<uint64_t>(S.Reps * S.Child->size())) + ", " + Lo +
           ", " + Hi + ", P, [&](" + WholeK + ", char *Q) {");
  else
    W.open("P = rangeOfTable(" + table("starts", K, SI) + ", " + str(S.Count) +
           ", " + Lo + ", " + Hi + ", P, [&](" + WholeK + ", char *Q) {");
  printElementCopy(S, A, Reps, "Pack", "Q");
  W.line("return Q;");
  W.middle("}, [&](" + PartK + ", char *Q, std::size_t A, std::size_t Z) {");
  printElementRange(S, A, Reps);
  W.close("});");
}

void SourcePrinter::printElementRange(const Segment &S, const Address &A,
                                      const std::string &Reps) {
  const Type *C = S.Child;
  if (S.DenseChild) {
    W.line("xfer<Pack>(" + A.plus(C->lb()).plus("Off(A)").print() +
           ", Q, Z - A);");
    W.line("return Q + (Z - A);");
    return;
  }
  const Kernel &CK = *S.ChildKernel;
  if (Reps == "1") {
    W.line("return " + rangeFn(CK) + templateArgs(CK, "Pack") + "(" +
           A.print() + ", Q, A, Z);");
    return;
  }
  Address Copy = C->extent() ? A.plus(scaled("r", C->extent())) : A;
  std::string RParam = C->extent() ? "Off r" : "Off";
  W.open("return rangeOf(" + str(static_cast<uint64_t>(C->size())) +
         ", A, Z, Q, [&](" + RParam + ", char *Q2) {");
  W.line("return " + copyFn(CK) + templateArgs(CK, "Pack") + "(" +
         Copy.print() + ", Q2);");
  W.middle("}, [&](" + RParam +
           ", char *Q2, std::size_t A2, std::size_t Z2) {");
  W.line("return " + rangeFn(CK) + templateArgs(CK, "Pack") + "(" +
         Copy.print() + ", Q2, A2, Z2);");
  W.close("});");
}

void SourcePrinter::printEntryPoints(const NamedType &N) {
  const Type *T = N.T;
  bool Dense = T->getLayout().isDense();
  W.line();
  W.line("// " + N.Name + ": " + shorten(printType(T, &M)));
  W.line("// size " + std::to_string(T->size()) + ", lb " +
         std::to_string(T->lb()) + ", extent " + std::to_string(T->extent()) +
         (Dense ? ", dense" : ""));
  // The functions under a name no type has, printed on their own: a
  // type whose functions read the same as an earlier type's (the same
  // layout under another name, as a trace has many: a struct's members, a
  // type committed again) forwards to them. The compiler's time goes into
  // optimizing each function, and a trace repeats layouts.
  static constexpr std::string_view Placeholder = "ddtc_@";
  CodeWriter Outer = std::move(W);
  W = CodeWriter();
  printEntryFunctions(T, std::string(Placeholder));
  std::string Text = W.str();
  W = std::move(Outer);
  std::string Fn = "ddtc_" + N.Name;
  auto [It, First] = EntryTexts.try_emplace(Text, Fn);
  if (!First) {
    printForwarders(Fn, It->second);
    return;
  }
  for (size_t At = Text.find(Placeholder); At != std::string::npos;
       At = Text.find(Placeholder, At + Fn.size()))
    Text.replace(At, Placeholder.size(), Fn);
  printLines(W, Text);
}

void SourcePrinter::printForwarders(const std::string &Fn,
                                    const std::string &To) {
  W.line("// The functions of " + To.substr(5) + ", which are the same.");
  W.open("extern \"C\" std::size_t " + Fn +
         "_packed_size(std::size_t count) {");
  W.line("return " + To + "_packed_size(count);");
  W.close();
  for (const char *Suffix : {"_pack", "_unpack"}) {
    W.open("extern \"C\" void " + Fn + Suffix +
           "(const void *inbuf, std::size_t count, void *outbuf) {");
    W.line(To + Suffix + "(inbuf, count, outbuf);");
    W.close();
  }
  for (const char *Suffix : {"_pack_range", "_unpack_range"}) {
    if (!Options.RangeFunctions)
      break;
    W.open("extern \"C\" std::size_t " + Fn + Suffix +
           "(const void *inbuf, std::size_t count, std::size_t first, "
           "std::size_t last, void *outbuf) {");
    W.line("return " + To + Suffix + "(inbuf, count, first, last, outbuf);");
    W.close();
  }
}

void SourcePrinter::printEntryFunctions(const Type *T, const std::string &Fn) {
  std::string Size = str(T->size()), Extent = str(T->extent());
  bool Dense = T->getLayout().isDense();
  W.open("extern \"C\" std::size_t " + Fn +
         "_packed_size(std::size_t count) {");
  if (T->size() == 0)
    W.line("(void)count;");
  W.line("return count * " + Size + ";");
  W.close();

  // Instance i of the root is at i * extent.
  Address Inst;
  if (T->extent())
    Inst = Inst.plus("Off(i) * " + Extent);
  std::string Root = needsRoot(T) ? copyFn(Plan.getKernel(T)) : "";
  unsigned RootUnroll = needsRoot(T) ? Plan.rootUnrollFactor(T) : 0;
  // A root that walks a table decides at run time whether to prefetch:
  // the statements of Body(FarArg) twice, under farWalk.
  bool Walk = needsRoot(T) && Walks[Plan.getKernel(T).Id];
  auto PrintForFar = [&](const std::function<void(const std::string &)> &Body) {
    if (!Walk) {
      Body("false");
      return;
    }
    uint64_t Step = T->extent() < 0 ? 0 - static_cast<uint64_t>(T->extent())
                                    : static_cast<uint64_t>(T->extent());
    W.open("if (farWalk(count, " + str(Step) + ", " +
           str(static_cast<uint64_t>(T->trueExtent())) + ")) {");
    Body("true");
    W.middle("} else {");
    Body("false");
    W.close();
  };
  for (bool Pack : {true, false}) {
    W.line();
    std::string In = Pack ? "B" : "P", Out = Pack ? "P" : "B";
    W.open("extern \"C\" void " + Fn + (Pack ? "_pack" : "_unpack") +
           "(const void *inbuf, std::size_t count, void *outbuf) {");
    if (T->size() == 0) {
      W.line("(void)inbuf;");
      W.line("(void)count;");
      W.line("(void)outbuf;");
      W.close();
      continue;
    }
    W.line("char *" + In +
           " = const_cast<char *>(static_cast<const char *>(inbuf));");
    W.line("char *" + Out + " = static_cast<char *>(outbuf);");
    std::string Arg = Pack ? "true" : "false";
    if (Dense) {
      W.line("xfer<" + Arg + ">(" + Address().plus(T->lb()).print() +
             ", P, count * " + Size + ");");
    } else {
      const Kernel &K = Plan.getKernel(T);
      if (Coded[K.Id])
        W.line(decodeFn(K) + "();");
      PrintForFar([&](const std::string &Far) {
        if (RootUnroll) // PlanOptions::UnrollFactor
          W.line("#pragma GCC unroll " + str(uint64_t{RootUnroll}));
        W.line("for (std::size_t i = 0; i < count; ++i)");
        W.line("  P = " + Root + templateArgs(K, Arg, Far) + "(" +
               Inst.print() + ", P);");
      });
    }
    W.close();
  }

  // pack_range and unpack_range: bytes [first, last) of the packed stream
  // of count instances, at outbuf (pack) or read from inbuf (unpack).
  for (bool Pack : {true, false}) {
    if (!Options.RangeFunctions)
      break;
    W.line();
    W.open("extern \"C\" std::size_t " + Fn +
           (Pack ? "_pack_range" : "_unpack_range") +
           "(const void *inbuf, std::size_t count, std::size_t first, "
           "std::size_t last, void *outbuf) {");
    if (T->size() == 0) {
      for (const char *P : {"inbuf", "count", "first", "last", "outbuf"})
        W.line(std::string("(void)") + P + ";");
      W.line("return 0;");
      W.close();
      continue;
    }
    std::string In = Pack ? "B" : "P", Out = Pack ? "P" : "B";
    std::string Arg = Pack ? "true" : "false";
    W.line("const std::size_t total = count * " + Size + ";");
    W.line("if (last > total)");
    W.line("  last = total;");
    W.line("if (first >= last)");
    W.line("  return 0;");
    W.line("char *" + In +
           " = const_cast<char *>(static_cast<const char *>(inbuf));");
    W.line("char *" + Out + " = static_cast<char *>(outbuf);");
    if (Dense) {
      W.line("xfer<" + Arg + ">(" +
             Address().plus("Off(first)").plus(T->lb()).print() +
             ", P, last - first);");
    } else {
      const Kernel &K = Plan.getKernel(T);
      if (Coded[K.Id])
        W.line(decodeFn(K) + "();");
      std::string IParam = T->extent() ? "Off i" : "Off";
      Address I;
      if (T->extent())
        I = I.plus("i * " + Extent);
      PrintForFar([&](const std::string &Far) {
        W.open("rangeOf(" + Size + ", first, last, P, [&](" + IParam +
               ", char *Q) {");
        W.line("return " + copyFn(K) + templateArgs(K, Arg, Far) + "(" +
               I.print() + ", Q);");
        W.middle("}, [&](" + IParam +
                 ", char *Q, std::size_t A, std::size_t Z) {");
        W.line("return " + rangeFn(K) + templateArgs(K, Arg, Far) + "(" +
               I.print() + ", Q, A, Z);");
        W.close("});");
      });
    }
    W.line("return last - first;");
    W.close();
  }
}

/// The ABI block of include/ddtc/Runtime/KernelABI.h, from its include
/// guard to its end: the one definition the runtime compiles too.
void SourcePrinter::printKernelABI() {
  static const char Header[] =
#include "KernelABI.inc"
      ;
  std::string_view Text(Header);
  size_t Start = Text.find("#ifndef DDTC_KERNEL_ABI");
  assert(Start != std::string_view::npos && "KernelABI.h lost its guard");
  printLines(W, Text.substr(Start));
}

void SourcePrinter::printKernelTable() {
  W.line();
  W.line("// The kernel table (docs/emit.md, \"Kernel table\"): every type "
         "with data,");
  W.line("// under its layout key -- the fingerprint of its typemap listed "
         "flat from");
  W.line("// its lowest byte of data. A runtime that finds a "
         "committed");
  W.line("// type's key here packs it with these functions, moved by the "
         "difference of");
  W.line("// the true_lb fields. The ABI is defined by each generated file, "
         "identically, so");
  W.line(
      "// that generated files need no ddtc header and can share a library.");
  printKernelABI();
  W.line();
  W.line("// Defined by the runtime, if it is loaded; null otherwise. Default");
  W.line("// visibility: a hidden undefined weak symbol would stay null even "
         "then.");
  W.line("extern \"C\" void ddtc_rt_register_kernels(const ddtc_kernel_table "
         "*table)");
  W.line("    __attribute__((weak, visibility(\"default\")));");

  std::string Fn = kernelTableFunction(Options.BaseName);
  std::vector<const NamedType *> Keyed;
  std::vector<const KernelKey *> Keys;
  for (size_t I = 0; I < M.types().size(); ++I)
    if (I < Options.Keys.size() && Options.Keys[I]) {
      Keyed.push_back(&M.types()[I]);
      Keys.push_back(&*Options.Keys[I]);
    }

  W.line();
  W.line("namespace {");
  W.line();
  std::string Entries = Fn + "_entries";
  if (!Keyed.empty()) {
    W.open("const ddtc_kernel " + Entries + "[] = {");
    for (size_t I = 0; I < Keyed.size(); ++I) {
      const Type *T = Keyed[I]->T;
      std::string F = "ddtc_" + Keyed[I]->Name;
      W.line(std::string("{") + stringLiteral(Keyed[I]->Name) + ", " +
             hexLiteral(Keys[I]->Print.Hi) + ", " +
             hexLiteral(Keys[I]->Print.Lo) + ", " +
             intLiteral(Keys[I]->TrueLb) + ", " +
             hexLiteral(Keys[I]->Given.Hi) + ", " +
             hexLiteral(Keys[I]->Given.Lo) + ", " + std::to_string(T->size()) +
             "ULL, " + intLiteral(T->extent()) + ",");
      std::string Fns = " " + F + "_pack, " + F + "_unpack, ";
      Fns += Options.RangeFunctions
                 ? F + "_pack_range, " + F + "_unpack_range"
                 : std::string("nullptr, nullptr");
      W.line(Fns + "},");
    }
    W.close("};");
    W.line();
  }
  W.open("const ddtc_kernel_table " + Fn + "_table = {");
  W.line("DDTC_KERNEL_ABI, " + stringLiteral(Options.Version) + ", " +
         stringLiteral(Options.SourceName) + ",");
  W.line(std::to_string(Keyed.size()) + ", " +
         (Keyed.empty() ? std::string("nullptr") : Entries) + ",");
  W.close("};");
  W.line();
  W.line("// Registers the table when the library is loaded (or the program");
  W.line("// starts), if the runtime is there to take it.");
  W.open("__attribute__((constructor)) void " + Fn + "_register() {");
  W.line("if (ddtc_rt_register_kernels)");
  W.line("  ddtc_rt_register_kernels(&" + Fn + "_table);");
  W.close();
  W.line();
  W.line("} // namespace");
  W.line();
  W.line("// The table for tools that load the library without the runtime.");
  W.open("extern \"C\" __attribute__((visibility(\"default\"))) const "
         "ddtc_kernel_table *" +
         Fn + "(void) {");
  W.line("return &" + Fn + "_table;");
  W.close();
}

} // namespace

std::string emitPackSource(const Module &M, const CodeGenOptions &Options) {
  return SourcePrinter(M, Options).print();
}

std::string emitPackHeader(const Module &M, const CodeGenOptions &Options) {
  CodeWriter W;
  std::string Guard = guardName(Options.BaseName, "_H");
  W.line(GeneratedBanner);
  W.line("// Pack and unpack functions for the types of " + Options.SourceName +
         ".");
  W.line("//");
  W.line("// For each type NAME, with count and buffers as one would give them "
         "to");
  W.line("// MPI with (count, NAME):");
  W.line("//   ddtc_NAME_packed_size(count)  bytes of the packed stream");
  W.line("//   ddtc_NAME_pack(inbuf, count, outbuf)    as MPI_Pack");
  W.line("//   ddtc_NAME_unpack(inbuf, count, outbuf)  as MPI_Unpack: inbuf is "
         "the");
  W.line("//       packed stream, outbuf the typed buffer");
  if (Options.RangeFunctions) {
    W.line("//   ddtc_NAME_pack_range(inbuf, count, first, last, outbuf)");
    W.line("//       writes bytes [first, last) of the packed stream to outbuf "
           "and");
    W.line("//       returns how many (last is clipped to the packed size)");
    W.line("//   ddtc_NAME_unpack_range(inbuf, count, first, last, outbuf)");
    W.line("//       the inverse: inbuf holds bytes [first, last) of the "
           "packed");
    W.line("//       stream of count instances, unpacked into the typed "
           "outbuf");
  }
  openCHeader(W, Guard, "<stddef.h>");
  for (const NamedType &N : M.types()) {
    std::string Fn = "ddtc_" + N.Name;
    W.line();
    W.line("// " + N.Name + ": size " + std::to_string(N.T->size()) + ", lb " +
           std::to_string(N.T->lb()) + ", extent " +
           std::to_string(N.T->extent()));
    W.line("size_t " + Fn + "_packed_size(size_t count);");
    W.line("void " + Fn +
           "_pack(const void *inbuf, size_t count, void *outbuf);");
    W.line("void " + Fn +
           "_unpack(const void *inbuf, size_t count, void *outbuf);");
    if (!Options.RangeFunctions)
      continue;
    W.line("size_t " + Fn +
           "_pack_range(const void *inbuf, size_t count, size_t first, "
           "size_t last, void *outbuf);");
    W.line("size_t " + Fn +
           "_unpack_range(const void *inbuf, size_t count, size_t first, "
           "size_t last, void *outbuf);");
  }
  closeCHeader(W, Guard);
  return W.str();
}

} // namespace ddtc

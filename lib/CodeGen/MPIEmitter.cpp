//===- lib/CodeGen/MPIEmitter.cpp - PREFIX_mpi.h and PREFIX_mpi.c ---------===//
//
// ddtc_NAME_build makes a named type with one MPI constructor call per
// node of its DAG, children first, reusing the handle of a node that occurs
// several times. That is what the MPI oracle does, and it matters: MPICH
// pads a struct unless all its members are one object, so building a
// shared subtree twice would change the extent (docs/format.md, "Struct
// padding"). Intermediate handles are freed once the type is built, in the
// order they were created.
//
// Each call is described by a row of CallSpecs: the MPI function and where
// each of its arguments comes from in the node. A call uses the classic
// int API when every count fits an int, and the MPI-4 large-count `_c`
// variant otherwise, so that the common case also builds with MPI-3
// libraries.
//
//===----------------------------------------------------------------------===//
#include "ddtc/CodeGen/CodeWriter.h"
#include "ddtc/CodeGen/Emit.h"
#include "ddtc/IR/TextForm.h"
#include "ddtc/Support/Text.h"

#include <cassert>
#include <climits>
#include <unordered_map>

namespace ddtc {

namespace {


/// Where an argument of an MPI constructor comes from, and its C type.
enum class ArgFrom {
  Scalar,     ///< integer scalar Index of the node
  List,       ///< integer list Index of the node
  ListLength, ///< the MPI count argument: length of the lists
  OldType,
  Types,      ///< the struct's member types
  Order,      ///< scalar Index as MPI_ORDER_C / MPI_ORDER_FORTRAN
  Distribs,   ///< list Index as MPI_DISTRIBUTE_*
  Dargs,      ///< list Index, MPI_DISTRIBUTE_DFLT_DARG for "default"
};
enum class ArgType {
  Count, ///< int, or MPI_Count in the large-count API
  Aint,  ///< MPI_Aint, or MPI_Count in the large-count API
  Int,   ///< int in both APIs
};
struct ArgSpec {
  ArgFrom From;
  unsigned Index;
  ArgType Type;
};
struct CallSpec {
  TypeKind Kind;
  const char *Function;
  bool HasLargeCount; ///< a `_c` variant exists
  std::vector<ArgSpec> Args;
};

using AF = ArgFrom;
using AT = ArgType;

const std::vector<CallSpec> &callSpecs() {
  static const std::vector<CallSpec> Specs = {
      {TypeKind::Contiguous, "MPI_Type_contiguous", true,
       {{AF::Scalar, 0, AT::Count}, {AF::OldType, 0, AT::Int}}},
      {TypeKind::Vector, "MPI_Type_vector", true,
       {{AF::Scalar, 0, AT::Count}, {AF::Scalar, 1, AT::Count},
        {AF::Scalar, 2, AT::Count}, {AF::OldType, 0, AT::Int}}},
      {TypeKind::HVector, "MPI_Type_create_hvector", true,
       {{AF::Scalar, 0, AT::Count}, {AF::Scalar, 1, AT::Count},
        {AF::Scalar, 2, AT::Aint}, {AF::OldType, 0, AT::Int}}},
      {TypeKind::Indexed, "MPI_Type_indexed", true,
       {{AF::ListLength, 0, AT::Count}, {AF::List, 0, AT::Count},
        {AF::List, 1, AT::Count}, {AF::OldType, 0, AT::Int}}},
      {TypeKind::HIndexed, "MPI_Type_create_hindexed", true,
       {{AF::ListLength, 0, AT::Count}, {AF::List, 0, AT::Count},
        {AF::List, 1, AT::Aint}, {AF::OldType, 0, AT::Int}}},
      {TypeKind::IndexedBlock, "MPI_Type_create_indexed_block", true,
       {{AF::ListLength, 0, AT::Count}, {AF::Scalar, 0, AT::Count},
        {AF::List, 0, AT::Count}, {AF::OldType, 0, AT::Int}}},
      {TypeKind::HIndexedBlock, "MPI_Type_create_hindexed_block", true,
       {{AF::ListLength, 0, AT::Count}, {AF::Scalar, 0, AT::Count},
        {AF::List, 0, AT::Aint}, {AF::OldType, 0, AT::Int}}},
      {TypeKind::Struct, "MPI_Type_create_struct", true,
       {{AF::ListLength, 0, AT::Count}, {AF::List, 0, AT::Count},
        {AF::List, 1, AT::Aint}, {AF::Types, 0, AT::Int}}},
      {TypeKind::Resized, "MPI_Type_create_resized", true,
       {{AF::OldType, 0, AT::Int}, {AF::Scalar, 0, AT::Aint},
        {AF::Scalar, 1, AT::Aint}}},
      {TypeKind::Subarray, "MPI_Type_create_subarray", true,
       {{AF::ListLength, 0, AT::Int}, {AF::List, 0, AT::Count},
        {AF::List, 1, AT::Count}, {AF::List, 2, AT::Count},
        {AF::Order, 0, AT::Int}, {AF::OldType, 0, AT::Int}}},
      {TypeKind::Darray, "MPI_Type_create_darray", true,
       {{AF::Scalar, 0, AT::Int}, {AF::Scalar, 1, AT::Int},
        {AF::ListLength, 0, AT::Int}, {AF::List, 0, AT::Count},
        {AF::Distribs, 1, AT::Int}, {AF::Dargs, 2, AT::Int},
        {AF::List, 3, AT::Int}, {AF::Order, 2, AT::Int},
        {AF::OldType, 0, AT::Int}}},
      {TypeKind::Dup, "MPI_Type_dup", false, {{AF::OldType, 0, AT::Int}}},
  };
  return Specs;
}

const CallSpec &getCallSpec(TypeKind K) {
  for (const CallSpec &S : callSpecs())
    if (S.Kind == K)
      return S;
  assert(false && "predefined types are not built");
  return callSpecs().front();
}

bool fitsInt(int64_t V) { return V >= INT_MIN && V <= INT_MAX; }

/// Whether the classic int API can take the node's arguments.
bool fitsIntAPI(const Type *T, const CallSpec &Spec) {
  for (const ArgSpec &A : Spec.Args) {
    if (A.Type != ArgType::Count)
      continue;
    switch (A.From) {
    case ArgFrom::Scalar:
      if (!fitsInt(T->getScalar(A.Index)))
        return false;
      break;
    case ArgFrom::List:
      for (int64_t V : T->getList(A.Index))
        if (!fitsInt(V))
          return false;
      break;
    case ArgFrom::ListLength:
      if (T->getListLength() > static_cast<size_t>(INT_MAX))
        return false;
      break;
    case ArgFrom::OldType:
    case ArgFrom::Types:
    case ArgFrom::Order:
    case ArgFrom::Distribs:
    case ArgFrom::Dargs:
      break;
    }
  }
  return true;
}

const char *orderName(int64_t V) {
  return static_cast<ArrayOrder>(V) == ArrayOrder::C ? "MPI_ORDER_C"
                                                     : "MPI_ORDER_FORTRAN";
}

std::string distribName(int64_t V) {
  switch (static_cast<Distribution>(V)) {
  case Distribution::Block:
    return "MPI_DISTRIBUTE_BLOCK";
  case Distribution::Cyclic:
    return "MPI_DISTRIBUTE_CYCLIC";
  case Distribution::None:
    return "MPI_DISTRIBUTE_NONE";
  }
  return "MPI_DISTRIBUTE_NONE";
}

/// The format v1 name of list Index of kind K ("displacements").
std::string listName(TypeKind K, unsigned Index) {
  for (const FieldSpec &F : getKindSpec(K).Fields)
    if (F.Shape == FieldShape::List && F.Index == Index)
      return std::string(F.Name);
  assert(false && "no such list");
  return "list";
}

class BuildPrinter {
public:
  explicit BuildPrinter(CodeWriter &W) : W(W) {}

  /// The body of ddtc_NAME_build for T.
  void print(const Type *T);

private:
  void collect(const Type *T);
  std::string ref(const Type *T) const {
    if (auto *P = dyn_cast<PredefinedType>(T))
      return std::string(P->getName());
    return "t[" + std::to_string(Index.at(T)) + "]";
  }
  void printCall(const Type *T, size_t I);

  CodeWriter &W;
  std::vector<const Type *> Nodes; ///< derived nodes, children first
  std::unordered_map<const Type *, size_t> Index;
};

void BuildPrinter::collect(const Type *T) {
  if (isa<PredefinedType>(T) || Index.count(T))
    return;
  for (const Type *Op : T->getOperands())
    collect(Op);
  Index.emplace(T, Nodes.size());
  Nodes.push_back(T);
}

void BuildPrinter::print(const Type *T) {
  collect(T);
  // A named type that is a predefined type is returned as its dup, so that
  // the caller can free every type ddtc_NAME_build returns.
  bool Alias = isa<PredefinedType>(T);
  size_t N = Alias ? 1 : Nodes.size();
  W.line("MPI_Datatype t[" + std::to_string(N) + "];");
  W.line("int n = 0, i, rc;");
  if (Alias) {
    W.line("rc = MPI_Type_dup(" + ref(T) + ", &t[0]);");
    W.line("if (rc != MPI_SUCCESS)");
    W.line("  goto fail;");
    W.line("n = 1;");
  }
  for (size_t I = 0; I < Nodes.size(); ++I)
    printCall(Nodes[I], I);
  W.line("*newtype = t[" + std::to_string(N - 1) + "];");
  if (N > 1) {
    W.line("for (i = 0; i < " + std::to_string(N - 1) + "; ++i)");
    W.line("  MPI_Type_free(&t[i]);");
  }
  W.line("return MPI_SUCCESS;");
  W.middle("fail:");
  W.line("for (i = 0; i < n; ++i)");
  W.line("  MPI_Type_free(&t[i]);");
  W.line("return rc;");
}

void BuildPrinter::printCall(const Type *T, size_t I) {
  const CallSpec &Spec = getCallSpec(T->getKind());
  bool Large = Spec.HasLargeCount && !fitsIntAPI(T, Spec);
  std::string Id = std::to_string(I);
  W.open("{ /* t[" + Id + "] = " + shorten(printType(T)) + " */");
  std::vector<std::string> Args;
  for (const ArgSpec &A : Spec.Args) {
    std::string CType = A.Type == ArgType::Int    ? "int"
                        : Large                   ? "MPI_Count"
                        : A.Type == ArgType::Aint ? "MPI_Aint"
                                                  : "int";
    switch (A.From) {
    case ArgFrom::Scalar:
      Args.push_back(intLiteral(T->getScalar(A.Index)));
      break;
    case ArgFrom::ListLength:
      Args.push_back(std::to_string(T->getListLength()));
      break;
    case ArgFrom::List: {
      std::span<const int64_t> L = T->getList(A.Index);
      if (L.empty()) {
        Args.push_back("(const " + CType + " *)0");
        break;
      }
      std::string Name = listName(T->getKind(), A.Index);
      W.line("static const " + CType + " " + Name + "[] = " +
             initializerList(L) + ";");
      Args.push_back(Name);
      break;
    }
    case ArgFrom::OldType:
      Args.push_back(ref(T->getOldType()));
      break;
    case ArgFrom::Types: {
      if (T->getOperands().empty()) {
        Args.push_back("(const MPI_Datatype *)0");
        break;
      }
      std::string Init;
      for (const Type *Op : T->getOperands())
        Init += (Init.empty() ? "" : ", ") + ref(Op);
      W.line("MPI_Datatype types[] = {" + Init + "};");
      Args.push_back("types");
      break;
    }
    case ArgFrom::Order:
      Args.push_back(orderName(T->getScalar(A.Index)));
      break;
    case ArgFrom::Distribs:
    case ArgFrom::Dargs: {
      std::string Init;
      for (int64_t V : T->getList(A.Index))
        Init += (Init.empty() ? "" : ", ") +
                (A.From == ArgFrom::Distribs ? distribName(V)
                 : V == DefaultDarg          ? std::string("MPI_DISTRIBUTE_DFLT_DARG")
                                             : intLiteral(V));
      std::string Name = listName(T->getKind(), A.Index);
      W.line("const int " + Name + "[] = {" + Init + "};");
      Args.push_back(Name);
      break;
    }
    }
  }
  std::string Call = std::string(Spec.Function) + (Large ? "_c(" : "(");
  for (const std::string &A : Args)
    Call += A + ", ";
  W.line("rc = " + Call + "&t[" + Id + "]);");
  W.close();
  W.line("if (rc != MPI_SUCCESS)");
  W.line("  goto fail;");
  W.line("n = " + std::to_string(I + 1) + ";");
}

} // namespace

std::string emitMPIHeader(const Module &M, const CodeGenOptions &Options) {
  CodeWriter W;
  std::string Guard = guardName(Options.BaseName, "_MPI_H");
  W.line(GeneratedBanner);
  W.line("// MPI constructor code for the types of " + Options.SourceName + ".");
  W.line("//");
  W.line("// ddtc_NAME_build(&type) creates the type NAME with MPI calls (not");
  W.line("// committed) and returns an MPI error code; the caller commits and");
  W.line("// frees it.");
  openCHeader(W, Guard, "<mpi.h>");
  W.line();
  for (const NamedType &N : M.types())
    W.line("int ddtc_" + N.Name + "_build(MPI_Datatype *newtype);");
  closeCHeader(W, Guard);
  return W.str();
}

std::string emitMPISource(const Module &M, const CodeGenOptions &Options) {
  CodeWriter W;
  W.line(GeneratedBanner);
  W.line("// MPI constructor code for the types of " + Options.SourceName +
         " (see " + Options.BaseName + "_mpi.h).");
  W.line();
  W.line("#include \"" + Options.BaseName + "_mpi.h\"");
  for (size_t I = 0; I < M.types().size(); ++I) {
    const NamedType &N = M.types()[I];
    const Type *T = N.T;
    std::string Note;
    if (I < Options.MPIForms.size() && Options.MPIForms[I].T) {
      T = Options.MPIForms[I].T;
      Note = Options.MPIForms[I].Note;
    }
    W.line();
    W.line("// " + N.Name + ": " + shorten(printType(T, &M)));
    if (!Note.empty())
      W.line("// " + Note);
    W.line("int ddtc_" + N.Name + "_build(MPI_Datatype *newtype)");
    W.open("{");
    BuildPrinter(W).print(T);
    W.close();
  }
  return W.str();
}

} // namespace ddtc

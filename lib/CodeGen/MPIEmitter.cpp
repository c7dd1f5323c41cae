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
// Each call is described by the constructor table of the IR
// (ConstructorCalls.h): the MPI function and where each of its arguments
// comes from in the node. A call uses the classic
// int API when every count fits an int, and the MPI-4 large-count `_c`
// variant otherwise, so that the common case also builds with MPI-3
// libraries.
//
// `ddtc rewrite` prints the same calls inline, as a block that replaces a
// constructor call in the user's code: no error handling of its own (the
// code it replaces had its own, or none), names prefixed with ddtc_ so that
// they shadow nothing.
//
//===----------------------------------------------------------------------===//
#include "ddtc/CodeGen/CodeWriter.h"
#include "ddtc/CodeGen/Emit.h"
#include "ddtc/IR/ConstructorCalls.h"
#include "ddtc/IR/TextForm.h"
#include "ddtc/Support/Text.h"

#include <cassert>
#include <climits>
#include <unordered_map>

namespace ddtc {

namespace {

bool fitsInt(int64_t V) { return V >= INT_MIN && V <= INT_MAX; }

/// Whether the classic int API can take the node's arguments.
bool fitsIntAPI(const Type *T, const ConstructorCall &Spec) {
  for (const CallArg &A : Spec.Args) {
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
  /// Inline: statements that build T into Target (an MPI_Datatype *
  /// expression), for `ddtc rewrite`; otherwise the body of
  /// ddtc_NAME_build.
  BuildPrinter(CodeWriter &W, bool Inline, std::string Target = {})
      : W(W), Inline(Inline), Target(std::move(Target)),
        Prefix(Inline ? "ddtc_" : "") {}

  void print(const Type *T);

private:
  void collect(const Type *T);
  std::string temp(size_t I) const {
    return Prefix + "t[" + std::to_string(I) + "]";
  }
  std::string ref(const Type *T) const {
    if (auto *P = dyn_cast<PredefinedType>(T))
      return std::string(P->getName());
    return temp(Index.at(T));
  }
  void printFunctionBody(const Type *T);
  void printInline(const Type *T);
  /// The call that builds node I into Out (an MPI_Datatype * expression),
  /// with the arrays it needs; "rc = " before it in a function body.
  void printCall(const Type *T, size_t I, const std::string &Out);

  CodeWriter &W;
  bool Inline;
  std::string Target, Prefix;
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
  if (Inline)
    printInline(T);
  else
    printFunctionBody(T);
}

void BuildPrinter::printFunctionBody(const Type *T) {
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
  for (size_t I = 0; I < Nodes.size(); ++I) {
    printCall(Nodes[I], I, "&" + temp(I));
    W.line("if (rc != MPI_SUCCESS)");
    W.line("  goto fail;");
    W.line("n = " + std::to_string(I + 1) + ";");
  }
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

void BuildPrinter::printInline(const Type *T) {
  // The caller commits and frees the result: a predefined type is built as
  // its dup, as in ddtc_NAME_build.
  if (isa<PredefinedType>(T)) {
    W.line("MPI_Type_dup(" + ref(T) + ", " + Target + ");");
    return;
  }
  size_t Temps = Nodes.size() - 1;
  if (Temps == 0) {
    printCall(T, 0, Target);
    return;
  }
  W.open("{");
  W.line("MPI_Datatype " + Prefix + "t[" + std::to_string(Temps) + "];");
  for (size_t I = 0; I < Nodes.size(); ++I)
    printCall(Nodes[I], I, I == Temps ? Target : "&" + temp(I));
  for (size_t I = 0; I < Temps; ++I)
    W.line("MPI_Type_free(&" + temp(I) + ");");
  W.close();
}

void BuildPrinter::printCall(const Type *T, size_t I, const std::string &Out) {
  const ConstructorCall &Spec = getConstructorCall(T->getKind());
  bool Large = Spec.HasLargeCount && !fitsIntAPI(T, Spec);
  // Arrays are declared in a block of the call's own; a call without any
  // needs no block when inline.
  bool NeedsArrays = false;
  for (const CallArg &A : Spec.Args)
    NeedsArrays |= (A.From == ArgFrom::List && !T->getList(A.Index).empty()) ||
                   (A.From == ArgFrom::Types && !T->getOperands().empty()) ||
                   A.From == ArgFrom::Distribs || A.From == ArgFrom::Dargs;
  bool Block = NeedsArrays || !Inline;
  std::string Comment = shorten(printType(T));
  if (!Inline)
    W.open("{ /* t[" + std::to_string(I) + "] = " + Comment + " */");
  else if (Block)
    W.open("{");
  std::vector<std::string> Args;
  for (const CallArg &A : Spec.Args) {
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
      std::string Name = Prefix + listName(T->getKind(), A.Index);
      W.line("static const " + CType + " " + Name +
             "[] = " + initializerList(L) + ";");
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
      W.line("MPI_Datatype " + Prefix + "types[] = {" + Init + "};");
      Args.push_back(Prefix + "types");
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
                 : V == DefaultDarg ? std::string("MPI_DISTRIBUTE_DFLT_DARG")
                                    : intLiteral(V));
      std::string Name = Prefix + listName(T->getKind(), A.Index);
      W.line("const int " + Name + "[] = {" + Init + "};");
      Args.push_back(Name);
      break;
    }
    }
  }
  std::string Call = std::string(Spec.Function) + (Large ? "_c(" : "(");
  for (const std::string &A : Args)
    Call += A + ", ";
  W.line((Inline ? "" : "rc = ") + Call + Out + ");");
  if (Block)
    W.close();
}

} // namespace

std::string emitMPIHeader(const Module &M, const CodeGenOptions &Options) {
  CodeWriter W;
  std::string Guard = guardName(Options.BaseName, "_MPI_H");
  W.line(GeneratedBanner);
  W.line("// MPI constructor code for the types of " + Options.SourceName +
         ".");
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
    BuildPrinter(W, /*Inline=*/false).print(T);
    W.close();
  }
  return W.str();
}

} // namespace ddtc

namespace ddtc {

std::string emitInlineBuild(const Type *T, const std::string &Target) {
  CodeWriter W;
  BuildPrinter(W, /*Inline=*/true, Target).print(T);
  return W.str();
}

} // namespace ddtc

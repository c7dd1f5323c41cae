//===- lib/Source/MPICalls.cpp - What MPI calls do to followed values -----===//
//
// The type constructors (ConstructorCalls.h) build IR nodes from their
// arguments; MPI_Type_commit records a type; MPI_Type_free ends a handle;
// MPI_Get_address gives the address of a variable or of a member of one
// (an object and an offset: differences of addresses in one object are
// the member offsets the program means); MPI_Aint_add/_diff and the size
// and extent queries compute what MPI would. Any other MPI call writes
// what it is given pointers to at run time (MPI_Comm_rank...).
//
//===----------------------------------------------------------------------===//
#include "Interpreter.h"

#include "ddtc/IR/ConstructorCalls.h"
#include "ddtc/IR/TypeContext.h"

#include "clang/AST/RecordLayout.h"

namespace ddtc::source {

using namespace clang;

namespace {

/// The argument names of the MPI standard, for diagnostics.
std::string roleName(const CallArg &A, TypeKind K) {
  switch (A.From) {
  case ArgFrom::ListLength:
    return K == TypeKind::Subarray || K == TypeKind::Darray ? "ndims" : "count";
  case ArgFrom::OldType:
    return "oldtype";
  case ArgFrom::Types:
    return "array_of_types";
  default:
    break;
  }
  for (const FieldSpec &F : getKindSpec(K).Fields) {
    bool List = F.Shape == FieldShape::List;
    bool ArgList = A.From == ArgFrom::List || A.From == ArgFrom::Distribs ||
                   A.From == ArgFrom::Dargs;
    if (F.Index == A.Index && List == ArgList)
      return std::string(F.Name);
  }
  return "argument";
}

std::optional<int64_t> orderValue(const Value &V) {
  if (!V.isInt() || !V.Symbol)
    return std::nullopt;
  if (std::string_view(V.Symbol) == "MPI_ORDER_C")
    return static_cast<int64_t>(ArrayOrder::C);
  if (std::string_view(V.Symbol) == "MPI_ORDER_FORTRAN")
    return static_cast<int64_t>(ArrayOrder::Fortran);
  return std::nullopt;
}

std::optional<int64_t> distribValue(const Value &V) {
  if (!V.isInt() || !V.Symbol)
    return std::nullopt;
  std::string_view S = V.Symbol;
  if (S == "MPI_DISTRIBUTE_BLOCK")
    return static_cast<int64_t>(Distribution::Block);
  if (S == "MPI_DISTRIBUTE_CYCLIC")
    return static_cast<int64_t>(Distribution::Cyclic);
  if (S == "MPI_DISTRIBUTE_NONE")
    return static_cast<int64_t>(Distribution::None);
  return std::nullopt;
}

} // namespace

Value Interpreter::predefinedHandle(const char *Name) {
  auto H = std::make_shared<Handle>();
  H->T = Ctx.getPredefined(*lookupPredefined(Name));
  return Value::handle(std::move(H));
}

namespace {
/// The handles V holds (in arrays and structs too) are used.
void markUsed(const Value &V) {
  if (V.K == Value::Kind::Handle && V.H->Ctor)
    ++V.H->OtherUses;
  else if (V.K == Value::Kind::Array)
    for (const Value &E : *V.Elems)
      markUsed(E);
}
} // namespace

void Interpreter::useHandles(const std::vector<Value> &Args) {
  for (const Value &A : Args) {
    if (A.K == Value::Kind::Handle || A.K == Value::Kind::Array) {
      markUsed(A);
    } else if (A.K == Value::Kind::Pointer) {
      // A pointer to a handle, or into an array of them: all may be read.
      Place Whole = *A.P;
      if (!Whole.Path.empty())
        Whole.Path.pop_back();
      markUsed(load(Whole));
    }
  }
}

std::optional<std::vector<Value>> Interpreter::readArray(const Value &V,
                                                         int64_t Count) {
  if (Count == 0)
    return std::vector<Value>();
  if (V.K != Value::Kind::Pointer)
    return std::nullopt;
  const Place &P = *V.P;
  if (P.Path.empty()) {
    // A pointer to a scalar: an array of one.
    if (Count != 1)
      return std::nullopt;
    return std::vector<Value>{load(P)};
  }
  Place Parent = P;
  int64_t Start = Parent.Path.back();
  Parent.Path.pop_back();
  Value A = load(Parent);
  if (A.K != Value::Kind::Array) {
    if (Count == 1 && Start == 0)
      return std::vector<Value>{A};
    return std::nullopt;
  }
  if (Start < 0 || Count < 0 ||
      static_cast<uint64_t>(Start) + static_cast<uint64_t>(Count) >
          A.Elems->size())
    return std::nullopt;
  return std::vector<Value>(A.Elems->begin() + Start,
                            A.Elems->begin() + Start + Count);
}

std::optional<Value> Interpreter::addressOf(const Expr *E) {
  E = E->IgnoreParens();
  if (const auto *C = dyn_cast<ImplicitCastExpr>(E)) {
    if (C->getCastKind() == CK_ArrayToPointerDecay)
      return addressOf(C->getSubExpr());
    if (C->getCastKind() == CK_LValueToRValue &&
        C->getType()->isPointerType()) {
      // A pointer variable: the object it points to, at offset 0.
      if (const auto *R =
              dyn_cast<DeclRefExpr>(C->getSubExpr()->IgnoreParens()))
        return Value::address(R->getDecl(), 0, /*Pointee=*/true);
      return std::nullopt;
    }
    return addressOf(C->getSubExpr());
  }
  if (const auto *C = dyn_cast<CStyleCastExpr>(E))
    return addressOf(C->getSubExpr());
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    if (U->getOpcode() == UO_AddrOf) {
      const Expr *L = U->getSubExpr()->IgnoreParens();
      if (const auto *R = dyn_cast<DeclRefExpr>(L))
        return Value::address(R->getDecl(), 0);
      return addressOf(L);
    }
    if (U->getOpcode() == UO_Deref)
      return addressOf(U->getSubExpr());
    return std::nullopt;
  }
  if (const auto *R = dyn_cast<DeclRefExpr>(E)) {
    // An lvalue naming an object (reached from &x.m or x[i]).
    return Value::address(R->getDecl(), 0);
  }
  if (const auto *M = dyn_cast<MemberExpr>(E)) {
    std::optional<Value> Base =
        M->isArrow() ? addressOf(M->getBase()) : addressOf(M->getBase());
    if (!Base || Base->K != Value::Kind::Address)
      return std::nullopt;
    const ValueDecl *Member = M->getMemberDecl();
    if (!isa<FieldDecl, IndirectFieldDecl>(Member))
      return std::nullopt;
    Base->I +=
        static_cast<int64_t>(AC.getFieldOffset(Member) / AC.getCharWidth());
    return Base;
  }
  if (const auto *A = dyn_cast<ArraySubscriptExpr>(E)) {
    std::optional<Value> Base = addressOf(A->getBase());
    Value Index = eval(A->getIdx());
    if (!Base || Base->K != Value::Kind::Address || !Index.isInt())
      return std::nullopt;
    int64_t Size = AC.getTypeSizeInChars(A->getType()).getQuantity();
    Base->I += Index.I * Size;
    return Base;
  }
  return std::nullopt;
}

std::optional<Value> Interpreter::evalMPICall(const CallExpr *C,
                                              StringRef Name) {
  if (lookupConstructorCall(Name))
    return construct(C, Name);
  unsigned N = C->getNumArgs();
  auto Arg = [&](unsigned I) { return C->getArg(I); };

  if (Name == "MPI_Type_commit" && N == 1) {
    Value P = eval(Arg(0));
    std::string Into = intoText(C);
    Value H = P.K == Value::Kind::Pointer ? load(*P.P) : P;
    if (H.K == Value::Kind::Handle) {
      // A handle whose construction was left out has had its warning.
      if (H.H->Ctor && !H.H->Commit) {
        H.H->Commit = C;
        // faces[2] is "faces_2", t.block "t_block".
        if (H.H->T)
          Out.Commits.push_back({placeName(*P.P), H.H});
      }
    } else {
      // Nothing is left out silently: the handle was overwritten by code
      // ddtc does not follow, or lives where it does not look.
      std::string Why =
          H.Why ? H.Why->Text : "it does not hold a type ddtc followed";
      warn(C->getBeginLoc(),
           "the type committed in '" + Into + "' is left out: " + Why);
      if (H.Why && H.Why->Loc.isValid())
        note(H.Why->Loc, "made unknown here");
    }
    return Value::integer(0);
  }
  if (Name == "MPI_Type_free" && N == 1) {
    Value P = eval(Arg(0));
    if (P.K == Value::Kind::Pointer) {
      Value H = load(*P.P);
      if (H.K == Value::Kind::Handle && H.H->Ctor)
        H.H->Frees.push_back(C);
      store(*P.P, Value::unknown("the handle was freed by MPI_Type_free",
                                 C->getBeginLoc()));
    }
    return Value::integer(0);
  }
  if (Name == "MPI_Get_address" && N == 2) {
    std::optional<Value> A = addressOf(Arg(0));
    Value P = eval(Arg(1));
    if (P.K == Value::Kind::Pointer)
      store(*P.P, A ? *A
                    : Value::unknown("the address of '" + text(Arg(0)) +
                                         "' is not one ddtc follows (a "
                                         "variable, a member or an element "
                                         "of one)",
                                     Arg(0)->getBeginLoc()));
    return Value::integer(0);
  }
  if ((Name == "MPI_Aint_add" || Name == "MPI_Aint_diff") && N == 2) {
    Value A = eval(Arg(0)), B = eval(Arg(1));
    bool Add = Name == "MPI_Aint_add";
    if (A.K == Value::Kind::Address && B.isInt())
      return Value::address(A.Object, Add ? A.I + B.I : A.I - B.I, A.Pointee);
    if (!Add && A.K == Value::Kind::Address && B.K == Value::Kind::Address &&
        A.Object == B.Object && A.Pointee == B.Pointee)
      return Value::integer(A.I - B.I);
    if (A.isInt() && B.isInt())
      return Value::integer(Add ? A.I + B.I : A.I - B.I);
    return Value::unknown("'" + text(C) + "' is not an offset ddtc follows",
                          C->getBeginLoc());
  }
  // Queries of a followed type: what MPI would answer.
  bool Size = Name == "MPI_Type_size" || Name == "MPI_Type_size_x" ||
              Name == "MPI_Type_size_c";
  bool Extent = Name == "MPI_Type_get_extent" ||
                Name == "MPI_Type_get_extent_x" ||
                Name == "MPI_Type_get_extent_c";
  bool TrueExtent = Name == "MPI_Type_get_true_extent" ||
                    Name == "MPI_Type_get_true_extent_x" ||
                    Name == "MPI_Type_get_true_extent_c";
  if ((Size && N == 2) || ((Extent || TrueExtent) && N == 3)) {
    Value H = eval(Arg(0));
    useHandles({H});
    std::vector<int64_t> Answers;
    if (H.K == Value::Kind::Handle && H.H->T) {
      const TypeLayout &L = H.H->T->getLayout();
      if (Size)
        Answers = {L.Size};
      else if (Extent)
        Answers = {L.Lb, L.extent()};
      else
        Answers = {L.TrueLb, L.trueExtent()};
    }
    for (unsigned I = 1; I < N; ++I) {
      Value P = eval(Arg(I));
      if (P.K != Value::Kind::Pointer)
        continue;
      store(*P.P, Answers.empty()
                      ? Value::unknown("'" + Name.str() +
                                           "' queries a type that is not known",
                                       C->getBeginLoc())
                      : truncate(Value::integer(Answers[I - 1]),
                                 Arg(I)->getType()->getPointeeType()));
    }
    return Value::integer(0);
  }
  return std::nullopt;
}

Value Interpreter::construct(const CallExpr *C, StringRef Name) {
  bool Large = false;
  ConstructorCall Call = *lookupConstructorCall(Name, &Large);
  unsigned N = C->getNumArgs();
  if (N != Call.Args.size() + 1)
    return Value::unknown("'" + Name.str() + "' has " + std::to_string(N) +
                              " arguments",
                          C->getBeginLoc());
  const Expr *NewArg = C->getArg(N - 1);
  std::string Into = intoText(C);

  auto H = std::make_shared<Handle>();
  H->Ctor = C;
  // A function without parameters builds the same type whoever calls it
  // (its values are its own, or constants): as safe to rewrite as an entry.
  H->InEntryFunction = Stack.size() == 1 || Stack.back().F->param_empty();

  const KindSpec &Spec = getKindSpec(Call.Kind);
  std::vector<int64_t> Scalars(Spec.NumScalars);
  std::vector<std::vector<int64_t>> Lists(Spec.NumLists);
  std::vector<const Type *> Operands;
  int64_t Count = 0;
  bool Known = true;
  // The first argument that is not known says why the type is left out.
  auto LeaveOut = [&](unsigned I, const CallArg &A, const std::string &Why,
                      const Reason *Cause) {
    if (!Known)
      return;
    Known = false;
    std::string Msg = "the type built into '" + Into +
                      "' is left out: " + roleName(A, Call.Kind) + " '" +
                      text(C->getArg(I)) + "' " + Why;
    if (Cause && !Cause->Text.empty())
      Msg += ": " + Cause->Text;
    warn(C->getArg(I)->getBeginLoc(), Msg);
    H->Why = std::make_shared<Reason>(Reason{
        "it is built from '" + text(C->getArg(I)) + "', which is not known",
        C->getArg(I)->getBeginLoc()});
  };
  auto OperandOf = [&](const Value &V) -> const Type * {
    if (V.K != Value::Kind::Handle)
      return nullptr;
    if (V.H->Ctor) {
      H->Operands.push_back(V.H);
      V.H->Users.push_back(H.get());
    }
    return V.H->T;
  };

  for (unsigned I = 0; I < Call.Args.size(); ++I) {
    const CallArg &A = Call.Args[I];
    Value V = eval(C->getArg(I));
    switch (A.From) {
    case ArgFrom::Scalar:
    case ArgFrom::ListLength:
      if (!V.isInt()) {
        LeaveOut(I, A, "is not a compile-time value", V.Why.get());
        break;
      }
      if (A.From == ArgFrom::Scalar)
        Scalars[A.Index] = V.I;
      else
        Count = V.I;
      break;
    case ArgFrom::Order: {
      std::optional<int64_t> O = orderValue(V);
      if (!O)
        LeaveOut(I, A, "is not MPI_ORDER_C or MPI_ORDER_FORTRAN", V.Why.get());
      else
        Scalars[A.Index] = *O;
      break;
    }
    case ArgFrom::List:
    case ArgFrom::Distribs:
    case ArgFrom::Dargs: {
      if (!Known)
        break;
      std::optional<std::vector<Value>> Elems = readArray(V, Count);
      if (!Elems) {
        LeaveOut(I, A,
                 V.isUnknown() ? "is not a compile-time value"
                               : "is not an array of " + std::to_string(Count) +
                                     " values ddtc follows",
                 V.Why.get());
        break;
      }
      for (size_t J = 0; J < Elems->size() && Known; ++J) {
        const Value &E = (*Elems)[J];
        std::optional<int64_t> X;
        if (A.From == ArgFrom::Distribs)
          X = distribValue(E);
        else if (A.From == ArgFrom::Dargs && E.isInt() && E.Symbol &&
                 std::string_view(E.Symbol) == "MPI_DISTRIBUTE_DFLT_DARG")
          X = DefaultDarg;
        else if (E.isInt())
          X = E.I;
        if (X) {
          Lists[A.Index].push_back(*X);
          continue;
        }
        std::string Why = "has element " + std::to_string(J) + " that ";
        if (E.K == Value::Kind::Address)
          Why += "is an absolute address from MPI_Get_address (subtract the "
                 "address of the object's start to make it an offset)";
        else if (A.From == ArgFrom::Distribs)
          Why += "is not an MPI_DISTRIBUTE_ constant";
        else
          Why += "is not a compile-time value";
        LeaveOut(I, A, Why, E.Why.get());
      }
      break;
    }
    case ArgFrom::OldType: {
      const Type *T = OperandOf(V);
      if (!T)
        LeaveOut(I, A, "is not a datatype ddtc knows here",
                 V.K == Value::Kind::Handle ? V.H->Why.get() : V.Why.get());
      else
        Operands.push_back(T);
      break;
    }
    case ArgFrom::Types: {
      if (!Known)
        break;
      std::optional<std::vector<Value>> Elems = readArray(V, Count);
      if (!Elems) {
        LeaveOut(I, A, "is not an array of datatypes ddtc follows",
                 V.Why.get());
        break;
      }
      for (size_t J = 0; J < Elems->size() && Known; ++J) {
        const Type *T = OperandOf((*Elems)[J]);
        if (T) {
          Operands.push_back(T);
          continue;
        }
        const Value &E = (*Elems)[J];
        LeaveOut(I, A,
                 "has element " + std::to_string(J) +
                     " that is not a datatype ddtc knows here",
                 E.K == Value::Kind::Handle ? E.H->Why.get() : E.Why.get());
      }
      break;
    }
    }
  }

  if (Known) {
    std::vector<int64_t> Ints = std::move(Scalars);
    for (std::vector<int64_t> &L : Lists)
      Ints.insert(Ints.end(), L.begin(), L.end());
    Expected<const Type *> T = Ctx.get(Call.Kind, std::move(Ints), Operands);
    if (T) {
      H->T = *T;
    } else {
      std::string Msg = T.takeError().message();
      warn(C->getBeginLoc(), "the type built into '" + Into +
                                 "' is left out: " + Name.str() + ": " + Msg);
      H->Why = std::make_shared<Reason>(
          Reason{"MPI would reject it: " + Msg, C->getBeginLoc()});
    }
  }

  Value Target = eval(NewArg);
  bool Stored =
      Target.K == Value::Kind::Pointer && store(*Target.P, Value::handle(H));
  if (!Stored && H->T)
    warn(NewArg->getBeginLoc(),
         "the type built into '" + Into +
             "' is left out: ddtc does not follow where it is stored");
  return Value::integer(0);
}

} // namespace ddtc::source

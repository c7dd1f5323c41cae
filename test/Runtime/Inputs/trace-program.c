/*===- test/Runtime/Inputs/trace-program.c - A program to trace ----------===//
 *
 * An ordinary MPI program, which knows nothing of ddtc, for the tests of
 * libddtc_trace.so (trace-program.test). It builds a datatype with every
 * constructor (classic, large-count `_c` and deprecated forms), nests them,
 * frees operands before committing what was built on them, commits twice,
 * frees a committed type so that MPI may hand its handle out again, and
 * uses the types in point-to-point (blocking, non-blocking, persistent),
 * collective and pack calls, including a struct of absolute addresses with
 * MPI_BOTTOM. Runs with 2 or more ranks. The constructor calls marked
 * SOURCE are where the trace's x-source must point (trace-source.py).
 *
 * Usage: trace-program PREFIX [abort]
 * (with `abort`, rank 0 calls MPI_Abort once the types are built) writes,
 * per rank R:
 *   PREFIX.R.types  one line per committed type, what MPICH says of it:
 *                   type NAME size S lb L extent E true_lb TL true_extent TE pack H
 *                   NAME is the name the trace gives it (the one set with
 *                   MPI_Type_set_name, or type_N for the N-th distinct
 *                   committed type) and H the hash of its packed bytes
 *                   (packHash, the same as trace-check's; the MPI_BOTTOM
 *                   struct too, from a buffer at its addresses' offsets);
 *   PREFIX.R.data   hashes of what every call received or packed: the
 *                   program's results, the same with and without tracing.
 *
 *===----------------------------------------------------------------------===*/
#include <mpi.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An MPI 3.1 library (Open MPI 4.1) has no large-count `_c` calls: there
   the classic calls build the same types, which the trace records under
   the same names, and the type queries take MPI_Count through `_x`. */
#if MPI_VERSION >= 4
typedef MPI_Count CountArg;
typedef MPI_Count DispArg;
#else
typedef int CountArg;
typedef MPI_Aint DispArg;
#define MPI_Type_vector_c MPI_Type_vector
#define MPI_Type_create_subarray_c MPI_Type_create_subarray
#define MPI_Type_create_hindexed_c MPI_Type_create_hindexed
#define MPI_Type_create_struct_c MPI_Type_create_struct
#define MPI_Bcast_c MPI_Bcast
#define MPI_Type_size_c MPI_Type_size_x
#define MPI_Type_get_extent_c MPI_Type_get_extent_x
#define MPI_Type_get_true_extent_c MPI_Type_get_true_extent_x
#endif
/* Open MPI removed MPI-1's deleted constructors from its header; the
   trace records MPI_Type_hvector and MPI_Type_create_hvector alike. */
#ifdef OPEN_MPI
#undef MPI_Type_hvector
#define MPI_Type_hvector MPI_Type_create_hvector
#endif

static FILE *Types, *Data;
static int Rank, Size;
/* Distinct types committed so far: the N of the trace's type_N names. */
static int Distinct;

static uint64_t fnv(const unsigned char *P, size_t N) {
  uint64_t H = 1469598103934665603ULL;
  for (size_t I = 0; I < N; ++I)
    H = (H ^ P[I]) * 1099511628211ULL;
  return H;
}

/* The bytes MPI_Pack writes for 2 instances of T from a buffer whose byte
 * at offset I (from the lowest byte the typemap may touch) is I*131+7,
 * hashed. trace-check.cpp computes the same for the trace's types. */
static uint64_t packHash(MPI_Datatype T) {
  MPI_Count Lb, Extent, TrueLb, TrueExtent;
  int PackSize, Position = 0;
  MPI_Type_get_extent_c(T, &Lb, &Extent);
  MPI_Type_get_true_extent_c(T, &TrueLb, &TrueExtent);
  MPI_Count Lo = Extent < 0 ? TrueLb + Extent : TrueLb;
  MPI_Count Hi = Extent < 0 ? TrueLb + TrueExtent : TrueLb + TrueExtent + Extent;
  size_t Span = (size_t)(Hi - Lo) + 1;
  unsigned char *In = malloc(Span);
  for (size_t I = 0; I < Span; ++I)
    In[I] = (unsigned char)(I * 131 + 7);
  MPI_Pack_size(2, T, MPI_COMM_WORLD, &PackSize);
  unsigned char *Out = calloc((size_t)PackSize + 1, 1);
  MPI_Pack(In - Lo, 2, T, Out, PackSize, &Position, MPI_COMM_WORLD);
  uint64_t H = fnv(Out, (size_t)Position);
  free(In);
  free(Out);
  return H;
}

static void describe(const char *Name, MPI_Datatype T) {
  MPI_Count S, Lb, Extent, TrueLb, TrueExtent;
  MPI_Type_size_c(T, &S);
  MPI_Type_get_extent_c(T, &Lb, &Extent);
  MPI_Type_get_true_extent_c(T, &TrueLb, &TrueExtent);
  fprintf(Types, "type %s size %ld lb %ld extent %ld true_lb %ld true_extent %ld pack %016llx\n",
          Name, (long)S, (long)Lb, (long)Extent, (long)TrueLb, (long)TrueExtent,
          (unsigned long long)packHash(T));
}

/* Names T (unless Name is null), commits it and describes it. */
static void commit(MPI_Datatype *T, const char *Name) {
  char Auto[32];
  if (Name)
    MPI_Type_set_name(*T, Name);
  MPI_Type_commit(T);
  if (!Name) {
    snprintf(Auto, sizeof(Auto), "type_%d", Distinct);
    Name = Auto;
  }
  ++Distinct;
  describe(Name, *T);
}

static void result(const char *What, const void *P, size_t N) {
  fprintf(Data, "%s %016llx\n", What, (unsigned long long)fnv(P, N));
}

static void fill(void *P, size_t N, int Seed) {
  unsigned char *B = P;
  for (size_t I = 0; I < N; ++I)
    B[I] = (unsigned char)(I * 7 + (size_t)Seed * 13 + 1);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &Size);
  if (argc < 2 || argc > 3 || Size < 2) {
    if (Rank == 0)
      fprintf(stderr, "usage: mpiexec -n P trace-program PREFIX [abort] (P >= 2)\n");
    MPI_Finalize();
    return 2;
  }
  char Path[4096];
  snprintf(Path, sizeof(Path), "%s.%d.types", argv[1], Rank);
  Types = fopen(Path, "w");
  snprintf(Path, sizeof(Path), "%s.%d.data", argv[1], Rank);
  Data = fopen(Path, "w");
  int Next = (Rank + 1) % Size, Prev = (Rank + Size - 1) % Size;

  /* Every constructor. Operands built only for a type are freed before
   * that type is committed: the trace must not need them later. */
  MPI_Datatype Contig, Vec, Hvec, Idx, Hidx, IdxBlk, HidxBlk, Nested, Resized,
      Sub, Darr, Dup, VecC, SubC, HidxC, StructC, Unnamed, Old, TwinA, TwinB,
      Late, Tmp, Tmp2;

  MPI_Type_contiguous(3, MPI_INT, &Contig);
  commit(&Contig, "contig");

  MPI_Type_vector(4, 2, 5, MPI_DOUBLE, &Vec); /* SOURCE: vec */
  commit(&Vec, "vec");
  MPI_Type_commit(&Vec); /* twice: one entry */

  MPI_Type_contiguous(2, MPI_SHORT, &Tmp);
  MPI_Type_create_hvector(3, 1, 24, Tmp, &Hvec);
  MPI_Type_free(&Tmp);
  commit(&Hvec, "hvec");

  int IdxLens[] = {1, 2, 3}, IdxDispls[] = {0, 4, 9};
  MPI_Type_indexed(3, IdxLens, IdxDispls, MPI_FLOAT, &Idx);
  commit(&Idx, "idx");

  int HidxLens[] = {2, 1};
  MPI_Aint HidxDispls[] = {0, 400};
  MPI_Type_vector(2, 1, 3, MPI_INT, &Tmp);
  MPI_Type_create_hindexed(2, HidxLens, HidxDispls, Tmp, &Hidx);
  MPI_Type_free(&Tmp);
  commit(&Hidx, "hidx");

  int BlkDispls[] = {1, 5, 9};
  MPI_Type_create_indexed_block(3, 2, BlkDispls, MPI_SHORT, &IdxBlk);
  commit(&IdxBlk, "idxblk");

  MPI_Aint HblkDispls[] = {8, 64};
  MPI_Type_create_hindexed_block(2, 1, HblkDispls, MPI_DOUBLE, &HidxBlk);
  commit(&HidxBlk, "hidxblk");

  /* A struct of a predefined, a derived type built on a freed operand, and
   * a pair type. */
  int SLens[] = {1, 2, 1};
  MPI_Aint SDispls[] = {0, 8, 120};
  MPI_Type_contiguous(2, MPI_FLOAT, &Tmp2);
  MPI_Type_create_resized(Tmp2, 0, 16, &Tmp);
  MPI_Type_free(&Tmp2);
  MPI_Datatype STypes[] = {MPI_CHAR, Tmp, MPI_DOUBLE_INT};
  MPI_Type_create_struct(3, SLens, SDispls, STypes, &Nested); /* SOURCE: nested */
  MPI_Type_free(&Tmp);
  commit(&Nested, "nested");

  MPI_Type_create_resized(Contig, -4, 32, &Resized);
  commit(&Resized, "resized");

  int Sizes[] = {6, 8}, Subsizes[] = {3, 4}, Starts[] = {1, 2};
  MPI_Type_create_subarray(2, Sizes, Subsizes, Starts, MPI_ORDER_C, MPI_INT, &Sub);
  commit(&Sub, "sub");

  int Gsizes[] = {4 * Size, 6}, Distribs[] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_NONE},
      Dargs[] = {MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG}, Psizes[] = {Size, 1};
  MPI_Type_create_darray(Size, Rank, 2, Gsizes, Distribs, Dargs, Psizes,
                         MPI_ORDER_FORTRAN, MPI_DOUBLE, &Darr);
  commit(&Darr, "darr");

  MPI_Type_dup(Vec, &Dup);
  commit(&Dup, "duped");

  /* Large-count constructors. */
  MPI_Type_vector_c(2, 3, 4, MPI_INT, &VecC);
  commit(&VecC, "vec_c");
  CountArg SizesC[] = {5, 5, 4}, SubsizesC[] = {2, 3, 2}, StartsC[] = {1, 0, 2};
  MPI_Type_create_subarray_c(3, SizesC, SubsizesC, StartsC, /* SOURCE: sub_c */
                             MPI_ORDER_FORTRAN, MPI_SHORT, &SubC);
  commit(&SubC, "sub_c");
  CountArg HidxLensC[] = {1, 3};
  DispArg HidxDisplsC[] = {-16, 32};
  MPI_Type_create_hindexed_c(2, HidxLensC, HidxDisplsC, MPI_INT, &HidxC);
  commit(&HidxC, "hidx_c");
  CountArg SLensC[] = {2, 1};
  DispArg SDisplsC[] = {0, 24};
  MPI_Datatype STypesC[] = {HidxC, Contig};
  MPI_Type_create_struct_c(2, SLensC, SDisplsC, STypesC, &StructC);
  commit(&StructC, "struct_c");

  /* No name: the trace calls it type_N. */
  MPI_Type_contiguous(2, MPI_DOUBLE, &Unnamed);
  commit(&Unnamed, NULL);

  /* The constructor of MPI-1, gone from MPI-3 but still in MPICH. */
  MPI_Type_hvector(2, 2, 20, MPI_INT, &Old); /* SOURCE: old_hvector */
  commit(&Old, "old_hvector");

  /* Built twice, the same type: one entry, both names. */
  MPI_Type_vector(3, 1, 4, MPI_INT, &TwinA);
  MPI_Type_set_name(TwinA, "twin_a");
  MPI_Type_commit(&TwinA);
  describe("twin_a", TwinA);
  ++Distinct;
  MPI_Type_vector(3, 1, 4, MPI_INT, &TwinB);
  MPI_Type_set_name(TwinB, "twin_b");
  MPI_Type_commit(&TwinB);
  describe("twin_b", TwinB);

  /* Named after its commit. */
  MPI_Type_contiguous(5, MPI_CHAR, &Late);
  MPI_Type_commit(&Late);
  MPI_Type_set_name(Late, "late_name");
  describe("late_name", Late);
  ++Distinct;

  /* A type the IR cannot express (Fortran 90 parameterized types): left
   * out of the trace's types, listed as skipped. */
  MPI_Datatype F90, OnF90;
  MPI_Type_create_f90_real(6, 30, &F90);
  MPI_Type_contiguous(2, F90, &OnF90);
  MPI_Type_set_name(OnF90, "on_f90");
  MPI_Type_commit(&OnF90);
  ++Distinct;

  /* A committed predefined type is no type of the program's. */
  MPI_Datatype Int = MPI_INT;
  MPI_Type_commit(&Int);

  /* Absolute addresses: a struct used with MPI_BOTTOM. */
  int A[2] = {0, 0};
  double B = 0;
  float C[3] = {0, 0, 0};
  MPI_Aint Addr[3];
  MPI_Get_address(A, &Addr[0]);
  MPI_Get_address(&B, &Addr[1]);
  MPI_Get_address(C, &Addr[2]);
  int BotLens[] = {2, 1, 3};
  MPI_Datatype BotTypes[] = {MPI_INT, MPI_DOUBLE, MPI_FLOAT};
  MPI_Datatype Bottom;
  MPI_Type_create_struct(3, BotLens, Addr, BotTypes, &Bottom); /* SOURCE: bottom */
  MPI_Type_set_name(Bottom, "bottom");
  MPI_Type_commit(&Bottom);
  describe("bottom", Bottom);
  ++Distinct;

  /* A type that is committed, used and freed; the next type may get its
   * handle. */
  MPI_Datatype Gone, Reborn;
  MPI_Type_vector(2, 1, 2, MPI_LONG, &Gone);
  commit(&Gone, "gone");
  {
    long G[4], Out[8];
    int Pos = 0;
    fill(G, sizeof(G), 9);
    MPI_Pack(G, 1, Gone, Out, (int)sizeof(Out), &Pos, MPI_COMM_WORLD);
    result("pack gone", Out, (size_t)Pos);
  }
  MPI_Type_free(&Gone);
  MPI_Type_vector(3, 2, 3, MPI_LONG, &Reborn);
  commit(&Reborn, "reborn");

  /* The trace is written at MPI_Abort too. */
  if (argc == 3 && strcmp(argv[2], "abort") == 0 && Rank == 0)
    MPI_Abort(MPI_COMM_WORLD, 3);

  /* Uses. */
  double VecBuf[2 * 20];
  for (int I = 0; I < 3; ++I) {
    if (Rank == 0) {
      fill(VecBuf, sizeof(VecBuf), I);
      MPI_Send(VecBuf, 2, Vec, 1, 0, MPI_COMM_WORLD);
    } else if (Rank == 1) {
      memset(VecBuf, 0, sizeof(VecBuf));
      MPI_Recv(VecBuf, 2, Vec, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      result("recv vec", VecBuf, sizeof(VecBuf));
    }
  }

  float IdxOut[16], IdxIn[16];
  MPI_Request Reqs[2];
  MPI_Status Statuses[2];
  fill(IdxOut, sizeof(IdxOut), Rank);
  memset(IdxIn, 0, sizeof(IdxIn));
  MPI_Irecv(IdxIn, 1, Idx, Prev, 1, MPI_COMM_WORLD, &Reqs[0]);
  MPI_Isend(IdxOut, 1, Idx, Next, 1, MPI_COMM_WORLD, &Reqs[1]);
  MPI_Waitall(2, Reqs, Statuses);
  result("irecv idx", IdxIn, sizeof(IdxIn));

  int SubBuf[6 * 8];
  if (Rank == 0)
    fill(SubBuf, sizeof(SubBuf), 3);
  else
    memset(SubBuf, 0, sizeof(SubBuf));
  MPI_Bcast(SubBuf, 1, Sub, 0, MPI_COMM_WORLD);
  result("bcast sub", SubBuf, sizeof(SubBuf));

  int VecCBuf[2 * 4 * 2];
  if (Rank == 0)
    fill(VecCBuf, sizeof(VecCBuf), 4);
  else
    memset(VecCBuf, 0, sizeof(VecCBuf));
  MPI_Bcast_c(VecCBuf, 2, VecC, 0, MPI_COMM_WORLD);
  result("bcast_c vec_c", VecCBuf, sizeof(VecCBuf));

  int *Gathered = calloc((size_t)Size * 3, sizeof(int));
  int Mine[3] = {Rank, Rank * 10, Rank * 100};
  MPI_Allgather(Mine, 1, Contig, Gathered, 1, Contig, MPI_COMM_WORLD);
  result("allgather contig", Gathered, (size_t)Size * 3 * sizeof(int));
  free(Gathered);

  {
    unsigned char NestedIn[2 * 136], NestedOut[2 * 136], Packed[512];
    int Pos = 0, PackSize;
    fill(NestedIn, sizeof(NestedIn), 5);
    MPI_Pack_size(2, Nested, MPI_COMM_WORLD, &PackSize);
    MPI_Pack(NestedIn, 2, Nested, Packed, (int)sizeof(Packed), &Pos, MPI_COMM_WORLD);
    result("pack nested", Packed, (size_t)Pos);
    memset(NestedOut, 0, sizeof(NestedOut));
    Pos = 0;
    MPI_Unpack(Packed, PackSize, &Pos, NestedOut, 2, Nested, MPI_COMM_WORLD);
    result("unpack nested", NestedOut, sizeof(NestedOut));
  }

  if (Rank == 0) {
    A[0] = 7, A[1] = 8, B = 2.5, C[0] = 1, C[1] = 2, C[2] = 3;
    MPI_Send(MPI_BOTTOM, 1, Bottom, 1, 2, MPI_COMM_WORLD);
  } else if (Rank == 1) {
    MPI_Recv(MPI_BOTTOM, 1, Bottom, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    fprintf(Data, "recv bottom %d %d %g %g %g %g\n", A[0], A[1], B, C[0], C[1], C[2]);
  }

  {
    double DarrOut[4 * 6 * 16], DarrIn[4 * 6 * 16];
    fill(DarrOut, sizeof(DarrOut), Rank + 20);
    memset(DarrIn, 0, sizeof(DarrIn));
    /* Each rank's darray type covers its own block; sender and receiver
     * agree on the signature (4 x 6 doubles). */
    if ((size_t)Size <= 16)
      MPI_Sendrecv(DarrOut, 1, Darr, Next, 3, DarrIn, 1, Darr, Prev, 3,
                   MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    result("sendrecv darr", DarrIn, sizeof(DarrIn));
  }

  {
    short HvecOut[36], HvecIn[36];
    MPI_Request P[2];
    MPI_Recv_init(HvecIn, 1, Hvec, Prev, 4, MPI_COMM_WORLD, &P[0]);
    MPI_Send_init(HvecOut, 1, Hvec, Next, 4, MPI_COMM_WORLD, &P[1]);
    for (int I = 0; I < 2; ++I) {
      fill(HvecOut, sizeof(HvecOut), Rank + I);
      memset(HvecIn, 0, sizeof(HvecIn));
      MPI_Startall(2, P);
      MPI_Waitall(2, P, Statuses);
      result("persistent hvec", HvecIn, sizeof(HvecIn));
    }
    MPI_Request_free(&P[0]);
    MPI_Request_free(&P[1]);
  }

  {
    int PackSize;
    MPI_Pack_size(4, Resized, MPI_COMM_WORLD, &PackSize);
    fprintf(Data, "pack_size resized %d\n", PackSize);
  }

  {
    int TwinBuf[12];
    if (Rank == 0) {
      fill(TwinBuf, sizeof(TwinBuf), 6);
      MPI_Send(TwinBuf, 1, TwinA, 1, 5, MPI_COMM_WORLD);
    } else if (Rank == 1) {
      memset(TwinBuf, 0, sizeof(TwinBuf));
      MPI_Recv(TwinBuf, 1, TwinB, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      result("recv twin", TwinBuf, sizeof(TwinBuf));
    }
  }

  {
    /* Several types through one pack buffer. */
    unsigned char In[4096], Packed[8192];
    int Pos = 0;
    fill(In, sizeof(In), 8);
    MPI_Datatype Packs[] = {Unnamed, Old, Hidx, IdxBlk, HidxBlk, Dup, SubC,
                            StructC, Late, Reborn};
    for (size_t I = 0; I < sizeof(Packs) / sizeof(Packs[0]); ++I)
      MPI_Pack(In + 64, 1, Packs[I], Packed, (int)sizeof(Packed), &Pos,
               MPI_COMM_WORLD);
    result("pack several", Packed, (size_t)Pos);
  }

  MPI_Type_free(&Contig);
  MPI_Type_free(&Vec);
  MPI_Type_free(&Hvec);
  MPI_Type_free(&Idx);
  MPI_Type_free(&Hidx);
  MPI_Type_free(&IdxBlk);
  MPI_Type_free(&HidxBlk);
  MPI_Type_free(&Nested);
  MPI_Type_free(&Resized);
  MPI_Type_free(&Sub);
  MPI_Type_free(&Darr);
  MPI_Type_free(&Dup);
  MPI_Type_free(&VecC);
  MPI_Type_free(&SubC);
  MPI_Type_free(&HidxC);
  MPI_Type_free(&StructC);
  MPI_Type_free(&Unnamed);
  MPI_Type_free(&Old);
  MPI_Type_free(&TwinA);
  MPI_Type_free(&TwinB);
  MPI_Type_free(&Late);
  MPI_Type_free(&Bottom);
  MPI_Type_free(&Reborn);
  MPI_Type_free(&OnF90);
  fclose(Types);
  fclose(Data);
  MPI_Finalize();
  return 0;
}

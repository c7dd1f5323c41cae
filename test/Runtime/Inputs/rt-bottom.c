/*===- test/Runtime/Inputs/rt-bottom.c - A struct of absolute addresses ----===*
 *
 * The pattern of DDTBench's WRF, LAMMPS and SPECFEM3D codes: a struct whose
 * displacements are absolute addresses (MPI_Get_address), used with
 * MPI_BOTTOM. Its addresses change from run to run and rank to rank, so a
 * kernel can only match it up to a translation (rt-bottom.test). Rank 0
 * sends, rank 1 receives, with MPI_Send/MPI_Recv, MPI_Isend/MPI_Irecv and
 * MPI_Bcast; rank 1 prints a digest of what it received.
 *
 * Usage: rt-bottom PAD [GAP] -- PAD KiB are allocated first, to move the
 * arrays; with GAP, the two arrays are placed apart, GAP bytes between
 * them, so that their distance changes from run to run too.
 *
 *===----------------------------------------------------------------------===*/
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NA = 1000, NB = 500, BOFFSET = 8000 };

static uint64_t digest(const unsigned char *p, size_t n) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < n; ++i) {
    h ^= p[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  size_t pad = (size_t)(argc > 1 ? atoi(argv[1]) : 0) * 1024 + 16 * rank;
  char *junk = malloc(pad + 1);
  /* Without GAP the two arrays are one array. With GAP they are placed
     GAP bytes apart in one allocation, rather than allocated one after the
     other: how far apart malloc puts two blocks is the allocator's choice
     (AddressSanitizer's puts blocks of one size class side by side
     whatever is allocated between them). */
  int apart = argc > 2;
  size_t bytes = BOFFSET + NB * sizeof(int);
  size_t gap = apart ? (size_t)atoi(argv[2]) / 16 * 16 : 0;
  unsigned char *base = malloc(apart ? 2 * bytes + gap : bytes);
  unsigned char *bbase = apart ? base + bytes + gap : base;
  double *a = (double *)base;
  int *b = (int *)(bbase + BOFFSET);

  MPI_Datatype va, vb, t, types[2];
  int displs[50];
  for (int i = 0; i < 50; ++i)
    displs[i] = 3 * i;
  MPI_Type_vector(100, 2, 10, MPI_DOUBLE, &va);
  MPI_Type_create_indexed_block(50, 1, displs, MPI_INT, &vb);
  int lengths[2] = {1, 1};
  MPI_Aint addrs[2];
  MPI_Get_address(a, &addrs[0]);
  MPI_Get_address(b + 3, &addrs[1]);
  types[0] = va;
  types[1] = vb;
  MPI_Type_create_struct(2, lengths, addrs, types, &t);
  MPI_Type_commit(&t);
  MPI_Type_free(&va);
  MPI_Type_free(&vb);

  for (int round = 0; round < 3; ++round) {
    for (size_t i = 0; i < bytes; ++i) {
      base[i] = (unsigned char)(rank == 0 ? i * 7 + round : 0xEE);
      bbase[i] = (unsigned char)(rank == 0 ? i * 5 + round : 0xEE);
    }
    if (round == 0) {
      if (rank == 0)
        MPI_Send(MPI_BOTTOM, 1, t, 1, 0, MPI_COMM_WORLD);
      else if (rank == 1)
        MPI_Recv(MPI_BOTTOM, 1, t, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (round == 1) {
      MPI_Request r;
      if (rank == 0)
        MPI_Isend(MPI_BOTTOM, 1, t, 1, 1, MPI_COMM_WORLD, &r);
      else
        MPI_Irecv(MPI_BOTTOM, 1, t, 0, 1, MPI_COMM_WORLD, &r);
      MPI_Wait(&r, MPI_STATUS_IGNORE);
    } else {
      MPI_Bcast(MPI_BOTTOM, 1, t, 0, MPI_COMM_WORLD);
    }
    if (rank == 1)
      printf("round %d: %016llx %016llx\n", round,
             (unsigned long long)digest(base, bytes),
             (unsigned long long)digest(bbase, bytes));
  }
  MPI_Type_free(&t);
  free(base);
  free(junk);
  MPI_Finalize();
  return 0;
}

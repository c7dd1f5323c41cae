/* Atoms exchanged point to point through an index list of 1,200 scattered
 * 3-double entries (LAMMPS_full's shape), and boxes of a grid sent point to
 * point and broadcast. For rewrite-uses.test: traced, then rewritten for
 * the uses the traces record. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { N = 1200, SPREAD = 4000 };

int main(int argc, char **argv) {
  MPI_Datatype atoms, boxes;
  int rank, at[N];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  /* The atoms to exchange, at indices a generator scatters. */
  unsigned seed = 12345;
  for (int i = 0; i < N; ++i) {
    seed = seed * 1103515245u + 12345u;
    at[i] = 3 * (int)((seed >> 8) % SPREAD);
  }
  MPI_Type_create_indexed_block(N, 3, at, MPI_DOUBLE, &atoms);
  MPI_Type_set_name(atoms, "atoms");
  MPI_Type_commit(&atoms);
  MPI_Type_vector(64, 4, 16, MPI_DOUBLE, &boxes);
  MPI_Type_set_name(boxes, "boxes");
  MPI_Type_commit(&boxes);

  double *x = malloc(3 * SPREAD * sizeof(double));
  for (int i = 0; i < 3 * SPREAD; ++i)
    x[i] = rank * 100000 + i;
  if (rank == 0) {
    MPI_Send(x, 1, atoms, 1, 0, MPI_COMM_WORLD);
    MPI_Send(x, 1, boxes, 1, 1, MPI_COMM_WORLD);
  } else if (rank == 1) {
    MPI_Recv(x, 1, atoms, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(x, 1, boxes, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Bcast(x, 1, boxes, 0, MPI_COMM_WORLD);
  double sum = 0;
  for (int i = 0; i < 3 * SPREAD; ++i)
    sum += x[i] * (i % 7 + 1);
  printf("rank %d: %.1f\n", rank, sum);
  free(x);
  MPI_Type_free(&atoms);
  MPI_Type_free(&boxes);
  MPI_Finalize();
  return 0;
}

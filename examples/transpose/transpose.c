/*===- examples/transpose/transpose.c - FFT-style distributed transpose ---===*
 *
 * What it models: the transpose of a distributed 2-D FFT (and of spectral
 * and pencil-decomposed codes). A global matrix A of complex doubles,
 * (N*P) x (M*P) for P ranks, is distributed by rows: each rank holds N rows
 * of A. The transpose B = A^T, (M*P) x (N*P), is distributed by rows too:
 * each rank holds M rows of B. One MPI_Alltoall moves the data and
 * transposes it on the way, with two datatypes:
 *
 *   block   what a rank sends each peer: its N x M block of the peer's
 *           columns, an MPI_Type_vector(N, M, M*P) resized to M elements, so
 *           that the block for peer q starts at column q*M (count 1);
 *   column  where it receives: one column of its rows of B, an
 *           MPI_Type_vector(M, 1, N*P) resized to one element, so that N of
 *           them are N consecutive columns (count N) and peer q's block lands
 *           at column q*N -- the classic trick that makes Alltoall transpose.
 *
 * Each iteration transposes A to B and B back to A' (forward and backward
 * transform), each direction with its own pair of types, built once.
 *
 * Check: A holds a formula of the global indices and of the iteration; after
 * the forward transpose every element of B must be the element of A it
 * transposes, and after the backward one A' must equal A. Any mismatch is
 * printed and all ranks exit with status 1.
 *
 * Build (with ddtc, when MPI is enabled: build/examples/transpose) or alone:
 *   mpicc.mpich -std=c99 -O2 -g transpose.c -o transpose
 * Run (any number of ranks, 1 included):
 *   mpiexec.mpich -n 2 ./transpose [--n 64] [--m 48] [--iters 20]
 * Trace (docs/runtime.md) and replay the trace with ddtc-bench:
 *   LD_PRELOAD=build/lib/Runtime/libddtc_trace.so DDTC_TRACE=transpose-%r.json \
 *     mpiexec.mpich -n 2 ./transpose
 *   mpiexec.mpich -n 2 build/tools/ddtc-bench/ddtc-bench transpose-0.json --uses
 *
 *===----------------------------------------------------------------------===*/
#include <complex.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_REPORTS = 5 }; /* mismatches printed per rank */

/* "--name value" options with integer values of at least Min. */
struct option {
  const char *name;
  int *value;
  int min;
};

static int parse_options(int argc, char **argv, const struct option *opts,
                         int nopts) {
  for (int i = 1; i < argc; i += 2) {
    int known = 0;
    for (int o = 0; o < nopts && !known; ++o) {
      if (strcmp(argv[i], opts[o].name) != 0 || i + 1 >= argc)
        continue;
      char *end;
      long v = strtol(argv[i + 1], &end, 10);
      if (*end != '\0' || v < opts[o].min || v > 1 << 16)
        return 0;
      *opts[o].value = (int)v;
      known = 1;
    }
    if (!known)
      return 0;
  }
  return 1;
}

/* Element (I, J) of the global A at an iteration: the real part tells the
   element, the imaginary part the iteration; both exact. */
static double complex value(long i, long j, long cols, int iter) {
  return (double)(i * cols + j) + (double)iter * I;
}

/* The types of one direction, from a matrix whose ranks hold Rows rows of
   Cols * P columns each to its transpose, whose ranks hold Cols rows of
   Rows * P columns. */
struct transpose_types {
  MPI_Datatype block;  /* send: Rows x Cols, one per peer (count 1) */
  MPI_Datatype column; /* receive: one column of Cols elements (count Rows) */
};

static struct transpose_types make_types(int rows, int cols, int nranks,
                                         const char *block_name,
                                         const char *column_name) {
  const MPI_Aint elem = (MPI_Aint)sizeof(double complex);
  struct transpose_types t;
  MPI_Datatype block, column;
  MPI_Type_vector(rows, cols, cols * nranks, MPI_C_DOUBLE_COMPLEX, &block);
  MPI_Type_create_resized(block, 0, cols * elem, &t.block);
  MPI_Type_vector(cols, 1, rows * nranks, MPI_C_DOUBLE_COMPLEX, &column);
  MPI_Type_create_resized(column, 0, elem, &t.column);
  /* Only the resized types are committed and used: their operands can go. */
  MPI_Type_free(&block);
  MPI_Type_free(&column);
  MPI_Type_set_name(t.block, block_name);
  MPI_Type_set_name(t.column, column_name);
  MPI_Type_commit(&t.block);
  MPI_Type_commit(&t.column);
  return t;
}

static void free_types(struct transpose_types *t) {
  MPI_Type_free(&t->block);
  MPI_Type_free(&t->column);
}

/* Checks that the Rows x Cols local matrix M, rows First.. of the global
   matrix, holds at (r, c) the element (c, First + r) of A when Transposed,
   else (First + r, c) of A, which has ACols columns. Returns Errors plus the
   mismatches, the first few of a run printed. */
static int check(const double complex *m, int rows, int cols, long first,
                 long acols, int transposed, int iter, const char *what,
                 int rank, int errors) {
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      long gr = first + r;
      double complex want = transposed ? value(c, gr, acols, iter)
                                       : value(gr, c, acols, iter);
      double complex got = m[(size_t)r * cols + c];
      if (got != want && errors++ < MAX_REPORTS)
        fprintf(stderr,
                "transpose: rank %d: iteration %d: %s[%ld][%d] is (%g, %g), "
                "expected (%g, %g)\n",
                rank, iter, what, gr, c, creal(got), cimag(got), creal(want),
                cimag(want));
    }
  return errors;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  int n = 64, m = 48, iters = 20;
  const struct option opts[] = {
      {"--n", &n, 1}, {"--m", &m, 1}, {"--iters", &iters, 0}};
  if (!parse_options(argc, argv, opts, (int)(sizeof opts / sizeof *opts))) {
    if (rank == 0)
      fprintf(stderr, "usage: transpose [--n ROWS_OF_A_PER_RANK] "
                      "[--m ROWS_OF_B_PER_RANK] [--iters I]\n");
    MPI_Finalize();
    return 2;
  }
  const long rows_a = (long)n * size, cols_a = (long)m * size;

  size_t elems = (size_t)n * (size_t)cols_a; /* = m * rows_a */
  double complex *a = malloc(elems * sizeof *a);
  double complex *b = malloc(elems * sizeof *b);
  double complex *back = malloc(elems * sizeof *back);
  if (!a || !b || !back) {
    fprintf(stderr, "transpose: rank %d: out of memory\n", rank);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }

  /* Forward: A (n rows of cols_a) to B (m rows of rows_a); backward: B to A. */
  struct transpose_types forward = make_types(n, m, size, "a_block", "b_column");
  struct transpose_types backward = make_types(m, n, size, "b_block", "a_column");

  int errors = 0;
  double start = MPI_Wtime();
  for (int iter = 0; iter < iters; ++iter) {
    for (int r = 0; r < n; ++r)
      for (long c = 0; c < cols_a; ++c)
        a[(size_t)r * cols_a + c] = value((long)rank * n + r, c, cols_a, iter);

    MPI_Alltoall(a, 1, forward.block, b, n, forward.column, MPI_COMM_WORLD);
    errors = check(b, m, (int)rows_a, (long)rank * m, cols_a, 1, iter, "B",
                   rank, errors);
    /* (The 1-D FFTs along the rows of B would go here.) */
    MPI_Alltoall(b, 1, backward.block, back, m, backward.column,
                 MPI_COMM_WORLD);
    errors = check(back, n, (int)cols_a, (long)rank * n, cols_a, 0, iter, "A",
                   rank, errors);
  }
  double seconds = MPI_Wtime() - start;

  int total;
  MPI_Allreduce(&errors, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) {
    if (total)
      fprintf(stderr, "transpose: FAILED: %d wrong elements\n", total);
    else
      printf("transpose: %d ranks, A %ld x %ld (%d rows each), %d iterations "
             "of forward and backward: ok, %.1f us per iteration\n",
             size, rows_a, cols_a, n, iters,
             iters ? 1e6 * seconds / iters : 0.0);
  }

  free_types(&forward);
  free_types(&backward);
  free(a);
  free(b);
  free(back);
  MPI_Finalize();
  return total ? 1 : 0;
}

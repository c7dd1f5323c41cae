/*===- test/Runtime/Inputs/rt-threads.c - Substitution from many threads ---===*
 *
 * Under MPI_THREAD_MULTIPLE, four threads per rank each commit their own
 * vector types (building, committing and freeing them concurrently), and
 * exchange them with the other rank through MPI_Sendrecv, MPI_Isend/
 * MPI_Irecv with MPI_Waitall, and MPI_Pack/MPI_Unpack, on tags of their own.
 * Each thread prints a digest of what it received (rt-threads.test). With
 * the argument `lists`, the types are index lists of 3,000 doubles in a
 * scattered order instead (four per thread, built again every round),
 * which the runtime sends in a form of pieces when it has no kernel for
 * them (DDTC_RT_FORMS).
 *
 *===----------------------------------------------------------------------===*/
#include <mpi.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NTHREADS = 4, ROUNDS = 200, N = 8192 };

static int rank, lists;
static uint64_t digests[NTHREADS];

static void mix(uint64_t *h, const void *p, size_t n) {
  const unsigned char *c = p;
  for (size_t i = 0; i < n; ++i) {
    *h ^= c[i];
    *h *= 0x100000001b3ull;
  }
}

static void *work(void *arg) {
  int id = (int)(intptr_t)arg, peer = 1 - rank;
  double *a = malloc(N * sizeof(double)), *b = malloc(N * sizeof(double));
  char packed[N * sizeof(double)];
  uint64_t h = 0xcbf29ce484222325ull;
  for (int r = 0; r < ROUNDS; ++r) {
    MPI_Datatype t;
    /* Thread id and round change the stride: types differ between threads. */
    if (lists) {
      /* 3,000 distinct places of the first 4,000 doubles (7 is prime to
       * 4,000), so that two instances fit the buffers. */
      int at[3000];
      for (int k = 0; k < 3000; ++k)
        at[k] = (7 * k + 13 * id + r % 4) % 4000;
      MPI_Type_create_indexed_block(3000, 1, at, MPI_DOUBLE, &t);
    } else {
      MPI_Type_vector(64, 1 + id, 8 + id + r % 3, MPI_DOUBLE, &t);
    }
    MPI_Type_commit(&t);
    for (int i = 0; i < N; ++i) {
      a[i] = rank * 1e6 + id * 1e4 + r + i * 0.5;
      b[i] = -1;
    }
    int tag = id * 1000 + r;
    MPI_Sendrecv(a, 2, t, peer, tag, b, 2, t, peer, tag, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    mix(&h, b, N * sizeof(double));
    MPI_Request q[2];
    MPI_Irecv(b, 1, t, peer, tag + 500, MPI_COMM_WORLD, &q[0]);
    MPI_Isend(a + 1, 1, t, peer, tag + 500, MPI_COMM_WORLD, &q[1]);
    MPI_Status st[2];
    MPI_Waitall(2, q, st);
    mix(&h, b, N * sizeof(double));
    int pos = 0;
    MPI_Pack(a, 1, t, packed, sizeof packed, &pos, MPI_COMM_SELF);
    mix(&h, packed, (size_t)pos);
    MPI_Type_free(&t);
  }
  digests[id] = h;
  free(a);
  free(b);
  return NULL;
}

int main(int argc, char **argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  if (provided != MPI_THREAD_MULTIPLE) {
    fprintf(stderr, "rt-threads: no MPI_THREAD_MULTIPLE\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  lists = argc > 1 && strcmp(argv[1], "lists") == 0;
  pthread_t th[NTHREADS];
  for (int i = 0; i < NTHREADS; ++i)
    pthread_create(&th[i], NULL, work, (void *)(intptr_t)i);
  for (int i = 0; i < NTHREADS; ++i)
    pthread_join(th[i], NULL);
  for (int i = 0; i < NTHREADS; ++i)
    printf("rank %d thread %d: %016llx\n", rank, i,
           (unsigned long long)digests[i]);
  MPI_Finalize();
  return 0;
}

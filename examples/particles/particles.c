/*===- examples/particles/particles.c - particle migration, index lists ---===*
 *
 * What it models: the communication of a particle code (molecular dynamics,
 * particle-in-cell, N-body). Each rank holds an array of particle structs on
 * a ring of ranks. Every iteration it moves its particles, picks those that
 * leave to the right and to the left neighbour, and sends them straight out
 * of the array with an MPI_Type_create_indexed_block of their slots over the
 * particle type (MPI_Type_create_struct, resized to sizeof(struct
 * particle)). As real codes do, the index types are created, committed, used
 * and freed in every iteration, after an exchange of the counts. Arrivals
 * are received contiguously (the particle type, COUNT of them) and fill the
 * holes the leavers left.
 *
 * Which slots leave is a fixed rule (every K-th slot to the right, the slots
 * halfway between to the left, and a few irregular slots either way), so the
 * index lists are the same in every iteration: the trace merges the types of
 * all iterations into one entry per direction, with the uses of all.
 *
 * Check: a particle's fields are formulas of its global id and of how often
 * it has moved. After each migration every particle of every rank must
 * satisfy them (a particle sent with the wrong layout does not), and the
 * number of particles and the sum and sum of squares of their ids over all
 * ranks must be what they were (none lost or duplicated). Any mismatch is
 * printed and all ranks exit with status 1.
 *
 * Build (with ddtc, when MPI is enabled: build/examples/particles) or alone:
 *   mpicc.mpich -std=c99 -O2 -g particles.c -o particles
 * Run (any number of ranks, 1 included):
 *   mpiexec.mpich -n 2 ./particles [--particles 4096] [--every 8] [--iters 20]
 * Trace (docs/runtime.md) and replay the trace with ddtc-bench:
 *   LD_PRELOAD=build/lib/Runtime/libddtc_trace.so DDTC_TRACE=particles-%r.json \
 *     mpiexec.mpich -n 2 ./particles
 *   mpiexec.mpich -n 2 build/tools/ddtc-bench/ddtc-bench particles-0.json --uses
 *
 *===----------------------------------------------------------------------===*/
#include <mpi.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 60 bytes of data, 64 with the padding the compiler adds after flag. */
struct particle {
  double pos[3];
  double vel[3];
  int64_t id;
  int flag;
};

enum { STAY = 0, RIGHT = 1, LEFT = 2 };
enum { TAG_COUNT_RIGHT = 1, TAG_COUNT_LEFT, TAG_RIGHT, TAG_LEFT };
enum { MAX_REPORTS = 5 }; /* mismatches printed per rank */

/* The irregular leavers, beyond every K-th slot: a few particles that
   crossed a corner of the domain. More to the right than to the left, so
   that the two directions carry different counts. */
static const int ExtraRight[] = {3, 13, 250, 1501, 3001};
static const int ExtraLeft[] = {1, 42, 777};

static int contains(const int *list, int n, int v) {
  for (int i = 0; i < n; ++i)
    if (list[i] == v)
      return 1;
  return 0;
}

/* Where the particle in slot I goes. The rule depends on the slot only, and
   is the same on every rank: as many particles arrive as leave. */
static int direction(int i, int every) {
  if (i % every == 0)
    return RIGHT;
  if (i % every == every / 2)
    return LEFT;
  if (contains(ExtraRight, (int)(sizeof ExtraRight / sizeof *ExtraRight), i))
    return RIGHT;
  if (contains(ExtraLeft, (int)(sizeof ExtraLeft / sizeof *ExtraLeft), i))
    return LEFT;
  return STAY;
}

/* A particle's fields after it moved Steps times: exact in doubles. */
static struct particle make_particle(int64_t id, int steps) {
  struct particle p;
  memset(&p, 0, sizeof p); /* the padding too, for tools that read it */
  for (int d = 0; d < 3; ++d) {
    p.vel[d] = 0.5 * (double)((id + d) % 7 - 3);
    p.pos[d] = (double)(3 * id + d) + steps * p.vel[d];
  }
  p.id = id;
  p.flag = (int)(id % 5);
  return p;
}

/* The particle type: every field, and the extent of the C struct, so that
   count particles are count consecutive array elements. */
static MPI_Datatype make_particle_type(void) {
  int blocklengths[4] = {3, 3, 1, 1};
  MPI_Aint displacements[4] = {offsetof(struct particle, pos),
                               offsetof(struct particle, vel),
                               offsetof(struct particle, id),
                               offsetof(struct particle, flag)};
  MPI_Datatype types[4] = {MPI_DOUBLE, MPI_DOUBLE, MPI_INT64_T, MPI_INT};
  MPI_Datatype fields, particle;
  MPI_Type_create_struct(4, blocklengths, displacements, types, &fields);
  MPI_Type_create_resized(fields, 0, sizeof(struct particle), &particle);
  MPI_Type_free(&fields);
  MPI_Type_set_name(particle, "particle");
  MPI_Type_commit(&particle);
  return particle;
}

/* The particles at Slots of the array, one type for one message. */
static MPI_Datatype make_selection(const int *slots, int n,
                                   MPI_Datatype particle, const char *name) {
  MPI_Datatype t;
  MPI_Type_create_indexed_block(n, 1, slots, particle, &t);
  MPI_Type_set_name(t, name);
  MPI_Type_commit(&t);
  return t;
}

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
      if (*end != '\0' || v < opts[o].min || v > 1 << 24)
        return 0;
      *opts[o].value = (int)v;
      known = 1;
    }
    if (!known)
      return 0;
  }
  return 1;
}

static void *xmalloc(size_t n, int rank) {
  void *p = malloc(n ? n : 1);
  if (!p) {
    fprintf(stderr, "particles: rank %d: out of memory\n", rank);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  return p;
}

/* Field by field: MPI moves no padding, so the padding of a received
   particle is whatever the receive buffer held. */
static int same_fields(const struct particle *a, const struct particle *b) {
  for (int d = 0; d < 3; ++d)
    if (a->pos[d] != b->pos[d] || a->vel[d] != b->vel[d])
      return 0;
  return a->id == b->id && a->flag == b->flag;
}

/* Every particle against its formulas after Steps moves; returns Errors
   plus the mismatches, the first few of a run printed. */
static int check_fields(const struct particle *parts, int n, int steps,
                        int rank, int errors) {
  for (int i = 0; i < n; ++i) {
    struct particle want = make_particle(parts[i].id, steps);
    if (!same_fields(&parts[i], &want) && errors++ < MAX_REPORTS)
      fprintf(stderr,
              "particles: rank %d: after %d steps: slot %d (id %lld): pos "
              "(%g, %g, %g) vel (%g, %g, %g) flag %d, expected (%g, %g, %g) "
              "(%g, %g, %g) %d\n",
              rank, steps, i, (long long)parts[i].id, parts[i].pos[0],
              parts[i].pos[1], parts[i].pos[2], parts[i].vel[0],
              parts[i].vel[1], parts[i].vel[2], parts[i].flag, want.pos[0],
              want.pos[1], want.pos[2], want.vel[0], want.vel[1], want.vel[2],
              want.flag);
  }
  return errors;
}

/* The number of particles and the sum and sum of squares of their ids over
   all ranks (modulo 2^64): unchanged unless one was lost or duplicated. */
static void census(const struct particle *parts, int n, uint64_t out[3]) {
  uint64_t local[3] = {(uint64_t)n, 0, 0};
  for (int i = 0; i < n; ++i) {
    uint64_t id = (uint64_t)parts[i].id;
    local[1] += id;
    local[2] += id * id;
  }
  MPI_Allreduce(local, out, 3, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  int n = 4096, every = 8, iters = 20;
  const struct option opts[] = {
      {"--particles", &n, 1}, {"--every", &every, 2}, {"--iters", &iters, 0}};
  if (!parse_options(argc, argv, opts, (int)(sizeof opts / sizeof *opts))) {
    if (rank == 0)
      fprintf(stderr, "usage: particles [--particles N] [--every K (>= 2)] "
                      "[--iters I]\n");
    MPI_Finalize();
    return 2;
  }
  int right = (rank + 1) % size, left = (rank + size - 1) % size;

  struct particle *parts = xmalloc((size_t)n * sizeof *parts, rank);
  struct particle *arrivals = xmalloc((size_t)n * sizeof *arrivals, rank);
  int *to_right = xmalloc((size_t)n * sizeof *to_right, rank);
  int *to_left = xmalloc((size_t)n * sizeof *to_left, rank);
  int *holes = xmalloc((size_t)n * sizeof *holes, rank);
  for (int i = 0; i < n; ++i)
    parts[i] = make_particle((int64_t)rank * n + i, 0);
  MPI_Datatype particle = make_particle_type();

  uint64_t before[3], after[3];
  census(parts, n, before);
  int errors = 0, nright = 0, nleft = 0;
  double start = MPI_Wtime();
  for (int iter = 0; iter < iters; ++iter) {
    /* Move, then select the leavers; their slots become holes. */
    int nholes = 0;
    nright = nleft = 0;
    for (int i = 0; i < n; ++i) {
      for (int d = 0; d < 3; ++d)
        parts[i].pos[d] += parts[i].vel[d];
      int dir = direction(i, every);
      if (dir == RIGHT)
        to_right[nright++] = i;
      else if (dir == LEFT)
        to_left[nleft++] = i;
      if (dir != STAY)
        holes[nholes++] = i;
    }

    /* Counts first: the receiver sizes its receives with them. */
    int from_left, from_right;
    MPI_Sendrecv(&nright, 1, MPI_INT, right, TAG_COUNT_RIGHT, &from_left, 1,
                 MPI_INT, left, TAG_COUNT_RIGHT, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(&nleft, 1, MPI_INT, left, TAG_COUNT_LEFT, &from_right, 1,
                 MPI_INT, right, TAG_COUNT_LEFT, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    /* The rule is the same on every rank, so the arrivals fill the holes
       exactly; a code whose migration depends on the data would append or
       compact here. */
    if (from_left + from_right != nholes) {
      fprintf(stderr, "particles: rank %d: %d particles arrive for %d holes\n",
              rank, from_left + from_right, nholes);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }

    MPI_Datatype send_right = make_selection(to_right, nright, particle,
                                             "to_right");
    MPI_Datatype send_left = make_selection(to_left, nleft, particle,
                                            "to_left");
    MPI_Request requests[4];
    MPI_Irecv(arrivals, from_left, particle, left, TAG_RIGHT, MPI_COMM_WORLD,
              &requests[0]);
    MPI_Irecv(arrivals + from_left, from_right, particle, right, TAG_LEFT,
              MPI_COMM_WORLD, &requests[1]);
    MPI_Isend(parts, 1, send_right, right, TAG_RIGHT, MPI_COMM_WORLD,
              &requests[2]);
    MPI_Isend(parts, 1, send_left, left, TAG_LEFT, MPI_COMM_WORLD,
              &requests[3]);
    MPI_Status statuses[4];
    MPI_Waitall(4, requests, statuses);
    MPI_Type_free(&send_right);
    MPI_Type_free(&send_left);
    /* A sender whose type selects other particles than it counted shows
       here first. */
    for (int r = 0; r < 2; ++r) {
      int got, want = r == 0 ? from_left : from_right;
      MPI_Get_count(&statuses[r], particle, &got);
      if (got != want && errors++ < MAX_REPORTS)
        fprintf(stderr, "particles: rank %d: iteration %d: %d particles "
                        "arrived from the %s, announced %d\n",
                rank, iter, got, r == 0 ? "left" : "right", want);
    }

    for (int h = 0; h < nholes; ++h)
      parts[holes[h]] = arrivals[h];
    errors = check_fields(parts, n, iter + 1, rank, errors);
  }
  double seconds = MPI_Wtime() - start;

  census(parts, n, after);
  if (rank == 0 && memcmp(before, after, sizeof before) != 0) {
    fprintf(stderr, "particles: %llu particles with id sum %llu before, %llu "
                    "with id sum %llu after\n",
            (unsigned long long)before[0], (unsigned long long)before[1],
            (unsigned long long)after[0], (unsigned long long)after[1]);
    ++errors;
  }
  int total;
  MPI_Allreduce(&errors, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) {
    if (total)
      fprintf(stderr, "particles: FAILED: %d errors\n", total);
    else
      printf("particles: %d ranks, %d particles each, %d to the right and %d "
             "to the left per iteration, %d iterations: ok, %.1f us per "
             "iteration\n",
             size, n, nright, nleft, iters,
             iters ? 1e6 * seconds / iters : 0.0);
  }

  MPI_Type_free(&particle);
  free(parts);
  free(arrivals);
  free(to_right);
  free(to_left);
  free(holes);
  MPI_Finalize();
  return total ? 1 : 0;
}

/*===- examples/halo3d/halo3d.c - 3-D halo exchange with subarrays --------===*
 *
 * What it models: the communication of a structured-grid stencil code
 * (finite differences, lattice Boltzmann, ...). Each rank owns an
 * NX x NY x NZ block of doubles of a periodic global grid, surrounded by a
 * ghost layer of width W. Before every sweep the ranks exchange their six
 * faces with their neighbours in a Cartesian communicator (MPI_Dims_create,
 * MPI_Cart_create, MPI_Cart_shift). Each face is an MPI_Type_create_subarray
 * of the whole local array, one type for the interior layer a rank sends and
 * one for the ghost layer it receives, built once and used by MPI_Sendrecv
 * every iteration.
 *
 * x varies fastest in memory (u[z][y][x]), so the z faces are NY rows of NX
 * doubles, the y faces NZ rows, and the x faces NY * NZ blocks of W doubles
 * each: the non-contiguous faces that MPI packs slowly and ddtc is about.
 * MPI_Dims_create gives the first dimension the most ranks, so with 2 ranks
 * the x faces go to the other rank and the y and z faces to the rank itself.
 *
 * Check: every interior cell holds a formula of its global indices and of
 * the iteration; after each exchange every cell of the array is compared
 * with what it must hold: the formula in the interior and in the face
 * ghosts (the neighbour's cells, periodically), the initial sentinel in the
 * edge and corner ghosts, which a face exchange does not fill. Any mismatch
 * is printed and all ranks exit with status 1.
 *
 * Three ways to exchange (--exchange), as real codes write it:
 *   sendrecv    (default) per axis two MPI_Sendrecv, upwards then downwards;
 *   persistent  the twelve transfers as persistent requests, created once
 *               (MPI_Send_init, MPI_Recv_init) and started together every
 *               iteration (MPI_Startall, MPI_Waitall);
 *   neighbor    one MPI_Neighbor_alltoallw per iteration, each face with its
 *               own type, on a distributed graph of the six neighbours (see
 *               make_graph: why not the Cartesian communicator itself).
 *
 * Build (with ddtc, when MPI is enabled: build/examples/halo3d) or alone:
 *   mpicc.mpich -std=c99 -O2 -g halo3d.c -o halo3d
 * Run:
 *   mpiexec.mpich -n 2 ./halo3d [--nx 32] [--ny 32] [--nz 32] [--ghost 1]
 *                               [--iters 20] [--decomp 3]
 *                               [--exchange sendrecv|persistent|neighbor]
 *   (--decomp 1 splits x only; 3 lets MPI_Dims_create split all three)
 * Trace (docs/runtime.md) and replay the trace with ddtc-bench:
 *   LD_PRELOAD=build/lib/Runtime/libddtc_trace.so DDTC_TRACE=halo3d-%r.json \
 *     mpiexec.mpich -n 2 ./halo3d
 *   mpiexec.mpich -n 2 build/tools/ddtc-bench/ddtc-bench halo3d-0.json --uses
 *
 *===----------------------------------------------------------------------===*/
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { X, Y, Z };       /* axes; X varies fastest in memory */
enum { LOW, HIGH };     /* the two sides of an axis */
enum { MAX_REPORTS = 5 }; /* mismatches printed per rank */

/* Edge and corner ghosts keep it: no face exchange writes there. */
static const double Sentinel = -1.0;

struct grid {
  int n[3];          /* interior cells per axis */
  int w;             /* ghost width */
  int dims[3];       /* ranks per axis */
  int coords[3];     /* this rank's position */
  MPI_Comm cart;
  double *u;         /* (n[Z]+2w) x (n[Y]+2w) x (n[X]+2w), x fastest */
};

/* "--name value" options with integer values of at least Min, or, where
   Choices is given, the index of the value among them. */
struct option {
  const char *name;
  int *value;
  int min;
  const char *const *choices; /* null-terminated */
};

/* The ways to exchange the faces (--exchange). */
enum { SENDRECV, PERSISTENT, NEIGHBOR };
static const char *const exchanges[] = {"sendrecv", "persistent", "neighbor",
                                        NULL};

static int parse_options(int argc, char **argv, const struct option *opts,
                         int nopts) {
  for (int i = 1; i < argc; i += 2) {
    int known = 0;
    for (int o = 0; o < nopts && !known; ++o) {
      if (strcmp(argv[i], opts[o].name) != 0 || i + 1 >= argc)
        continue;
      if (opts[o].choices) {
        for (int c = 0; opts[o].choices[c] && !known; ++c)
          if (strcmp(argv[i + 1], opts[o].choices[c]) == 0) {
            *opts[o].value = c;
            known = 1;
          }
        if (!known)
          return 0;
        continue;
      }
      char *end;
      long v = strtol(argv[i + 1], &end, 10);
      if (*end != '\0' || v < opts[o].min || v > 1 << 20)
        return 0;
      *opts[o].value = (int)v;
      known = 1;
    }
    if (!known)
      return 0;
  }
  return 1;
}

static int extent(const struct grid *g, int axis) {
  return g->n[axis] + 2 * g->w;
}

static size_t index3(const struct grid *g, int x, int y, int z) {
  return ((size_t)z * (size_t)extent(g, Y) + (size_t)y) * (size_t)extent(g, X) +
         (size_t)x;
}

/* The global index of array position I on Axis (I = w is the first interior
   cell), wrapped around: the grid is periodic. */
static long global_index(const struct grid *g, int axis, int i) {
  long total = (long)g->dims[axis] * g->n[axis];
  long v = (long)g->coords[axis] * g->n[axis] + i - g->w;
  return (v % total + total) % total;
}

/* The value of a global cell at an iteration: distinct for every cell and
   iteration, and exact in a double for any grid that fits in memory. */
static double value(const struct grid *g, long gx, long gy, long gz, int iter) {
  long nx = (long)g->dims[X] * g->n[X], ny = (long)g->dims[Y] * g->n[Y];
  long nz = (long)g->dims[Z] * g->n[Z];
  return (double)((gz * ny + gy) * nx + gx) + (double)iter * (double)(nx * ny * nz);
}

/* One layer of W cells across Axis starting at array position Start, the
   whole interior along the other two axes. Subarray dimensions are listed
   slowest first (MPI_ORDER_C): z, y, x. */
static MPI_Datatype make_layer(const struct grid *g, int axis, int start,
                               const char *name) {
  int sizes[3], subsizes[3], starts[3];
  for (int a = X; a <= Z; ++a) {
    int c = Z - a;
    sizes[c] = extent(g, a);
    subsizes[c] = a == axis ? g->w : g->n[a];
    starts[c] = a == axis ? start : g->w;
  }
  MPI_Datatype t;
  MPI_Type_create_subarray(3, sizes, subsizes, starts, MPI_ORDER_C, MPI_DOUBLE,
                           &t);
  /* Named, so that the trace says which face a type is. */
  MPI_Type_set_name(t, name);
  MPI_Type_commit(&t);
  return t;
}

static void fill_interior(struct grid *g, int iter) {
  for (int z = g->w; z < g->w + g->n[Z]; ++z)
    for (int y = g->w; y < g->w + g->n[Y]; ++y)
      for (int x = g->w; x < g->w + g->n[X]; ++x)
        g->u[index3(g, x, y, z)] =
            value(g, global_index(g, X, x), global_index(g, Y, y),
                  global_index(g, Z, z), iter);
}

/* Every cell of the local array against what it must hold; returns Errors
   plus the number of mismatches, the first few of a run printed. */
static int check(const struct grid *g, int iter, int rank, int errors) {
  for (int z = 0; z < extent(g, Z); ++z)
    for (int y = 0; y < extent(g, Y); ++y)
      for (int x = 0; x < extent(g, X); ++x) {
        int pos[3] = {x, y, z}, outside = 0;
        for (int a = X; a <= Z; ++a)
          outside += pos[a] < g->w || pos[a] >= g->w + g->n[a];
        double want = outside <= 1
                          ? value(g, global_index(g, X, x),
                                  global_index(g, Y, y), global_index(g, Z, z),
                                  iter)
                          : Sentinel;
        double got = g->u[index3(g, x, y, z)];
        if (got != want && errors++ < MAX_REPORTS)
          fprintf(stderr,
                  "halo3d: rank %d: iteration %d: u[z=%d][y=%d][x=%d] is %.1f, "
                  "expected %.1f\n",
                  rank, iter, z, y, x, got, want);
      }
  return errors;
}

/* The faces of one rank: per axis and side, the interior layer it sends
   and the ghost layer it receives. */
struct faces {
  MPI_Datatype send[3][2], recv[3][2];
};

/* Upwards on each axis: my high layer to the high neighbour, whose low
   ghosts it fills, while my low ghosts come from the low neighbour. Then
   downwards. Send and receive layers are disjoint parts of u. */
static void exchange_sendrecv(const struct grid *g, const struct faces *f) {
  for (int a = X; a <= Z; ++a) {
    int low, high;
    MPI_Cart_shift(g->cart, a, 1, &low, &high);
    MPI_Sendrecv(g->u, 1, f->send[a][HIGH], high, 2 * a, g->u, 1,
                 f->recv[a][LOW], low, 2 * a, g->cart, MPI_STATUS_IGNORE);
    MPI_Sendrecv(g->u, 1, f->send[a][LOW], low, 2 * a + 1, g->u, 1,
                 f->recv[a][HIGH], high, 2 * a + 1, g->cart,
                 MPI_STATUS_IGNORE);
  }
}

/* The same twelve transfers as persistent requests, receives first. */
static void make_persistent(const struct grid *g, const struct faces *f,
                            MPI_Request req[12]) {
  for (int a = X; a <= Z; ++a) {
    int low, high;
    MPI_Cart_shift(g->cart, a, 1, &low, &high);
    MPI_Recv_init(g->u, 1, f->recv[a][LOW], low, 2 * a, g->cart, &req[4 * a]);
    MPI_Recv_init(g->u, 1, f->recv[a][HIGH], high, 2 * a + 1, g->cart,
                  &req[4 * a + 1]);
    MPI_Send_init(g->u, 1, f->send[a][HIGH], high, 2 * a, g->cart,
                  &req[4 * a + 2]);
    MPI_Send_init(g->u, 1, f->send[a][LOW], low, 2 * a + 1, g->cart,
                  &req[4 * a + 3]);
  }
}

/* The neighbourhood of a rank as a distributed graph: per axis, it sends
   its low layer to the low neighbour and its high layer to the high one,
   and receives its high ghosts from the high neighbour and its low ghosts
   from the low one, in that order. A neighbourhood collective matches the
   blocks between two processes in the order of these lists; with two
   ranks (or one) on a periodic axis, the low and high neighbours are the
   same process, and only these orders give each ghost layer the face that
   adjoins it (the first message from a neighbour is its low layer, which
   borders this rank's high side). The Cartesian communicator lists both
   neighbours low first on both sides, which would swap them. */
static MPI_Comm make_graph(const struct grid *g, int sources[6],
                           int destinations[6]) {
  for (int a = X; a <= Z; ++a) {
    int low, high;
    MPI_Cart_shift(g->cart, a, 1, &low, &high);
    destinations[2 * a] = low;
    destinations[2 * a + 1] = high;
    sources[2 * a] = high;
    sources[2 * a + 1] = low;
  }
  /* Equal weights rather than MPI_UNWEIGHTED, which Open MPI defines as a
     pointer to nothing that compilers then warn about. */
  int weights[6] = {1, 1, 1, 1, 1, 1};
  MPI_Comm graph;
  MPI_Dist_graph_create_adjacent(g->cart, 6, sources, weights, 6, destinations,
                                 weights, MPI_INFO_NULL, 0, &graph);
  return graph;
}

static void exchange_neighbor(const struct grid *g, const struct faces *f,
                              MPI_Comm graph) {
  int counts[6];
  MPI_Aint displs[6];
  MPI_Datatype sendtypes[6], recvtypes[6];
  for (int a = X; a <= Z; ++a) {
    sendtypes[2 * a] = f->send[a][LOW];
    sendtypes[2 * a + 1] = f->send[a][HIGH];
    recvtypes[2 * a] = f->recv[a][HIGH];
    recvtypes[2 * a + 1] = f->recv[a][LOW];
  }
  for (int k = 0; k < 6; ++k) {
    counts[k] = 1;
    displs[k] = 0; /* every layer is a subarray of the whole of u */
  }
  MPI_Neighbor_alltoallw(g->u, counts, displs, sendtypes, g->u, counts, displs,
                         recvtypes, graph);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  struct grid g = {.n = {32, 32, 32}, .w = 1};
  int iters = 20, decomp = 3, how = SENDRECV;
  const struct option opts[] = {
      {"--nx", &g.n[X], 1, NULL},     {"--ny", &g.n[Y], 1, NULL},
      {"--nz", &g.n[Z], 1, NULL},     {"--ghost", &g.w, 1, NULL},
      {"--iters", &iters, 0, NULL},   {"--decomp", &decomp, 1, NULL},
      {"--exchange", &how, 0, exchanges},
  };
  int ok = parse_options(argc, argv, opts, (int)(sizeof opts / sizeof *opts)) &&
           (decomp == 1 || decomp == 3);
  /* A rank sends its own interior: the ghost layer cannot be wider. */
  for (int a = X; a <= Z; ++a)
    ok = ok && g.w <= g.n[a];
  if (!ok) {
    if (rank == 0)
      fprintf(stderr, "usage: halo3d [--nx N] [--ny N] [--nz N] [--ghost W "
                      "(<= N)] [--iters K] [--decomp 1|3] [--exchange "
                      "sendrecv|persistent|neighbor]\n");
    MPI_Finalize();
    return 2;
  }

  int periods[3] = {1, 1, 1};
  if (decomp == 1) {
    g.dims[X] = size;
    g.dims[Y] = g.dims[Z] = 1;
  } else {
    g.dims[X] = g.dims[Y] = g.dims[Z] = 0;
    MPI_Dims_create(size, 3, g.dims);
  }
  /* No reordering: rank numbers stay those of MPI_COMM_WORLD, so the trace
     of rank R is the trace of the block at R's coordinates. */
  MPI_Cart_create(MPI_COMM_WORLD, 3, g.dims, periods, 0, &g.cart);
  MPI_Cart_coords(g.cart, rank, 3, g.coords);

  size_t cells = (size_t)extent(&g, X) * extent(&g, Y) * extent(&g, Z);
  g.u = malloc(cells * sizeof *g.u);
  if (!g.u) {
    fprintf(stderr, "halo3d: rank %d: out of memory\n", rank);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  for (size_t i = 0; i < cells; ++i)
    g.u[i] = Sentinel;

  /* Per axis and side: the interior layer sent, the ghost layer received. */
  static const char *const names[3][2][2] = {
      {{"x_send_low", "x_send_high"}, {"x_recv_low", "x_recv_high"}},
      {{"y_send_low", "y_send_high"}, {"y_recv_low", "y_recv_high"}},
      {{"z_send_low", "z_send_high"}, {"z_recv_low", "z_recv_high"}},
  };
  struct faces f;
  for (int a = X; a <= Z; ++a) {
    f.send[a][LOW] = make_layer(&g, a, g.w, names[a][0][LOW]);
    f.send[a][HIGH] = make_layer(&g, a, g.n[a], names[a][0][HIGH]);
    f.recv[a][LOW] = make_layer(&g, a, 0, names[a][1][LOW]);
    f.recv[a][HIGH] = make_layer(&g, a, g.n[a] + g.w, names[a][1][HIGH]);
  }
  MPI_Request req[12];
  int sources[6], destinations[6];
  MPI_Comm graph = MPI_COMM_NULL;
  if (how == PERSISTENT)
    make_persistent(&g, &f, req);
  else if (how == NEIGHBOR)
    graph = make_graph(&g, sources, destinations);

  int errors = 0;
  double start = MPI_Wtime();
  for (int iter = 0; iter < iters; ++iter) {
    fill_interior(&g, iter);
    if (how == PERSISTENT) {
      MPI_Status statuses[12];
      MPI_Startall(12, req);
      MPI_Waitall(12, req, statuses);
    } else if (how == NEIGHBOR) {
      exchange_neighbor(&g, &f, graph);
    } else {
      exchange_sendrecv(&g, &f);
    }
    /* (A stencil sweep over the interior would go here.) */
    errors = check(&g, iter, rank, errors);
  }
  double seconds = MPI_Wtime() - start;

  int total;
  MPI_Allreduce(&errors, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) {
    if (total)
      fprintf(stderr, "halo3d: FAILED: %d wrong cells\n", total);
    else
      printf("halo3d: %d ranks (%d x %d x %d), local %d x %d x %d, ghost %d, "
             "%d iterations%s%s: ok, %.1f us per iteration\n",
             size, g.dims[X], g.dims[Y], g.dims[Z], g.n[X], g.n[Y], g.n[Z], g.w,
             iters, how == SENDRECV ? "" : ", ",
             how == SENDRECV ? "" : exchanges[how],
             iters ? 1e6 * seconds / iters : 0.0);
  }

  if (how == PERSISTENT)
    for (int r = 0; r < 12; ++r)
      MPI_Request_free(&req[r]);
  if (graph != MPI_COMM_NULL)
    MPI_Comm_free(&graph);
  for (int a = X; a <= Z; ++a)
    for (int s = LOW; s <= HIGH; ++s) {
      MPI_Type_free(&f.send[a][s]);
      MPI_Type_free(&f.recv[a][s]);
    }
  MPI_Comm_free(&g.cart);
  free(g.u);
  MPI_Finalize();
  return total ? 1 : 0;
}

/*===- examples/halo-exchange/halo_exchange.c - ddtc_generate() example ---===*
 *
 * Two MPI ranks exchange data described by halo.json and particles.json, and
 * check ddtc's generated code against MPI itself. For every type of the two
 * descriptions the same exchange is done three ways:
 *
 *   reference  MPI_Sendrecv with the type built here by hand, with the MPI
 *              calls the description spells out;
 *   ddtc       ddtc_NAME_pack, the bytes sent as MPI_PACKED, ddtc_NAME_unpack;
 *   built      MPI_Sendrecv with the type ddtc_NAME_build made;
 *
 * and the receive buffers, gaps and padding included, must be equal byte for
 * byte. Before that, locally, ddtc_NAME_pack must write what MPI_Pack writes
 * with both MPI types. Any difference is reported and makes both ranks exit
 * with status 1.
 *
 * Build: see CMakeLists.txt (ddtc_generate); run: mpiexec -n 2 halo-exchange
 *
 *===----------------------------------------------------------------------===*/
#include "halo.h"
#include "halo_mpi.h"
#include "particles.h"
#include "particles_mpi.h"

#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The grid of halo.json: 64 x 64 interior doubles, halo width 1. */
enum { NX = 64, NY = 64, ROW = NX + 2, ROWS = NY + 2 };

/* The struct particles.json describes (LP64). */
struct particle {
  int id;
  double pos[3];
  float charge;
};
enum { NPARTICLES = 16 };

/* One exchange: a type, as built by hand and by ddtc, its generated pack
   code, and where in a buffer of BufferBytes each rank sends from and
   receives to. */
struct exchange {
  const char *name;
  MPI_Datatype original;
  MPI_Datatype built;
  size_t (*packed_size)(size_t count);
  void (*pack)(const void *inbuf, size_t count, void *outbuf);
  void (*unpack)(const void *inbuf, size_t count, void *outbuf);
  int count;
  size_t buffer_bytes;
  size_t send_offset;
  size_t recv_offset;
};

static int rank;

static void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) {
    fprintf(stderr, "halo-exchange: out of memory\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  return p;
}

/* Reports the first byte where Got and Want differ; returns 1 if they do. */
static int differ(const char *what, const char *name, const unsigned char *got,
                  const unsigned char *want, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (got[i] != want[i]) {
      fprintf(stderr,
              "halo-exchange: rank %d: %s: %s: byte %zu is 0x%02x, MPI says "
              "0x%02x\n",
              rank, name, what, i, got[i], want[i]);
      return 1;
    }
  return 0;
}

static int check_mpi(int err, const char *call) {
  if (err == MPI_SUCCESS)
    return 0;
  fprintf(stderr, "halo-exchange: rank %d: %s failed with error %d\n", rank,
          call, err);
  return 1;
}

/* Size, bounds and packed bytes of the ddtc_NAME_build type against the
   hand-built one, and ddtc_NAME_pack against MPI_Pack. */
static int check_local(const struct exchange *x, const unsigned char *src) {
  int failures = 0;
  int size_o, size_b;
  MPI_Aint lb_o, ext_o, lb_b, ext_b;
  MPI_Type_size(x->original, &size_o);
  MPI_Type_size(x->built, &size_b);
  MPI_Type_get_extent(x->original, &lb_o, &ext_o);
  MPI_Type_get_extent(x->built, &lb_b, &ext_b);
  if (size_o != size_b || lb_o != lb_b || ext_o != ext_b) {
    fprintf(stderr,
            "halo-exchange: rank %d: %s: ddtc_%s_build gives size %d, lb %ld, "
            "extent %ld; MPI says %d, %ld, %ld\n",
            rank, x->name, x->name, size_b, (long)lb_b, (long)ext_b, size_o,
            (long)lb_o, (long)ext_o);
    ++failures;
  }
  size_t packed = x->packed_size((size_t)x->count);
  if (packed != (size_t)size_o * (size_t)x->count) {
    fprintf(stderr,
            "halo-exchange: rank %d: %s: packed_size(%d) is %zu, MPI says "
            "%zu\n",
            rank, x->name, x->count, packed,
            (size_t)size_o * (size_t)x->count);
    return failures + 1;
  }

  int bound;
  MPI_Pack_size(x->count, x->original, MPI_COMM_WORLD, &bound);
  unsigned char *by_ddtc = xmalloc(packed);
  unsigned char *by_mpi = xmalloc((size_t)bound);
  x->pack(src + x->send_offset, (size_t)x->count, by_ddtc);
  MPI_Datatype types[2] = {x->original, x->built};
  const char *whats[2] = {"ddtc pack vs MPI_Pack",
                          "ddtc pack vs MPI_Pack of the built type"};
  for (int t = 0; t < 2; ++t) {
    int position = 0;
    memset(by_mpi, 0, (size_t)bound);
    failures += check_mpi(MPI_Pack(src + x->send_offset, x->count, types[t],
                                   by_mpi, bound, &position, MPI_COMM_WORLD),
                          "MPI_Pack");
    if ((size_t)position != packed) {
      fprintf(stderr, "halo-exchange: rank %d: %s: MPI_Pack wrote %d bytes, "
              "ddtc %zu\n", rank, x->name, position, packed);
      ++failures;
      continue;
    }
    failures += differ(whats[t], x->name, by_ddtc, by_mpi, packed);
  }
  free(by_ddtc);
  free(by_mpi);
  return failures;
}

/* The exchange with the other rank, three ways. */
static int check_exchange(const struct exchange *x, const unsigned char *src,
                          int peer) {
  int failures = 0;
  size_t n = x->buffer_bytes;
  size_t packed = x->packed_size((size_t)x->count);
  unsigned char *reference = xmalloc(n), *by_ddtc = xmalloc(n);
  unsigned char *built = xmalloc(n);
  unsigned char *out = xmalloc(packed), *in = xmalloc(packed);
  /* The receive buffers start equal and unlike what is sent, so that bytes
     written outside the typemap, or not written, show. */
  for (size_t i = 0; i < n; ++i)
    reference[i] = by_ddtc[i] = built[i] = (unsigned char)(0xa5 ^ (i * 3));

  failures += check_mpi(
      MPI_Sendrecv(src + x->send_offset, x->count, x->original, peer, 1,
                   reference + x->recv_offset, x->count, x->original, peer, 1,
                   MPI_COMM_WORLD, MPI_STATUS_IGNORE),
      "MPI_Sendrecv (reference)");

  x->pack(src + x->send_offset, (size_t)x->count, out);
  failures += check_mpi(MPI_Sendrecv(out, (int)packed, MPI_PACKED, peer, 2, in,
                                     (int)packed, MPI_PACKED, peer, 2,
                                     MPI_COMM_WORLD, MPI_STATUS_IGNORE),
                        "MPI_Sendrecv (packed)");
  x->unpack(in, (size_t)x->count, by_ddtc + x->recv_offset);

  failures += check_mpi(
      MPI_Sendrecv(src + x->send_offset, x->count, x->built, peer, 3,
                   built + x->recv_offset, x->count, x->built, peer, 3,
                   MPI_COMM_WORLD, MPI_STATUS_IGNORE),
      "MPI_Sendrecv (built)");

  failures += differ("received with ddtc pack/unpack", x->name, by_ddtc,
                     reference, n);
  failures += differ("received with the ddtc_build type", x->name, built,
                     reference, n);
  free(reference);
  free(by_ddtc);
  free(built);
  free(out);
  free(in);
  return failures;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) {
    if (rank == 0)
      fprintf(stderr, "halo-exchange: run with 2 ranks (mpiexec -n 2)\n");
    MPI_Finalize();
    return 2;
  }
  int peer = 1 - rank;
  int failures = 0;

  /* The types as the application would build them by hand. */
  MPI_Datatype column, particle, even_particles;
  MPI_Type_vector(NY, 1, ROW, MPI_DOUBLE, &column);
  int blocklengths[3] = {1, 3, 1};
  MPI_Aint displacements[3] = {offsetof(struct particle, id),
                               offsetof(struct particle, pos),
                               offsetof(struct particle, charge)};
  MPI_Datatype members[3] = {MPI_INT, MPI_DOUBLE, MPI_FLOAT};
  MPI_Type_create_struct(3, blocklengths, displacements, members, &particle);
  MPI_Type_vector(NPARTICLES / 2, 1, 2, particle, &even_particles);
  MPI_Aint lb, extent;
  MPI_Type_get_extent(particle, &lb, &extent);
  if (lb != 0 || extent != (MPI_Aint)sizeof(struct particle)) {
    fprintf(stderr, "halo-exchange: struct particle is %zu bytes here, the "
            "description assumes LP64 (40)\n", sizeof(struct particle));
    ++failures;
  }

  /* The same types from the generated code. */
  MPI_Datatype column_b, particle_b, even_particles_b;
  failures += check_mpi(ddtc_column_build(&column_b), "ddtc_column_build");
  failures += check_mpi(ddtc_particle_build(&particle_b), "ddtc_particle_build");
  failures += check_mpi(ddtc_even_particles_build(&even_particles_b),
                        "ddtc_even_particles_build");
  if (failures) {
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
  }
  MPI_Datatype all[6] = {column,   particle,   even_particles,
                         column_b, particle_b, even_particles_b};
  for (int i = 0; i < 6; ++i)
    MPI_Type_commit(&all[i]);

  /* The grid: rank 0 owns the west half, rank 1 the east half. Each sends
     its interior column next to the other rank into the other's halo
     column: rank 0 column NX to rank 1 column 0, rank 1 column 1 to rank 0
     column NX + 1. The particles: rank r sends particles 3..7 (count 5 of
     particle) to slots 9..13, and the even particles of its array into the
     odd slots of the other's. */
  size_t grid_bytes = sizeof(double) * ROW * ROWS;
  size_t cell = sizeof(double), row1 = ROW * sizeof(double);
  size_t particle_bytes = sizeof(struct particle) * NPARTICLES;
  struct exchange exchanges[3] = {
      {"column", all[0], all[3], ddtc_column_packed_size, ddtc_column_pack,
       ddtc_column_unpack, 1, grid_bytes,
       rank == 0 ? row1 + NX * cell : row1 + 1 * cell,
       rank == 0 ? row1 + (NX + 1) * cell : row1},
      {"particle", all[1], all[4], ddtc_particle_packed_size,
       ddtc_particle_pack, ddtc_particle_unpack, 5, particle_bytes,
       3 * sizeof(struct particle), 9 * sizeof(struct particle)},
      {"even_particles", all[2], all[5], ddtc_even_particles_packed_size,
       ddtc_even_particles_pack, ddtc_even_particles_unpack, 1,
       particle_bytes, 0, sizeof(struct particle)},
  };

  for (int i = 0; i < 3; ++i) {
    const struct exchange *x = &exchanges[i];
    /* Values that differ by rank and by byte, padding included. */
    unsigned char *src = xmalloc(x->buffer_bytes);
    for (size_t b = 0; b < x->buffer_bytes; ++b)
      src[b] = (unsigned char)(b * 7 + rank * 101 + 13);
    int local = check_local(x, src);
    local += check_exchange(x, src, peer);
    free(src);
    int both;
    MPI_Allreduce(&local, &both, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
      printf("%-15s count %d, %zu bytes packed: %s\n", x->name, x->count,
             x->packed_size((size_t)x->count), both ? "DIFFERS" : "ok");
    failures += both;
  }

  for (int i = 0; i < 6; ++i)
    MPI_Type_free(&all[i]);

  if (rank == 0)
    printf("halo-exchange: %s\n",
           failures ? "FAILED: ddtc and MPI differ"
                    : "ddtc and MPI agree on every exchange");
  MPI_Finalize();
  return failures ? 1 : 0;
}

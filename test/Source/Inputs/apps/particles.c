/* particles.c - particle migration of a molecular-dynamics style code.
 *
 * Imitates how a particle code ships particles and per-cell summaries
 * between ranks: the particle record is described with MPI_Get_address on
 * the members of one object (made relative to its start) and resized to the
 * C struct's size; the cell summary is described with offsetof. Particles
 * leaving the domain sit at fixed slots of the local array and are sent in
 * one message with an indexed-block type over the particle type. Rank 0
 * prints integer and floating-point checksums of what it received. */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>

#define NPART 20
#define NSEND 6

struct particle {
    int id;
    double pos[3];
    double vel[3];
    float mass;
    char tag;
};

struct cell_summary {
    int cell;
    int count;
    double energy;
    double centroid[3];
};

static struct particle parts[NPART];
static struct particle arrived[NSEND];

int main(int argc, char **argv)
{
    struct particle probe;
    struct cell_summary mine, theirs;
    int blocklens[5] = {1, 3, 3, 1, 1};
    MPI_Datatype fields[5] = {MPI_INT, MPI_DOUBLE, MPI_DOUBLE, MPI_FLOAT,
                              MPI_CHAR};
    MPI_Aint base, addr[5];
    const int summary_lens[4] = {1, 1, 1, 3};
    const MPI_Aint summary_disps[4] = {
        offsetof(struct cell_summary, cell),
        offsetof(struct cell_summary, count),
        offsetof(struct cell_summary, energy),
        offsetof(struct cell_summary, centroid)};
    const MPI_Datatype summary_fields[4] = {MPI_INT, MPI_INT, MPI_DOUBLE,
                                            MPI_DOUBLE};
    int slots[NSEND];
    MPI_Datatype particle_raw, particle_type, summary_type, leaving;
    int rank, size, other, i, d;
    long id_sum = 0, tag_sum = 0;
    double phase_sum = 0.0, mass_sum = 0.0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        fprintf(stderr, "particles: run with 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    other = 1 - rank;

    /* The particle record, from the addresses of one particle's members. */
    MPI_Get_address(&probe, &base);
    MPI_Get_address(&probe.id, &addr[0]);
    MPI_Get_address(&probe.pos[0], &addr[1]);
    MPI_Get_address(&probe.vel[0], &addr[2]);
    MPI_Get_address(&probe.mass, &addr[3]);
    MPI_Get_address(&probe.tag, &addr[4]);
    for (i = 0; i < 5; ++i)
        addr[i] = MPI_Aint_diff(addr[i], base);
    MPI_Type_create_struct(5, blocklens, addr, fields, &particle_raw);
    MPI_Type_create_resized(particle_raw, 0, sizeof(struct particle),
                            &particle_type);
    MPI_Type_free(&particle_raw);
    MPI_Type_set_name(particle_type, "particle_type");
    MPI_Type_commit(&particle_type);

    /* The cell summary, from offsetof. */
    MPI_Type_create_struct(4, summary_lens, summary_disps, summary_fields,
                           &summary_type);
    MPI_Type_set_name(summary_type, "summary_type");
    MPI_Type_commit(&summary_type);

    /* Every third particle, from the second on, leaves the domain. */
    for (i = 0; i < NSEND; ++i)
        slots[i] = 3 * i + 1;
    MPI_Type_create_indexed_block(NSEND, 1, slots, particle_type, &leaving);
    MPI_Type_set_name(leaving, "leaving");
    MPI_Type_commit(&leaving);

    for (i = 0; i < NPART; ++i) {
        parts[i].id = rank * 1000 + i;
        for (d = 0; d < 3; ++d) {
            parts[i].pos[d] = rank * 1000 + i + 0.25 * d;
            parts[i].vel[d] = -0.5 * (i + d) - rank;
        }
        parts[i].mass = 1.0f + 0.125f * (float)i;
        parts[i].tag = (char)('a' + i + rank);
    }
    mine.cell = rank;
    mine.count = NPART - NSEND;
    mine.energy = 100.0 * rank + 0.5;
    for (d = 0; d < 3; ++d)
        mine.centroid[d] = rank + 0.1 * d;

    MPI_Sendrecv(parts, 1, leaving, other, 1, arrived, NSEND, particle_type,
                 other, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&mine, 1, summary_type, other, 2, &theirs, 1, summary_type,
                 other, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);

    for (i = 0; i < NSEND; ++i) {
        id_sum += arrived[i].id;
        tag_sum += arrived[i].tag;
        mass_sum += arrived[i].mass;
        for (d = 0; d < 3; ++d)
            phase_sum += arrived[i].pos[d] + 2.0 * arrived[i].vel[d];
    }

    if (rank == 0)
        printf("particles: ids %ld tags %ld mass %.6f phase %.6f "
               "cell %d count %d energy %.6f centroid %.6f\n",
               id_sum, tag_sum, mass_sum, phase_sum, theirs.cell, theirs.count,
               theirs.energy,
               theirs.centroid[0] + theirs.centroid[1] + theirs.centroid[2]);

    MPI_Type_free(&leaving);
    MPI_Type_free(&summary_type);
    MPI_Type_free(&particle_type);
    MPI_Finalize();
    return 0;
}

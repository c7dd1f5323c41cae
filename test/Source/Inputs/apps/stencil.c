/* stencil.c - halo exchange of a 3-D finite-difference code.
 *
 * Imitates the communication of a structured-grid solver: each rank owns an
 * NX x NY x NZ block of doubles (u[x][y][z], z fastest) with a ghost layer of
 * width 1, on a periodic Cartesian grid split along x only. With 2 ranks the
 * x faces go to the other rank and the y and z faces wrap to the rank itself.
 * Faces: x is one contiguous plane, y a subarray built by a helper, z an
 * hvector of strided columns. After the exchange one Jacobi sweep is done
 * and rank 0 prints checksums of the halo-filled array and of the sweep. */
#include <mpi.h>
#include <stdio.h>

#define NX 8
#define NY 6
#define NZ 5
#define GX (NX + 2)
#define GY (NY + 2)
#define GZ (NZ + 2)

static double u[GX][GY][GZ];
static double un[GX][GY][GZ];

/* The face of the local array normal to `axis` at index `layer` (the
 * interior extent along the other two axes). */
static void make_face(int axis, int layer, MPI_Datatype *t)
{
    int sizes[3] = {GX, GY, GZ};
    int subsizes[3] = {NX, NY, NZ};
    int starts[3] = {1, 1, 1};

    subsizes[axis] = 1;
    starts[axis] = layer;
    MPI_Type_create_subarray(3, sizes, subsizes, starts, MPI_ORDER_C,
                             MPI_DOUBLE, t);
}

int main(int argc, char **argv)
{
    const int plane = GY * GZ;
    int dims[3] = {2, 1, 1}, periods[3] = {1, 1, 1};
    int rank, size, lo[3], hi[3], i, j, k;
    MPI_Comm cart;
    MPI_Datatype face_x, zcol, face_z, yface[4];
    double halo_sum = 0.0, sweep_sum = 0.0;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        fprintf(stderr, "stencil: run with 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &cart);
    MPI_Comm_rank(cart, &rank);
    for (i = 0; i < 3; ++i)
        MPI_Cart_shift(cart, i, 1, &lo[i], &hi[i]);

    /* x faces: a whole y-z plane, contiguous in memory, described as its
     * rows (ddtc rewrite makes it one contiguous of doubles). */
    MPI_Datatype zrow;
    MPI_Type_contiguous(GZ, MPI_DOUBLE, &zrow);
    MPI_Type_contiguous(plane / GZ, zrow, &face_x);
    MPI_Type_free(&zrow);
    MPI_Type_set_name(face_x, "face_x");
    MPI_Type_commit(&face_x);

    /* z faces: NY doubles GZ apart in one x plane, repeated NX planes on. */
    MPI_Type_vector(NY, 1, GZ, MPI_DOUBLE, &zcol);
    MPI_Type_create_hvector(NX, 1, (MPI_Aint)(plane * sizeof(double)), zcol,
                            &face_z);
    MPI_Type_free(&zcol);
    MPI_Type_set_name(face_z, "face_z");
    MPI_Type_commit(&face_z);

    /* y faces: ghost low, interior low, interior high, ghost high. */
    make_face(1, 0, &yface[0]);
    MPI_Type_set_name(yface[0], "yface_0");
    MPI_Type_commit(&yface[0]);
    make_face(1, 1, &yface[1]);
    MPI_Type_set_name(yface[1], "yface_1");
    MPI_Type_commit(&yface[1]);
    make_face(1, NY, &yface[2]);
    MPI_Type_set_name(yface[2], "yface_2");
    MPI_Type_commit(&yface[2]);
    make_face(1, NY + 1, &yface[3]);
    MPI_Type_set_name(yface[3], "yface_3");
    MPI_Type_commit(&yface[3]);

    for (i = 0; i < GX; ++i)
        for (j = 0; j < GY; ++j)
            for (k = 0; k < GZ; ++k) {
                int inside = i > 0 && i <= NX && j > 0 && j <= NY && k > 0 &&
                             k <= NZ;
                u[i][j][k] = inside ? rank * 1000 + (i * GY + j) * GZ + k : -1.0;
            }

    /* y, then z, then x: the x planes carry the y and z ghosts along. */
    MPI_Sendrecv(u, 1, yface[2], hi[1], 1, u, 1, yface[0], lo[1], 1, cart,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(u, 1, yface[1], lo[1], 2, u, 1, yface[3], hi[1], 2, cart,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(&u[1][1][NZ], 1, face_z, hi[2], 3, &u[1][1][0], 1, face_z,
                 lo[2], 3, cart, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&u[1][1][1], 1, face_z, lo[2], 4, &u[1][1][NZ + 1], 1, face_z,
                 hi[2], 4, cart, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&u[NX][0][0], 1, face_x, hi[0], 5, &u[0][0][0], 1, face_x,
                 lo[0], 5, cart, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&u[1][0][0], 1, face_x, lo[0], 6, &u[NX + 1][0][0], 1, face_x,
                 hi[0], 6, cart, MPI_STATUS_IGNORE);

    for (i = 0; i < GX; ++i)
        for (j = 0; j < GY; ++j)
            for (k = 0; k < GZ; ++k)
                halo_sum += u[i][j][k] * (1 + ((i * GY + j) * GZ + k) % 7);

    for (i = 1; i <= NX; ++i)
        for (j = 1; j <= NY; ++j)
            for (k = 1; k <= NZ; ++k) {
                un[i][j][k] = (u[i][j][k] + u[i - 1][j][k] + u[i + 1][j][k] +
                               u[i][j - 1][k] + u[i][j + 1][k] +
                               u[i][j][k - 1] + u[i][j][k + 1]) / 7.0;
                sweep_sum += un[i][j][k];
            }

    if (rank == 0)
        printf("stencil: halo checksum %.6f sweep checksum %.6f\n", halo_sum,
               sweep_sum);

    for (i = 0; i < 4; ++i)
        MPI_Type_free(&yface[i]);
    MPI_Type_free(&face_z);
    MPI_Type_free(&face_x);
    MPI_Comm_free(&cart);
    MPI_Finalize();
    return 0;
}

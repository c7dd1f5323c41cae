// column.cpp - column, row and triangle exchange of a dense matrix code.
//
// Imitates the communication of a dense linear-algebra kernel on row-major
// matrices: a column type (a vector resized to one element so that
// consecutive columns follow each other) sends a panel of several columns in
// one call, a contiguous row type sends a pivot row, and an indexed type
// sends the lower triangle of the leading square block (the L factor).
// Rank 0 prints exact checksums of what it received.
#include <mpi.h>

#include <cstdio>

constexpr int rows = 12, cols = 10;
constexpr int panel = 3;    // columns sent at once
constexpr int first_col = 4; // first column of the panel
constexpr int pivot = 7;     // the row sent

static double a[rows][cols];
static double b[rows][cols];

static void fill(double (*m)[cols], int rank)
{
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < cols; ++j)
            m[i][j] = rank * 1000 + i * cols + j;
}

static void clear(double (*m)[cols])
{
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < cols; ++j)
            m[i][j] = -1.0;
}

static double checksum(const double (*m)[cols])
{
    double s = 0.0;
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < cols; ++j)
            s += m[i][j] * (1 + (i * cols + j) % 5);
    return s;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0, size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        std::fprintf(stderr, "column: run with 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    const int other = 1 - rank;

    // One column: rows doubles, cols apart, with the extent of one double.
    MPI_Datatype column_raw, column;
    MPI_Type_vector(rows, 1, cols, MPI_DOUBLE, &column_raw);
    MPI_Type_create_resized(column_raw, 0, sizeof(double), &column);
    MPI_Type_free(&column_raw);
    MPI_Type_set_name(column, "column");
    MPI_Type_commit(&column);

    // One row: contiguous, described as pairs of doubles.
    MPI_Datatype row, pair;
    MPI_Type_contiguous(2, MPI_DOUBLE, &pair);
    MPI_Type_contiguous(cols / 2, pair, &row);
    MPI_Type_free(&pair);
    MPI_Type_set_name(row, "row");
    MPI_Type_commit(&row);

    // Lower triangle (diagonal included) of the leading cols x cols block.
    int blocklens[cols], displs[cols];
    for (int i = 0; i < cols; ++i) {
        blocklens[i] = i + 1;
        displs[i] = i * cols;
    }
    MPI_Datatype lower;
    MPI_Type_indexed(cols, blocklens, displs, MPI_DOUBLE, &lower);
    MPI_Type_set_name(lower, "lower");
    MPI_Type_commit(&lower);

    fill(a, rank);
    clear(b);

    MPI_Sendrecv(&a[0][first_col], panel, column, other, 1, &b[0][first_col],
                 panel, column, other, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    const double panel_sum = checksum(b);

    clear(b);
    MPI_Sendrecv(a[pivot], 1, row, other, 2, b[pivot], 1, row, other, 2,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    const double row_sum = checksum(b);

    clear(b);
    MPI_Sendrecv(a, 1, lower, other, 3, b, 1, lower, other, 3, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    const double lower_sum = checksum(b);

    if (rank == 0)
        std::printf("column: panel %.6f row %.6f lower %.6f\n", panel_sum,
                    row_sum, lower_sum);

    MPI_Type_free(&lower);
    MPI_Type_free(&row);
    MPI_Type_free(&column);
    MPI_Finalize();
    return 0;
}

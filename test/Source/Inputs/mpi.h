/* A mock mpi.h for the source front end's tests: the declarations ddtc
 * extract reads, without depending on an installed MPI. Handles are ints as
 * in MPICH, with values of its own, so that tests notice a dependence on
 * MPICH's numbering. The end-to-end tests use MPICH's real header. */
#ifndef DDTC_MOCK_MPI_H
#define DDTC_MOCK_MPI_H

#ifdef __cplusplus
extern "C" {
#endif

typedef int MPI_Datatype;
typedef int MPI_Comm;
typedef long MPI_Aint;
typedef long long MPI_Count;

#define MPI_SUCCESS 0
#define MPI_COMM_WORLD ((MPI_Comm)0x1000)
#define MPI_DATATYPE_NULL ((MPI_Datatype)0)

#define MPI_CHAR ((MPI_Datatype)0x101)
#define MPI_SIGNED_CHAR ((MPI_Datatype)0x102)
#define MPI_UNSIGNED_CHAR ((MPI_Datatype)0x103)
#define MPI_BYTE ((MPI_Datatype)0x104)
#define MPI_SHORT ((MPI_Datatype)0x105)
#define MPI_INT ((MPI_Datatype)0x106)
#define MPI_UNSIGNED ((MPI_Datatype)0x107)
#define MPI_LONG ((MPI_Datatype)0x108)
#define MPI_LONG_LONG ((MPI_Datatype)0x109)
#define MPI_FLOAT ((MPI_Datatype)0x10a)
#define MPI_DOUBLE ((MPI_Datatype)0x10b)
#define MPI_LONG_DOUBLE ((MPI_Datatype)0x10c)
#define MPI_C_DOUBLE_COMPLEX ((MPI_Datatype)0x10d)
#define MPI_INT64_T ((MPI_Datatype)0x10e)
#define MPI_DOUBLE_INT ((MPI_Datatype)0x10f)
#define MPI_AINT ((MPI_Datatype)0x110)

#define MPI_ORDER_C 56
#define MPI_ORDER_FORTRAN 57
#define MPI_DISTRIBUTE_BLOCK 121
#define MPI_DISTRIBUTE_CYCLIC 122
#define MPI_DISTRIBUTE_NONE 123
#define MPI_DISTRIBUTE_DFLT_DARG -49767

int MPI_Init(int *argc, char ***argv);
int MPI_Finalize(void);
int MPI_Comm_rank(MPI_Comm comm, int *rank);
int MPI_Comm_size(MPI_Comm comm, int *size);
int MPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest,
             int tag, MPI_Comm comm);

int MPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_contiguous_c(MPI_Count count, MPI_Datatype oldtype,
                          MPI_Datatype *newtype);
int MPI_Type_vector(int count, int blocklength, int stride,
                    MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_vector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                      MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride,
                            MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_hvector(int count, int blocklength, MPI_Aint stride,
                     MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_indexed(int count, const int array_of_blocklengths[],
                     const int array_of_displacements[], MPI_Datatype oldtype,
                     MPI_Datatype *newtype);
int MPI_Type_create_hindexed(int count, const int array_of_blocklengths[],
                             const MPI_Aint array_of_displacements[],
                             MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_create_indexed_block(int count, int blocklength,
                                  const int array_of_displacements[],
                                  MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_create_hindexed_block(int count, int blocklength,
                                   const MPI_Aint array_of_displacements[],
                                   MPI_Datatype oldtype,
                                   MPI_Datatype *newtype);
int MPI_Type_create_struct(int count, const int array_of_blocklengths[],
                           const MPI_Aint array_of_displacements[],
                           const MPI_Datatype array_of_types[],
                           MPI_Datatype *newtype);
int MPI_Type_struct(int count, int array_of_blocklengths[],
                    MPI_Aint array_of_displacements[],
                    MPI_Datatype array_of_types[], MPI_Datatype *newtype);
int MPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
                            MPI_Datatype *newtype);
int MPI_Type_create_subarray(int ndims, const int array_of_sizes[],
                             const int array_of_subsizes[],
                             const int array_of_starts[], int order,
                             MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_create_darray(int size, int rank, int ndims,
                           const int array_of_gsizes[],
                           const int array_of_distribs[],
                           const int array_of_dargs[],
                           const int array_of_psizes[], int order,
                           MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_commit(MPI_Datatype *datatype);
int MPI_Type_free(MPI_Datatype *datatype);
int MPI_Type_size(MPI_Datatype datatype, int *size);
int MPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent);
int MPI_Get_address(const void *location, MPI_Aint *address);
MPI_Aint MPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2);
MPI_Aint MPI_Aint_add(MPI_Aint base, MPI_Aint disp);

#ifdef __cplusplus
}
#endif

#endif /* DDTC_MOCK_MPI_H */

/*===- test/Runtime/Inputs/trace-threads.c - Tracing many threads at once -===//
 *
 * MPI_THREAD_MULTIPLE: Threads threads each build, name, commit, use and
 * free Types types of their own at the same time (thread T's type I is a
 * vector of I+1 blocks with stride T+2, named tT_I), sending each one
 * through MPI_Sendrecv on MPI_COMM_SELF Rounds times. The trace must hold
 * every type once, each with Rounds calls on both sides.
 *
 * Usage: trace-threads; prints the sum of everything received (the same
 * with and without tracing) and exits 1 without MPI_THREAD_MULTIPLE.
 *
 *===----------------------------------------------------------------------===*/
#include <mpi.h>

#include <pthread.h>
#include <stdio.h>

enum { Threads = 4, Types = 50, Rounds = 3 };

static long Sums[Threads];

static void *work(void *Arg) {
  int T = (int)(long)Arg;
  int Out[2 * Types * (Threads + 2)], In[2 * Types * (Threads + 2)];
  for (int I = 0; I < Types; ++I) {
    MPI_Datatype V;
    char Name[32];
    MPI_Type_vector(I + 1, 1, T + 2, MPI_INT, &V);
    snprintf(Name, sizeof(Name), "t%d_%d", T, I);
    MPI_Type_set_name(V, Name);
    MPI_Type_commit(&V);
    for (int R = 0; R < Rounds; ++R) {
      for (int K = 0; K < (int)(sizeof(Out) / sizeof(Out[0])); ++K)
        Out[K] = K * (R + 1) + T, In[K] = 0;
      MPI_Sendrecv(Out, 1, V, 0, T, In, 1, V, 0, T, MPI_COMM_SELF,
                   MPI_STATUS_IGNORE);
      for (int K = 0; K < (int)(sizeof(In) / sizeof(In[0])); ++K)
        Sums[T] += In[K];
    }
    MPI_Type_free(&V);
  }
  return NULL;
}

int main(int argc, char **argv) {
  int Provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &Provided);
  if (Provided < MPI_THREAD_MULTIPLE) {
    fprintf(stderr, "trace-threads: no MPI_THREAD_MULTIPLE\n");
    MPI_Finalize();
    return 1;
  }
  pthread_t Ids[Threads];
  for (long T = 0; T < Threads; ++T)
    pthread_create(&Ids[T], NULL, work, (void *)T);
  long Sum = 0;
  for (int T = 0; T < Threads; ++T) {
    pthread_join(Ids[T], NULL);
    Sum += Sums[T];
  }
  printf("sum %ld\n", Sum);
  MPI_Finalize();
  return 0;
}

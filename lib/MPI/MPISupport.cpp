//===- lib/MPI/MPISupport.cpp - Small helpers around MPI calls ------------===//
#include "ddtc/MPI/MPISupport.h"
#include "ddtc/MPI/PredefinedHandles.h"

#include <cstdio>

namespace ddtc {

int runWithMpi(
    int &Argc, char **&Argv, const char *Tool,
    const std::function<int(const std::vector<MPI_Datatype> &)> &Body) {
  MPI_Init(&Argc, &Argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  std::string Missing;
  std::vector<MPI_Datatype> Handles = makeHandleTable(Missing);
  int Status;
  if (!Missing.empty()) {
    std::fprintf(stderr, "%s: no MPI handle for %s\n", Tool, Missing.c_str());
    Status = 1;
  } else {
    Status = Body(Handles);
  }
  MPI_Finalize();
  return Status;
}

std::string mpiErrorString(int Code) {
  char Buf[MPI_MAX_ERROR_STRING];
  int Len = 0;
  MPI_Error_string(Code, Buf, &Len);
  std::string S(Buf, static_cast<size_t>(Len));
  for (char &C : S)
    if (C == '\n')
      C = ' ';
  return S;
}

} // namespace ddtc

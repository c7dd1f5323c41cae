//===- lib/MPI/MPISupport.cpp - Small helpers around MPI calls ------------===//
#include "ddtc/MPI/MPISupport.h"
#include "ddtc/MPI/PredefinedHandles.h"

#include <cstdio>
#include <string_view>

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

bool isMpichLibrary() {
  char Version[MPI_MAX_LIBRARY_VERSION_STRING];
  int Length = 0;
  if (PMPI_Get_library_version(Version, &Length) != MPI_SUCCESS)
    return false;
  return std::string_view(Version, static_cast<size_t>(Length))
      .starts_with("MPICH Version:");
}

std::string mpiLibraryVersion() {
  char Buf[MPI_MAX_LIBRARY_VERSION_STRING];
  int Len = 0;
  MPI_Get_library_version(Buf, &Len);
  std::string S(Buf, size_t(Len));
  S = S.substr(0, S.find_first_of("\n\r"));
  // "MPICH Version:\t4.0.2" -> "MPICH 4.0.2"
  if (size_t V = S.find(" Version:"); V != std::string::npos)
    S.erase(V, 9);
  for (char &C : S)
    if (C == '\t')
      C = ' ';
  std::string Out;
  for (char C : S)
    if (!(C == ' ' && (Out.empty() || Out.back() == ' ')))
      Out += C;
  while (!Out.empty() && Out.back() == ' ')
    Out.pop_back();
  return Out;
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

//===- lib/MPI/MPISupport.cpp - Small helpers around MPI calls ------------===//
#include "ddtc/MPI/MPISupport.h"
#include "ddtc/MPI/PredefinedHandles.h"

#include <cctype>
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

std::string mpiLibraryVersionLine() {
  char Buf[MPI_MAX_LIBRARY_VERSION_STRING];
  int Len = 0;
  if (PMPI_Get_library_version(Buf, &Len) != MPI_SUCCESS)
    return "";
  std::string S;
  for (int I = 0; I < Len && Buf[I] && Buf[I] != '\n'; ++I) {
    bool Blank = std::isspace(static_cast<unsigned char>(Buf[I]));
    if (!Blank)
      S += Buf[I];
    else if (!S.empty() && S.back() != ' ')
      S += ' ';
  }
  while (!S.empty() && S.back() == ' ')
    S.pop_back();
  return S;
}

bool isMpichLibrary() {
  return mpiLibraryVersionLine().starts_with("MPICH Version:");
}

std::string mpiLibraryVersion() {
  // "MPICH Version: 4.0.2" -> "MPICH 4.0.2"
  std::string S = mpiLibraryVersionLine();
  if (size_t V = S.find(" Version:"); V != std::string::npos)
    S.erase(V, 9);
  return S;
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

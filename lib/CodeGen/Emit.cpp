//===- lib/CodeGen/Emit.cpp - The four generated files --------------------===//
#include "ddtc/CodeGen/Emit.h"

#include <cctype>

namespace ddtc {

std::string guardName(std::string_view BaseName, std::string_view Suffix) {
  std::string G = "DDTC_GENERATED_";
  for (char C : std::string(BaseName) + std::string(Suffix))
    G += std::isalnum(static_cast<unsigned char>(C))
             ? static_cast<char>(std::toupper(static_cast<unsigned char>(C)))
             : '_';
  return G;
}

std::string kernelTableFunction(std::string_view BaseName) {
  std::string F = "ddtc_kernels_";
  for (char C : BaseName)
    F += std::isalnum(static_cast<unsigned char>(C)) ? C : '_';
  return F;
}

std::vector<EmittedFile> emitModule(const Module &M,
                                    const CodeGenOptions &Options) {
  return {{".h", emitPackHeader(M, Options)},
          {".cpp", emitPackSource(M, Options)},
          {"_mpi.h", emitMPIHeader(M, Options)},
          {"_mpi.c", emitMPISource(M, Options)}};
}

} // namespace ddtc

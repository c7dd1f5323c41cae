//===- lib/Reader/ReadFile.cpp - Reading description files ----------------===//
//
// One path from a file name to its text for both forms, so that the input
// limit and the messages for missing files and directories are the same.
//
//===----------------------------------------------------------------------===//
#include "ddtc/Reader/ReadFile.h"

#include "ddtc/IR/TextForm.h"
#include "ddtc/IR/Verifier.h"
#include "ddtc/Reader/FormatReader.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sys/stat.h>

namespace ddtc {

namespace {

/// The whole file at Path, if it is a regular file within the input limit.
Expected<std::string> readText(const std::string &Path) {
  struct stat St;
  if (::stat(Path.c_str(), &St) != 0)
    return makeError(Path + ": " + std::strerror(errno));
  if (S_ISDIR(St.st_mode))
    return makeError(Path + ": is a directory, expected a description file");
  if (static_cast<uint64_t>(St.st_size) > MaxInputBytes)
    return makeError(Path + ": " + std::to_string(St.st_size) +
                     " bytes, more than the " +
                     std::to_string(MaxInputBytes >> 20) + " MiB ddtc reads");
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    return makeError(Path + ": " + std::strerror(errno));
  // One read into a string of the file's size (a stringstream grows and
  // copies: a tenth of `normalize` on a 10 MB list). A file that grew
  // since stat is read to its end, within the limit.
  std::string Text(static_cast<size_t>(St.st_size), '\0');
  In.read(Text.data(), static_cast<std::streamsize>(Text.size()));
  Text.resize(static_cast<size_t>(In.gcount()));
  for (char Buf[65536]; In && Text.size() <= MaxInputBytes;) {
    In.read(Buf, sizeof Buf);
    Text.append(Buf, static_cast<size_t>(In.gcount()));
  }
  if (Text.size() > MaxInputBytes)
    return makeError(Path + ": more than the " +
                     std::to_string(MaxInputBytes >> 20) + " MiB ddtc reads");
  if (In.bad())
    return makeError(Path + ": " + std::strerror(errno));
  return Text;
}

bool endsWith(const std::string &S, std::string_view Suffix) {
  return S.size() >= Suffix.size() &&
         S.compare(S.size() - Suffix.size(), Suffix.size(), Suffix) == 0;
}

} // namespace

Error readDescriptionFile(const std::string &Path, Module &M) {
  Expected<std::string> Text = readText(Path);
  if (!Text)
    return Text.takeError();
  if (Text->find_first_not_of(" \t\r\n") == std::string::npos)
    return makeError(Path + ": empty file, expected a description");
  if (Error E = readDescription(*Text, M))
    return std::move(E.addContext(Path));
  return Error::success();
}

Error readAnyDescriptionFile(const std::string &Path, Module &M) {
  if (!endsWith(Path, ".ddt")) {
    if (Error E = readDescriptionFile(Path, M))
      return E;
  } else {
    Expected<std::string> Text = readText(Path);
    if (!Text)
      return Text.takeError();
    if (Error E = parseModule(*Text, M))
      return std::move(E.addContext(Path));
  }
  if (Error E = verifyModule(M))
    return std::move(E.addContext(Path));
  return Error::success();
}

} // namespace ddtc

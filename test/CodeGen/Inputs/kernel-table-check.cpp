//===- test/CodeGen/Inputs/kernel-table-check.cpp - Kernel table reader ---===//
//
// Plays the runtime for test/CodeGen/kernel-table.test: it defines
// ddtc_rt_register_kernels (linked with -rdynamic, so that the weak
// reference in a kernel library resolves to it), loads the kernel libraries
// named on the command line and prints what registered itself:
//
//   kernel-table-check LIB.so:BASE[,BASE...]...
//
// For every table: its header and one line per kernel. Then the layouts:
// one line per distinct key with every kernel under it. Then two checks of
// the binding contract:
//  - the table of each BASE is also what ddtc_kernels_BASE() returns, and
//    each kernel's functions are the library's ddtc_NAME_* (same pointers;
//    functions the library does not export are counted);
//  - kernels under one key pack alike, moved by the difference of their
//    true lbs: A.pack(data - A.true_lb) == B.pack(data - B.true_lb).
// Exits non-zero on any failure.
//
//===----------------------------------------------------------------------===//
#include <dlfcn.h>

#include <cstddef>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

// The ABI the emitted files define (docs/emit.md, "Kernel table").
#include "ddtc/Runtime/KernelABI.h"

namespace {

struct Registered {
  const ddtc_kernel_table *Table;
  void *Library; // set after dlopen returns
};

std::vector<Registered> Tables;

std::string key(const ddtc_kernel &K) {
  char Buf[33];
  std::snprintf(Buf, sizeof Buf, "%016llx%016llx", K.key_hi, K.key_lo);
  return Buf;
}

int Failures = 0;

void fail(const std::string &Message) {
  std::printf("FAIL: %s\n", Message.c_str());
  ++Failures;
}

/// The kernel's and the library's functions are the same; returns how
/// many of them the library does not export (a project that hides symbols
/// by default hides them, but not the table).
int checkPointers(void *Library, const ddtc_kernel &K) {
  std::string Fn = std::string("ddtc_") + K.name;
  const std::pair<const char *, void *> Functions[] = {
      {"_pack", (void *)K.pack},
      {"_unpack", (void *)K.unpack},
      {"_pack_range", (void *)K.pack_range},
      {"_unpack_range", (void *)K.unpack_range}};
  int Hidden = 0;
  for (const auto &[Suffix, Pointer] : Functions) {
    void *Exported = dlsym(Library, (Fn + Suffix).c_str());
    if (!Exported)
      ++Hidden;
    else if (Exported != Pointer)
      fail(Fn + Suffix + ": the table's function is not the library's");
  }
  return Hidden;
}

/// A and B pack the same bytes from data at the same true lb.
bool packAlike(const ddtc_kernel &A, const ddtc_kernel &B) {
  // Room for the translations of the test (a megabyte) on either side.
  const size_t Bytes = 4 << 20, Base = 2 << 20, Count = 2;
  std::vector<unsigned char> Data(Bytes);
  for (size_t I = 0; I < Bytes; ++I)
    Data[I] = static_cast<unsigned char>(I * 131 + I / 251);
  std::vector<unsigned char> OutA(A.size * Count), OutB(B.size * Count);
  A.pack(Data.data() + Base - A.true_lb, Count, OutA.data());
  B.pack(Data.data() + Base - B.true_lb, Count, OutB.data());
  return OutA == OutB;
}

} // namespace

extern "C" void ddtc_rt_register_kernels(const ddtc_kernel_table *Table) {
  Tables.push_back({Table, nullptr});
}

int main(int Argc, char **Argv) {
  for (int I = 1; I < Argc; ++I) {
    std::string Arg = Argv[I];
    size_t Colon = Arg.find(':');
    std::string Path = Arg.substr(0, Colon);
    size_t Before = Tables.size();
    void *Library = dlopen(Path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!Library) {
      std::printf("FAIL: %s\n", dlerror());
      return 1;
    }
    for (size_t T = Before; T < Tables.size(); ++T)
      Tables[T].Library = Library;
    // Each BASE exports the table that registered itself.
    std::string Bases = Colon == std::string::npos ? "" : Arg.substr(Colon + 1);
    size_t Found = 0;
    for (size_t P = 0; P < Bases.size();) {
      size_t Comma = Bases.find(',', P);
      if (Comma == std::string::npos)
        Comma = Bases.size();
      std::string Fn = "ddtc_kernels_" + Bases.substr(P, Comma - P);
      P = Comma + 1;
      auto *Get = reinterpret_cast<const ddtc_kernel_table *(*)(void)>(
          dlsym(Library, Fn.c_str()));
      bool Registered = false;
      for (size_t T = Before; T < Tables.size(); ++T)
        Registered |= Get && Get() == Tables[T].Table;
      if (!Registered)
        fail(Fn + " is not a table that registered itself");
      ++Found;
    }
    if (Found != Tables.size() - Before)
      fail(Path + ": " + std::to_string(Tables.size() - Before) +
           " tables registered, " + std::to_string(Found) + " expected");
  }

  for (const Registered &R : Tables) {
    const ddtc_kernel_table &T = *R.Table;
    std::printf("table %s abi %u version %s kernels %zu\n", T.source,
                T.abi_version, T.ddtc_version, T.num_kernels);
    int Hidden = 0;
    for (size_t K = 0; K < T.num_kernels; ++K) {
      const ddtc_kernel &E = T.kernels[K];
      std::printf("  %s %s true_lb %lld size %llu extent %lld\n", E.name,
                  key(E).c_str(), E.true_lb, E.size, E.extent);
      Hidden += checkPointers(R.Library, E);
    }
    if (Hidden)
      std::printf("  %d functions not exported\n", Hidden);
  }

  // Group the kernels by key, in order of first appearance.
  struct Entry {
    const ddtc_kernel_table *Table;
    const ddtc_kernel *Kernel;
  };
  std::vector<std::vector<Entry>> Layouts;
  for (const Registered &R : Tables)
    for (size_t K = 0; K < R.Table->num_kernels; ++K) {
      const ddtc_kernel *E = &R.Table->kernels[K];
      bool Placed = false;
      for (std::vector<Entry> &L : Layouts)
        if (key(*L[0].Kernel) == key(*E)) {
          L.push_back({R.Table, E});
          Placed = true;
          break;
        }
      if (!Placed)
        Layouts.push_back({{R.Table, E}});
    }
  int Pairs = 0;
  for (const std::vector<Entry> &L : Layouts) {
    std::printf("layout %s:", key(*L[0].Kernel).c_str());
    for (const Entry &E : L)
      std::printf(" %s:%s@%lld", E.Table->source, E.Kernel->name,
                  E.Kernel->true_lb);
    std::printf("\n");
    for (size_t I = 1; I < L.size(); ++I, ++Pairs)
      if (!packAlike(*L[0].Kernel, *L[I].Kernel))
        fail(std::string(L[0].Kernel->name) + " and " + L[I].Kernel->name +
             " share a key but pack differently");
  }
  std::printf("%d pairs under one key pack alike\n", Pairs);
  if (Failures)
    std::printf("%d failures\n", Failures);
  else
    std::printf("ok\n");
  return Failures ? 1 : 0;
}

//===- ddtc/Runtime/KernelABI.h - The kernel table of emitted code -*- C++ -*-===//
//
// The C ABI between the code `ddtc emit` writes and the runtime that loads
// it (docs/emit.md, "Kernel table"): every emitted PREFIX.cpp defines these
// structs itself (the generated file must need no ddtc header) and
// registers one table through ddtc_rt_register_kernels when it is loaded.
// The layout must stay identical to what PackEmitter.cpp prints; a change
// is a new DDTC_KERNEL_ABI, which the runtime checks (2: unpack_range;
// 3: keys of the flat typemap, true_lb its lowest byte of data; 4: that
// list's own fingerprint, not its normal form's).
//
//===----------------------------------------------------------------------===//
#ifndef DDTC_KERNEL_ABI
#define DDTC_KERNEL_ABI 4

#include <stddef.h>

extern "C" {
struct ddtc_kernel {
  const char *name;
  unsigned long long key_hi, key_lo;
  long long true_lb;
  unsigned long long given_hi, given_lo;
  unsigned long long size;
  long long extent;
  void (*pack)(const void *inbuf, size_t count, void *outbuf);
  void (*unpack)(const void *inbuf, size_t count, void *outbuf);
  // Null in kernels built for the runtime alone (the kernel cache), which
  // never calls them.
  size_t (*pack_range)(const void *inbuf, size_t count, size_t first,
                       size_t last, void *outbuf);
  size_t (*unpack_range)(const void *inbuf, size_t count, size_t first,
                         size_t last, void *outbuf);
};
struct ddtc_kernel_table {
  unsigned abi_version;
  const char *ddtc_version;
  const char *source;
  size_t num_kernels;
  const struct ddtc_kernel *kernels;
};
} // extern "C"

#endif // DDTC_KERNEL_ABI

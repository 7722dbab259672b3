// Switchboard for device code: picks the platform layer of the compiler in use. Device code
// everywhere else is vendor-neutral and calls gio::platform::*.
#pragma once
#if defined(__CUDACC__)
#include "gio/platform/cuda.hpp"
#elif defined(__HIPCC__)
#include "gio/platform/hip.hpp"
#else
#error "gio device headers must be compiled by nvcc (CUDA) or hipcc (HIP)"
#endif

// How the gda transport's paths (device/transports/gda/gda.hpp), reached from every routed call,
// are compiled into kernels that may never use them (GIO_GDA_OUTLINE; docs/transports.md,
// "Compile cost against the p2p fast path", has the measurements):
//   0 (default): all inlined. No calls: an out-of-line call anywhere in a kernel makes it save
//     registers around the call, which gave gio-bench's p2p kernels 24-1660 bytes of spill loads.
//   1: the gda steps (reserve, write, publish, poll) out of line, one copy per translation unit:
//     the fastest compile, for files with thousands of kernels (gio's GPU tests, the library).
//   2: each gda entry point (put, get, p, g, amo, put_signal, quiet) one out-of-line function,
//     the steps inlined inside it: p2p kernels keep the gda code out of their body.
// GIO_DEVICE_GDA=0 leaves the gda transport out altogether (see gda.hpp).
#if !defined(GIO_GDA_OUTLINE)
#define GIO_GDA_OUTLINE 0
#endif
#if GIO_GDA_OUTLINE == 1
#define GIO_DEVICE_OUTLINE __device__ __noinline__
#define GIO_DEVICE_GDA_ENTRY __device__ __attribute__((always_inline))
#elif GIO_GDA_OUTLINE == 2
#define GIO_DEVICE_OUTLINE __device__ __attribute__((always_inline))
#define GIO_DEVICE_GDA_ENTRY __device__ __noinline__
#else
#define GIO_DEVICE_OUTLINE __device__ __attribute__((always_inline))
#define GIO_DEVICE_GDA_ENTRY __device__ __attribute__((always_inline))
#endif

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
// are compiled into kernels that may never use them (GIO_GDA_OUTLINE). Measured on 2 x H200
// with gio-bench built each way in one run (docs/results.md, session 8):
//   2 (default): each gda entry point (put, get, p, g, amo, put_signal, quiet) one out-of-line
//     function with its steps inlined inside it. Fastest collectives by far (8-byte broadcast
//     3.5 us against 7.7 us for 0) and thread/wave barriers; p2p atomics pay ~40 ns for it.
//   0: all inlined: no calls (the fastest p2p atomics and workgroup barrier), but the inlined
//     code makes the collectives' kernels twice as slow.
//   1: the gda steps (reserve, write, publish, poll) out of line, one copy per translation unit:
//     the fastest compile, for files with thousands of kernels (gio's GPU tests, the library).
// GIO_DEVICE_GDA=0 leaves the gda transport out altogether (see gda.hpp).
#if !defined(GIO_GDA_OUTLINE)
#define GIO_GDA_OUTLINE 2
#endif
#if GIO_GDA_OUTLINE == 1
#define GIO_DEVICE_OUTLINE __device__ __noinline__
#else
#define GIO_DEVICE_OUTLINE __device__ __attribute__((always_inline))
#endif
#if GIO_GDA_OUTLINE == 2
#define GIO_DEVICE_GDA_ENTRY __device__ __noinline__
#else
#define GIO_DEVICE_GDA_ENTRY __device__ __attribute__((always_inline))
#endif

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

// The gda transport's long paths (and the staged reductions over it), reached from every routed
// call. Inlined by default: an out-of-line call anywhere in a kernel makes it save registers around
// the call. On sm_90 that took gio-bench's p2p kernels from no spills to 24-1660 bytes of spill
// loads, the likely cause of p2p fetch_add going 1.03 -> 1.19 us and barrier_all 1.59 -> 1.79 us
// once the gda paths were added (docs/results.md, session 7; inlined, ptxas reports no spills in
// those kernels). Define GIO_GDA_OUTLINE=1 to keep one out-of-line copy per translation unit
// instead: a file with thousands of kernels (gio's GPU test suite, the library's own kernels)
// compiles faster (gio_bench.cpp for sm_90: 55 s against 149 s inlined), and its p2p paths pay
// the calls' register cost.
#if defined(GIO_GDA_OUTLINE) && GIO_GDA_OUTLINE
#define GIO_DEVICE_OUTLINE __device__ __noinline__
#else
#define GIO_DEVICE_OUTLINE __device__ __attribute__((always_inline))
#endif

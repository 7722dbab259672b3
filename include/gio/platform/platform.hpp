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

// The gda transport's entry points (device/transports/gda/gda.hpp: put, get, p, g, atomics,
// put_signal, completing the QPs) are out of line and type-erased: one copy per translation unit,
// whatever the types and groups of the calls that reach them, so that a kernel's p2p call sites
// carry a branch and a call, not the NIC code. GIO_DEVICE_GDA=0 leaves gda out altogether.
#define GIO_DEVICE_GDA_ENTRY __device__ __noinline__

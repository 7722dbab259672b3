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

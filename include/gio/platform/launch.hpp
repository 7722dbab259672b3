// Switchboard for the host-side launch primitives gio/launch.hpp needs (occupancy queries and
// cooperative launches): picks the layer of the GPU compiler in use.
#pragma once
#if defined(__CUDACC__)
#include "gio/platform/launch_cuda.hpp"
#elif defined(__HIPCC__)
#include "gio/platform/launch_hip.hpp"
#else
#error "gio/launch.hpp must be compiled by nvcc (CUDA) or hipcc (HIP)"
#endif

// The host-side stream type of the vendor this installation was built for (the *_on_stream
// calls take one). The only vendor switch the host API needs.
#pragma once
#include "gio/build_config.hpp"

#if GIO_GPU_IS_CUDA
#include <cuda_runtime_api.h>
namespace gio { using stream_t = cudaStream_t; }
#elif GIO_GPU_IS_HIP
#include <hip/hip_runtime_api.h>
namespace gio { using stream_t = hipStream_t; }
#else
namespace gio {
struct no_gpu_stream;
// Built without a GPU: streams are accepted for source compatibility and run synchronously.
using stream_t = no_gpu_stream*;
}  // namespace gio
#endif

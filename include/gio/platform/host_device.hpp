// GIO_HOST_DEVICE_INLINE: a function written once for the host and the device (reduction and
// atomic arithmetic, constant records), in headers that any compiler may see: __host__ __device__
// under nvcc/hipcc, plain inline under the host's C++ compiler.
#pragma once

#if defined(__CUDACC__) || defined(__HIPCC__)
#define GIO_HOST_DEVICE_INLINE __host__ __device__ inline
#else
#define GIO_HOST_DEVICE_INLINE inline
#endif

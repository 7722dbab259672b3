// Host-initiated work done by the device library on this PE's GPU: the kernels behind host
// atomics, host collectives and the stream team sync (device_ops.cpp, a GPU source). Each call
// only enqueues on `stream`; the GPU backend picks the stream and waits where the API blocks.
// Private to the host runtime, GPU builds only.
#pragma once
#include <cstdint>

#include "gpu/backend.hpp"

namespace gio::gpu {

// Launches every kernel below (each instantiation) once, doing nothing, on `stream`. With CUDA's
// lazy loading a kernel's code is loaded at its first launch, and that load can wait for the
// GPU's running work (docs/transports.md, "Kernel loading"): a host atomic or stream barrier
// first launched while a user kernel waits for it would wait for that kernel.
void warm_up_kernels(stream_t stream);

// `old_bits` (device memory) receives the old value's bits.
void enqueue_atomic(const device_handle& h, const atomic_request& a, std::uint64_t* old_bits, stream_t stream);
void enqueue_collective(const device_handle& h, const collective_request& c, stream_t stream);
void enqueue_rma(const device_handle& h, const rma_request& r, stream_t stream);
void enqueue_network_quiet(const device_handle& h, stream_t stream);
// `quiet`: a barrier (this PE's earlier operations complete before it counts).
void enqueue_team_sync(const device_handle& h, shmem_team_t team, bool quiet, const char* call, stream_t stream);

}  // namespace gio::gpu

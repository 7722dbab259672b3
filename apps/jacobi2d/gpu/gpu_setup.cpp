#include "gpu/gpu_setup.hpp"

#include <cstdio>

#include "support/failure.hpp"
#include "support/gpu_runtime.hpp"
#include "support/node.hpp"

namespace jacobi {

namespace gpu = support::gpu;

gpu_choice select_gpu(MPI_Comm comm) {
  const support::node_place place = support::place_on_node(comm);
  int devices = 0;
  std::string cause;
  try {
    devices = gpu::device_count();
    if (devices == 0) cause = "no GPU visible";
  } catch (const gpu::error& e) {
    cause = std::string("no usable GPU: ") + e.what();
  }
  support::agree(comm, cause);
  const int device = place.rank % devices;
  // Node-local ranks r with r mod devices == device.
  gpu_choice choice{device, place.size > devices, (place.size - device + devices - 1) / devices};
  int shared = choice.shared ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &shared, 1, MPI_INT, MPI_MAX, comm);
  choice.shared = shared != 0;
  gpu::set_device(choice.device);
  gpu::create_context();
  return choice;
}

std::string gibibytes(double bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f GiB", bytes / double(1ull << 30));
  return text;
}

void require_gpu_memory(MPI_Comm comm, const gpu_choice& gpu, std::size_t bytes_per_pe, const std::string& what) {
  // Every PE's context exists before anyone measures, so that the free memory is what is left.
  MPI_Barrier(comm);
  const double free_bytes = double(gpu::free_memory());
  const double needed = support::sum_over_device_sharers(comm, gpu.device, double(bytes_per_pe));
  std::string cause;
  if (needed > free_bytes)
    cause = "the problem needs " + gibibytes(needed) + " on GPU " + std::to_string(gpu.device) + " (" + what +
            (needed > double(bytes_per_pe) ? ", for every PE on that GPU" : "") + ") but " + gibibytes(free_bytes) +
            " are free; use a smaller --size or more GPUs";
  support::agree(comm, cause, support::exit_usage);
}

}  // namespace jacobi

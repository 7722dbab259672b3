// Device code both GPU designs share (the persistent kernel and the Inter-K kernels), written
// against gio's platform layer so it compiles as CUDA or HIP.
#pragma once
#include "core/grid.hpp"
#include "gio/platform/platform.hpp"

namespace jacobi {

namespace platform = gio::platform;

// The largest `value` of the workgroup; every thread calls and gets it. `scratch`: one double per
// thread of shared memory, free again on return.
GIO_DEVICE double wg_max(double value, double* scratch) {
  const unsigned me = platform::thread_in_wg(), threads = platform::wg_size();
  scratch[me] = value;
  platform::wg_barrier();
  unsigned width = 1;
  while (width < threads) width *= 2;
  for (unsigned half = width / 2; half > 0; half /= 2) {
    if (me < half && me + half < threads) scratch[me] = max_of(scratch[me], scratch[me + half]);
    platform::wg_barrier();
  }
  const double largest = scratch[0];
  platform::wg_barrier();
  return largest;
}

}  // namespace jacobi

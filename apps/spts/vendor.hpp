// The GPU vendor's sparse triangular solve, the `vendor` baseline on one GPU: cuSPARSE SpSV
// (CUDA builds, vendor_cusparse.cpp) or rocSPARSE csrsv (HIP builds, vendor_rocsparse.cpp;
// vendor_unavailable.cpp when rocSPARSE was not found). The build picks the file, so this
// interface has no vendor types.
#pragma once
#include <cstdint>
#include <memory>

namespace spts {

// L with its diagonal (the last entry of each row), zero-based CSR in GPU memory.
struct device_csr {
  std::int32_t n = 0;
  std::int32_t nnz = 0;
  const std::int32_t* row_ptr = nullptr;
  const std::int32_t* col = nullptr;
  const double* val = nullptr;
};

class vendor_solver {
 public:
  // The library's analysis of L for solving into `x` from `b` (GPU memory, n doubles each); not
  // part of the solve time (analysis_ms() reports it). Throws std::runtime_error naming the
  // library call that failed.
  vendor_solver(const device_csr& L, const double* b, double* x);
  ~vendor_solver();
  vendor_solver(const vendor_solver&) = delete;
  vendor_solver& operator=(const vendor_solver&) = delete;

  // x = L^-1 b, queued on the default stream.
  void solve();
  double analysis_ms() const;
  static const char* name();  // the library and routine, for the output

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace spts

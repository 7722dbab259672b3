// vendor_solver over rocSPARSE's csrsv (ROCm 5.x): analysis once, then solves.
#include <hip/hip_runtime.h>
#include <rocsparse/rocsparse.h>

#include <stdexcept>
#include <string>

#include "vendor.hpp"

namespace spts {

namespace {
void check(rocsparse_status status, const char* call) {
  if (status != rocsparse_status_success)
    throw std::runtime_error(std::string("rocSPARSE ") + call + " failed: status " +
                             std::to_string(static_cast<int>(status)));
}
void check(hipError_t status, const char* call) {
  if (status != hipSuccess)
    throw std::runtime_error(std::string("HIP ") + call + " failed: " + hipGetErrorString(status));
}
}  // namespace

struct vendor_solver::impl {
  rocsparse_handle handle = nullptr;
  rocsparse_mat_descr descr = nullptr;
  rocsparse_mat_info info = nullptr;
  device_csr L;
  const double* b = nullptr;
  double* x = nullptr;
  void* buffer = nullptr;
  double analysis_ms = 0;
  bool analysed = false;

  ~impl() {
    if (analysed) rocsparse_csrsv_clear(handle, descr, info);
    if (info) rocsparse_destroy_mat_info(info);
    if (descr) rocsparse_destroy_mat_descr(descr);
    if (handle) rocsparse_destroy_handle(handle);
    if (buffer) (void)hipFree(buffer);
  }
};

vendor_solver::vendor_solver(const device_csr& L, const double* b, double* x) : impl_(std::make_unique<impl>()) {
  impl& s = *impl_;
  s.L = L, s.b = b, s.x = x;
  check(rocsparse_create_handle(&s.handle), "create_handle");
  check(rocsparse_create_mat_descr(&s.descr), "create_mat_descr");
  check(rocsparse_set_mat_fill_mode(s.descr, rocsparse_fill_mode_lower), "set_mat_fill_mode");
  check(rocsparse_set_mat_diag_type(s.descr, rocsparse_diag_type_non_unit), "set_mat_diag_type");
  check(rocsparse_create_mat_info(&s.info), "create_mat_info");
  std::size_t bytes = 0;
  check(rocsparse_dcsrsv_buffer_size(s.handle, rocsparse_operation_none, L.n, L.nnz, s.descr, L.val, L.row_ptr, L.col,
                                     s.info, &bytes),
        "dcsrsv_buffer_size");
  check(hipMalloc(&s.buffer, bytes > 0 ? bytes : 1), "Malloc(csrsv buffer)");
  hipEvent_t start, stop;
  check(hipEventCreate(&start), "EventCreate");
  check(hipEventCreate(&stop), "EventCreate");
  check(hipEventRecord(start, nullptr), "EventRecord");
  check(rocsparse_dcsrsv_analysis(s.handle, rocsparse_operation_none, L.n, L.nnz, s.descr, L.val, L.row_ptr, L.col,
                                  s.info, rocsparse_analysis_policy_reuse, rocsparse_solve_policy_auto, s.buffer),
        "dcsrsv_analysis");
  s.analysed = true;
  check(hipEventRecord(stop, nullptr), "EventRecord");
  check(hipEventSynchronize(stop), "EventSynchronize");
  float ms = 0;
  check(hipEventElapsedTime(&ms, start, stop), "EventElapsedTime");
  s.analysis_ms = ms;
  (void)hipEventDestroy(start);
  (void)hipEventDestroy(stop);
}

vendor_solver::~vendor_solver() = default;

void vendor_solver::solve() {
  impl& s = *impl_;
  const double one = 1.0;
  check(rocsparse_dcsrsv_solve(s.handle, rocsparse_operation_none, s.L.n, s.L.nnz, &one, s.descr, s.L.val, s.L.row_ptr,
                               s.L.col, s.info, s.b, s.x, rocsparse_solve_policy_auto, s.buffer),
        "dcsrsv_solve");
}

double vendor_solver::analysis_ms() const { return impl_->analysis_ms; }
const char* vendor_solver::name() { return "rocSPARSE csrsv"; }

}  // namespace spts

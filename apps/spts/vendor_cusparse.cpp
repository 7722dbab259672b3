// vendor_solver over cuSPARSE's generic SpSV (CUDA 12+): analysis once, then solves.
#include <cuda_runtime.h>
#include <cusparse.h>

#include <stdexcept>
#include <string>

#include "vendor.hpp"

namespace spts {

namespace {
void check(cusparseStatus_t status, const char* call) {
  if (status != CUSPARSE_STATUS_SUCCESS)
    throw std::runtime_error(std::string("cuSPARSE ") + call + " failed: " + cusparseGetErrorString(status));
}
void check(cudaError_t status, const char* call) {
  if (status != cudaSuccess)
    throw std::runtime_error(std::string("CUDA ") + call + " failed: " + cudaGetErrorString(status));
}
}  // namespace

struct vendor_solver::impl {
  cusparseHandle_t handle = nullptr;
  cusparseSpMatDescr_t matrix = nullptr;
  cusparseDnVecDescr_t rhs = nullptr, solution = nullptr;
  cusparseSpSVDescr_t spsv = nullptr;
  void* buffer = nullptr;
  double analysis_ms = 0;
  const double one = 1.0;

  ~impl() {
    if (spsv) cusparseSpSV_destroyDescr(spsv);
    if (rhs) cusparseDestroyDnVec(rhs);
    if (solution) cusparseDestroyDnVec(solution);
    if (matrix) cusparseDestroySpMat(matrix);
    if (handle) cusparseDestroy(handle);
    if (buffer) cudaFree(buffer);
  }
};

vendor_solver::vendor_solver(const device_csr& L, const double* b, double* x) : impl_(std::make_unique<impl>()) {
  impl& s = *impl_;
  check(cusparseCreate(&s.handle), "Create");
  check(cusparseCreateCsr(&s.matrix, L.n, L.n, L.nnz, const_cast<std::int32_t*>(L.row_ptr),
                          const_cast<std::int32_t*>(L.col), const_cast<double*>(L.val), CUSPARSE_INDEX_32I,
                          CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F),
        "CreateCsr");
  cusparseFillMode_t fill = CUSPARSE_FILL_MODE_LOWER;
  cusparseDiagType_t diag = CUSPARSE_DIAG_TYPE_NON_UNIT;
  check(cusparseSpMatSetAttribute(s.matrix, CUSPARSE_SPMAT_FILL_MODE, &fill, sizeof fill), "SpMatSetAttribute(fill)");
  check(cusparseSpMatSetAttribute(s.matrix, CUSPARSE_SPMAT_DIAG_TYPE, &diag, sizeof diag), "SpMatSetAttribute(diag)");
  check(cusparseCreateDnVec(&s.rhs, L.n, const_cast<double*>(b), CUDA_R_64F), "CreateDnVec(b)");
  check(cusparseCreateDnVec(&s.solution, L.n, x, CUDA_R_64F), "CreateDnVec(x)");
  check(cusparseSpSV_createDescr(&s.spsv), "SpSV_createDescr");
  std::size_t bytes = 0;
  check(cusparseSpSV_bufferSize(s.handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &s.one, s.matrix, s.rhs, s.solution,
                                CUDA_R_64F, CUSPARSE_SPSV_ALG_DEFAULT, s.spsv, &bytes),
        "SpSV_bufferSize");
  check(cudaMalloc(&s.buffer, bytes > 0 ? bytes : 1), "Malloc(SpSV buffer)");
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "EventCreate");
  check(cudaEventCreate(&stop), "EventCreate");
  check(cudaEventRecord(start, nullptr), "EventRecord");
  check(cusparseSpSV_analysis(s.handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &s.one, s.matrix, s.rhs, s.solution,
                              CUDA_R_64F, CUSPARSE_SPSV_ALG_DEFAULT, s.spsv, s.buffer),
        "SpSV_analysis");
  check(cudaEventRecord(stop, nullptr), "EventRecord");
  check(cudaEventSynchronize(stop), "EventSynchronize");
  float ms = 0;
  check(cudaEventElapsedTime(&ms, start, stop), "EventElapsedTime");
  s.analysis_ms = ms;
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
}

vendor_solver::~vendor_solver() = default;

void vendor_solver::solve() {
  impl& s = *impl_;
  check(cusparseSpSV_solve(s.handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &s.one, s.matrix, s.rhs, s.solution, CUDA_R_64F,
                           CUSPARSE_SPSV_ALG_DEFAULT, s.spsv),
        "SpSV_solve");
}

double vendor_solver::analysis_ms() const { return impl_->analysis_ms; }
const char* vendor_solver::name() { return "cuSPARSE SpSV"; }

}  // namespace spts

# Sourced by the scripts that run on the GPU machines (gpu-check.sh, apps-bench.sh): the
# environment they need there and the one Release CUDA build they share.
#   repo, build                 the repository and the build folder (GIO_BUILD_DIR, default build-gpu)
#   configure_gpu_build         cmake's configure of that build (tests, benchmarks and apps)
#   outdir_of DIR               DIR made and absolute, for the scripts' first argument
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${GIO_BUILD_DIR:-$repo/build-gpu}
# Shared-server safety on the device machines, and mpirun as root there.
export NVSHMEM_DISABLE_NVLS=1 NCCL_NVLS_ENABLE=0
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none

configure_gpu_build() {
  cmake -S "$repo" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGIO_GPU=cuda -DGIO_BUILD_TESTS=ON \
    -DGIO_BUILD_BENCH=ON
}

# The scripts take OUTDIR first: an option in its place (apps-bench.sh --jacobi-only OUT) is a
# mistake, not a folder. Prints the absolute path, or says why not and returns 2.
outdir_of() {
  case "$1" in -*) echo "$(basename "$0"): OUTDIR first, then the options (got $1)" >&2; return 2 ;; esac
  (mkdir -p "$1" && cd "$1" && pwd) || { echo "$(basename "$0"): cannot make OUTDIR $1" >&2; return 2; }
}

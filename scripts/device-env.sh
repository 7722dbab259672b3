# Sourced by the scripts that run on the GPU machines (gpu-check.sh, apps-bench.sh): the
# environment they need there and the one Release CUDA build they share.
#   repo, build                 the repository and the build folder (GIO_BUILD_DIR, default build-gpu)
#   configure_gpu_build         cmake's configure of that build (tests, benchmarks and apps)
#   lock_gpu_build              that build folder for this script alone (another run on it stops)
#   outdir_of DIR               DIR made and absolute, for the scripts' first argument
#   under_mps GPUS COMMAND...   COMMAND on GPUS (CUDA_VISIBLE_DEVICES) under an MPS daemon of its own
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${GIO_BUILD_DIR:-$repo/build-gpu}
# Shared-server safety on the device machines, and mpirun as root there.
export NVSHMEM_DISABLE_NVLS=1 NCCL_NVLS_ENABLE=0
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none

# The whole test binary as machine code, whatever a reused build folder's cache says (CI's
# compile-only options leave tests/gpu as a sample or as PTX).
configure_gpu_build() {
  cmake -S "$repo" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGIO_GPU=cuda -DGIO_BUILD_TESTS=ON \
    -DGIO_BUILD_BENCH=ON -DGIO_GPU_TEST_SAMPLE=OFF -DGIO_GPU_TESTS_PTX_ONLY=OFF
}

# The build folder for this script alone until it exits: a second gpu-check or apps-bench on the
# same folder would configure and build it again underneath the first (both start their builds
# over, and the device call runs out). Another run waits 10 s at most (a run stopped by a signal
# lets go once it has stopped its MPS daemon), then stops and says so.
lock_gpu_build() {
  mkdir -p "$build" || return 2
  exec {gio_build_lock}>"$build/.gio-script.lock"
  if ! flock -w 10 "$gio_build_lock"; then
    echo "$(basename "$0"): another gpu-check.sh or apps-bench.sh is using $build; wait for it, or give this one its own build folder (GIO_BUILD_DIR)" >&2
    return 2
  fi
}

# The scripts take OUTDIR first: an option in its place (apps-bench.sh --jacobi-only OUT) is a
# mistake, not a folder. Prints the absolute path, or says why not and returns 2.
outdir_of() {
  case "$1" in -*) echo "$(basename "$0"): OUTDIR first, then the options (got $1)" >&2; return 2 ;; esac
  (mkdir -p "$1" && cd "$1" && pwd) || { echo "$(basename "$0"): cannot make OUTDIR $1" >&2; return 2; }
}

# An MPS control daemon private to COMMAND (its own pipe and log folders), stopped after it,
# whatever the outcome, a TERM or INT included (a device call's `timeout`): a daemon left behind
# would put every later program on that GPU under MPS. A subshell, so that its environment ends
# with it. The daemon does not inherit the build folder's lock (lock_gpu_build). Prints the
# daemon's last log lines; returns COMMAND's status (143 when stopped by a signal).
under_mps() (
  dir=$(mktemp -d "${TMPDIR:-/tmp}/gio-mps.XXXXXX")
  mkdir -p "$dir/pipe" "$dir/log"
  export CUDA_VISIBLE_DEVICES=$1 CUDA_MPS_PIPE_DIRECTORY=$dir/pipe CUDA_MPS_LOG_DIRECTORY=$dir/log
  shift
  stop_mps() {
    echo quit | nvidia-cuda-mps-control
    for _ in $(seq 20); do [ -e "$dir/pipe/control" ] || break; sleep 0.5; done
  }
  if [ -n "${gio_build_lock:-}" ]; then nvidia-cuda-mps-control -d {gio_build_lock}>&-
  else nvidia-cuda-mps-control -d; fi || { echo "MPS daemon did not start"; exit 1; }
  # COMMAND in the background, so that a signal is handled at once, not when COMMAND ends.
  trap 'kill -TERM "$child" 2>/dev/null; wait "$child"; stop_mps; exit 143' TERM INT
  "$@" & child=$!
  wait "$child"; rc=$?
  trap - TERM INT
  stop_mps
  cat "$dir"/log/*.log 2>/dev/null | tail -n 20
  exit $rc
)

#!/usr/bin/env bash
# GPU evidence for gio: on a machine with NVIDIA GPUs, configure and build (Release, tests and
# benchmarks, NVSHMEM side by side when its wheel is found), run the `gpu` test label on every
# GPU (its 4-PE entries one PE per GPU where there are 4), the whole GPU test binary at one PE per
# GPU where there are more than 2, on one GPU with 2 PEs and 4 PEs on at most 2 GPUs under MPS
# (when nvidia-cuda-mps-control exists), the compute-sanitizer tools, gio-info and the benchmarks
# (2 PEs, and one PE per GPU where there are more than 2), and write machine.txt (which GPUs,
# which links), logs, CSV, the comparison table and PNG plots to OUTDIR.
#
#   scripts/gpu-check.sh OUTDIR [--no-sanitizer] [--no-bench] [--only-bench] [--no-base-bench]
#                        [--no-cpu-tests] [--phase build|main|shared|sanitizer|examples|all-gpus|gda|gda:K|ikn:K]
#                        [--archive FILE.tgz]
#   --no-base-bench leaves out the point-to-point benchmarks of the first release (p, put, bw, ...).
#   --no-cpu-tests leaves out the CPU tests (CI runs them), for device time.
#   --only-bench builds and runs only gio-info's checks and the benchmarks (the build skips the
#   GPU test binary: minutes less of a device call).
#   --phase splits a run that would exceed one call's time on the device machines: `main` is
#   everything except the one-GPU and MPS tests and the sanitizers, `shared` is only those (same build),
#   `sanitizer` only the sanitizers, `all-gpus` (a machine with more than 2 GPUs) only the
#   whole GPU test binary and the synchronisation benchmarks at one PE per GPU, beside NVSHMEM,
#   `gda` the GPU tests over gda and ikn through the software NIC model (same build; on a one-GPU
#   machine under MPS); over the model they take longer than a call, so `gda:K` / `ikn:K` run
#   part K (0-3) of one mode. `build`
#   only configures and builds everything (a cold build takes most of a call), for the phases after;
#   `examples` builds only the library and runs examples/ from its installed tree.
#   --archive packs OUTDIR into FILE.tgz after every step and every 15 s during one: a run cut
#   off by a time limit still leaves everything so far in one file, the running step's log and
#   its name in summary.txt included (the device machines return only a few files from a run).
#   Two runs on one build folder at once are refused (the second waits 10 s, then stops): run
#   phases one after another, or give each run its own GIO_BUILD_DIR.
#
# Exit status: 0 when every step passed; the summary at the end lists each step.
set -uo pipefail

usage() { sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'; }
[ $# -ge 1 ] || { usage; exit 2; }
case "$1" in -h|--help) usage; exit 0 ;; esac
source "$(dirname "$0")/device-env.sh"  # repo, build, the machines' environment, outdir_of
out=$(outdir_of "$1") || exit 2
shift
sanitizer=1 bench=1 base_bench=1 tests=1 cpu_tests=1 one_gpu=1 main=1 examples_only=0 all_gpus_only=0 gda_only=0 gda_label=gda
archive=
while [ $# -gt 0 ]; do
  case "$1" in
    --no-sanitizer) sanitizer=0 ;;
    --no-bench) bench=0 ;;
    --no-base-bench) base_bench=0 ;;
    --no-cpu-tests) cpu_tests=0 ;;
    --only-bench) tests=0 sanitizer=0 one_gpu=0 ;;
    --phase)
      shift
      case "${1:-}" in
        build) main=0 bench=0 sanitizer=0 one_gpu=0 ;;
        main) sanitizer=0 one_gpu=0 ;;
        shared) main=0 bench=0 ;;
        sanitizer) main=0 bench=0 one_gpu=0 ;;
        examples) main=0 bench=0 sanitizer=0 one_gpu=0 tests=0 examples_only=1 ;;
        all-gpus) main=0 bench=0 sanitizer=0 one_gpu=0 tests=0 all_gpus_only=1 ;;
        gda) main=0 bench=0 sanitizer=0 one_gpu=0 gda_only=1 ;;
        gda:[0-3]|ikn:[0-3]) main=0 bench=0 sanitizer=0 one_gpu=0 gda_only=1 gda_label="^${1%%:*}_part${1#*:}\$" ;;
        *) echo "gpu-check: --phase build|main|shared|sanitizer|examples|all-gpus|gda|gda:K|ikn:K (K 0-3)" >&2; exit 2 ;;
      esac ;;
    --archive)
      shift
      [ -n "${1:-}" ] || { echo "gpu-check: --archive needs a file name" >&2; exit 2; }
      archive=$(mkdir -p "$(dirname "$1")" && cd "$(dirname "$1")" && pwd)/$(basename "$1") ;;
    *) echo "gpu-check: unknown option $1" >&2; usage; exit 2 ;;
  esac
  shift
done

# The tests set their own GIO_SYMMETRIC_SIZE; the benchmarks give gio and NVSHMEM the same heap.

declare -a summary=()
failures=0
step() {  # step NAME COMMAND...: runs it, logs to OUTDIR/NAME.log, records the outcome
  local name=$1; shift
  local started=$SECONDS
  echo "== $name: $*"
  # A step the call's time limit cuts off still leaves its log so far, and says it was running.
  printf '  %s\n' "${summary[@]}" "RUNNING  $name (since $(date -u +%T))" >"$out/summary.txt"
  start_packer
  if "$@" >"$out/$name.log" 2>&1; then
    summary+=("PASS  $name ($((SECONDS - started)) s)")
  else
    summary+=("FAIL  $name ($((SECONDS - started)) s): see $name.log")
    failures=$((failures + 1))
    tail -n 30 "$out/$name.log"
  fi
  stop_packer
  printf '  %s\n' "${summary[@]}" >"$out/summary.txt"
  pack
}
pack() {  # --archive: OUTDIR as it stands, replaced whole (never a half-written archive)
  [ -n "$archive" ] || return 0
  local tmp="$archive.tmp.$BASHPID"
  # Exit status 1 is tar's "a file changed as we read it": a log still being written, packed as far as it got.
  tar czf "$tmp" --warning=no-file-changed -C "$(dirname "$out")" "$(basename "$out")"
  if [ $? -le 1 ]; then mv "$tmp" "$archive"; else rm -f "$tmp"; fi
}
# While a step runs, --archive re-packs OUTDIR every 15 s (a step can outlast the call's limit).
packer_pid= packer_stop=
start_packer() {
  [ -n "$archive" ] || return 0
  packer_stop=$(mktemp -u "${TMPDIR:-/tmp}/gio-packer-stop.XXXXXX")
  ( while :; do
      for _ in $(seq 15); do { [ -e "$packer_stop" ] || ! kill -0 $$; } 2>/dev/null && exit 0; sleep 1; done
      pack
    done ) &
  packer_pid=$!
}
stop_packer() {
  [ -n "$packer_pid" ] || return 0
  touch "$packer_stop"; wait "$packer_pid" 2>/dev/null; rm -f "$packer_stop"
  packer_pid=
}

lock_gpu_build || exit 2
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
{ nvidia-smi; nvidia-smi topo -m; } >"$out/machine.txt" 2>&1
echo "gpu-check: $gpus GPU(s); output in $out"

step configure configure_gpu_build
if [ "$tests" = 1 ] || [ "$sanitizer" = 1 ] || [ "$gda_only" = 1 ]; then
  step build cmake --build "$build" -j "$(nproc)"
elif [ "$all_gpus_only" = 1 ]; then
  step build cmake --build "$build" -j "$(nproc)" --target host/all tests/gpu/all bench/all
elif [ "$examples_only" = 1 ]; then  # the library, installed for the examples
  step build cmake --build "$build" -j "$(nproc)" --target host/all
else  # --only-bench: the library, gio-info, the NIC model and the benchmarks, not the GPU test binary
  step build cmake --build "$build" -j "$(nproc)" --target host/all tests/nicmodel/all bench/all
fi
# The slowest build steps (ninja's log: start and end in ms), for what bounds a cold build's time.
[ -f "$build/.ninja_log" ] &&
  awk -F'\t' 'NR > 1 { printf "%8.1f s  %s\n", ($2 - $1) / 1000, $4 }' "$build/.ninja_log" | sort -rn | head -25 \
    >"$out/build-slowest.txt"

mpirun_np() { mpirun --oversubscribe -np "$@"; }
# examples/ as a user builds them (this build installed, find_package(gio)), each run checked.
run_examples() {
  local scratch np example
  scratch=$(mktemp -d "${TMPDIR:-/tmp}/gio-examples.XXXXXX")
  local prefix=$scratch/prefix ex=$scratch/build
  cmake --install "$build" --prefix "$prefix" >/dev/null &&
    cmake -S "$repo/examples" -B "$ex" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CUDA_ARCHITECTURES=native \
      -DCMAKE_BUILD_TYPE=Release >/dev/null &&
    cmake --build "$ex" -j "$(nproc)" || return 1
  # The examples CMake builds (its one list; none found is a failure, not a pass).
  local examples
  examples=$(sed -n 's/^set(examples \(.*\))$/\1/p' "$repo/examples/CMakeLists.txt")
  [ -n "$examples" ] || { echo "run_examples: no 'set(examples ...)' line in examples/CMakeLists.txt"; return 1; }
  for example in $examples; do
    for np in 2 4; do
      echo "== mpirun -np $np $example"
      timeout 120 "$(command -v mpirun)" --oversubscribe --bind-to none -np $np "$ex/$example" || return 1
    done
  done
}

# One PE on every GPU of a machine with more than 2: the whole GPU test binary (the ctest entries
# hold 2 or 4 PEs), and the collectives, barrier and atomics beside NVSHMEM with their plots.
every_gpu_suite() {
  step tests-${gpus}pes-every-test env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
    GIO_SYMMETRIC_SIZE=256M GIO_WAIT_TIMEOUT=60s timeout 900 "$(command -v mpirun)" --oversubscribe -np "$gpus" \
    "$build/tests/gpu/gio-gpu-tests"
}
every_gpu_benches() {
  mkdir -p "$out/all-gpus"
  step bench-gio-sync-${gpus}pes timeout 240 "$(command -v mpirun)" --oversubscribe -np "$gpus" \
    "$build/bench/gio-bench" --bench amo,amo_rate,barrier,coll --csv "$out/all-gpus/gio-sync.csv"
  if [ -x "$build/bench/gio-bench-nvshmem" ]; then
    step bench-nvshmem-sync-${gpus}pes timeout 240 "$(command -v mpirun)" --oversubscribe -np "$gpus" \
      "$build/bench/gio-bench-nvshmem" --bench amo,amo_rate,barrier,coll --csv "$out/all-gpus/nvshmem-sync.csv"
  fi
  [ -f "$out/all-gpus/gio-sync.csv" ] &&
    step plots-all-gpus python3 "$repo/scripts/plot_bench.py" "$out"/all-gpus/*.csv --out "$out/all-gpus"
}
if [ "$all_gpus_only" = 1 ]; then
  if [ "$gpus" -gt 2 ]; then every_gpu_suite; every_gpu_benches
  else summary+=("SKIP  all-gpus: $gpus GPU(s); the 2-GPU runs are --phase main's"); fi
fi

model=$build/tests/nicmodel/libgio_nic_model.so  # the software NIC model (GIO_GDA_NIC_MODEL)
if [ "$main" = 1 ]; then
step gio-info mpirun_np 2 "$build/host/gio-info"

# Bad configurations on a GPU machine: init must fail on every PE with the cause, not hang.
fails_on_every_pe() {  # fails_on_every_pe PATTERN COMMAND...
  local pattern=$1 output
  shift
  if output=$(timeout 120 "$@" 2>&1); then echo "$output"; echo "expected a failure"; return 1; fi
  echo "$output"
  grep -qE "gio: PE 0: .*$pattern" <<<"$output" && grep -qE "gio: PE 1: .*$pattern" <<<"$output"
}
step error-too-many-gpus fails_on_every_pe "GIO_NUM_GPUS=64 but only [0-9]+ GPUs are visible" \
  env GIO_NUM_GPUS=64 "$(command -v mpirun)" --oversubscribe -np 2 "$build/host/gio-info"
step error-heap-too-large fails_on_every_pe "does not fit in GPU" \
  env GIO_SYMMETRIC_SIZE=1T "$(command -v mpirun)" --oversubscribe -np 2 "$build/host/gio-info"
step error-no-gpu fails_on_every_pe "no GPU visible" \
  env CUDA_VISIBLE_DEVICES= "$(command -v mpirun)" --oversubscribe -np 2 "$build/host/gio-info"
# These machines have no RDMA NIC: forcing gda or ikn without the software model must fail clearly.
for mode in gda ikn; do
  step error-$mode-without-nic fails_on_every_pe "GIO_TRANSPORT=$mode but no RDMA device can serve it" \
    env GIO_TRANSPORT=$mode "$(command -v mpirun)" --oversubscribe -np 2 "$build/host/gio-info"
done
# Uncached network buffers (GIO 5.1.2) exist only on AMD: NVIDIA refuses them with the reason.
step error-uncached-on-nvidia fails_on_every_pe "GIO_NET_BUFFERS=uncached: NVIDIA GPUs have no uncached device memory" \
  env GIO_NET_BUFFERS=uncached "$(command -v mpirun)" --oversubscribe -np 2 "$build/host/gio-info"
# gio-info over gda and ikn, served by the software NIC model: the network line and the peers.
for mode in gda ikn; do
  step gio-info-$mode env GIO_TRANSPORT=$mode GIO_GDA_NIC_MODEL="$model" \
    "$(command -v mpirun)" --oversubscribe -np 2 "$build/host/gio-info"
done

if [ "$tests" = 1 ]; then
  # -V: the logs keep every test's own output (litmus counts, seeds), not only failures.
  # The gda/ikn runs over the software NIC model are slow (a litmus case takes ~19 s): their own
  # phase (--phase gda), so that this one stays within a device call.
  step tests-all-gpus ctest --test-dir "$build" -L gpu -LE gda -V
  [ "$gpus" -gt 2 ] && every_gpu_suite
  [ "$cpu_tests" = 1 ] && step tests-cpu ctest --test-dir "$build" -L unit --output-on-failure
  step examples run_examples
fi
# A kernel built without the network path holds none of it (apps/worksteal: GIO_DEVICE_GDA=0),
# while a default build does (gio-bench), so that the check can fail: the gda entry points are
# out-of-line functions of gio::transports::gda (docs/transports.md). Without -rdc the SASS listing
# names neither them nor their calls; the cubins' symbol tables do (FUNC `$kernel$function`).
gda_mentions() {  # BINARY: its cubins, then the gio::transports::gda functions in them
  local dir cubins
  dir=$(mktemp -d "${TMPDIR:-/tmp}/gio-cubins.XXXXXX")
  (cd "$dir" && cuobjdump -xelf all "$1" >/dev/null) || { rm -rf "$dir"; return 1; }
  cubins=("$dir"/*.cubin)
  if [ -e "${cubins[0]}" ]; then echo "${#cubins[@]} $(readelf -sW "${cubins[@]}" | grep -c 'FUNC .*transports3gda')"
  else echo "0 0"; fi
  rm -rf "$dir"
}
p2p_only_holds_no_gda() {
  local without with
  without=($(gda_mentions "$build/apps/worksteal/worksteal")) && with=($(gda_mentions "$build/bench/gio-bench")) || return 1
  echo "worksteal (GIO_DEVICE_GDA=0): ${without[0]} cubins, ${without[1]} gda functions; gio-bench (default): ${with[0]} cubins, ${with[1]} gda functions"
  [ "${without[0]}" -gt 0 ] && [ "${without[1]}" -eq 0 ] && [ "${with[0]}" -gt 0 ] && [ "${with[1]}" -gt 0 ]
}
if command -v cuobjdump >/dev/null && command -v readelf >/dev/null && [ -x "$build/apps/worksteal/worksteal" ] && [ -x "$build/bench/gio-bench" ]; then
  step p2p-only-kernels-hold-no-gda p2p_only_holds_no_gda
fi
fi  # main
[ "$examples_only" = 1 ] && step examples run_examples
if [ "$gda_only" = 1 ]; then
  # Every GPU test over gda and ikn, served by the software NIC model (tests/gpu/CMakeLists.txt).
  # On one GPU, under MPS: without it the two PEs' kernels and their model engines time-slice the
  # GPU (part 0 did not finish in 400 s), under MPS they run side by side (docs/results.md).
  if [ "$gpus" -gt 1 ]; then
    step tests-gda ctest --test-dir "$build" -L "$gda_label" -V
  elif command -v nvidia-cuda-mps-control >/dev/null; then
    step tests-gda-one-gpu-mps under_mps 0 ctest --test-dir "$build" -L "$gda_label" -V
  else
    summary+=("SKIP  tests-gda: one GPU and no MPS (the PEs and the model's engines would time-slice it)")
  fi
fi
if [ "$tests" = 1 ] && [ "$one_gpu" = 1 ] && [ "$gpus" -gt 1 ]; then
  # Every PE on GPU 0: 2 PEs (and the 4-PE entry: 4) time-slicing one GPU.
  # (The gda/ikn runs stay on two GPUs, or under MPS on one: the model's engine kernels would
  # time-slice with both PEs.)
  step tests-one-gpu env CUDA_VISIBLE_DEVICES=0 ctest --test-dir "$build" -L gpu -LE gda -V
fi

if [ "$tests" = 1 ] && [ "$one_gpu" = 1 ] && command -v nvidia-cuda-mps-control >/dev/null; then
  # Several PEs per GPU under MPS (docs/running.md): 4 PEs on at most 2 GPUs, the daemon private
  # to this step and stopped after it, whatever the outcome (under_mps, device-env.sh).
  # NVSHMEM's 4-PE jacobi2d entry is left to `apps-bench.sh --mps-only`, which gives it the thread
  # percentage NVSHMEM wants under MPS.
  # gio::ws with 2 PEs on one GPU side by side (each persistent grid sized to its share), spawning
  # trees through symmetric and host queues.
  mps_runs() {  # gio-info says MPS and the share; the 4-PE suite; jacobi2d at a size whose grid fills the GPU
    local info
    info=$(timeout 60 "$(command -v mpirun)" --oversubscribe -np 4 "$build/host/gio-info") || { echo "$info"; return 1; }
    echo "$info"
    grep -qE "GPU share: [24] PEs on this GPU under MPS" <<<"$info" || { echo "gio-info: no MPS share reported"; return 1; }
    ctest --test-dir "$build" -R '^(gpu_tests_4pes|jacobi2d_(gio|inter-k).*_np4|spts_.*_np4|worksteal_(uts_T3|memset|host_queues_uts_T3)_np2)$' -V || return 1
    timeout 120 "$(command -v mpirun)" --oversubscribe --bind-to none -np 4 "$build/apps/jacobi2d/jacobi2d" \
      --variant gio --size 8192x4096 --iterations 1000
  }
  mps_gpus=0; [ "$gpus" -gt 1 ] && mps_gpus=0,1
  step tests-mps under_mps "$mps_gpus" mps_runs
fi

if [ "$bench" = 1 ]; then
  mkdir -p "$out/one-gpu"
  step bench-floor mpirun_np 2 "$build/bench/gio-bench-floor" --csv "$out/floor.csv"
  if [ "$base_bench" = 1 ]; then
    step bench-gio mpirun_np 2 "$build/bench/gio-bench" --csv "$out/gio.csv"
    # The same calls compiled as relocatable device code (docs/tuning.md, "Relocatable device code").
    if [ -x "$build/bench/gio-bench-rdc" ]; then
      step bench-gio-rdc mpirun_np 2 "$build/bench/gio-bench-rdc" --csv "$out/gio-rdc.csv"
    fi
    if [ -x "$build/bench/gio-bench-nvshmem" ] && [ "$gpus" -gt 1 ]; then
      step bench-nvshmem mpirun_np 2 "$build/bench/gio-bench-nvshmem" --csv "$out/nvshmem.csv"
    fi
  fi
  if [ "$gpus" -gt 1 ]; then
    # Signals, atomics, device barriers and collectives (issue 3), gio and NVSHMEM in one run.
    step bench-gio-sync timeout 240 "$(command -v mpirun)" --oversubscribe -np 2 "$build/bench/gio-bench" \
      --bench signal,amo,amo_rate,barrier,coll --csv "$out/gio-sync.csv"
    if [ -x "$build/bench/gio-bench-nvshmem" ]; then
      step bench-nvshmem-sync timeout 240 "$(command -v mpirun)" --oversubscribe -np 2 \
        "$build/bench/gio-bench-nvshmem" --bench signal,amo,amo_rate,barrier,coll --csv "$out/nvshmem-sync.csv"
    fi
    # The same calls as relocatable device code, and through gio::device_library (its collectives
    # and network entries compiled once, under a register cap): what each build mode costs or saves
    # against the inline forms above (rows "gio-rdc", "gio-library").
    for variant in rdc device-library; do
      if [ -x "$build/bench/gio-bench-$variant" ]; then
        step bench-$variant-sync timeout 240 "$(command -v mpirun)" --oversubscribe -np 2 \
          "$build/bench/gio-bench-$variant" --bench signal,amo,amo_rate,barrier,coll --csv "$out/gio-$variant-sync.csv"
      fi
    done
    [ "$gpus" -gt 2 ] && every_gpu_benches
    # What initiating a network operation costs the GPU thread, gda vs ikn (software NIC model);
    # --bind-to none: bound to one core, the proxy and the model starve (docs/transports.md).
    for mode in gda ikn; do
      step bench-gda-probe-$mode env GIO_TRANSPORT=$mode GIO_GDA_NIC_MODEL="$model" timeout 120 \
        "$(command -v mpirun)" --oversubscribe --bind-to none -np 2 "$build/bench/gio-bench-gda-probe"
    done
    # What the ordering instructions behind them cost on this machine (docs/memory-model.md).
    step bench-order-probe timeout 120 "$(command -v mpirun)" --oversubscribe -np 2 "$build/bench/gio-bench-order-probe"
    # 2 PEs on one GPU: without MPS the two processes' kernels time-slice the GPU, so every
    # ping-pong round waits for a context switch; a short sweep shows it works and what it costs.
    if [ "$base_bench" = 1 ]; then
      step bench-gio-one-gpu env CUDA_VISIBLE_DEVICES=0 "$(command -v mpirun)" --oversubscribe -np 2 \
        "$build/bench/gio-bench" --bench p,put --scopes wg --max-size 64K --reps 3 --target-ms 20 \
        --csv "$out/one-gpu/gio.csv"
    fi
  fi
  step plots python3 "$repo/scripts/plot_bench.py" "$out"/*.csv --out "$out"
  if [ -f "$out/one-gpu/gio.csv" ]; then
    step plots-one-gpu python3 "$repo/scripts/plot_bench.py" "$out/one-gpu/gio.csv" --out "$out/one-gpu"
  fi
fi

if [ "$sanitizer" = 1 ]; then
  # compute-sanitizer over both PEs of the GPU tests, on reduced round counts (tests/gpu/README.md);
  # last, because the tools slow kernels 10-100x.
  gpu_tests=$build/tests/gpu/gio-gpu-tests
  sanitize() {  # sanitize TOOL FILTER [LITMUS_ROUNDS]
    env GIO_LITMUS_ROUNDS="${3:-64}" GIO_SYMMETRIC_SIZE=256M timeout 110 "$(command -v mpirun)" --oversubscribe -np 2 \
      compute-sanitizer --tool "$1" --error-exitcode 1 "$gpu_tests" --gtest_filter="$2"
  }
  step sanitizer-memcheck sanitize memcheck \
    'Bindings/DeviceRma.*mem:Bindings/DeviceRma.*_int:Bindings/DeviceRma.*_double:Bindings/DeviceRma.*_short:SymmetricPointer.*:HostRma.*:Atomics/AmoBindings.*typed_int:Atomics/AmoBindings.*typed_double:HostAtomics.*:HostCollectives.*:Teams.*:TeamContext.*:WorkStealing.*:MemoryModel/SignalLitmus.*_4096B_*:MemoryModel/SignalOpLitmus.*:DeviceStrided.*'
  # racecheck slows the workgroup-wide signal litmus ~100x (11 s a test at 64 rounds): 16 rounds.
  step sanitizer-racecheck sanitize racecheck \
    'MemoryModel/Litmus.*/mp_*:Bindings/DeviceRma.*/mem:MemoryModel/DeviceSync.*:MemoryModel/ReduceRounds.*:MemoryModel/SignalLitmus.*_4096B_*:WorkStealing.*' 16
  step sanitizer-synccheck sanitize synccheck \
    'MemoryModel/Litmus.*/mp_*:Bindings/DeviceRma.*/mem:MemoryModel/DeviceSync.*:MemoryModel/ReduceRounds.*:MemoryModel/SignalLitmus.*_4096B_*:WorkStealing.*'
  # The work-stealing kernel (docs/worksteal.md) with tiny queues, so that releases, acquires,
  # steals, spills and both epochs all run: memcheck on UTS T3 (spawning), racecheck (the local
  # queue's shared memory) on memset.
  ws_tiny=(--threads 32 --local-queue 64 --public-queue 64 --max-steal 4 --workers 8 --warmup 0 --repeats 1 --quiet)
  step sanitizer-worksteal-memcheck env GIO_SYMMETRIC_SIZE=256M timeout 300 "$(command -v mpirun)" --oversubscribe -np 2 \
    compute-sanitizer --tool memcheck --error-exitcode 1 "$build/apps/worksteal/worksteal" --workload uts --tree T3 \
    --variant ws,static "${ws_tiny[@]}"
  step sanitizer-worksteal-racecheck env GIO_SYMMETRIC_SIZE=256M timeout 300 "$(command -v mpirun)" --oversubscribe -np 2 \
    compute-sanitizer --tool racecheck --error-exitcode 1 "$build/apps/worksteal/worksteal" --workload memset \
    --tasks 20000 --variant ws "${ws_tiny[@]}"
  # contains with 8-place parts: documents split across workers and PEs, their flags set remotely.
  for tool in memcheck racecheck; do
    step sanitizer-worksteal-contains-$tool env GIO_SYMMETRIC_SIZE=256M timeout 300 "$(command -v mpirun)" --oversubscribe \
      -np 2 compute-sanitizer --tool $tool --error-exitcode 1 "$build/apps/worksteal/worksteal" --workload contains \
      --documents 2048 --piece 8 --bias 0 --variant ws "${ws_tiny[@]}"
  done
  # spts's gio solve kernels with pushes on most rows: the rounds kernel on KKT with 64-row blocks,
  # through mapped addresses and through gio's calls, and the indegree kernel's remote count-offs
  # and hand-overs (docs/spts.md, "Occupancy"), with queued rows taken by idle waves and by waves
  # with free row slots.
  sanitize_spts() {  # sanitize_spts TOOL
    local args
    for args in "--gen nlpkkt160:0.002 --block 64" "--gen nlpkkt160:0.002 --block 64 --push-path calls" \
      "--gen road_central:0.001 --kernel indegree --block 32 --stack-rows 0 --workgroups 2" \
      "--gen road_central:0.001 --kernel indegree --block 32 --stack-rows 0 --workgroups 2 --queue-takes spare"; do
      # shellcheck disable=SC2086  # args are words
      env GIO_SYMMETRIC_SIZE=256M timeout 120 "$(command -v mpirun)" --oversubscribe -np 2 compute-sanitizer \
        --tool "$1" --error-exitcode 1 "$build/apps/spts/spts" $args --variant gio --warmup 0 --repeats 1 \
        --timeout 30 --quiet || return 1
    done
  }
  step sanitizer-spts-memcheck sanitize_spts memcheck
  step sanitizer-spts-racecheck sanitize_spts racecheck
  # initcheck needs the PEs on separate GPUs: with two on one GPU, each process's initcheck counts
  # the peer heap it imported as never written, since the peer's writes happen in another process.
  # Seen on one H200 (session 13): init's probe load of the owner's probe word, which init checks
  # for the expected value, is reported uninitialized, and so is every fetching AMO on the peer.
  if [ "$gpus" -gt 1 ]; then
    step sanitizer-initcheck sanitize initcheck 'Bindings/PointToPointSync.*int:Bindings/VectorSync.*int:Atomics/AmoBindings.*typed_int'
  else
    summary+=("SKIP  sanitizer-initcheck: one GPU (initcheck cannot see a peer process's writes to the heap it imported)")
  fi
fi

echo
echo "gpu-check summary ($gpus GPU(s), $(date -u +%FT%TZ)):"
printf '  %s\n' "${summary[@]}" | tee "$out/summary.txt"
pack
[ -f "$out/table.md" ] && cat "$out/table.md"
exit $((failures > 0))

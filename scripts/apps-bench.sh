#!/usr/bin/env bash
# The full-size application runs on a GPU machine (docs/jacobi2d.md, docs/spts.md,
# docs/worksteal.md), one PE per GPU on 1, 2 and (where the machine has 4) 4 GPUs: Jacobi 2D weak
# scaling at 1K², 2K², 4K² per GPU (every variant, NVSHMEM's when built; on a 2-GPU machine also
# 4 PEs on 2 GPUs), the sparse triangular solve on the five generated classes of the GIO paper's
# Table 1 at full size with every baseline, and the work-stealing workloads (memset, UTS,
# contains) with every variant (the nvshmem one where built), a worker-count sweep and one
# steal's latency over gio and NVSHMEM. Writes the CSVs, logs, tables, plots and
# machine.txt (which GPUs, which links) to OUTDIR. Uses a Release CUDA build (default build-gpu,
# the one scripts/gpu-check.sh makes; built here if missing).
#
#   scripts/apps-bench.sh OUTDIR [--jacobi-only | --spts-only | --worksteal-only | --mps-only]
#                         [--push-classes "c1 c2"] [--spts-blocks "B1 B2"]
#   --push-classes: the classes on which every push mechanism runs on 2 GPUs (default: all five)
#   --spts-blocks "B1 B2": block sizes (rows, or `contiguous`) that the road classes also run at on
#   2 GPUs, into spts-blocks.csv (default "131072 1048576 contiguous"; "" for none): docs/spts.md,
#   "Two PEs on one GPU"; with them, one run of the road classes with --queue-takes spare
#   --mps-only: several PEs per GPU (a 2-GPU machine with nvidia-cuda-mps-control): jacobi2d at
#   4K² per GPU and spts on road_central, 4 PEs on 2 GPUs under MPS against 2 PEs without it, gio
#   and NVSHMEM, and the 2-PEs-on-one-GPU ping-pong of both; mps/table.md has the ratios.
#   SPTS_ARGS (environment): extra options for every spts run, e.g. "--kernel rounds"
set -uo pipefail
usage() { awk 'NR > 1 && !/^#/ {exit} NR > 1 {sub(/^# ?/, ""); print}' "$0"; }  # the comment above
[ $# -ge 1 ] || { usage; exit 2; }
case "$1" in -h|--help) usage; exit 0 ;; esac
source "$(dirname "$0")/device-env.sh"  # repo, build, the machines' environment, outdir_of
out=$(outdir_of "$1") || exit 2
shift
jacobi=1 spts=1 worksteal=1 mps=0 push_classes="wiki_talk asic_320ks nlpkkt160 road_usa road_central"
spts_blocks="131072 1048576 contiguous"
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --jacobi-only) spts=0 worksteal=0 ;;
    --spts-only) jacobi=0 worksteal=0 ;;
    --worksteal-only) jacobi=0 spts=0 ;;
    --mps-only) jacobi=0 spts=0 worksteal=0 mps=1 ;;
    --push-classes) shift; push_classes=$1 ;;
    --spts-blocks) shift; spts_blocks=$1 ;;
    *) echo "apps-bench: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
{ nvidia-smi -L; nvidia-smi topo -m; } >"$out/machine.txt" 2>&1  # which machine the figures come from
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
# One PE per GPU: 1, 2 and every GPU of the machine (4 where there are 4).
pe_counts=1
[ "$gpus" -ge 2 ] && pe_counts="1 2"
[ "$gpus" -gt 2 ] && pe_counts="$pe_counts $gpus"
most=${pe_counts##* }
lock_gpu_build || exit 2
if [ ! -f "$build/build.ninja" ]; then
  configure_gpu_build >"$out/configure.log" 2>&1 || exit 1
fi
targets="jacobi2d spts worksteal worksteal-steal-latency"
[ "$jacobi$spts" = 00 ] && targets="worksteal worksteal-steal-latency"
[ "$mps" = 1 ] && targets="jacobi2d spts gio-bench"
grep -q 'jacobi2d-nvshmem' "$build/build.ninja" && targets="$targets jacobi2d-nvshmem"
[ "$worksteal" = 1 ] && grep -q 'worksteal-nvshmem' "$build/build.ninja" &&
  targets="$targets worksteal-nvshmem worksteal-steal-latency-nvshmem"
[ "$mps" = 1 ] && grep -q 'gio-bench-nvshmem' "$build/build.ninja" && targets="$targets gio-bench-nvshmem"
cmake --build "$build" -j "$(nproc)" --target $targets >"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }

failures=0
run() {  # run LOG NP COMMAND...: one mpirun, its output appended to LOG; failures are counted
  local log=$1 np=$2; shift 2
  echo "== mpirun -np $np $*" >>"$log"
  mpirun --oversubscribe --bind-to none -np "$np" "$@" >>"$log" 2>&1 || { failures=$((failures + 1)); echo "FAILED: -np $np $*" | tee -a "$log"; }
}

if [ "$jacobi" = 1 ]; then
  j=$build/apps/jacobi2d csv=$out/jacobi.csv log=$out/jacobi.log
  rm -f "$csv"
  grid() {  # grid N NP: the global grid of NP PEs with N x N points each (2-D decomposition)
    case $2 in 1) echo "${1}x${1}" ;; 2) echo "$((2 * $1))x${1}" ;; 4) echo "$((2 * $1))x$((2 * $1))" ;;
      *) echo "$(($2 * $1))x${1}" ;; esac
  }
  for n in 1024 2048 4096; do
    iters=$(( n == 1024 ? 5000 : n == 2048 ? 2000 : 1000 ))
    for np in $pe_counts; do  # the 1-GPU rows first: the others find their efficiency baseline in the CSV
      args="--size $(grid $n $np) --iterations $iters --csv $csv"
      [ "$np" = "$most" ] && [ "$np" -gt 1 ] && args="$args --breakdown"
      for v in gio inter-k inter-k-overlap; do run "$log" "$np" "$j/jacobi2d" --variant $v $args; done
      run "$log" "$np" "$j/jacobi2d" --variant gio --halo p $args
      [ "$np" -gt 1 ] && run "$log" "$np" "$j/jacobi2d" --variant gio --halo early $args
      [ -x "$j/jacobi2d-nvshmem" ] && run "$log" "$np" "$j/jacobi2d-nvshmem" $args
    done
    if [ "$gpus" = 2 ]; then
      # 4 PEs on 2 GPUs: two processes time-slice each GPU (no MPS), hence fewer iterations.
      for v in gio inter-k; do
        run "$log" 4 "$j/jacobi2d" --variant $v --size "$(grid $n 2)" --iterations 200 --csv "$csv"
      done
    fi
    run "$log" 1 "$j/jacobi2d" --variant cpu --size ${n}x${n} --iterations 20 --threads "$(nproc)" --csv "$csv"
    run "$log" 2 "$j/jacobi2d" --variant cpu --size "$(grid $n 2)" --iterations 20 --threads $(( $(nproc) / 2 )) --csv "$csv"
  done
  python3 "$repo/scripts/plot_jacobi.py" "$csv" --out "$out/jacobi" >>"$log" 2>&1 || failures=$((failures + 1))
fi

if [ "$spts" = 1 ]; then
  s=$build/apps/spts/spts csv=$out/spts.csv log=$out/spts.log
  read -r -a extra <<<"${SPTS_ARGS:-}"
  rm -f "$csv" "$out/spts-blocks.csv"
  export GIO_SYMMETRIC_SIZE=1G
  for m in wiki_talk asic_320ks nlpkkt160 road_usa road_central; do
    run "$log" 1 "$s" "${extra[@]}" --gen $m --variant cpu,vendor,single,gio --csv "$csv"
    for np in 2 4; do  # 4 PEs: one per GPU on a 4-GPU machine, two per GPU on a 2-GPU one
      run "$log" $np "$s" "${extra[@]}" --gen $m --variant gio --csv "$csv"
    done
    if [[ " $push_classes " == *" $m "* ]]; then
      for push in signal fence amo; do run "$log" 2 "$s" "${extra[@]}" --gen $m --variant gio --push $push --csv "$csv"; done
    fi
    # The road classes at other blocks, on 2 GPUs: on one GPU under MPS 1M-row blocks were 6%
    # faster on road_central than the default and contiguous halves faster still, and no block
    # helped road_usa (docs/spts.md); over NVLink each remote operation pays the link. Then
    # queued rows taken by busy waves too, which cut the hand-overs' wait and lost on one GPU
    # (only with the block runs). A CSV of their own, so that spts.csv keeps one row per variant
    # and PEs.
    if [[ $m == road_* && -n $spts_blocks ]]; then
      for b in $spts_blocks; do run "$log" 2 "$s" "${extra[@]}" --gen $m --variant gio --block "$b" --csv "$out/spts-blocks.csv"; done
      run "$log" 2 "$s" "${extra[@]}" --gen $m --variant gio --queue-takes spare --csv "$out/spts-blocks.csv"
    fi
  done
  python3 "$repo/scripts/plot_spts.py" "$csv" --out "$out/spts" >>"$log" 2>&1 || failures=$((failures + 1))
fi
if [ "$worksteal" = 1 ]; then
  w=$build/apps/worksteal/worksteal csv=$out/worksteal.csv log=$out/worksteal.log
  rm -f "$csv"
  # 2^26 memset slots (512 MiB) and the queues fit a 2 GiB heap.
  export GIO_SYMMETRIC_SIZE=2G NVSHMEM_SYMMETRIC_SIZE=2G
  common="--warmup 1 --repeats 5 --csv $csv"
  # The nvshmem variant (the same runtime over NVSHMEM) right after gio's runs of each workload.
  wn=$build/apps/worksteal/worksteal-nvshmem
  nv() { [ -x "$wn" ] && run "$log" "$@"; return 0; }
  for np in $pe_counts; do
    run "$log" "$np" "$w" --workload memset --variant ws,static,host-queues $common
    nv "$np" "$wn" --workload memset --variant nvshmem $common
    run "$log" "$np" "$w" --workload memset --tasks 64M --variant ws,static $common
    nv "$np" "$wn" --workload memset --tasks 64M --variant nvshmem $common
    # No static on T1L: a worker expands its subtree alone and overflows its spill stack (an error).
    run "$log" "$np" "$w" --workload uts --tree T1L --variant ws $common
    nv "$np" "$wn" --workload uts --tree T1L --variant nvshmem $common
    run "$log" "$np" "$w" --workload uts --tree T3L --variant ws $common
    nv "$np" "$wn" --workload uts --tree T3L --variant nvshmem $common
    run "$log" "$np" "$w" --workload uts --tree T1XL --variant ws --warmup 1 --repeats 3 --csv "$csv"
    nv "$np" "$wn" --workload uts --tree T1XL --variant nvshmem --warmup 1 --repeats 3 --csv "$csv"
    run "$log" "$np" "$w" --workload contains --variant ws,static,host-queues $common
    nv "$np" "$wn" --workload contains --variant nvshmem $common
    for term in tree; do run "$log" "$np" "$w" --workload uts --tree T1L --variant ws --termination $term $common; done
  done
  # One steal's cost (same GPU; across NVLink with 2 PEs), gio then NVSHMEM.
  run "$out/steal-latency.log" 2 "$w-steal-latency" --rounds 4000
  [ -x "$w-steal-latency-nvshmem" ] && run "$out/steal-latency.log" 2 "$w-steal-latency-nvshmem" --rounds 4000
  run "$log" 1 "$w" --workload uts --tree T1L --variant cpu --warmup 0 --repeats 1 --csv "$csv"
  # contains at every worker count (ws against static), on 1 GPU and on every GPU.
  for np in $pe_counts; do
    [ "$np" = 1 ] || [ "$np" = "$gpus" ] || continue
    for workers in 8 16 33 66 132; do
      run "$log" "$np" "$w" --workload contains --variant ws,static --workers $workers $common
    done
  done
  python3 "$repo/scripts/plot_worksteal.py" "$csv" --out "$out/worksteal" >>"$log" 2>&1 || failures=$((failures + 1))
fi
if [ "$mps" = 1 ]; then
  [ "$gpus" = 2 ] && command -v nvidia-cuda-mps-control >/dev/null ||
    { echo "apps-bench --mps-only: needs 2 GPUs and nvidia-cuda-mps-control"; exit 2; }
  m=$out/mps log=$out/mps/mps.log
  mkdir -p "$m"
  j=$build/apps/jacobi2d s=$build/apps/spts/spts b=$build/bench
  jacobi_args=(--size 8192x4096 --iterations 1000)  # 4K² per GPU
  export GIO_SYMMETRIC_SIZE=1G
  # 2 PEs on 2 GPUs, no MPS: the baseline.
  run "$log" 2 "$j/jacobi2d" --variant gio "${jacobi_args[@]}" --csv "$m/jacobi.csv"
  [ -x "$j/jacobi2d-nvshmem" ] && run "$log" 2 "$j/jacobi2d-nvshmem" "${jacobi_args[@]}" --csv "$m/jacobi.csv"
  run "$log" 2 "$s" --gen road_central --variant single,gio --csv "$m/spts.csv"
  # 4 PEs on 2 GPUs under MPS: gio sizes its grids by its share of the GPU; NVSHMEM wants each
  # PE's thread percentage, so gio also runs with it, and NVSHMEM gets gio's grid size.
  shared_runs() {
    local before=$failures wgs
    run "$log" 4 "$j/jacobi2d" --variant gio "${jacobi_args[@]}" --csv "$m/jacobi.csv"
    run "$log" 4 "$s" --gen road_central --variant gio --csv "$m/spts.csv"
    export CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=50
    run "$log" 4 "$j/jacobi2d" --variant gio "${jacobi_args[@]}" --csv "$m/jacobi-percentage.csv"
    wgs=$(awk -F, 'NR > 1 && $1 == "gio" && $6 == 4 { w = $10 } END { print w }' "$m/jacobi-percentage.csv" 2>/dev/null)
    if [ -x "$j/jacobi2d-nvshmem" ] && [ -n "$wgs" ]; then
      run "$log" 4 timeout 120 "$j/jacobi2d-nvshmem" "${jacobi_args[@]}" --workgroups "$wgs" --csv "$m/jacobi-percentage.csv"
    fi
    return $((failures - before))
  }
  under_mps 0,1 shared_runs >>"$log" 2>&1 || failures=$((failures + 1))
  # 2 PEs on one GPU under MPS: the ping-pong of both libraries.
  one_gpu_pingpong() {
    local before=$failures
    export CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=50
    for bench in gio-bench gio-bench-nvshmem; do
      [ -x "$b/$bench" ] && run "$log" 2 timeout 120 "$b/$bench" --bench p,put --scopes thread,wg --max-size 64K \
        --csv "$m/one-gpu-$bench.csv"
    done
    return $((failures - before))
  }
  under_mps 0 one_gpu_pingpong >>"$log" 2>&1 || failures=$((failures + 1))
  python3 - "$m" >"$m/table.md" <<'PY' || failures=$((failures + 1))
import csv, os, sys
m = sys.argv[1]
def rows(name):
    path = os.path.join(m, name)
    return list(csv.DictReader(open(path))) if os.path.exists(path) else []
print("| run | 2 PEs on 2 GPUs | 4 PEs on 2 GPUs, MPS | ratio (goal <= 1.3) |\n|---|---|---|---|")
def line(what, base, shared, unit):
    if base and shared:
        print(f"| {what} | {base:.3f} {unit} | {shared:.3f} {unit} | {shared / base:.2f} |")
    else:
        print(f"| {what} | {base or '-'} | {shared or '-'} | - |")
def us(table, variant, pes):
    got = [float(r["us_per_iteration"]) for r in rows(table) if r["variant"] == variant and int(r["pes"]) == pes]
    return got[-1] if got else None
base_gio, base_nvshmem = us("jacobi.csv", "gio", 2), us("jacobi.csv", "nvshmem", 2)
line("jacobi2d gio, 4K² per GPU", base_gio, us("jacobi.csv", "gio", 4), "us/iteration")
line("jacobi2d gio, CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=50", base_gio, us("jacobi-percentage.csv", "gio", 4), "us/iteration")
line("jacobi2d nvshmem, CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=50", base_nvshmem, us("jacobi-percentage.csv", "nvshmem", 4), "us/iteration")
def ms(variant, pes):
    got = [float(r["median_ms"]) for r in rows("spts.csv") if r["variant"] == variant and (pes is None or int(r["pes"]) == pes)]
    return got[-1] if got else None
line("spts gio, road_central", ms("gio", 2), ms("gio", 4), "ms")
print(f"\nspts `single` (one GPU) on road_central: {ms('single', None)} ms")
PY
  cat "$m/table.md"
fi
echo "apps-bench: $failures failed run(s); output in $out"
exit $((failures > 0))

#!/usr/bin/env bash
# The full-size application runs on a GPU machine (docs/jacobi2d.md, docs/spts.md,
# docs/worksteal.md): Jacobi 2D weak scaling at 1K², 2K², 4K² per GPU on 1 and 2 GPUs and 4 PEs on
# 2 GPUs (every variant, NVSHMEM's when built), the sparse triangular solve on the five generated
# classes of the GIO paper's Table 1 at full size with 1, 2 and 4 PEs and every baseline, and the
# work-stealing workloads (memset, UTS, contains) on 1 GPU and every GPU with every variant plus
# a worker-count sweep. Writes the CSVs, logs, tables and plots to OUTDIR. Uses a Release CUDA
# build (default build-gpu, the one scripts/gpu-check.sh makes; built here if missing).
#
#   scripts/apps-bench.sh OUTDIR [--jacobi-only | --spts-only | --worksteal-only] [--push-classes "c1 c2"]
#   --push-classes: the classes on which every push mechanism runs on 2 GPUs (default: all five)
#   SPTS_ARGS (environment): extra options for every spts run, e.g. "--kernel rounds"
set -uo pipefail
[ $# -ge 1 ] || { sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
source "$(dirname "$0")/device-env.sh"  # repo, build, the machines' environment, outdir_of
out=$(outdir_of "$1") || exit 2
shift
jacobi=1 spts=1 worksteal=1 push_classes="wiki_talk asic_320ks nlpkkt160 road_usa road_central"
while [ $# -gt 0 ]; do
  case "$1" in
    --jacobi-only) spts=0 worksteal=0 ;;
    --spts-only) jacobi=0 worksteal=0 ;;
    --worksteal-only) jacobi=0 spts=0 ;;
    --push-classes) shift; push_classes=$1 ;;
    *) echo "apps-bench: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
{ nvidia-smi -L; nvidia-smi topo -m; } >"$out/machine.txt" 2>&1  # which machine the figures come from
if [ ! -f "$build/build.ninja" ]; then
  configure_gpu_build >"$out/configure.log" 2>&1 || exit 1
fi
targets="jacobi2d spts worksteal"
[ "$jacobi$spts" = 00 ] && targets=worksteal
grep -q 'jacobi2d-nvshmem' "$build/build.ninja" && targets="$targets jacobi2d-nvshmem"
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
  for n in 1024 2048 4096; do
    iters=$(( n == 1024 ? 5000 : n == 2048 ? 2000 : 1000 ))
    one="--size ${n}x${n} --iterations $iters --csv $csv"
    two="--size $((2 * n))x${n} --iterations $iters --csv $csv --breakdown"
    for v in gio inter-k inter-k-overlap; do
      run "$log" 1 "$j/jacobi2d" --variant $v $one
      run "$log" 2 "$j/jacobi2d" --variant $v $two
    done
    run "$log" 1 "$j/jacobi2d" --variant gio --halo p $one
    run "$log" 2 "$j/jacobi2d" --variant gio --halo p $two
    if [ -x "$j/jacobi2d-nvshmem" ]; then
      run "$log" 1 "$j/jacobi2d-nvshmem" $one
      run "$log" 2 "$j/jacobi2d-nvshmem" $two
    fi
    # 4 PEs on 2 GPUs: two processes time-slice each GPU (no MPS), hence fewer iterations.
    for v in gio inter-k; do
      run "$log" 4 "$j/jacobi2d" --variant $v --size $((2 * n))x${n} --iterations 200 --csv "$csv"
    done
    run "$log" 1 "$j/jacobi2d" --variant cpu --size ${n}x${n} --iterations 20 --threads "$(nproc)" --csv "$csv"
    run "$log" 2 "$j/jacobi2d" --variant cpu --size $((2 * n))x${n} --iterations 20 --threads $(( $(nproc) / 2 )) --csv "$csv"
  done
  python3 "$repo/scripts/plot_jacobi.py" "$csv" --out "$out/jacobi" >>"$log" 2>&1 || failures=$((failures + 1))
fi

if [ "$spts" = 1 ]; then
  s=$build/apps/spts/spts csv=$out/spts.csv log=$out/spts.log
  read -r -a extra <<<"${SPTS_ARGS:-}"
  rm -f "$csv"
  export GIO_SYMMETRIC_SIZE=1G
  for m in wiki_talk asic_320ks nlpkkt160 road_usa road_central; do
    run "$log" 1 "$s" "${extra[@]}" --gen $m --variant cpu,vendor,single,gio --csv "$csv"
    run "$log" 2 "$s" "${extra[@]}" --gen $m --variant gio --csv "$csv"
    run "$log" 4 "$s" "${extra[@]}" --gen $m --variant gio --csv "$csv"
    if [[ " $push_classes " == *" $m "* ]]; then
      for push in signal fence amo; do run "$log" 2 "$s" "${extra[@]}" --gen $m --variant gio --push $push --csv "$csv"; done
    fi
  done
  python3 "$repo/scripts/plot_spts.py" "$csv" --out "$out/spts" >>"$log" 2>&1 || failures=$((failures + 1))
fi
if [ "$worksteal" = 1 ]; then
  w=$build/apps/worksteal/worksteal csv=$out/worksteal.csv log=$out/worksteal.log
  rm -f "$csv"
  gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || echo 1)
  pe_counts="1"
  [ "$gpus" -ge 2 ] && pe_counts="1 2"
  [ "$gpus" -gt 2 ] && pe_counts="$pe_counts $gpus"
  # 2^26 memset slots (512 MiB) and the queues fit a 2 GiB heap.
  export GIO_SYMMETRIC_SIZE=2G
  common="--warmup 1 --repeats 5 --csv $csv"
  for np in $pe_counts; do
    run "$log" "$np" "$w" --workload memset --variant ws,static,host-queues $common
    run "$log" "$np" "$w" --workload memset --tasks 64M --variant ws,static $common
    run "$log" "$np" "$w" --workload uts --tree T1L --variant ws,static $common
    run "$log" "$np" "$w" --workload uts --tree T3L --variant ws $common
    run "$log" "$np" "$w" --workload uts --tree T1XL --variant ws --warmup 1 --repeats 3 --csv "$csv"
    run "$log" "$np" "$w" --workload contains --variant ws,static,host-queues $common
    for term in tree; do run "$log" "$np" "$w" --workload uts --tree T1L --variant ws --termination $term $common; done
  done
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
echo "apps-bench: $failures failed run(s); output in $out"
exit $((failures > 0))

#!/usr/bin/env bash
# The full-size application runs of issue 4 on a GPU machine (docs/jacobi2d.md, docs/spts.md):
# Jacobi 2D weak scaling at 1K², 2K², 4K² per GPU on 1 and 2 GPUs and 4 PEs on 2 GPUs (every
# variant, NVSHMEM's when built), and the sparse triangular solve on the five generated classes
# of the GIO paper's Table 1 at full size with 1, 2 and 4 PEs and every baseline. Writes the CSVs,
# logs, tables and plots to OUTDIR. Uses a Release CUDA build (default build-gpu, the one
# scripts/gpu-check.sh makes; built here if missing).
#
#   scripts/apps-bench.sh OUTDIR [--jacobi-only | --spts-only] [--push-classes "c1 c2"]
#   --push-classes: the classes on which every push mechanism runs on 2 GPUs (default: all five)
#   SPTS_ARGS (environment): extra options for every spts run, e.g. "--kernel rounds"
set -uo pipefail
[ $# -ge 1 ] || { sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
source "$(dirname "$0")/device-env.sh"  # repo, build, the machines' environment, outdir_of
out=$(outdir_of "$1") || exit 2
shift
jacobi=1 spts=1 push_classes="wiki_talk asic_320ks nlpkkt160 road_usa road_central"
while [ $# -gt 0 ]; do
  case "$1" in
    --jacobi-only) spts=0 ;;
    --spts-only) jacobi=0 ;;
    --push-classes) shift; push_classes=$1 ;;
    *) echo "apps-bench: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
if [ ! -f "$build/build.ninja" ]; then
  configure_gpu_build >"$out/configure.log" 2>&1 || exit 1
fi
targets="jacobi2d spts"
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
echo "apps-bench: $failures failed run(s); output in $out"
exit $((failures > 0))

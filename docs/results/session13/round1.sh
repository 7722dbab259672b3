#!/usr/bin/env bash
# session 13, round 1: targeted build; jacobi points-per-trip sweep; spts round stats on road/asic.
set -u
source scripts/device-env.sh
o=$OUT; t0=$SECONDS
nvidia-smi -L > $o/machine.txt
configure_gpu_build > $o/configure.log 2>&1
cmake --build "$build" -j 16 --target jacobi2d jacobi2d-nvshmem spts > $o/build.log 2>&1 || { tail -30 $o/build.log; exit 1; }
echo "build done $((SECONDS-t0)) s"
J=$build/apps/jacobi2d; S=$build/apps/spts/spts
gpus=$(nvidia-smi -L | grep -c '^GPU')
mp() { timeout 120 mpirun --oversubscribe --bind-to none -np "$@"; }
{
for n in 1024 2048 4096; do
  it=$(( n == 1024 ? 5000 : n == 2048 ? 2000 : 1000 ))
  for ppt in 1 2; do
    mp 1 $J/jacobi2d --variant gio --size ${n}x${n} --iterations $it --points-per-trip $ppt --csv $o/j.csv --quiet
    [ $gpus -ge 2 ] && mp 2 $J/jacobi2d --variant gio --size $((2*n))x${n} --iterations $it --points-per-trip $ppt --csv $o/j.csv --quiet
  done
  mp 1 $J/jacobi2d --variant gio --size ${n}x${n} --iterations $it --csv $o/j.csv --quiet
  [ $gpus -ge 2 ] && mp 2 $J/jacobi2d --variant inter-k --size $((2*n))x${n} --iterations $it --csv $o/j.csv --quiet
  [ $gpus -ge 2 ] && mp 2 $J/jacobi2d-nvshmem --size $((2*n))x${n} --iterations $it --csv $o/j.csv --quiet
done
} > $o/jacobi.log 2>&1
echo "jacobi done $((SECONDS-t0)) s"
export GIO_SYMMETRIC_SIZE=1G
sp() { timeout 150 mpirun --bind-to none -np 1 $S --warmup 1 --repeats 5 --round-stats "$@"; }
{
sp --gen road_central --variant vendor,single
for a in "--backoff 0" "--backoff 1024" "--workgroups 264" "--workgroups 396" "--rows-per-ticket 256" "--rows-per-ticket 1024" "--kernel rounds"; do
  echo "== $a"; sp --gen road_central --variant single $a
done
sp --gen asic_320ks --variant vendor,single
sp --gen road_usa --variant vendor,single
} > $o/spts.log 2>&1
echo "spts done $((SECONDS-t0)) s"

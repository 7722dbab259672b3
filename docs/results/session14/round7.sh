#!/usr/bin/env bash
# session 14, round 7 (final code): every class at the paper's size, cuSPARSE, the single variant
# with the indegree kernel (defaults: 4 rows per lane, 256-root tickets) and with --kernel auto
# (the polling kernels), one H200.
set -u
source scripts/device-env.sh
o=$OUT; t0=$SECONDS
nvidia-smi -L > $o/machine.txt
configure_gpu_build > $o/configure.log 2>&1
cmake --build "$build" -j 16 --target spts > $o/build.log 2>&1 || { tail -30 $o/build.log; exit 1; }
echo "build done $((SECONDS-t0)) s"
S=$build/apps/spts/spts
export GIO_SYMMETRIC_SIZE=1G
sp() { timeout 150 mpirun --bind-to none -np 1 $S --warmup 2 --repeats 10 --round-stats --csv $o/spts.csv "$@"; }
{
for m in road_central road_usa asic_320ks wiki_talk nlpkkt160; do
  echo "== $m"
  sp --gen $m --variant vendor,single --kernel indegree
  sp --gen $m --variant single
done
} > $o/spts.log 2>&1
echo "spts done $((SECONDS-t0)) s"
grep -E "^== |^(vendor|single) |levels|kernel" $o/spts.log

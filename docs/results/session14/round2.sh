#!/usr/bin/env bash
# session 14, round 2: the indegree kernel's knobs on road_central (one H200): root tickets,
# stack size (rows beyond it go to the global queue, which idle waves take), backoff, grid.
set -u
source scripts/device-env.sh
o=$OUT; t0=$SECONDS
configure_gpu_build > $o/configure.log 2>&1
cmake --build "$build" -j 16 --target spts > $o/build.log 2>&1 || { tail -30 $o/build.log; exit 1; }
echo "build done $((SECONDS-t0)) s"
S=$build/apps/spts/spts
export GIO_SYMMETRIC_SIZE=1G
sp() { timeout 100 mpirun --bind-to none -np 1 $S --warmup 1 --repeats 5 --round-stats --csv $o/spts.csv "$@"; }
{
sp --gen road_central --variant vendor,single --kernel indegree
for a in "--rows-per-ticket 32" "--rows-per-ticket 32 --stack-rows 32" "--rows-per-ticket 32 --stack-rows 0" \
         "--rows-per-ticket 32 --stack-rows 32 --backoff 2048" "--rows-per-ticket 32 --stack-rows 32 --workgroups 528" \
         "--rows-per-ticket 8 --stack-rows 32"; do
  echo "== $a"; sp --gen road_central --variant single --kernel indegree $a
done
} > $o/spts.log 2>&1
echo "spts done $((SECONDS-t0)) s"
grep -E "^== |^(vendor|single) |rounds per wave|error|fail" $o/spts.log

#!/usr/bin/env bash
# session 14, round 6: --lane-rows 1/2/4 on road_central and road_usa; the indegree GPU tests
# (one H200).
set -u
source scripts/device-env.sh
o=$OUT; t0=$SECONDS
configure_gpu_build > $o/configure.log 2>&1
cmake --build "$build" -j 16 --target spts > $o/build.log 2>&1 || { tail -30 $o/build.log; exit 1; }
echo "build done $((SECONDS-t0)) s"
(cd "$build" && timeout 200 ctest --output-on-failure -R 'spts_(.*indegree.*|figure9_np1)$') > $o/ctest.log 2>&1
echo "ctest rc $? $((SECONDS-t0)) s"; grep -E "tests passed|Failed|\*\*\*" $o/ctest.log | head -20
S=$build/apps/spts/spts
export GIO_SYMMETRIC_SIZE=1G
sp() { timeout 150 mpirun --bind-to none -np 1 $S --warmup 1 --repeats 10 --round-stats --csv $o/spts.csv "$@"; }
{
for m in road_central road_usa; do
  sp --gen $m --variant vendor,single --kernel indegree
  for a in "--lane-rows 1" "--lane-rows 4" "--rows-per-ticket 512" "--lane-rows 4 --rows-per-ticket 512"; do
    echo "== $m $a"; sp --gen $m --variant single --kernel indegree $a
  done
done
} > $o/spts.log 2>&1
echo "spts done $((SECONDS-t0)) s"
grep -E "^== |^(vendor|single) |rounds per wave|error|fail" $o/spts.log

#!/usr/bin/env bash
# session 14, round 4: no fences (x is value and flag in one word; a reader confirms it); the
# indegree GPU tests; road_central's tickets and grid; every class beside cuSPARSE (one H200).
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
sp() { timeout 150 mpirun --bind-to none -np 1 $S --warmup 1 --repeats 5 --round-stats --csv $o/spts.csv "$@"; }
{
sp --gen road_central --variant vendor,single --kernel indegree
for a in "--rows-per-ticket 32" "--rows-per-ticket 64" "--rows-per-ticket 128" "--workgroups 528"; do
  echo "== $a"; sp --gen road_central --variant single --kernel indegree $a
done
for m in road_usa asic_320ks wiki_talk nlpkkt160; do
  echo "== $m"; sp --gen $m --variant vendor,single --kernel indegree
done
} > $o/spts.log 2>&1
echo "spts done $((SECONDS-t0)) s"
grep -E "^== |^(vendor|single) |rounds per wave|error|fail" $o/spts.log

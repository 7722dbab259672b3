#!/usr/bin/env bash
# session 14, round 6: --lane-rows 1/2/4 on road_central and road_usa; the indegree GPU tests
# (one H200).
source docs/results/session14/common.sh
SP_REPEATS=10
build_spts
spts_tests
{
for m in road_central road_usa; do
  sp --gen $m --variant vendor,single --kernel indegree
  for a in "--lane-rows 1" "--lane-rows 4" "--rows-per-ticket 512" "--lane-rows 4 --rows-per-ticket 512"; do
    echo "== $m $a"; sp --gen $m --variant single --kernel indegree $a
  done
done
} > $o/spts.log 2>&1
spts_done

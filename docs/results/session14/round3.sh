#!/usr/bin/env bash
# session 14, round 3: idle waves leave instead of polling; the indegree GPU tests; root tickets
# and grid on road_central, and road_usa (one H200).
source docs/results/session14/common.sh
SP_TIMEOUT=100
build_spts
spts_tests
{
sp --gen road_central --variant vendor,single --kernel indegree
for a in "--rows-per-ticket 128" "--rows-per-ticket 512" "--rows-per-ticket 1024" "--stack-rows 32" "--workgroups 528"; do
  echo "== $a"; sp --gen road_central --variant single --kernel indegree $a
done
sp --gen road_usa --variant vendor,single --kernel indegree
} > $o/spts.log 2>&1
spts_done

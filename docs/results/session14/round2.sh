#!/usr/bin/env bash
# session 14, round 2: the indegree kernel's knobs on road_central (one H200): root tickets,
# stack size (rows beyond it go to the global queue, which idle waves take), backoff, grid.
source docs/results/session14/common.sh
SP_TIMEOUT=100
build_spts
{
sp --gen road_central --variant vendor,single --kernel indegree
for a in "--rows-per-ticket 32" "--rows-per-ticket 32 --stack-rows 32" "--rows-per-ticket 32 --stack-rows 0" \
         "--rows-per-ticket 32 --stack-rows 32 --backoff 2048" "--rows-per-ticket 32 --stack-rows 32 --workgroups 528" \
         "--rows-per-ticket 8 --stack-rows 32"; do
  echo "== $a"; sp --gen road_central --variant single --kernel indegree $a
done
} > $o/spts.log 2>&1
spts_done

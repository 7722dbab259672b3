#!/usr/bin/env bash
# session 14, round 4: no fences (x is value and flag in one word; a reader confirms it); the
# indegree GPU tests; road_central's tickets and grid; every class beside cuSPARSE (one H200).
source docs/results/session14/common.sh
build_spts
spts_tests
{
sp --gen road_central --variant vendor,single --kernel indegree
for a in "--rows-per-ticket 32" "--rows-per-ticket 64" "--rows-per-ticket 128" "--workgroups 528"; do
  echo "== $a"; sp --gen road_central --variant single --kernel indegree $a
done
for m in road_usa asic_320ks wiki_talk nlpkkt160; do
  echo "== $m"; sp --gen $m --variant vendor,single --kernel indegree
done
} > $o/spts.log 2>&1
spts_done

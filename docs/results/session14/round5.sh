#!/usr/bin/env bash
# session 14, round 5: two rows per lane per round; the indegree GPU tests; compute-sanitizer
# (memcheck, racecheck, synccheck) on the indegree kernel; road_central and road_usa (one H200).
source docs/results/session14/common.sh
build_spts
spts_tests
for tool in memcheck racecheck synccheck; do
  for extra in "" "--stack-rows 0 --rows-per-ticket 1 --workgroups 2"; do
    timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $S --gen road_central:0.001 --variant single \
      --kernel indegree --warmup 0 --repeats 2 --quiet $extra > $o/sanitizer-$tool.log 2>&1
    echo "$tool [$extra] rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $o/sanitizer-$tool.log | tr '\n' ' ')"
  done
done
{
sp --gen road_central --variant vendor,single --kernel indegree
sp --gen road_central --variant single --kernel indegree --rows-per-ticket 512
sp --gen road_usa --variant vendor,single --kernel indegree
sp --gen road_usa --variant single --kernel indegree --rows-per-ticket 512
} > $o/spts.log 2>&1
spts_done

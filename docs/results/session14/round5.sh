#!/usr/bin/env bash
# session 14, round 5: two rows per lane per round; the indegree GPU tests; compute-sanitizer
# (memcheck, racecheck, synccheck) on the indegree kernel; road_central and road_usa (one H200).
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
for tool in memcheck racecheck synccheck; do
  for extra in "" "--stack-rows 0 --rows-per-ticket 1 --workgroups 2"; do
    timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $S --gen road_central:0.001 --variant single \
      --kernel indegree --warmup 0 --repeats 2 --quiet $extra > $o/sanitizer-$tool.log 2>&1
    echo "$tool [$extra] rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $o/sanitizer-$tool.log | tr '\n' ' ')"
  done
done
sp() { timeout 150 mpirun --bind-to none -np 1 $S --warmup 1 --repeats 5 --round-stats --csv $o/spts.csv "$@"; }
{
sp --gen road_central --variant vendor,single --kernel indegree
sp --gen road_central --variant single --kernel indegree --rows-per-ticket 512
sp --gen road_usa --variant vendor,single --kernel indegree
sp --gen road_usa --variant single --kernel indegree --rows-per-ticket 512
} > $o/spts.log 2>&1
echo "spts done $((SECONDS-t0)) s"
grep -E "^== |^(vendor|single) |rounds per wave|error|fail" $o/spts.log

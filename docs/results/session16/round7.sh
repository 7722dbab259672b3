#!/usr/bin/env bash
# session 16, round 7 (final code: row records, remote passes, 2 rows per lane by default): every
# spts GPU test; compute-sanitizer over single and over gio's hand-overs on 2 PEs; the road class
# with --kernel auto for single and the indegree kernel for gio, against cuSPARSE.
source docs/results/session16/common.sh
nvidia-smi -L > $o/machine.txt
build_spts
spts_tests 'spts_' 400
for tool in memcheck racecheck synccheck; do
  timeout 150 mpirun --bind-to none -np 2 compute-sanitizer --tool $tool --error-exitcode 9 $S --gen road_central:0.001 \
    --kernel indegree --warmup 0 --repeats 2 --quiet --variant gio --block 32 --stack-rows 0 --workgroups 2 \
    > $o/sanitizer.log 2>&1
  echo "gio np2 hand-overs: $tool rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $o/sanitizer.log | sort | uniq -c | tr '\n' ' ')"
  timeout 150 mpirun --bind-to none -np 1 compute-sanitizer --tool $tool --error-exitcode 9 $S --gen road_usa:0.001 \
    --kernel indegree --warmup 0 --repeats 2 --quiet --variant single > $o/sanitizer.log 2>&1
  echo "single: $tool rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $o/sanitizer.log | sort | uniq -c | tr '\n' ' ')"
done
for m in road_central road_usa; do
  SP_WARMUP=2 SP_REPEATS=10 sp --gen $m --variant vendor,single > $o/$m.log 2>&1
  SP_WARMUP=2 SP_REPEATS=10 sp --gen $m --variant gio --kernel indegree >> $o/$m.log 2>&1
  echo "== $m"; grep -E "^(vendor|single|gio) |rounds per wave|lists built|error|fail" $o/$m.log
done
echo "done $((SECONDS-t0)) s"
rm -f $o/sanitizer.log $o/configure.log $o/build.log $o/spts.csv

#!/usr/bin/env bash
# session 15, round 8 (after the review's mend): the indegree GPU tests, compute-sanitizer on gio
# with 2 PEs (hand-overs), road_central on 1 PE, single against gio (one H200).
source docs/results/session15/common.sh
nvidia-smi -L > $o/machine.txt
build_spts
spts_tests 'spts_(.*indegree.*|figure9_np1)$' 400
for tool in memcheck racecheck; do
  timeout 150 mpirun --bind-to none -np 2 compute-sanitizer --tool $tool --error-exitcode 9 $S --gen road_central:0.001 \
    --kernel indegree --warmup 0 --repeats 2 --quiet --variant gio --block 32 --stack-rows 0 --workgroups 2 \
    > $o/sanitizer.log 2>&1
  echo "$tool rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $o/sanitizer.log | sort | uniq -c | tr '\n' ' ')"
done
SP_WARMUP=2 SP_REPEATS=10 sp --gen road_central --variant single,gio --kernel indegree > $o/spts.log 2>&1
spts_done "^(single|gio) |rounds per wave|error|fail"
rm -f $o/sanitizer.log $o/configure.log $o/build.log

#!/usr/bin/env bash
# session 15, round 7 (final code): every spts GPU test; compute-sanitizer on the indegree kernel
# in gio with 2 PEs (defaults, and hand-overs with polling); road_central and road_usa with
# --kernel auto, which now gives single the indegree kernel (one H200).
source docs/results/session15/common.sh
nvidia-smi -L > $o/machine.txt
build_spts
spts_tests 'spts_' 420
for tool in memcheck racecheck synccheck; do
  for setup in "" "--block 32 --stack-rows 0 --workgroups 2"; do
    timeout 150 mpirun --bind-to none -np 2 compute-sanitizer --tool $tool --error-exitcode 9 $S \
      --gen road_central:0.001 --kernel indegree --warmup 0 --repeats 2 --quiet --variant gio $setup \
      > $o/sanitizer.log 2>&1
    echo "$tool [$setup] rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $o/sanitizer.log | sort | uniq -c | tr '\n' ' ')"
  done
done
{
SP_WARMUP=2 SP_REPEATS=10
for m in road_central road_usa; do
  echo "== $m, --kernel auto"
  sp --gen $m --variant vendor,single,gio
done
} > $o/spts.log 2>&1
spts_done "^== |^(vendor|single|gio) |kernel|error|fail"
rm -f $o/sanitizer.log $o/configure.log $o/build.log

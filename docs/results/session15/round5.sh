#!/usr/bin/env bash
# session 15, round 5 (consumer masks loaded with the row): the indegree GPU tests;
# compute-sanitizer (memcheck, racecheck, synccheck) on single and on gio with 2 PEs (defaults,
# and 32-row blocks with no stack and 2 workgroups: hand-overs and polling); road_central on 1 PE
# with gio's default pollers and backoff, 1 poller, and 2048 ns between polls (one H200).
source docs/results/session15/common.sh
nvidia-smi -L > $o/machine.txt
build_spts
spts_tests 'spts_(.*indegree.*|figure9_np1)$' 400
for tool in memcheck racecheck synccheck; do
  for setup in "1 single" "2 gio" "2 gio --block 32 --stack-rows 0 --workgroups 2"; do
    set -- $setup
    np=$1; shift
    timeout 150 mpirun --bind-to none -np $np compute-sanitizer --tool $tool --error-exitcode 9 $S \
      --gen road_central:0.001 --kernel indegree --warmup 0 --repeats 2 --quiet --variant "$@" \
      > $o/sanitizer-$tool.log 2>&1
    echo "$tool [$setup] rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $o/sanitizer-$tool.log | sort | uniq -c | tr '\n' ' ')"
  done
done
{
SP_WARMUP=2 SP_REPEATS=10
echo "== road_central single, gio"
sp --gen road_central --variant single,gio --kernel indegree
echo "== gio --pollers 1"
sp --gen road_central --variant gio --kernel indegree --pollers 1
echo "== gio --backoff 2048"
sp --gen road_central --variant gio --kernel indegree --backoff 2048
} > $o/spts.log 2>&1
spts_done "^== |^(vendor|single|gio) |rounds per wave|error|fail"

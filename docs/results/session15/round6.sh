#!/usr/bin/env bash
# session 15, round 6: readers on other PEs counted off in a pass of their own (the local atomics
# issue together again): the indegree GPU tests, road_central on 1 PE, single against gio (one H200).
source docs/results/session15/common.sh
SP_WARMUP=2 SP_REPEATS=10
nvidia-smi -L > $o/machine.txt
build_spts
spts_tests 'spts_(.*indegree.*|figure9_np1)$' 400
{
echo "== road_central single, gio"
sp --gen road_central --variant single,gio --kernel indegree
echo "== road_usa single, gio"
sp --gen road_usa --variant single,gio --kernel indegree
} > $o/spts.log 2>&1
spts_done "^== |^(vendor|single|gio) |rounds per wave|error|fail"

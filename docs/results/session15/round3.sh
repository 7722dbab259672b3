#!/usr/bin/env bash
# session 15, round 3: reader words carry the PE (no divisions per reader): the indegree GPU
# tests, then road_central on 1 PE, single against gio (one H200).
source docs/results/session15/common.sh
SP_WARMUP=2 SP_REPEATS=10
nvidia-smi -L > $o/machine.txt
build_spts
spts_tests 'spts_(.*indegree.*|figure9_np1)$' 400
{
echo "== road_central single, gio"
sp --gen road_central --variant single,gio --kernel indegree
} > $o/spts.log 2>&1
spts_done "^== |^(vendor|single|gio) |rounds per wave|error|fail"

#!/usr/bin/env bash
# session 15, round 1: the indegree kernel in gio (remote counts, hand-overs) on one GPU: its GPU
# tests, then road_central at full size on 1 PE (gio's machinery with no other PE, against single).
source docs/results/session15/common.sh
nvidia-smi -L > $o/machine.txt
build_spts
spts_tests 'spts_(.*indegree.*|figure9_np1)$' 400
{
echo "== road_central 1 PE"
SP_WARMUP=2 SP_REPEATS=10 sp --gen road_central --variant vendor,single,gio --kernel indegree
echo "== road_central:0.1 2 PEs"
SP_NP=2 SP_REPEATS=3 sp --gen road_central:0.1 --variant single,gio --kernel indegree
} > $o/spts.log 2>&1
spts_done "^== |^(vendor|single|gio) |kernel|rounds per wave|error|fail|PE"

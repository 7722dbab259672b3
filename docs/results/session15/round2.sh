#!/usr/bin/env bash
# session 15, round 2: what gio's indegree machinery costs on 1 PE (road_central, one H200):
# single against gio with the default pollers (one per multiprocessor) and backoff (256 ns), with
# 1 poller, and with 4096 ns between polls.
source docs/results/session15/common.sh
SP_WARMUP=2 SP_REPEATS=10
nvidia-smi -L > $o/machine.txt
build_spts
{
echo "== road_central single, gio"
sp --gen road_central --variant single,gio --kernel indegree
echo "== gio --pollers 1"
sp --gen road_central --variant gio --kernel indegree --pollers 1
echo "== gio --backoff 4096"
sp --gen road_central --variant gio --kernel indegree --backoff 4096
echo "== gio --pollers 1 --backoff 4096"
sp --gen road_central --variant gio --kernel indegree --pollers 1 --backoff 4096
} > $o/spts.log 2>&1
spts_done "^== |^(vendor|single|gio) |rounds per wave|error|fail"

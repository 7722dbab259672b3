#!/usr/bin/env bash
# session 14, round 1: targeted build of spts; its GPU tests (the indegree kernel's among them);
# road_central and road_usa with the indegree kernel beside cuSPARSE and the polling kernel.
source docs/results/session14/common.sh
nvidia-smi -L > $o/machine.txt
build_spts
spts_tests 'spts_(.*indegree.*|figure9_np1|fails_.*)$' 240
{
sp --gen road_central --variant vendor,single --kernel indegree
sp --gen road_central --variant single
sp --gen road_usa --variant vendor,single --kernel indegree
} > $o/spts.log 2>&1
spts_done "^(vendor|single) |indegree kernel|slots kernel|rounds per wave|error|fail"

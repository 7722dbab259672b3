#!/usr/bin/env bash
# session 14, round 1: targeted build of spts; its GPU tests (the indegree kernel's among them);
# road_central and road_usa with the indegree kernel beside cuSPARSE and the polling kernel.
set -u
source scripts/device-env.sh
o=$OUT; t0=$SECONDS
nvidia-smi -L > $o/machine.txt
configure_gpu_build > $o/configure.log 2>&1
cmake --build "$build" -j 16 --target spts > $o/build.log 2>&1 || { tail -30 $o/build.log; exit 1; }
echo "build done $((SECONDS-t0)) s"
(cd "$build" && timeout 240 ctest --output-on-failure -R 'spts_(.*indegree.*|figure9_np1|fails_.*)$') > $o/ctest.log 2>&1
echo "ctest rc $? $((SECONDS-t0)) s"; grep -E "tests passed|Failed|\*\*\*" $o/ctest.log | head -20
S=$build/apps/spts/spts
export GIO_SYMMETRIC_SIZE=1G
sp() { timeout 150 mpirun --bind-to none -np 1 $S --warmup 1 --repeats 5 --round-stats --csv $o/spts.csv "$@"; }
{
sp --gen road_central --variant vendor,single --kernel indegree
sp --gen road_central --variant single
sp --gen road_usa --variant vendor,single --kernel indegree
} > $o/spts.log 2>&1
echo "spts done $((SECONDS-t0)) s"
grep -E "^(vendor|single) |indegree kernel|slots kernel|rounds per wave|error|fail" $o/spts.log

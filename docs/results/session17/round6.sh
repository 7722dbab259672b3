#!/usr/bin/env bash
# session 17, round 6, the final code: global_row divides by the block with a multiply (divisor.hpp)
# and gio on one PE loads no consumer masks. Every spts GPU test; memcheck and racecheck over both
# PEs of gio's hand-overs in 32-row blocks (every global_row path); the road class at full size
# against cuSPARSE, and at half size (one GPU's share of two).
source docs/results/session17/common.sh
nvidia-smi -L > $o/machine.txt
build_spts
spts_tests 'spts_' 400
cp $o/ctest.log $o/round6-ctest.log
for tool in memcheck racecheck; do
  timeout 150 mpirun --bind-to none -np 2 compute-sanitizer --tool $tool --error-exitcode 9 $S --gen road_central:0.001 \
    --warmup 0 --repeats 2 --quiet --variant gio --block 32 --stack-rows 0 --workgroups 2 > $o/sanitizer.log 2>&1
  echo "gio np2 hand-overs: $tool rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $o/sanitizer.log | sort | uniq -c | tr '\n' ' ')"
done
for m in road_central road_usa; do
  SP_WARMUP=2 SP_REPEATS=10 sp --gen $m --variant vendor,single,gio > $o/round6-$m.log 2>&1
  echo "== $m"; grep -E "^(vendor|single|gio) |rounds per wave|error|fail" $o/round6-$m.log
done
for m in road_central:0.5 road_usa:0.5; do
  SP_WARMUP=2 SP_REPEATS=10 sp --gen $m --variant single,gio > $o/round6-${m/:/-}.log 2>&1
  SP_WARMUP=2 SP_REPEATS=10 sp --gen $m --variant gio --pollers 1 >> $o/round6-${m/:/-}.log 2>&1
  echo "== $m (single, gio, gio pollers 1)"; grep -E "^(single|gio) |rounds per wave|error|fail" $o/round6-${m/:/-}.log
done
echo "done $((SECONDS-t0)) s"
rm -f $o/sanitizer.log $o/configure.log $o/build.log $o/spts.csv $o/ctest.log

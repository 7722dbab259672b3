#!/usr/bin/env bash
# session 17, round 2 (bf7f1dc: distributed runs print the most PE changes on a dependency path):
# every spts GPU test; a proxy for what one GPU of two would solve (gio and single on 1 PE at half
# the road matrices' size); and gio on 2 PEs sharing this one GPU at full size (correctness and the
# new line; the two processes time-slice the GPU, so its time is no 2-GPU figure).
source docs/results/session17/common.sh
nvidia-smi -L > $o/machine.txt
build_spts
spts_tests 'spts_' 400
cp $o/ctest.log $o/round2-ctest.log
for m in road_central road_usa; do
  SP_WARMUP=2 SP_REPEATS=10 sp --gen $m:0.5 --variant single,gio > $o/round2-$m-half.log 2>&1
  echo "== $m:0.5"; grep -E "^(vendor|single|gio) |rounds per wave|error|fail" $o/round2-$m-half.log
done
SP_NP=2 SP_TIMEOUT=300 SP_WARMUP=1 SP_REPEATS=3 sp --gen road_central --variant gio > $o/round2-road_central-np2.log 2>&1
echo "== road_central, 2 PEs on one GPU: rc $?"; grep -E "^gio |push |rounds per wave|error|fail" $o/round2-road_central-np2.log
echo "done $((SECONDS-t0)) s"
rm -f $o/configure.log $o/build.log $o/spts.csv $o/ctest.log

#!/usr/bin/env bash
# session 17, round 1: the code session 16 ended on (df68899, the review's mend: gio's indegree
# kernel loads the host's consumer mask with the row record), never run on a GPU before: every
# spts GPU test, memcheck over both PEs of gio's hand-overs, and the road class against cuSPARSE.
source docs/results/session17/common.sh
nvidia-smi -L > $o/machine.txt
build_spts
spts_tests 'spts_' 400
cp $o/ctest.log $o/round1-ctest.log
timeout 150 mpirun --bind-to none -np 2 compute-sanitizer --tool memcheck --error-exitcode 9 $S --gen road_central:0.001 \
  --warmup 0 --repeats 2 --quiet --variant gio --block 32 --stack-rows 0 --workgroups 2 > $o/sanitizer.log 2>&1
echo "gio np2 hand-overs (auto): memcheck rc $? $(grep -E 'ERROR SUMMARY' $o/sanitizer.log | sort | uniq -c | tr '\n' ' ')"
for m in road_central road_usa; do
  SP_WARMUP=2 SP_REPEATS=10 sp --gen $m --variant vendor,single,gio > $o/round1-$m.log 2>&1
  echo "== $m"; grep -E "^(vendor|single|gio) |rounds per wave|lists built|error|fail" $o/round1-$m.log
done
echo "done $((SECONDS-t0)) s"
rm -f $o/sanitizer.log $o/configure.log $o/build.log $o/spts.csv $o/ctest.log

#!/usr/bin/env bash
# session 16, round 11: the final code once more (after no_row() and the help text): every spts
# GPU test, and memcheck over both PEs of gio's hand-over run.
source docs/results/session16/common.sh
nvidia-smi -L > $o/machine.txt
build_spts
spts_tests 'spts_' 400
timeout 150 mpirun --bind-to none -np 2 compute-sanitizer --tool memcheck --error-exitcode 9 $S --gen road_central:0.001 \
  --warmup 0 --repeats 2 --quiet --variant gio --block 32 --stack-rows 0 --workgroups 2 > $o/sanitizer.log 2>&1
echo "gio np2 hand-overs (auto): memcheck rc $? $(grep -E 'ERROR SUMMARY' $o/sanitizer.log | sort | uniq -c | tr '\n' ' ')"
echo "done $((SECONDS-t0)) s"
rm -f $o/sanitizer.log $o/configure.log $o/build.log $o/spts.csv

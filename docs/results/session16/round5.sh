#!/usr/bin/env bash
# session 16, round 5: gio's remote counts and hand-overs in passes of their own (out of the
# local atomics' way). Indegree GPU tests; road classes, 2 and 4 rows per lane, against cuSPARSE.
source docs/results/session16/common.sh
nvidia-smi -L > $o/machine.txt
build_spts
spts_tests 'spts_(.*indegree.*|figure9_np1)$' 300
for m in road_central road_usa; do
  SP_WARMUP=2 SP_REPEATS=10 sp --gen $m --variant vendor > $o/$m.log 2>&1
  for lr in 2 4; do
    SP_WARMUP=2 SP_REPEATS=10 sp --gen $m --variant single,gio --kernel indegree --lane-rows $lr >> $o/$m.log 2>&1
  done
  echo "== $m, lane rows 2 4"; grep -E "^(vendor|single|gio) |rounds per wave|error|fail" $o/$m.log
done
echo "done $((SECONDS-t0)) s"
rm -f $o/configure.log $o/build.log $o/spts.csv

#!/usr/bin/env bash
# session 16, round 3: gio's indegree kernel takes its consumer PEs from the readers in the row
# record (the host's mask only for lists longer than a record holds). Indegree GPU tests; road
# classes against cuSPARSE; single with 2 rows per lane; gio with one poller.
source docs/results/session16/common.sh
nvidia-smi -L > $o/machine.txt
build_spts
spts_tests 'spts_(.*indegree.*|figure9_np1)$' 300
for m in road_central road_usa; do
  SP_WARMUP=2 SP_REPEATS=10 sp --gen $m --variant vendor,single,gio --kernel indegree > $o/$m.log 2>&1
  echo "== $m"; grep -E "^(vendor|single|gio) |rounds per wave|error|fail" $o/$m.log
done
SP_WARMUP=2 SP_REPEATS=10 sp --gen road_central --variant single --kernel indegree --lane-rows 2 > $o/lr2.log 2>&1
echo "== road_central, --lane-rows 2"; grep -E "^(single|gio) |rounds per wave|error|fail" $o/lr2.log
SP_WARMUP=2 SP_REPEATS=10 sp --gen road_central --variant gio --kernel indegree --pollers 1 > $o/p1.log 2>&1
echo "== road_central, gio --pollers 1"; grep -E "^(single|gio) |rounds per wave|error|fail" $o/p1.log
echo "done $((SECONDS-t0)) s"
rm -f $o/configure.log $o/build.log $o/spts.csv

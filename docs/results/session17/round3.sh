#!/usr/bin/env bash
# session 17, round 3: where gio's 1-PE time goes on half the road matrices (round 2's proxy for
# one GPU of two): single with gio's 4 workgroups per multiprocessor (528) against its default 5
# (660), and gio with one poller (is the busiest wave a poller?).
source docs/results/session17/common.sh
build_spts
for m in road_central:0.5 road_usa:0.5 road_central; do
  SP_WARMUP=2 SP_REPEATS=10 sp --gen $m --variant single > $o/$m.log 2>&1
  SP_WARMUP=2 SP_REPEATS=10 sp --gen $m --variant single --workgroups 528 >> $o/$m.log 2>&1
  SP_WARMUP=2 SP_REPEATS=10 sp --gen $m --variant gio >> $o/$m.log 2>&1
  SP_WARMUP=2 SP_REPEATS=10 sp --gen $m --variant gio --pollers 1 >> $o/$m.log 2>&1
  echo "== $m (single, single wg 528, gio, gio pollers 1)"; grep -E "^(single|gio) |rounds per wave|error|fail" $o/$m.log
done
echo "done $((SECONDS-t0)) s"
rm -f $o/configure.log $o/build.log $o/spts.csv

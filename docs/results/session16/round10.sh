#!/usr/bin/env bash
# session 16, round 10: occupancy of the indegree kernel. Experiment builds with
# __launch_bounds__(128, SPTS_MINB): 5 workgroups per multiprocessor (gio, 2 rows per lane: 96
# registers with spills, against 119 and 4 workgroups) and 6 (single too: 80 registers); single
# and gio on 1 PE, road class. SPTS_MINB lived in the working tree for this round only.
source docs/results/session16/common.sh
nvidia-smi -L > $o/machine.txt
build_spts & build_variant build-m5 -DSPTS_MINB=5 & build_variant build-m6 -DSPTS_MINB=6 & wait
echo "builds done $((SECONDS-t0)) s"
for m in road_central road_usa; do
  for b in gpu m5 m6; do
    echo "-- build $b" >> $o/$m.log
    S=build-$b/apps/spts/spts SP_WARMUP=2 SP_REPEATS=10 sp --gen $m --variant single,gio >> $o/$m.log 2>&1
  done
  echo "== $m"; grep -E "^-- |^(vendor|single|gio) |rounds per wave|workgroups|error|fail" $o/$m.log
done
echo "done $((SECONDS-t0)) s"
rm -f $o/configure.log $o/build.log $o/spts.csv

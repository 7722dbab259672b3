#!/usr/bin/env bash
# session 16, round 6: roots per ticket (64, 128, 256) with 2 rows per lane on the road class,
# beside 4 rows per lane, single and gio on 1 PE, against cuSPARSE.
source docs/results/session16/common.sh
nvidia-smi -L > $o/machine.txt
build_spts
for m in road_central road_usa; do
  SP_WARMUP=2 SP_REPEATS=10 sp --gen $m --variant vendor > $o/$m.log 2>&1
  for t in 64 128 256; do
    echo "-- lane rows 2, $t roots per ticket" >> $o/$m.log
    SP_WARMUP=2 SP_REPEATS=10 sp --gen $m --variant single,gio --kernel indegree --lane-rows 2 --rows-per-ticket $t >> $o/$m.log 2>&1
  done
  echo "-- lane rows 4, 512 roots per ticket" >> $o/$m.log
  SP_WARMUP=2 SP_REPEATS=10 sp --gen $m --variant single --kernel indegree --lane-rows 4 --rows-per-ticket 512 >> $o/$m.log 2>&1
  echo "== $m"; grep -E "^-- |^(vendor|single|gio) |rounds per wave|error|fail" $o/$m.log
done
echo "done $((SECONDS-t0)) s"
rm -f $o/configure.log $o/build.log $o/spts.csv

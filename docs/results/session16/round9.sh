#!/usr/bin/env bash
# session 16, round 9: single's stack size with 2 rows per lane (128, 64, 32 rows; a smaller stack
# sends more ready rows to the global queue, where idle waves take them), beside 4 rows per lane,
# on the road class against cuSPARSE.
source docs/results/session16/common.sh
nvidia-smi -L > $o/machine.txt
build_spts
for m in road_usa road_central; do
  SP_WARMUP=2 SP_REPEATS=10 sp --gen $m --variant vendor > $o/$m.log 2>&1
  for st in 128 64 32; do
    echo "-- lane rows 2, stack $st" >> $o/$m.log
    SP_WARMUP=2 SP_REPEATS=10 sp --gen $m --variant single --stack-rows $st >> $o/$m.log 2>&1
  done
  echo "-- lane rows 4, stack 128" >> $o/$m.log
  SP_WARMUP=2 SP_REPEATS=10 sp --gen $m --variant single --lane-rows 4 >> $o/$m.log 2>&1
  echo "== $m"; grep -E "^-- |^(vendor|single|gio) |rounds per wave|error|fail" $o/$m.log
done
echo "done $((SECONDS-t0)) s"
rm -f $o/configure.log $o/build.log $o/spts.csv

#!/usr/bin/env bash
# session 16, round 8: --kernel auto gives gio (packed pushes) the indegree kernel on the road
# class too. Every spts GPU test (the road tests on 2 and 4 PEs now run it under auto); the road
# class with every variant on auto, 1 PE, against cuSPARSE.
source docs/results/session16/common.sh
nvidia-smi -L > $o/machine.txt
build_spts
spts_tests 'spts_' 400
for m in road_central road_usa; do
  SP_WARMUP=2 SP_REPEATS=10 sp --gen $m --variant vendor,single,gio > $o/$m.log 2>&1
  echo "== $m"; grep -E "^(vendor|single|gio) |: (single|gio): |rounds per wave|error|fail" $o/$m.log
done
echo "done $((SECONDS-t0)) s"
rm -f $o/configure.log $o/build.log $o/spts.csv

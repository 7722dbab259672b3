#!/usr/bin/env bash
# session 16, round 2: row records (everything solving a row reads, in one 96-byte record) in the
# indegree kernel. Indegree GPU tests, then road_central and road_usa against cuSPARSE.
source docs/results/session16/common.sh
nvidia-smi -L > $o/machine.txt
build_spts
spts_tests 'spts_(.*indegree.*|figure9_np1)$' 300
for m in road_central road_usa; do
  SP_WARMUP=2 SP_REPEATS=10 sp --gen $m --variant vendor,single,gio --kernel indegree > $o/$m.log 2>&1
  echo "== $m"; grep -E "^(vendor|single|gio) |rounds per wave|lists built|error|fail" $o/$m.log
done
echo "done $((SECONDS-t0)) s"
rm -f $o/configure.log $o/build.log $o/spts.csv

#!/usr/bin/env bash
# session 16, round 1 (code not kept: the list heads became row records in round 2, and the
# prefetch, SPTS_PREFETCH, only ever lived in the working tree): list heads (a row's first
# entries and readers loaded with the row number alone) in the indegree kernel; beside it a build that also prefetches the local readers' heads
# into L2 (SPTS_PREFETCH=1). Indegree GPU tests, then road_central and road_usa against cuSPARSE.
source docs/results/session16/common.sh
nvidia-smi -L > $o/machine.txt
build_spts & build_variant build-pf -DSPTS_PREFETCH=1 & wait
echo "builds done $((SECONDS-t0)) s"
spts_tests 'spts_(.*indegree.*|figure9_np1)$' 300
for m in road_central road_usa; do
  S=$build/apps/spts/spts SP_WARMUP=2 SP_REPEATS=10 sp --gen $m --variant vendor,single,gio --kernel indegree > $o/$m.log 2>&1
  S=build-pf/apps/spts/spts SP_WARMUP=2 SP_REPEATS=10 sp --gen $m --variant single,gio --kernel indegree > $o/$m-pf.log 2>&1
  echo "== $m (heads)"; grep -E "^(vendor|single|gio) |rounds per wave|error|fail" $o/$m.log
  echo "== $m (heads + prefetch)"; grep -E "^(single|gio) |rounds per wave|error|fail" $o/$m-pf.log
done
echo "done $((SECONDS-t0)) s"
rm -f $o/configure.log $o/build.log $o/spts.csv

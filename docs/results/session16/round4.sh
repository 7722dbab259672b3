#!/usr/bin/env bash
# session 16, round 4: rows per lane 1, 2 and 4 with row records (single and gio, road class);
# and what gio's indegree kernel costs on 1 PE, by experiment builds: no remote paths compiled
# (nr), and also x stored at the local row and device-scope counts (all). The SPTS_EXP_* switches
# lived in the working tree for this round only; round 5 moved the remote paths out of the way.
source docs/results/session16/common.sh
nvidia-smi -L > $o/machine.txt
build_spts & build_variant build-nr -DSPTS_EXP_NO_REMOTE=1 &
build_variant build-all "-DSPTS_EXP_NO_REMOTE=1 -DSPTS_EXP_LOCAL_ROW=1 -DSPTS_EXP_DEVICE_ATOMICS=1" & wait
echo "builds done $((SECONDS-t0)) s"
for m in road_central road_usa; do
  SP_WARMUP=2 SP_REPEATS=10 sp --gen $m --variant vendor > $o/$m.log 2>&1
  for lr in 1 2 4; do
    SP_WARMUP=2 SP_REPEATS=10 sp --gen $m --variant single,gio --kernel indegree --lane-rows $lr >> $o/$m.log 2>&1
  done
  echo "== $m, lane rows 1 2 4"; grep -E "^(vendor|single|gio) |rounds per wave|error|fail" $o/$m.log
done
for b in nr all; do
  S=build-$b/apps/spts/spts SP_WARMUP=2 SP_REPEATS=10 sp --gen road_central --variant gio --kernel indegree --lane-rows 2 > $o/$b.log 2>&1
  echo "== road_central, gio, lane rows 2, build $b"; grep -E "^(single|gio) |rounds per wave|error|fail" $o/$b.log
done
echo "done $((SECONDS-t0)) s"
rm -f $o/configure.log $o/build.log $o/spts.csv

#!/usr/bin/env bash
# session 17, round 4: gio's remote calls (count-off, hand-over, x pushes) compiled once each and
# called from the unrolled sites (noinline), against round 3's inlined ones: gio and single on the
# road matrices at half and full size; and the SASS of the two lr2 indegree kernels, to read here.
source docs/results/session17/common.sh
build_spts
for m in road_central:0.5 road_usa:0.5 road_central road_usa; do
  f=$o/round4-${m/:/-}.log
  SP_WARMUP=2 SP_REPEATS=10 sp --gen $m --variant single,gio > $f 2>&1
  SP_WARMUP=2 SP_REPEATS=10 sp --gen $m --variant gio --pollers 1 >> $f 2>&1
  echo "== $m (single, gio, gio pollers 1)"; grep -E "^(single|gio) |rounds per wave|error|fail" $f
done
cuobjdump -sass -fun '_ZN4spts3gpu21solve_indegree_kernelILi2ELNS_9push_modeE1EEEvNS0_10solve_argsENS0_13indegree_argsEN3gio13device_handleE' $S > $o/sass-gio-lr2.txt 2>&1
cuobjdump -sass -fun '_ZN4spts3gpu21solve_indegree_kernelILi2ELNS_9push_modeE0EEEvNS0_10solve_argsENS0_13indegree_argsEN3gio13device_handleE' $S > $o/sass-single-lr2.txt 2>&1
wc -l $o/sass-*.txt; gzip $o/sass-*.txt
echo "done $((SECONDS-t0)) s"
rm -f $o/configure.log $o/build.log $o/spts.csv

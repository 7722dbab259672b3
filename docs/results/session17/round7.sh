#!/usr/bin/env bash
# session 17, round 7: the review's mend (solve_args holds the block once, as a divisor; reader
# words from one host/device definition): every spts GPU test, and the road class once more.
source docs/results/session17/common.sh
build_spts
spts_tests 'spts_' 400
cp $o/ctest.log $o/round7-ctest.log
for m in road_central road_usa; do
  SP_WARMUP=2 SP_REPEATS=10 sp --gen $m --variant vendor,single,gio > $o/round7-$m.log 2>&1
  echo "== $m"; grep -E "^(vendor|single|gio) |error|fail" $o/round7-$m.log
done
echo "done $((SECONDS-t0)) s"
rm -f $o/configure.log $o/build.log $o/spts.csv $o/ctest.log

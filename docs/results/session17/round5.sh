#!/usr/bin/env bash
# session 17, round 5: what makes gio's rounds slower than single's on one PE (rounds 3-4: 4.07
# against 3.61 us per round with one poller, the same 359 rounds). Experiment builds of the tree
# with one patch each, beside the tree's own build, gio on 1 PE with one poller:
#   a: global_row returns the local row on 1 PE (no division where x is stored)
#   b: counts and the queue's tail counted at device scope (atomicSub / atomicAdd) as in single
#   d: no consumer-mask load with the record
#   abd: all three
source docs/results/session17/common.sh
build_spts
exp_build() {  # exp_build NAME PATCH...: the tree with the patches, spts built in /tmp/exp-NAME/build
  local name=$1 dir=/tmp/exp-$1 patches=$PWD/docs/results/session17; shift
  rm -rf $dir; mkdir -p $dir
  tar --exclude='./build*' --exclude=./.git -cf - . | tar -xf - -C $dir
  for p in "$@"; do (cd $dir && patch -p1 -s < $patches/exp-$p.patch) || exit 1; done
  cmake -S $dir -B $dir/build -G Ninja -DCMAKE_BUILD_TYPE=Release -DGIO_GPU=cuda -DGIO_BUILD_TESTS=ON > $o/configure-$name.log 2>&1
  cmake --build $dir/build -j 16 --target spts > $o/build-$name.log 2>&1 || { tail -30 $o/build-$name.log; exit 1; }
  rm -f $o/configure-$name.log $o/build-$name.log
}
exp_build a a & exp_build b b & wait
exp_build d d & exp_build abd a b d & wait
echo "builds done $((SECONDS-t0)) s"
for m in road_central:0.5 road_central; do
  f=$o/round5-${m/:/-}.log; : > $f
  for e in tree a b d abd; do
    bin=$S; [ $e = tree ] || bin=/tmp/exp-$e/build/apps/spts/spts
    echo "-- $e" >> $f
    timeout 150 mpirun --bind-to none -np 1 $bin --warmup 2 --repeats 10 --round-stats --gen $m --variant gio --pollers 1 >> $f 2>&1
  done
  timeout 150 mpirun --bind-to none -np 1 $S --warmup 2 --repeats 10 --round-stats --gen $m --variant single >> $f 2>&1
  echo "== $m"; grep -E "^-- |^(single|gio) |rounds per wave|error|fail" $f
done
echo "done $((SECONDS-t0)) s"
rm -f $o/configure.log $o/build.log

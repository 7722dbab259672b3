#!/usr/bin/env bash
# session 15, round 4: what is left of gio's indegree overhead on 1 PE (road_central, one H200).
# Four builds of the same tree with SPTS_EXP (an experiment switch in indegree_kernel.hpp, since
# removed): 0 as committed; 1 local counts with device-scope atomics; 2 the consumer mask loaded
# with the row's other words; 3 both.
source scripts/device-env.sh
o=$OUT; t0=$SECONDS
export GIO_SYMMETRIC_SIZE=1G
nvidia-smi -L > $o/machine.txt
for e in 0 1 2 3; do
  ( cmake -S . -B build-exp$e -G Ninja -DCMAKE_BUILD_TYPE=Release -DGIO_GPU=cuda -DGIO_BUILD_TESTS=ON \
      -DCMAKE_CUDA_FLAGS=-DSPTS_EXP=$e > $o/configure$e.log 2>&1 &&
    cmake --build build-exp$e -j 4 --target spts > $o/build$e.log 2>&1 ) &
done
wait
echo "builds done $((SECONDS-t0)) s"
for e in 0 1 2 3; do
  echo "== SPTS_EXP=$e"
  timeout 150 mpirun --bind-to none -np 1 build-exp$e/apps/spts/spts --gen road_central --variant single,gio \
    --kernel indegree --warmup 2 --repeats 10 --round-stats
done > $o/spts.log 2>&1
echo "runs done $((SECONDS-t0)) s"
grep -E "^== |^(single|gio) |rounds per wave|error|fail" $o/spts.log

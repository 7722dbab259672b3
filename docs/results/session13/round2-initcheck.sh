#!/usr/bin/env bash
# session 13, round 2: initcheck of the AMO test with 1 PE and with 2 PEs on one GPU.
set -u
source scripts/device-env.sh
o=$OUT; t0=$SECONDS
configure_gpu_build > $o/configure.log 2>&1
cmake --build "$build" -j 16 --target gio-gpu-tests > $o/build.log 2>&1 || { tail -30 $o/build.log; exit 1; }
echo "build done $((SECONDS-t0)) s"
T=$build/tests/gpu/gio-gpu-tests
f='Atomics/AmoBindings.*typed_int'
for np in 1 2; do
  echo "== initcheck -np $np"
  GIO_LITMUS_ROUNDS=64 GIO_SYMMETRIC_SIZE=256M timeout 150 mpirun --oversubscribe -np $np \
    compute-sanitizer --tool initcheck --print-limit 4 --error-exitcode 1 $T --gtest_filter="$f" > $o/initcheck-np$np.log 2>&1
  echo "rc=$?"; grep -E "ERROR SUMMARY|PASSED|FAILED|Address" $o/initcheck-np$np.log | sort | uniq -c | head
done
echo "done $((SECONDS-t0)) s"

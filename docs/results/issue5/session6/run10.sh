#!/usr/bin/env bash
# session 6, device run 10: the same with mpirun --bind-to none (the proxy / model threads get their own cores)
set -u
np2="mpirun --oversubscribe --bind-to none -np 2"
B=.scratch/bin
export GIO_LITMUS_WGS=4
BENCH=$(grep '^BENCH=' .scratch/run8.sh | sed 's/^BENCH=//; s/"//g')
bash .scratch/gda-run3.sh $OUT/r10 \
 "siglit-gda=GIO_TRANSPORT=gda timeout 90 $np2 $B/gio-gpu-tests --gtest_filter=MemoryModel/SignalLitmus.ObservedSignalMeansWholePayload/putmem_signal_8B_set_test" \
 "bench-gda=GIO_TRANSPORT=gda timeout 150 $np2 $B/gio-bench $BENCH --csv $OUT/r10/bench-gda.csv" \
 "bench-ikn=GIO_TRANSPORT=ikn timeout 150 $np2 $B/gio-bench $BENCH --csv $OUT/r10/bench-ikn.csv" \
 "bench-gda-cpudb=GIO_TRANSPORT=gda GIO_GDA_DOORBELL=cpu timeout 150 $np2 $B/gio-bench --bench p,amo --reps 3 --target-ms 5 --max-iters 2000 --csv $OUT/r10/bench-gda-cpudb.csv" \
 "jacobi-ikn=timeout 60 $np2 $B/jacobi2d --variant ikn --size 512 --iterations 200 --check" \
 "jacobi-gda=timeout 60 $np2 $B/jacobi2d --variant gda --size 512 --iterations 200 --check"

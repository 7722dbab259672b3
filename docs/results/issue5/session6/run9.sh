#!/usr/bin/env bash
# session 6, device run 9: gda signal litmus with GPU doorbells (new publish) and gio-bench over gda/ikn (model)
set -u
np2="mpirun --oversubscribe -np 2"
B=.scratch/bin
export GIO_LITMUS_WGS=4
BENCH=$(grep '^BENCH=' .scratch/run8.sh | sed 's/^BENCH=//; s/"//g')
bash .scratch/gda-run3.sh $OUT/r9 \
 "siglit-gda=GIO_TRANSPORT=gda timeout 90 $np2 $B/gio-gpu-tests --gtest_filter=MemoryModel/SignalLitmus.ObservedSignalMeansWholePayload/putmem_signal_8B_set_test" \
 "bench-gda=GIO_TRANSPORT=gda timeout 150 $np2 $B/gio-bench $BENCH --csv $OUT/r9/bench-gda.csv" \
 "bench-ikn=GIO_TRANSPORT=ikn timeout 150 $np2 $B/gio-bench $BENCH --csv $OUT/r9/bench-ikn.csv"

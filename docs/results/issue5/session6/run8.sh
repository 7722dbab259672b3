#!/usr/bin/env bash
# session 6, device run 8: combining publish + device-scope ring counters; CPU-assisted doorbells;
# the doorbell-honouring model; gio-bench over gda and ikn (model figures)
set -u
rm -rf .scratch/bin  # binaries left by an earlier call on a warm machine
np2="mpirun --oversubscribe -np 2"
B=.scratch/bin
export GIO_LITMUS_WGS=4
DB="HostRma.*:AmoStress.*:Bindings/DeviceRma.*/mem:Bindings/PointToPointSync.*/typed_int64:MemoryModel/SignalLitmus.*/putmem_signal_8B_set_test"
BENCH="--bench p,put,signal,amo,bw --max-size 64K --signal-max-size 64K --reps 3 --target-ms 5 --max-iters 2000 --bw-shapes 1x256,8x256 --bw-bytes 8M --bw-iters 4"
bash .scratch/gda-run3.sh $OUT/r8 \
 "gda-probe=GIO_TRANSPORT=gda timeout 30 $np2 $B/gio-bench-gda-probe 2000" \
 "ikn-probe=GIO_TRANSPORT=ikn timeout 40 $np2 $B/gio-bench-gda-probe 2000" \
 "doorbells-cpu=GIO_TRANSPORT=gda GIO_GDA_DOORBELL=cpu timeout 120 $np2 $B/gio-gpu-tests --gtest_filter=$DB" \
 "doorbells-refused=GIO_TRANSPORT=gda GIO_NIC_MODEL_REFUSE_UAR=1 timeout 120 $np2 $B/gio-gpu-tests --gtest_filter=$DB" \
 "doorbells-refused-info=GIO_TRANSPORT=gda GIO_NIC_MODEL_REFUSE_UAR=1 timeout 30 $np2 $B/gio-info" \
 "doorbells-gpu-refused=GIO_TRANSPORT=gda GIO_NIC_MODEL_REFUSE_UAR=1 GIO_GDA_DOORBELL=gpu timeout 30 $np2 $B/gio-info" \
 "cpu-probe=GIO_TRANSPORT=gda GIO_GDA_DOORBELL=cpu timeout 30 $np2 $B/gio-bench-gda-probe 2000" \
 "bench-gda=GIO_TRANSPORT=gda timeout 120 $np2 $B/gio-bench $BENCH --csv $OUT/r8/bench-gda.csv" \
 "bench-ikn=GIO_TRANSPORT=ikn timeout 120 $np2 $B/gio-bench $BENCH --csv $OUT/r8/bench-ikn.csv"

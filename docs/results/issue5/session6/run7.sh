#!/usr/bin/env bash
# session 6, device run 7: the untested warm-up commit (7a8ddfe) and the p2p suite on HEAD; one gda signal litmus baseline
set -u
np2="mpirun --oversubscribe -np 2"
B=.scratch/bin
bash .scratch/gda-run3.sh $OUT/r7 \
 "lazy-load-lazy=CUDA_MODULE_LOADING=LAZY timeout 25 $np2 $B/gio-gpu-tests --gtest_filter=HostOpsWhileKernelsWait.*" \
 "onstream-gda-fresh=GIO_TRANSPORT=gda CUDA_MODULE_LOADING=LAZY timeout 30 $np2 $B/gio-gpu-tests --gtest_filter=HostRma.OnStream" \
 "siglit-gda-baseline=GIO_TRANSPORT=gda GIO_LITMUS_WGS=4 timeout 90 $np2 $B/gio-gpu-tests --gtest_filter=MemoryModel/SignalLitmus.ObservedSignalMeansWholePayload/putmem_signal_8B_set_wait" \
 "p2p-suite=timeout ${P2P_S:-330} $np2 $B/gio-gpu-tests"

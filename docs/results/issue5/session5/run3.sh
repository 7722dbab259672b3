#!/usr/bin/env bash
# device run 3: lazy-load fix; the whole gda suite; ikn probe and apps
set -u
np2="mpirun --oversubscribe -np 2"
B=.scratch/bin
export GIO_LITMUS_WGS=16
bash .scratch/gda-run3.sh $OUT/r3 \
 "lazy-load-p2p=CUDA_MODULE_LOADING=LAZY timeout 30 $np2 $B/gio-gpu-tests --gtest_filter=HostOpsWhileKernelsWait.*" \
 "ikn-probe=GIO_TRANSPORT=ikn timeout 30 $np2 $B/gio-bench-gda-probe 2000" \
 "gda-probe=GIO_TRANSPORT=gda timeout 20 $np2 $B/gio-bench-gda-probe 2000" \
 "jacobi-ikn=timeout 40 $np2 $B/jacobi2d --variant ikn --size 512 --iterations 200 --check" \
 "spts-ikn=timeout 40 $np2 $B/spts --gen road_usa:0.001 --variant ikn --repeats 3" \
 "gda-suite=GIO_TRANSPORT=gda timeout ${SUITE_S:-380} $np2 $B/gio-gpu-tests --gtest_filter=-SymmetricPointer.*"

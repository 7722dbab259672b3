#!/usr/bin/env bash
# device run 2: where the engine thread is when ikn / OnStream hang
set -u
np2="mpirun --oversubscribe -np 2"
B=.scratch/bin
tar -xJf .scratch/bin.tar.xz -C .scratch && cp .scratch/model-dbg.so $B/libgio_nic_model.so
export GIO_NIC_MODEL_DEBUG=1
bash .scratch/gda-run3.sh $OUT/r2 \
 "ikn-probe=GIO_TRANSPORT=ikn timeout 12 $np2 $B/gio-bench-gda-probe 200" \
 "onstream=GIO_TRANSPORT=gda timeout 12 $np2 $B/gio-gpu-tests --gtest_filter=HostRma.OnStream" \
 "ikn-hostrma=GIO_TRANSPORT=ikn timeout 12 $np2 $B/gio-gpu-tests --gtest_filter=HostRma.PutmemGetmem"
command -v gdb cuda-gdb compute-sanitizer; ls /usr/local/cuda/bin | head -50 | tr '\n' ' '

#!/usr/bin/env bash
# device run 5: host-op first-use fix (new libgio), the gda suite's remaining tests, an ikn subset
set -u
np2="mpirun --oversubscribe -np 2"
B=.scratch/bin
tar -xJf .scratch/bin.tar.xz -C .scratch && cp .scratch/libgio-new.so.0 $B/libgio.so.0
export GIO_LITMUS_WGS=16
F=$(cat .scratch/gda-remaining.filter)
IKN="HostRma.*:HostAtomics.*:AmoStress.*:Bindings/PointToPointSync.*:MemoryModel/Litmus.NoForbiddenOutcome/mp_wg*:Bindings/DeviceRma.*/mem:Bindings/DeviceRma.*/typed_int:HostCollectives.*:WorkStealing.*:Teams.*"
bash .scratch/gda-run3.sh $OUT/r5 \
 "lazy-load-lazy=CUDA_MODULE_LOADING=LAZY timeout 25 $np2 $B/gio-gpu-tests --gtest_filter=HostOpsWhileKernelsWait.*" \
 "p2p-host=env -u GIO_LITMUS_WGS timeout 40 $np2 $B/gio-gpu-tests --gtest_filter=HostAtomics.*:AmoStress.*:HostRma.*:HostCollectives.*:Atomics/AmoBindings.*/typed_int64" \
 "gda-rest=GIO_TRANSPORT=gda timeout ${SUITE_S:-390} $np2 $B/gio-gpu-tests --gtest_filter=$F" \
 "ikn-subset=GIO_TRANSPORT=ikn timeout 90 $np2 $B/gio-gpu-tests --gtest_filter=$IKN"

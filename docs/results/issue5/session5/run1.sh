#!/usr/bin/env bash
# device run 1 of session 5: ikn/host-ring/OnStream diagnostics, then gda suite shard
set -u
M="timeout"
np2="mpirun --oversubscribe -np 2"
B=.scratch/bin
bash .scratch/gda-run3.sh $OUT/r1 \
 "ikn-probe=GIO_TRANSPORT=ikn GIO_DEBUG=info GIO_NIC_MODEL_DEBUG=1 $M 25 $np2 $B/gio-bench-gda-probe 200" \
 "gda-hostrings-probe=GIO_TRANSPORT=gda GIO_GDA_RINGS=host GIO_NIC_MODEL_DEBUG=1 $M 25 $np2 $B/gio-bench-gda-probe 200" \
 "gda-probe=GIO_TRANSPORT=gda $M 25 $np2 $B/gio-bench-gda-probe 2000" \
 "onstream=GIO_TRANSPORT=gda GIO_NIC_MODEL_DEBUG=1 $M 30 $np2 $B/gio-gpu-tests --gtest_filter=HostRma.OnStream" \
 "gda-shard0=GIO_TRANSPORT=gda GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=0 $M ${SHARD_S:-380} $np2 $B/gio-gpu-tests --gtest_filter=-SymmetricPointer.*:HostRma.OnStream"

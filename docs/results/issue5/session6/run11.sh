#!/usr/bin/env bash
# session 6, device run 11: the whole gio-gpu-tests suite over gda (software NIC model), --bind-to none
set -u
rm -rf .scratch/bin
np2="mpirun --oversubscribe --bind-to none -np 2"
B=.scratch/bin
export GIO_LITMUS_WGS=4
bash .scratch/gda-run3.sh $OUT/r11 \
 "${MODE:-gda}-suite${GTEST_SHARD_INDEX:-}=GIO_TRANSPORT=${MODE:-gda} timeout ${SUITE_S:-565} $np2 $B/gio-gpu-tests --gtest_filter=${FILTER:--SymmetricPointer.*}"
grep -h "OK \]\|FAILED \]" $OUT/r11/*-suite*.log | sed 's/\x1b\[[0-9;]*m//g' | sort | uniq -c | awk '{print $2,$3}' | sort | uniq -c | head
grep -c "OK \]" $OUT/r11/*-suite*.log

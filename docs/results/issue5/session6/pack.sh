#!/usr/bin/env bash
# packs the device binaries built in build-gda-cuda into .scratch/bin.tar.xz
set -eu
cd /work/main/.scratch && rm -rf bin && mkdir bin
B=../build-gda-cuda
cp -L $B/host/libgio.so.0 $B/tests/gpu/gio-gpu-tests $B/host/gio-info $B/tests/nicmodel/libgio_nic_model.so $B/bench/gio-bench-gda-probe $B/apps/jacobi2d/jacobi2d $B/apps/spts/spts bin/ 2>&1
strip --strip-unneeded bin/* 2>/dev/null || true
tar -cJf bin.tar.xz bin && ls -la bin.tar.xz

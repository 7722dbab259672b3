#!/usr/bin/env bash
# device run 3: binaries built on the dev machine (.scratch/bin.tar.xz)
set -u
out=$1; shift
[ -d .scratch/bin ] || tar -xJf .scratch/bin.tar.xz -C .scratch
bin=$PWD/.scratch/bin
export LD_LIBRARY_PATH=$bin:${LD_LIBRARY_PATH:-}
export NVSHMEM_DISABLE_NVLS=1 NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
export GIO_SYMMETRIC_SIZE=256M GIO_WAIT_TIMEOUT=30s GIO_GDA_NIC_MODEL=$bin/libgio_nic_model.so
mkdir -p $out
for job in "$@"; do
  name=${job%%=*}; cmd=${job#*=}
  start=$SECONDS
  bash -c "$cmd" > $out/$name.log 2>&1; rc=$?
  echo "== $name rc=$rc in $((SECONDS-start)) s"
  grep -E "^.{0,12}\[  PASSED|^.{0,12}\[  FAILED|tests? ran|gio: PE|gio nic model|gio ikn proxy|median|->|iteration|residual|error" $out/$name.log | sed 's/\x1b\[[0-9;]*m//g' | sort | uniq -c | sort -rn | head -25
done

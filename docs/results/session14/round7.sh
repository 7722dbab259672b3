#!/usr/bin/env bash
# session 14, round 7 (final code): every class at the paper's size, cuSPARSE, the single variant
# with the indegree kernel (defaults: 4 rows per lane, 256-root tickets) and with --kernel auto
# (the polling kernels), one H200.
source docs/results/session14/common.sh
SP_WARMUP=2 SP_REPEATS=10
nvidia-smi -L > $o/machine.txt
build_spts
{
for m in road_central road_usa asic_320ks wiki_talk nlpkkt160; do
  echo "== $m"
  sp --gen $m --variant vendor,single --kernel indegree
  sp --gen $m --variant single
done
} > $o/spts.log 2>&1
spts_done "^== |^(vendor|single) |levels|kernel"

# Sourced by this session's round scripts: session 16's (device environment, build_spts,
# spts_tests, spts_done, `sp` on SP_NP PEs, build_variant DIR CUDA_FLAGS).
source docs/results/session16/common.sh

# Sourced by this session's round scripts: session 14's (device environment, build_spts,
# spts_tests, spts_done), with `sp` on SP_NP PEs (default 1).
source docs/results/session14/common.sh
sp() {
  timeout "${SP_TIMEOUT:-150}" mpirun --bind-to none -np "${SP_NP:-1}" $S --warmup "${SP_WARMUP:-1}" \
    --repeats "${SP_REPEATS:-5}" --round-stats --csv $o/spts.csv "$@"
}

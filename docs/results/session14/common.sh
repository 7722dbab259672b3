# Sourced by this session's round scripts (run from the repository root on the device machine):
# the device environment, the Release build of spts, its indegree GPU tests, and `sp`, one spts
# run on PE 0 whose CSV and round counts go to $OUT. Each script sets the knobs it ran with:
#   SP_TIMEOUT (s, default 150), SP_WARMUP (1), SP_REPEATS (5).
set -u
source scripts/device-env.sh
o=$OUT; t0=$SECONDS
S=$build/apps/spts/spts
export GIO_SYMMETRIC_SIZE=1G

build_spts() {
  configure_gpu_build > $o/configure.log 2>&1
  cmake --build "$build" -j 16 --target spts > $o/build.log 2>&1 || { tail -30 $o/build.log; exit 1; }
  echo "build done $((SECONDS-t0)) s"
}

# spts_tests [REGEX [TIMEOUT]]: the spts GPU tests whose names match (default: the indegree
# kernel's and Figure 9 on one PE).
spts_tests() {
  (cd "$build" && timeout "${2:-200}" ctest --output-on-failure -R "${1:-spts_(.*indegree.*|figure9_np1)$}") > $o/ctest.log 2>&1
  echo "ctest rc $? $((SECONDS-t0)) s"; grep -E "tests passed|Failed|\*\*\*" $o/ctest.log | head -20
}

sp() {
  timeout "${SP_TIMEOUT:-150}" mpirun --bind-to none -np 1 $S --warmup "${SP_WARMUP:-1}" --repeats "${SP_REPEATS:-5}" \
    --round-stats --csv $o/spts.csv "$@"
}

# spts_done [PATTERN]: the elapsed time and the lines of spts.log worth reading in the call's output.
spts_done() {
  echo "spts done $((SECONDS-t0)) s"
  grep -E "${1:-^== |^(vendor|single) |rounds per wave|error|fail}" $o/spts.log
}

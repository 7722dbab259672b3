#!/usr/bin/env bash
# Runs a command (usually mpirun ... <app>) and judges its exit status and output, for CTest:
# CTest's PASS_REGULAR_EXPRESSION ignores the exit status, and the apps' tests need both.
#
#   run_and_expect.sh [--status ok|fail|N] [--match REGEX]... [--each-pe N REGEX]...
#                     [--skip-status N] -- COMMAND [ARGS...]
#   --status ok|fail|N   expected exit status: 0 (default), non-zero, or exactly N
#   --match REGEX        the combined stdout and stderr must have a line matching REGEX (grep -E)
#   --each-pe N REGEX    for every PE p in 0..N-1, a line matching "PE p: REGEX"
#   --skip-status N      if COMMAND exits with N, exit N too (CTest's SKIP_RETURN_CODE) unjudged
# The command's output is printed first, then one line per failed expectation.
set -uo pipefail

status=ok skip_status=
declare -a matches=() pe_counts=() pe_patterns=()
while [ $# -gt 0 ]; do
  case "$1" in
    --status) status=$2; shift 2 ;;
    --match) matches+=("$2"); shift 2 ;;
    --each-pe) pe_counts+=("$2"); pe_patterns+=("$3"); shift 3 ;;
    --skip-status) skip_status=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "run_and_expect.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
[ $# -gt 0 ] || { echo "run_and_expect.sh: no command after --" >&2; exit 2; }

output=$("$@" 2>&1)
rc=$?
printf '%s\n' "$output"
if [ -n "$skip_status" ] && [ "$rc" = "$skip_status" ]; then
  echo "run_and_expect: skipped (exit status $rc)"
  exit "$rc"
fi

failures=0
fail() { echo "run_and_expect: FAILED: $*"; failures=$((failures + 1)); }
case "$status" in
  ok) [ "$rc" -eq 0 ] || fail "exit status $rc, expected 0" ;;
  fail) [ "$rc" -ne 0 ] || fail "exit status 0, expected a failure" ;;
  *) [ "$rc" -eq "$status" ] || fail "exit status $rc, expected $status" ;;
esac
for pattern in "${matches[@]+"${matches[@]}"}"; do
  grep -qE -- "$pattern" <<<"$output" || fail "no line matches '$pattern'"
done
for i in "${!pe_counts[@]}"; do
  for ((pe = 0; pe < pe_counts[i]; pe++)); do
    grep -qE -- "PE $pe: ${pe_patterns[i]}" <<<"$output" || fail "no line matches 'PE $pe: ${pe_patterns[i]}'"
  done
done
[ "$failures" -eq 0 ] && echo "run_and_expect: passed (exit status $rc)"
exit $((failures > 0))

#!/usr/bin/env bash
# scripts/device-env.sh's under_mps with a stand-in for nvidia-cuda-mps-control (no GPU here):
# the daemon runs while COMMAND does, with COMMAND's GPU and pipe folder; it is stopped after
# COMMAND, also when a device call's `timeout` signals the whole process group; and it never holds
# the build folder's lock (a daemon left running would keep it, and every later program on that
# GPU would run under MPS).
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/gio-under-mps-test.XXXXXX")
# Whatever happened, no stand-in daemon outlives the test.
trap 'cat "$work"/gio-mps.*/pipe/daemon.pid 2>/dev/null | xargs -r kill 2>/dev/null; rm -rf "$work"' EXIT
mkdir -p "$work/bin" "$work/build"
# The stand-in: -d starts a "daemon" in a session of its own (a signal to the caller's process
# group does not reach it) that keeps every descriptor it inherits, as a forked daemon would, says
# where it runs, and ends when told `quit` on standard input.
cat > "$work/bin/nvidia-cuda-mps-control" <<'FAKE'
#!/usr/bin/env bash
pipe=$CUDA_MPS_PIPE_DIRECTORY
if [ "${1:-}" = -d ]; then
  setsid bash -c 'echo $$ > "$1/daemon.pid"; touch "$1/control"
    while [ ! -e "$1/quit" ] && [ -d "$1" ]; do sleep 0.05; done
    rm -f "$1/control"' _ "$pipe" > /dev/null 2>&1 &
  for _ in $(seq 100); do [ -e "$pipe/control" ] && exit 0; sleep 0.05; done
  exit 1
fi
read -r command && [ "$command" = quit ] && touch "$pipe/quit"
FAKE
chmod +x "$work/bin/nvidia-cuda-mps-control"
export PATH="$work/bin:$PATH" TMPDIR=$work GIO_BUILD_DIR=$work/build
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
daemons_running() { ls "$work"/gio-mps.*/pipe/control 2>/dev/null | wc -l; }

# 1. COMMAND sees the daemon, its GPU and pipe folder; its status comes back; the daemon stops.
bash -c 'source "$1/scripts/device-env.sh"; lock_gpu_build || exit 90
  under_mps 3 bash -c "[ \"\$CUDA_VISIBLE_DEVICES\" = 3 ] && [ -e \"\$CUDA_MPS_PIPE_DIRECTORY/control\" ] || exit 91
    pid=\$(cat \"\$CUDA_MPS_PIPE_DIRECTORY/daemon.pid\")
    ls -l /proc/\$pid/fd | grep -q gio-script.lock && exit 92
    exit 7"' _ "$repo" > "$work/1.log" 2>&1
rc=$?
[ $rc = 7 ] || fail "1: status $rc, not COMMAND's 7 (91: no daemon or GPU; 92: the daemon holds the build lock): $(cat "$work/1.log")"
[ "$(daemons_running)" = 0 ] || fail "1: the daemon still runs after COMMAND"

# 2. A device call's timeout: TERM to the whole group while COMMAND runs. The daemon stops and the
#    build folder's lock is let go.
rm -rf "$work"/gio-mps.*
start=$(date +%s)
timeout 2 bash -c 'source "$1/scripts/device-env.sh"; lock_gpu_build || exit 90; under_mps 0 sleep 60' _ "$repo" \
  > "$work/2.log" 2>&1
rc=$?
[ $rc = 124 ] || fail "2: timeout's status $rc, not 124: $(cat "$work/2.log")"
[ $(( $(date +%s) - start )) -lt 20 ] || fail "2: under_mps waited for COMMAND after the signal"
for _ in $(seq 40); do [ "$(daemons_running)" = 0 ] && break; sleep 0.1; done
[ "$(daemons_running)" = 0 ] || fail "2: the daemon outlived the timeout"
# The signalled shell lets go of the lock once it has stopped the daemon: within a second.
flock -w 5 "$work/build/.gio-script.lock" true || fail "2: the build folder's lock is still held after 5 s"

if [ $failures = 0 ]; then echo "under_mps: daemon stopped and lock free in both cases"; exit 0; fi
exit 1

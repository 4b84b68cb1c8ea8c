#!/bin/bash
# Interrupting the lab while a child runs: the lab goes at once, as killed by
# the signal, and takes its children with it.
set -u
. "$(dirname "$0")/lib.sh"
# the GPU backend asked for: with no GPU, the last grading ends in NO_GPU
export CUDALAB_BACKEND=cuda

sleeper=$(marked_sleep)

# A fake nvcc that knows its version and never finishes a build.
nvcc=$T/bin/nvcc-$E2E_MARK
cat >"$nvcc" <<EOF
#!/bin/sh
# $E2E_MARK
case "\$1" in --version) echo "Cuda compilation tools, release 13.0, V13.0.88"; exit 0;; esac
"$sleeper" 60
EOF
chmod +x "$nvcc"

# A fake nvcc that hangs when asked its version.
nvcc_hang=$T/bin/nvcc-hang-$E2E_MARK
printf '#!/bin/sh\n# %s\n"%s" 60\n' "$E2E_MARK" "$sleeper" >"$nvcc_hang"
chmod +x "$nvcc_hang"

# A fake driver set whose run never ends.
fx=$T/libexec-$E2E_MARK
fake_programs "$fx"
printf '#!/bin/sh\ncat "%s" >&3\n' "$FIXTURES/reports/probe.json" >"$fx/device-probe"
printf '#!/bin/sh\n# %s\n"%s" 60\n' "$E2E_MARK" "$sleeper" >"$fx/reduce-int"
chmod +x "$fx/device-probe" "$fx/reduce-int"

cp "$CUDALAB_DATADIR_TEST/solutions/reduction/neighbored-less.cu" less.cu

# interrupt NAME SIGNAL WHAT ENV...: start `cudalab grade` with ENV, wait until
# the marked sleep runs (in WHAT, the child that hangs), send
# SIGNAL to cudalab, and check it is gone promptly, by that signal, and
# left no process with the marker.
interrupt() {
    local name=$1 sig=$2 what=$3 pid i t0 rc
    shift 3
    # a background job of a script starts with SIGINT ignored: undo that
    env "$@" env --default-signal=INT "$CUDALAB_TEST_BIN" grade reduction/neighbored-less \
        less.cu >"$T/.out" 2>"$T/.err" &
    pid=$!
    for i in $(seq 100); do
        pgrep -f -- "$sleeper" >/dev/null && break
        sleep 0.05
    done
    pgrep -f -- "$sleeper" >/dev/null
    check "$name: $what runs" $?
    sleep 0.5
    t0=$(now_us)
    kill -"$sig" "$pid"
    for i in $(seq 100); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.05
    done
    if kill -0 "$pid" 2>/dev/null; then
        fail "$name: cudalab exits within 5 s of SIG$sig" "$(cat "$T/.err")"
        kill -KILL "$pid"
    else
        pass "$name: cudalab exits within 5 s of SIG$sig (took $((($(now_us) - t0) / 1000)) ms)"
    fi
    wait "$pid"
    rc=$?
    expect_eq "$name: cudalab ends as killed by SIG$sig" "$rc" "$((128 + $(kill -l "$sig")))"
    expect_no_process "$name: no process with the marker is left" "$E2E_MARK"
}

interrupt "SIGINT while nvcc compiles" INT "the fake nvcc" CUDALAB_NVCC="$nvcc"
interrupt "SIGINT while nvcc tells its version" INT "the fake nvcc" CUDALAB_NVCC="$nvcc_hang"
interrupt "SIGTERM while nvcc compiles" TERM "the fake nvcc" CUDALAB_NVCC="$nvcc"
interrupt "SIGINT while the driver runs" INT "the fake driver" CUDALAB_LIBEXECDIR="$fx" \
    CUDALAB_ARCH=sm_90

# after all that, the lab still works: nothing half-written in the cache or the store
run cudalab grade reduction/neighbored-less less.cu --no-record
expect_status "grade after the interruptions" 1
expect_out_re "grade after the interruptions: NO_GPU" '^NO_GPU  '
expect_eq "the compile cache holds no half-made build" \
    "$(ls "$CACHE" | grep -Evx '[0-9a-f]{32}\.(ptx|cubin)')" ""

e2e_finish

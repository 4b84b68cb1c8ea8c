# tests/e2e/fake-gpu.sh - a pretend GPU for e2e tests, sourced after lib.sh:
# a libexec dir (fake_programs) whose device-probe replays the H100 probe
# recorded in tests/fixtures/reports and whose reduce-int is a script the test
# writes (fake_driver BODY); other programs are the real driver program's.
# The dir's name carries $E2E_MARK, so every driver's command line does.
# Students' files are still really compiled.

fx=$T/libexec-$E2E_MARK
fake_programs "$fx"
# the reports beside the drivers: a sandboxed driver sees the libexec dir, and
# nothing under /tmp besides (the source tree may be there)
cp -R "$FIXTURES/reports" "$fx/reports"
reports=$fx/reports
printf '#!/bin/sh\ncat "%s" >&3\n' "$reports/probe.json" >"$fx/device-probe"
chmod +x "$fx/device-probe"
export CUDALAB_LIBEXECDIR=$fx CUDALAB_ARCH=sm_90
# the fake drivers' settings reach them in the sandbox too, which passes an allow-list alone
export CUDALAB_SANDBOX_KEEP_ENV=FAKE_*

# fake_driver BODY: reduce-int becomes a bash script running BODY.  On a GPU run (--wait-go) it
# first does what the real driver does before it may touch the GPU: it waits FAKE_INIT seconds
# (opening the device; started with --wait-args, it then logs "opened" and reads the rest of its
# arguments) and logs "ready", then reads the lab's go byte on stdin (the lab holds the
# GPU's lock then) and logs "start" (with FAKE_EARLY set, it writes that report and ends before
# the go instead); after BODY it logs "end", closes the report pipe, waits
# FAKE_TEARDOWN seconds (the CUDA teardown) and logs "gone".  The events go to FAKE_LOG, when
# set, with the driver's pid and the time; the simulator's run beside a GPU grading (no lock)
# logs nothing.
fake_driver() {
    {
        printf '#!/bin/bash\n# %s\n' "$E2E_MARK"
        cat <<'SH'
case " $* " in *' --backend=sim '*) FAKE_LOG= ;; esac
fake_log() { [ -z "${FAKE_LOG:-}" ] || echo "$1 $$ $(date +%s.%N)" >>"$FAKE_LOG"; }
# --wait-args (a driver started while nvcc compiles): the device opened, then the rest of the
# arguments from stdin, each ended by a NUL, the list by an empty one
opened=
case " $* " in
*' --wait-args '*)
    sleep "${FAKE_INIT:-0}"
    opened=1
    fake_log opened
    while IFS= read -r -d '' a && [ -n "$a" ]; do set -- "$@" "$a"; done ;;
esac
case " $* " in
*' --wait-go '*)
    [ -n "$opened" ] || sleep "${FAKE_INIT:-0}"
    # FAKE_EARLY: a report written before the go, and the driver gone (a module it cannot load)
    [ -z "${FAKE_EARLY:-}" ] || { printf '%s\n' "$FAKE_EARLY" >&3; exit 0; }
    fake_log ready
    IFS= read -r -n1 _ || exit 3
    fake_log start ;;
esac
SH
        printf '%s\n' "$1"
        cat <<'SH'
fake_log end
exec 3>&-
sleep "${FAKE_TEARDOWN:-0}"
fake_log gone
SH
    } >"$fx/reduce-int"
    chmod +x "$fx/reduce-int"
}

# bwrap_usable: whether bubblewrap runs here the way the lab runs it.
bwrap_usable() {
    bwrap --ro-bind / / --dev /dev --proc /proc --unshare-all --unshare-user --uid 65534 \
        --gid 65534 --die-with-parent true 2>"$T/bwrap.err"
}

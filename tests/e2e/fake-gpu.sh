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

# fake_driver BODY: reduce-int becomes a bash script running BODY.
fake_driver() {
    printf '#!/bin/bash\n# %s\n%s\n' "$E2E_MARK" "$1" >"$fx/reduce-int"
    chmod +x "$fx/reduce-int"
}

# bwrap_usable: whether bubblewrap runs here the way the lab runs it.
bwrap_usable() {
    bwrap --ro-bind / / --dev /dev --proc /proc --unshare-all --unshare-user --uid 65534 \
        --gid 65534 --die-with-parent true 2>"$T/bwrap.err"
}

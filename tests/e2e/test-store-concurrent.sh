#!/bin/bash
# Two lab windows at once: two gradings run concurrently, again and again,
# with a fake driver replaying a recorded report (as test-grade-recorded.sh),
# each writing its attempt to the one SQLite store.  Every attempt must be
# there and the database intact.
set -u
. "$(dirname "$0")/lib.sh"

fx=$T/libexec
fake_programs "$fx"
printf '#!/bin/sh\ncat "%s" >&3\n' "$FIXTURES/reports/probe.json" >"$fx/device-probe"
printf '#!/bin/sh\ncat "%s" >&3\n' "$FIXTURES/reports/less-ref.json" >"$fx/reduce-int"
chmod +x "$fx/device-probe" "$fx/reduce-int"
export CUDALAB_LIBEXECDIR=$fx CUDALAB_ARCH=sm_90
cp "$CUDALAB_DATADIR_TEST/solutions/reduction/neighbored-less.cu" less.cu

run cudalab grade reduction/neighbored-less less.cu # fills the compile cache
expect_status "a first grading passes" 0

window() { # N: N gradings, one after another; prints one status per line
    for _ in $(seq "$1"); do
        cudalab grade reduction/neighbored-less less.cu >/dev/null 2>>"$T/window.err"
        echo $?
    done
}
window 6 >"$T/a" &
a=$!
window 6 >"$T/b" &
b=$!
wait $a $b
expect_eq "window A: every grading passed" "$(sort -u "$T/a")" 0
expect_eq "window B: every grading passed" "$(sort -u "$T/b")" 0
expect_eq "no store error from either window" "$(grep -c . "$T/window.err")" 0
expect_eq "store: all 13 attempts are there" "$(db_rows 'SELECT count(*) FROM attempts')" 13
expect_eq "store: integrity_check ok" "$(db_rows 'PRAGMA integrity_check')" ok
expect_eq "store: in WAL mode" "$(db_rows 'PRAGMA journal_mode')" wal

e2e_finish

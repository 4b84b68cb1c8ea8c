# tests/e2e/lib.sh - what every tests/e2e/test-*.sh shares: the lab under
# test, its sandbox, and the checks.  Sourced, never run.
#
# Under run.sh a test starts in a fresh temp dir (its cwd, $E2E_TMP) with
# HOME, XDG_DATA_HOME and XDG_CACHE_HOME inside it, and appends one line per
# check to $E2E_RESULTS.  Run by hand (bash tests/e2e/test-cli.sh) it makes
# that sandbox itself and prints its own "N passed, N failed".
#
# A test: `run CMD...` (keeps $OUT, $ERR, $RC, $MS), then checks on them,
# each printing "ok - NAME" or "FAIL - NAME" with the command's output; at the
# end, e2e_finish.

export LC_ALL=C

E2E_SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
: "${CUDALAB_TEST_BIN:=$E2E_SRC/build/san/bin/cudalab}"
: "${CUDALAB_DATADIR_TEST:=$E2E_SRC}"
: "${CUDALAB_LIBEXECDIR_TEST:=$E2E_SRC/build/san/libexec/cudalab}"
: "${CUDALAB_KERNEL_RUN_TEST:=$E2E_SRC/build/san/tools/kernel-run}"
export CUDALAB_TEST_BIN CUDALAB_DATADIR_TEST CUDALAB_LIBEXECDIR_TEST CUDALAB_KERNEL_RUN_TEST
# shellcheck disable=SC2034 # for the tests
FIXTURES=$E2E_SRC/tests/fixtures

if [ -z "${E2E_RESULTS:-}" ]; then
    E2E_STANDALONE=1
    E2E_TMP=$(mktemp -d "${TMPDIR:-/tmp}/cudalab-e2e.XXXXXXXX")
    cd "$E2E_TMP" || exit 2
    export HOME=$E2E_TMP/home XDG_DATA_HOME=$E2E_TMP/data XDG_CACHE_HOME=$E2E_TMP/cache
    export XDG_CONFIG_HOME=$E2E_TMP/config
    mkdir -p "$HOME"
    E2E_RESULTS=$E2E_TMP/.results
    : >"$E2E_RESULTS"
else
    E2E_STANDALONE=
    E2E_TMP=${E2E_TMP:-$PWD}
fi
T=$E2E_TMP

# Nothing from the caller's environment steers the lab; each test sets what it needs.
unset CUDALAB_DB CUDALAB_CACHE_DIR CUDALAB_ARCH CUDALAB_NVCC NO_COLOR CUDALAB_BACKEND \
    CUDALAB_SIM_MAX_SIZE CUDALAB_SIM_THREADS
export CUDALAB_DATADIR=$CUDALAB_DATADIR_TEST CUDALAB_LIBEXECDIR=$CUDALAB_LIBEXECDIR_TEST
# the compiled messages (make builds them from po/); LC_ALL=C above keeps every test but
# test-i18n.sh in English
export CUDALAB_LOCALEDIR=${CUDALAB_LOCALEDIR_TEST:-$E2E_SRC/build/locale}
unset LANGUAGE
# The no-GPU tests must see no GPU on a machine that has one too: the real
# probe then reports "no device" instead of "no driver".
export CUDA_VISIBLE_DEVICES=

# A string no process outside this test has in its command line.
E2E_MARK="cudalab-e2e-mark-${T##*/}-$$"

# shellcheck disable=SC2034 # for the tests
STORE=$XDG_DATA_HOME/cudalab/progress.db
CACHE=$XDG_CACHE_HOME/cudalab/build

cudalab() {
    "$CUDALAB_TEST_BIN" "$@"
}

# --- running -----------------------------------------------------------------

now_us() {
    local t=$EPOCHREALTIME
    echo $((10#${t/./}))
}

# run CMD...: stdout in $OUT, stderr in $ERR, exit status in $RC, wall time in
# $MS (milliseconds).  A sanitizer report on stderr is a failure of its own.
run() {
    local t0 t1
    RUN_CMD="$*"
    t0=$(now_us)
    "$@" >"$T/.out" 2>"$T/.err"
    RC=$?
    t1=$(now_us)
    MS=$(((t1 - t0) / 1000))
    OUT=$(<"$T/.out")
    ERR=$(<"$T/.err")
    no_sanitizer_report
}

no_sanitizer_report() { # the last run's stderr ($T/.err) holds none
    if grep -Eq 'ERROR: (Address|Leak)Sanitizer|runtime error:|UndefinedBehaviorSanitizer' \
        "$T/.err"; then
        fail "no sanitizer report from: $RUN_CMD" "$(show_run)"
    fi
}

# run_each JOBS DIR CMD...: for each line of stdin, CMD with the line's tab-separated fields
# appended, JOBS at a time (slow commands whose runs do not touch each other); the Nth line's
# stdout, stderr and exit status in DIR/N.out, DIR/N.err, DIR/N.rc.  Waits for all the shell's
# background jobs.  Then adopt_run DIR/N for each.
run_each() {
    local jobs=$1 dir=$2 n=0 line fields
    shift 2
    mkdir -p "$dir"
    while IFS= read -r line; do
        n=$((n + 1))
        IFS=$'\t' read -r -a fields <<<"$line"
        (
            "$@" "${fields[@]}" </dev/null >"$dir/$n.out" 2>"$dir/$n.err"
            echo $? >"$dir/$n.rc"
        ) &
        while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
            wait -n
        done
    done
    wait
}

# adopt_run DIR/N CMD...: makes run_each's Nth run the last run, as `run` leaves one ($OUT,
# $ERR, $RC, $RUN_CMD for messages); a sanitizer report on its stderr is a failure of its own.
adopt_run() {
    local base=$1
    shift
    RUN_CMD="$*"
    cp "$base.out" "$T/.out"
    cp "$base.err" "$T/.err"
    RC=$(<"$base.rc")
    MS=0
    OUT=$(<"$T/.out")
    ERR=$(<"$T/.err")
    no_sanitizer_report
}

indent() {
    sed 's/^/    | /'
}

# The last run, for a failure's message (long streams cut to their tail).
show_run() {
    echo "  command: ${RUN_CMD:-}"
    echo "  status:  ${RC:-} (${MS:-?} ms)"
    echo "  stdout:"
    printf '%s\n' "${OUT:-}" | tail -n 40 | indent
    echo "  stderr:"
    printf '%s\n' "${ERR:-}" | tail -n 40 | indent
}

# --- recording ---------------------------------------------------------------

pass() {
    printf 'ok\t%s\n' "$1" >>"$E2E_RESULTS"
    echo "ok - $1"
}

# fail NAME [DETAIL...]
fail() {
    local name=$1 d
    shift
    printf 'FAIL\t%s\n' "$name" >>"$E2E_RESULTS"
    echo "FAIL - $name"
    for d in "$@"; do
        printf '%s\n' "$d"
    done
}

# check NAME CONDITION-STATUS: pass or fail with the last run's output.
check() {
    if [ "$2" -eq 0 ]; then
        pass "$1"
    else
        fail "$1" "$(show_run)"
    fi
}

# --- checks on the last run -------------------------------------------------

expect_status() { # NAME WANT
    [ "$RC" -eq "$2" ]
    check "$1 (exit $2)" $?
}

expect_out() { # NAME FIXED-STRING: stdout contains it
    grep -Fq -- "$2" <<<"$OUT"
    check "$1" $?
}

expect_err() { # NAME FIXED-STRING: stderr contains it
    grep -Fq -- "$2" <<<"$ERR"
    check "$1" $?
}

expect_out_re() { # NAME ERE: a line of stdout matches
    grep -Eq -- "$2" <<<"$OUT"
    check "$1" $?
}

expect_err_re() { # NAME ERE: a line of stderr matches
    grep -Eq -- "$2" <<<"$ERR"
    check "$1" $?
}

expect_out_lacks() { # NAME FIXED-STRING: stdout does not contain it
    ! grep -Fq -- "$2" <<<"$OUT"
    check "$1" $?
}

expect_out_empty() { # NAME
    [ -z "$OUT" ]
    check "$1" $?
}

# expect_json NAME [PYTHON-EXPR]: stdout is one JSON value; EXPR, on it as j, is true.
expect_json() {
    local why
    if why=$(python3 -c '
import json, sys
j = json.loads(sys.stdin.read())
if len(sys.argv) > 1 and not eval("(" + sys.argv[1] + ")"):
    sys.exit("false: " + sys.argv[1])
' "${@:2}" <<<"$OUT" 2>&1); then
        pass "$1"
    else
        fail "$1" "$(show_run)" "  json: $(tail -n 1 <<<"$why")"
    fi
}

expect_faster() { # NAME SECONDS: the last run took less
    [ "$MS" -lt $(($2 * 1000)) ]
    check "$1 (took ${MS} ms, limit $2 s)" $?
}

# --- checks on anything -------------------------------------------------------

expect_eq() { # NAME GOT WANT
    if [ "$2" == "$3" ]; then
        pass "$1"
    else
        fail "$1" "  got:" "$(printf '%s\n' "$2" | indent)" "  want:" "$(printf '%s\n' "$3" | indent)"
    fi
}

expect_cmd() { # NAME CMD...: CMD succeeds
    local name=$1 out
    shift
    if out=$("$@" 2>&1); then
        pass "$name"
    else
        fail "$name" "  command: $*" "$(printf '%s\n' "$out" | tail -n 40 | indent)"
    fi
}

# expect_no_process NAME PATTERN: within 1 s no process has PATTERN in its
# command line (time for SIGKILLed ones to go); survivors are listed, then
# killed by pid so that they do not disturb the next checks.
expect_no_process() {
    local name=$1 pattern=$2 pids i
    for i in $(seq 20); do
        pids=$(pgrep -f -- "$pattern") || break
        sleep 0.05
    done
    pids=$(pgrep -f -- "$pattern")
    if [ -z "$pids" ]; then
        pass "$name"
        return
    fi
    fail "$name" "  survivors:" "$(ps -o pid,ppid,pgid,stat,args -p "$(paste -sd, <<<"$pids")" | indent)"
    for i in $pids; do
        kill -KILL "$i" 2>/dev/null
    done
}

# expect_process NAME PATTERN: within 10 s a process has PATTERN in its command line.
expect_process() {
    local i
    for i in $(seq 100); do
        pgrep -f -- "$2" >/dev/null && break
        sleep 0.1
    done
    pgrep -f -- "$2" >/dev/null
    check "$1" $?
}

# --- helpers -------------------------------------------------------------------

# db_rows SQL: the store's rows, one per line, fields joined by '|'.
db_rows() {
    python3 - "$STORE" "$1" <<'EOF'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for row in db.execute(sys.argv[2]):
    print("|".join("" if v is None else str(v) for v in row))
EOF
}

# copy_datadir DIR: a writable copy of the lab's exercises, solutions and docs, and the
# performance model's GPUs (kernels/gpus: speed on the simulator).
copy_datadir() {
    mkdir -p "$1/kernels"
    cp -R "$CUDALAB_DATADIR_TEST/exercises" "$CUDALAB_DATADIR_TEST/solutions" \
        "$CUDALAB_DATADIR_TEST/docs" "$1/"
    cp -R "$CUDALAB_DATADIR_TEST/kernels/gpus" "$1/kernels/"
    chmod -R u+w "$1"
}

# marked_sleep [MARK]: the path of a `sleep` whose command line carries MARK
# (default $E2E_MARK), for pgrep -f.
marked_sleep() {
    local s=$T/bin/${1:-$E2E_MARK}-sleep
    if [ ! -e "$s" ]; then
        mkdir -p "$T/bin"
        ln -s "$(command -v sleep)" "$s"
    fi
    echo "$s"
}

# fake_programs DIR: DIR becomes a libexec folder whose driver program runs DIR/PROGRAM where a
# test wrote one (a fake family driver, device-probe or demo, given the program's arguments
# after its name), else the real driver program, copied into DIR so that its command line
# carries DIR (and so $E2E_MARK where DIR does).
fake_programs() {
    local dir=$1
    mkdir -p "$dir"
    if [ ! -e "$dir/cudalab-driver.real" ]; then
        cp "$CUDALAB_LIBEXECDIR_TEST/cudalab-driver" "$dir/cudalab-driver.real"
    fi
    [ -e "$dir/lab-kernels.ptx" ] || cp "$CUDALAB_LIBEXECDIR_TEST"/*.ptx "$dir/"
    cat >"$dir/cudalab-driver" <<EOF
#!/bin/sh
# the driver program of a test ($E2E_MARK): DIR/PROGRAM where the test wrote one
if [ -n "\${1:-}" ] && [ -x "$dir/\$1" ]; then
    p=\$1
    shift
    exec "$dir/\$p" "\$@"
fi
exec "$dir/cudalab-driver.real" "\$@"
EOF
    chmod +x "$dir/cudalab-driver"
}

# --- the end -------------------------------------------------------------------

e2e_finish() {
    local passed failed
    echo "END" >>"$E2E_RESULTS"
    passed=$(grep -c '^ok' "$E2E_RESULTS")
    failed=$(grep -c '^FAIL' "$E2E_RESULTS")
    if [ -n "$E2E_STANDALONE" ]; then
        if [ "$failed" -eq 0 ]; then
            cd / && rm -rf "$E2E_TMP"
        else
            echo "# kept $E2E_TMP"
        fi
        echo "$passed passed, $failed failed"
    fi
    [ "$failed" -eq 0 ]
    exit
}

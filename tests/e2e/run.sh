#!/bin/bash
# tests/e2e/run.sh [TEST.sh...] - the end-to-end tests: every tests/e2e/test-*.sh
# (or those named) drives the real, sanitized cudalab.
#
# Each test runs in a fresh temp dir as its cwd, with HOME, XDG_DATA_HOME and
# XDG_CACHE_HOME inside it, under a time limit; its checks go to a results
# file (tests/e2e/lib.sh).  A test that dies before its end counts as a failed
# check.  The temp dir of a test with a failure is kept and named.  The last
# line is "N passed, N failed"; the exit status is 1 if any check failed.
#
# The lab under test comes from CUDALAB_TEST_BIN, CUDALAB_DATADIR_TEST and
# CUDALAB_LIBEXECDIR_TEST (set by `make test`; defaults: the source tree's
# sanitized build).  A test whose first lines hold "# e2e-timeout: N" gets N
# seconds where that is more than E2E_TEST_TIMEOUT (default 120).
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
export CUDALAB_TEST_BIN=${CUDALAB_TEST_BIN:-$src/build/san/bin/cudalab}
export CUDALAB_DATADIR_TEST=${CUDALAB_DATADIR_TEST:-$src}
export CUDALAB_LIBEXECDIR_TEST=${CUDALAB_LIBEXECDIR_TEST:-$src/build/san/libexec/cudalab}
export CUDALAB_KERNEL_RUN_TEST=${CUDALAB_KERNEL_RUN_TEST:-$src/build/san/tools/kernel-run}
limit=${E2E_TEST_TIMEOUT:-120}

for f in "$CUDALAB_TEST_BIN" "$CUDALAB_LIBEXECDIR_TEST/cudalab-driver" \
    "$CUDALAB_LIBEXECDIR_TEST/lab-kernels.ptx" "$CUDALAB_DATADIR_TEST/exercises"; do
    if [ ! -e "$f" ]; then
        echo "e2e: $f is missing: build it first (make test-e2e builds everything)"
        echo "0 passed, 1 failed"
        exit 1
    fi
done

if [ $# -gt 0 ]; then
    tests=("$@")
else
    tests=("$here"/test-*.sh)
fi

passed=0 failed=0
failures=()
for t in "${tests[@]}"; do
    name=${t##*/}
    t=$(cd "$(dirname "$t")" && pwd)/$name
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/cudalab-e2e.XXXXXXXX")
    results=$tmp/.results
    own=$(head -5 "$t" | sed -n 's/^# e2e-timeout: *\([0-9][0-9]*\)$/\1/p')
    this_limit=$limit
    [ -n "$own" ] && [ "$own" -gt "$limit" ] && this_limit=$own
    : >"$results"
    mkdir -p "$tmp/home"
    echo "# $name"
    (
        cd "$tmp" &&
            HOME=$tmp/home XDG_DATA_HOME=$tmp/data XDG_CACHE_HOME=$tmp/cache \
                XDG_CONFIG_HOME=$tmp/config E2E_TMP=$tmp E2E_RESULTS=$results \
                timeout -k 5 "$this_limit" bash "$t"
    )
    status=$?
    p=$(grep -c '^ok' "$results")
    f=$(grep -c '^FAIL' "$results")
    while IFS=$'\t' read -r what check; do
        [ "$what" = FAIL ] && failures+=("$name: $check")
    done <"$results"
    if ! grep -qx END "$results"; then
        if [ $status -eq 124 ] || [ $status -eq 137 ]; then
            why="ran past its ${this_limit} s limit"
        else
            why="stopped before its end (exit status $status)"
        fi
        echo "FAIL - $name $why"
        failures+=("$name: $why")
        f=$((f + 1))
    fi
    passed=$((passed + p))
    failed=$((failed + f))
    if [ "$f" -eq 0 ]; then
        chmod -R u+w "$tmp" 2>/dev/null
        rm -rf "$tmp"
    else
        echo "# $name: $f failed; its files are kept in $tmp"
    fi
done

if [ ${#failures[@]} -gt 0 ]; then
    echo
    echo "failed:"
    printf '  %s\n' "${failures[@]}"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

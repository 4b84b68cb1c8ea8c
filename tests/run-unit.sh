#!/bin/bash
# Runs each Criterion test binary given on the command line, each in its own
# temp dir for XDG data, and fails if any test failed or crashed.  Criterion
# prints its own "Synthesis:" line per binary; this adds a total.
set -u
failed=0 total_pass=0 total_fail=0
for t in "$@"; do
    tmp=$(mktemp -d)
    out=$(XDG_DATA_HOME=$tmp/data XDG_CACHE_HOME=$tmp/cache HOME=$tmp "$t" --jobs 2 2>&1)
    rc=$?
    rm -rf "$tmp"
    synth=$(printf '%s\n' "$out" | grep 'Synthesis:' | tail -1)
    printf '%-28s %s\n' "$(basename "$t")" "${synth:-no synthesis (rc $rc)}"
    if [ $rc -ne 0 ] || [ -z "$synth" ]; then
        failed=1
        printf '%s\n' "$out" | grep -v '^\[----\]' | tail -40
    fi
    p=$(printf '%s' "$synth" | sed -n 's/.*Passing: \([0-9]*\).*/\1/p')
    f=$(printf '%s' "$synth" | sed -n 's/.*Failing: \([0-9]*\) | Crashing: \([0-9]*\).*/\1 \2/p')
    total_pass=$((total_pass + ${p:-0}))
    for n in $f; do total_fail=$((total_fail + n)); done
done
echo "unit: $total_pass passed, $total_fail failed"
exit $failed

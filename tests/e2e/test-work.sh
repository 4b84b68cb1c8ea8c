#!/bin/bash
# The commands the menu and the shell share with the CLI: hint, reset (with
# its backup), history, and watch (re-grade on save, with inotify; the
# recorded H100 report through a fake driver, as test-grade-recorded.sh).
set -u
. "$(dirname "$0")/lib.sh"

less=reduction/neighbored-less
work=work/$less.cu

run cudalab hint $less
expect_status "hint" 0
expect_out "hint: the first of three" "Hint 1 of 3 for $less:"
expect_out "hint: how to get the next" "(next: cudalab hint $less)"
# review D12: the CLI goes on from the last hint seen, as the tasks promise (it showed hint 1
# every time); the store keeps the count per exercise, for the shell and the menu too
run cudalab hint $less
expect_out "hint again: the second" "Hint 2 of 3 for $less:"
run cudalab hint reduction/neighbored
expect_out "another exercise counts its own hints" "Hint 1 of 3 for reduction/neighbored:"
run cudalab hint $less
expect_out "hint a third time: the third" "Hint 3 of 3 for $less:"
run cudalab hint $less
expect_out "past the last: says so, and how to see one again" \
    "No more hints: you have seen all 3 (cudalab hint $less N shows hint N again)."
run cudalab hint $less 1
expect_out "hint N still shows hint N" "Hint 1 of 3 for $less:"
run cudalab hint $less 4
expect_status "hint 4 of 3" 2
expect_err "hint 4 of 3: says the range" "hint: N must be 1 to 3"

run cudalab reset $less
expect_status "reset without --yes" 2
expect_err "reset without --yes: says how" "usage: cudalab reset EXERCISE --yes"
run cudalab reset $less --yes
expect_status "reset of a missing file creates it" 0
expect_out "reset: created" "Created $work from the starter."
echo "// my version" >"$work"
run cudalab reset $less --yes
expect_status "reset" 0
expect_out "reset: names the backup" "your version is in $work.1.bak"
expect_eq "reset: the backup holds the old file" "$(cat "$work.1.bak")" "// my version"
expect_eq "reset: the file is the starter again" "$(cat "$work")" \
    "$(cat "$CUDALAB_DATADIR_TEST/exercises/$less/starter.cu")"
run cudalab reset $less --yes
expect_out "reset again: a second backup" "your version is in $work.2.bak"

run cudalab history $less
expect_out "history: none yet" "no attempts at $less yet"

# watch, with the recorded H100 reports
fx=$T/libexec-$E2E_MARK
fake_programs "$fx"
printf '#!/bin/sh\ncat "%s" >&3\n' "$FIXTURES/reports/probe.json" >"$fx/device-probe"
printf '#!/bin/sh\n# %s\ncat "%s" >&3\n' "$E2E_MARK" "$FIXTURES/reports/less-starter.json" \
    >"$fx/reduce-int"
chmod +x "$fx/device-probe" "$fx/reduce-int"
export CUDALAB_LIBEXECDIR=$fx CUDALAB_ARCH=sm_90

# the binary itself in the background, not the cudalab function: a function runs in a subshell,
# and the TERM below would end the subshell and leave the watch running
"$CUDALAB_TEST_BIN" watch $less >"$T/watch.out" 2>&1 &
watcher=$!
wait_for() { # FILE TEXT SECONDS
    local i
    for ((i = 0; i < $3 * 10; i++)); do
        grep -Fq -- "$2" "$1" && return 0
        sleep 0.1
    done
    return 1
}
wait_for "$T/watch.out" "watching $work" 60
check "watch: grades at once (SLOW) and waits" $?
grep -q '^SLOW  ' "$T/watch.out"
check "watch: the first verdict is SLOW" $?
printf '#!/bin/sh\n# %s\ncat "%s" >&3\n' "$E2E_MARK" "$FIXTURES/reports/less-ref.json" \
    >"$fx/reduce-int"
cp "$CUDALAB_DATADIR_TEST/solutions/$less.cu" "$work.new"
mv "$work.new" "$work" # as editors save
wait_for "$T/watch.out" "PASS  1.82x" 60
check "watch: saving grades again (PASS)" $?
kill -TERM $watcher # (a background job of a script ignores SIGINT)
wait $watcher
expect_eq "watch: SIGTERM ends it" "$?" 143
expect_no_process "watch: no child process left" "$E2E_MARK"
left=$(for p in $(pgrep -f -- "watch $less"); do
    grep -qz "^E2E_TMP=$T\$" "/proc/$p/environ" 2>/dev/null && echo "$p"
done)
expect_eq "watch: the watch itself is gone, not only its shell" "$left" ""

run cudalab history $less
expect_out_re "history: the SLOW attempt" '^    1  .*SLOW .* 1\.00x$'
expect_out_re "history: then the PASS" '^    2  .*PASS .* 1\.82x$'

e2e_finish

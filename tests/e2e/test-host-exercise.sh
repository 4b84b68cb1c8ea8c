#!/bin/bash
# A host-code exercise (reduction/recursive) graded for real without a GPU:
# nvcc builds the file into a shared object, the host-reduce-int driver calls
# the function in a child process of its own.  Planted functions that crash,
# loop, end the process, lack the right signature or write to the report
# descriptor each get their verdict, and the lab is unharmed afterwards.
set -u
. "$(dirname "$0")/lib.sh"

ex=reduction/recursive
mkdir -p attempts

run cudalab grade $ex "$CUDALAB_DATADIR_TEST/exercises/reduction/recursive/starter.cu" --json
expect_status "the notes' recursiveReduce is graded" 1
expect_json "the notes' recursiveReduce loses the odd element: WRONG at n = 3" \
    'j["verdict"] == "WRONG" and "n = 3" in j["message"]'
expect_json "the report comes from the host backend" 'j["report"]["backend"] == "host"'

run cudalab grade $ex "$CUDALAB_DATADIR_TEST/solutions/reduction/recursive.cu"
expect_status "the reference passes" 0
expect_out_re "the reference: PASS on correctness alone" '^PASS  correct at every size'
expect_out "the table lists n = 16777216" "16777216"
expect_eq "the attempt is stored with backend host" \
    "$(db_rows "select backend, verdict from attempts where exercise = '$ex' order by id desc limit 1")" \
    "host|PASS"

cat >attempts/crash.cu <<'CU'
int recursiveReduce(int *data, int const size) { return *(volatile int *)0 + data[size]; }
CU
run cudalab grade $ex attempts/crash.cu
expect_status "a crashing function" 1
expect_out_re "a crash is a RUNTIME_ERROR naming the signal" \
    '^RUNTIME_ERROR  failed at n = 1: recursiveReduce crashed: Segmentation fault'

cat >attempts/exits.cu <<'CU'
#include <stdlib.h>
int recursiveReduce(int *data, int const size) { exit(0); }
CU
run cudalab grade $ex attempts/exits.cu
expect_out_re "a function that ends the process is a RUNTIME_ERROR" \
    '^RUNTIME_ERROR .*ended the process \(exit status 0\) instead of returning'

cat >attempts/signature.cu <<'CU'
int recursiveReduce(long *data, int const size) { return 0; }
CU
run cudalab grade $ex attempts/signature.cu
expect_out_re "another signature is a COMPILE_ERROR" \
    "^COMPILE_ERROR  the file defines no function recursiveReduce with this exercise's parameters"

# the report pipe is closed in the child: a forged report does not reach the lab
cat >attempts/forge.cu <<'CU'
#include <string.h>
#include <unistd.h>
static const char fake[] = "{\"version\":1,\"status\":\"ok\",\"cases\":[],\"timings\":[]}";
int recursiveReduce(int *data, int const size)
{
    for (int fd = 3; fd < 64; fd++)
        write(fd, fake, strlen(fake));
    return 0;
}
CU
run cudalab grade $ex attempts/forge.cu
# (an input of one 0 byte, 1 in 256, makes the first run right and the message "right on the first
# run, then wrong at n = 1 on new inputs": WRONG all the same)
expect_out_re "a function writing a forged report is still WRONG" '^WRONG  .*wrong at n = 1.*: returned 0'

# the driver's report pipe through /proc/DRIVER/fd/3, then the driver killed: the driver is
# non-dumpable (and a child of root's runs as nobody), so the pipe is out of reach
forger=$CUDALAB_DATADIR_TEST/exercises/reduction/recursive/examples/cheat/forges-report.cu
run cudalab grade $ex "$forger" --json
expect_json "a report forged through /proc/PID/fd/3 does not reach the lab: WRONG" \
    'j["verdict"] == "WRONG" and "returned 0" in j["message"]'
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
    # the lab under test may sit where only root can reach it (a checkout under /root, as CI
    # has): the other user gets a copy of it in the test folder
    lab=$T/nobody-lab
    mkdir -p "$lab/bin" "$lab/libexec" "$lab/locale" nobody
    cp "$CUDALAB_TEST_BIN" "$lab/bin/"
    cp -R "$CUDALAB_LIBEXECDIR_TEST"/. "$lab/libexec/"
    cp -R "$CUDALAB_LOCALEDIR"/. "$lab/locale/"
    copy_datadir "$lab/data"
    cp "$forger" nobody/forge.cu
    chown -R 65534:65534 nobody
    chmod -R a+rX "$lab"
    chmod o+x "$T" # the test folder, for nobody to reach its own folder in it
    run setpriv --reuid=65534 --regid=65534 --clear-groups env HOME="$T/nobody" \
        XDG_DATA_HOME="$T/nobody/data" XDG_CACHE_HOME="$T/nobody/cache" \
        CUDALAB_DATADIR="$lab/data" CUDALAB_LIBEXECDIR="$lab/libexec" \
        CUDALAB_LOCALEDIR="$lab/locale" "$lab/bin/cudalab" grade $ex "$T/nobody/forge.cu"
    expect_out_re "as a user of its own (not root): the forged report is out of reach too, WRONG" \
        '^WRONG  .*wrong at n = 1.*: returned 0'
fi

cat >attempts/syntax.cu <<'CU'
int recursiveReduce(int *data, int const size) { return data[0] }
CU
run cudalab grade $ex attempts/syntax.cu
expect_out_re "a syntax error is a COMPILE_ERROR" '^COMPILE_ERROR '
expect_out "nvcc's message names the file and line" "attempts/syntax.cu:1:"

# an endless loop: the lab's run timeout stops the driver and its child
copy_datadir data
sed -i 's/^run_timeout *=.*/run_timeout = 3/' data/exercises/reduction/recursive/exercise.ini
cat >attempts/loop-$E2E_MARK.cu <<'CU'
int recursiveReduce(int *data, int const size) { for (;;) ; }
CU
CUDALAB_DATADIR=$T/data run cudalab grade $ex "attempts/loop-$E2E_MARK.cu"
expect_out_re "an endless function is a TIMEOUT" '^TIMEOUT '
expect_faster "the endless function is stopped by the 3 s run timeout" 30
expect_no_process "no driver or child is left behind" "cudalab-driver host-reduce-int"

run cudalab grade $ex "$CUDALAB_DATADIR_TEST/solutions/reduction/recursive.cu" --no-record
expect_status "after all that the reference still passes" 0

e2e_finish

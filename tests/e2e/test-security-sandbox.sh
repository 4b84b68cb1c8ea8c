#!/bin/bash
# e2e-timeout: 420
# The security review of 2026-11-28 (# 34), the sandbox's half: what a hostile student's code
# reads, spends and shows, and what it does to the others' grades.  Each check names its break
# (B1, B2, B3, B4, B7, B10, B11, B12, B15) and failed on b6292df.  Host code runs in the real
# driver; device code is compiled by the real nvcc and, where its verdict is not the point,
# replayed by a fake driver (fake-gpu.sh).  Run as root (CI) and as a user of its own (B2).
set -u
. "$(dirname "$0")/lib.sh"

less=reduction/neighbored-less
rec=reduction/recursive
occ=occupancy/calculator
sol=$CUDALAB_DATADIR_TEST/solutions/reduction/neighbored-less.cu
. "$(dirname "$0")/fake-gpu.sh"
replay_driver() { # the fake driver replays the report a submission names
    fake_driver "ptx=\$(printf '%s\n' \"\$@\" | sed -n 's/^--student=//p')
tag=\$(grep -a -o 'lab_fake_report_[a-z_]*' \"\$ptx\" | head -1)
tag=\${tag#lab_fake_report_}
cat \"$reports/\${tag//_/-}.json\" >&3"
}
replay_driver
if ! bwrap_usable; then
    echo "SKIP: bubblewrap cannot run here ($(head -1 "$T/bwrap.err")): these are the sandbox's tests"
    e2e_finish
    exit 0
fi
export CUDALAB_SANDBOX=on
unset CUDALAB_CACHE_MAX_MB # the default bound, but where B11 sets one
# host code first: the real driver, and no fake GPU (the occupancy's answers then come from the
# lab's tables)
export CUDALAB_LIBEXECDIR=$CUDALAB_LIBEXECDIR_TEST
unset CUDALAB_ARCH

# sub FILE [KERNEL-FILE]: a submission whose fake driver replays an H100's PASS
sub() {
    mkdir -p "$(dirname "$1")"
    { echo "__device__ int lab_fake_report_less_ref;"; cat "${2:-$sol}"; } >"$1"
}
# at SECTION: the section's start and the test's seconds so far on the log
t0=$SECONDS
at() { echo "# $1 at $((SECONDS - t0)) s"; }
# verdicts GRADEBOOK: "student verdict" lines, sorted
verdicts() {
    python3 -c 'import csv, sys
for r in sorted(csv.DictReader(open(sys.argv[1], newline="")), key=lambda r: r["student"]):
    print(r["student"], r["verdict"])' "$1"
}
# limit ROW COLUMN: limits.def's value (bytes, seconds, a count) of a row and column
limit() {
    python3 - "$E2E_SRC/lab/platform/limits.def" "$1" "$2" <<'PY'
import re, sys
text = re.sub(r"/\*.*?\*/", "", open(sys.argv[1]).read(), flags=re.S)
cols = ["label", "cpu", "as", "fsize", "nproc", "nofile", "tmpfs", "gpu"]
for kind, args in re.findall(r"LAB_SANDBOX_JOB\((\w+),(.*?)\)\s*$", text, flags=re.S | re.M):
    if kind == sys.argv[2]:
        v = [a.strip() for a in re.split(r",(?=(?:[^\"]*\"[^\"]*\")*[^\"]*$)", args.strip())]
        expr = v[cols.index(sys.argv[3])].replace("LAB_SANDBOX_MIB", str(1 << 20)).replace("LAB_SANDBOX_GIB", str(1 << 30))
        print(eval(expr))
PY
}

at B1
# --- B1: the occupancy calculator's driver put all 552 expected answers (and the seed) on its
# command line, and the student's host function (a fork of the driver) holds them in memory too:
# one read of /proc/self/cmdline, or a scan of its own memory, passed 10/10 ---
mkdir -p b1
hostile=$E2E_SRC/tests/fixtures/hostile
cp "$hostile/occupancy-cmdline.cu" b1/cmdline.cu
cp "$hostile/occupancy-memory.cu" b1/memory.cu
run cudalab batch $occ b1/* --out gb1 --jobs 2
expect_status "B1: a sandboxed batch of two cheats" 0
expect_eq "B1: neither the command lines nor the process's memory hold an answer: WRONG, WRONG" \
    "$(verdicts gb1/gradebook.csv)" "cmdline WRONG
memory WRONG"
CUDALAB_SANDBOX=off run cudalab grade $occ b1/cmdline.cu --no-record
expect_out_re "B1: unsandboxed, no command line holds an answer either: WRONG" '^WRONG '

at B7
# --- B7: the grader's environment reached the sandboxed host code (an API token leaked 4 bytes a
# grading through the verdict's numbers); the seed was on the driver's command line ---
cp "$hostile/recursive-peek.cu" b7-peek.cu
SECRET_TOKEN=hunter2-$E2E_MARK run cudalab grade $rec b7-peek.cu --no-record
expect_out_re "B7: the grader's SECRET_TOKEN and the seed are out of the host code's reach: PASS" '^PASS '
at B15
# --- B15: an unsandboxed grading's double-forked daemon outlived it ---
sleeper=$(marked_sleep "$E2E_MARK-daemon")
chmod o+x "$T" "$T/bin" # for the nobody that runs a root's host code
cat >b15.cu <<CU
#include <unistd.h>
int recursiveReduce(int *data, int const size)
{
    if (fork() == 0) {
        setsid();
        if (fork() == 0)
            execl("$sleeper", "$sleeper", "77.5", (char *)0);
        _exit(0);
    }
    int sum = 0;
    for (int i = 0; i < size; i++)
        sum += data[i];
    return sum;
}
CU
CUDALAB_SANDBOX=off run cudalab grade $rec b15.cu --no-record
expect_out_re "B15: the daemon's function is graded (PASS)" '^PASS '
expect_no_process "B15: no daemon of its outlives the grading" "$E2E_MARK-daemon"

at B4
# --- B4: host code ran under the driver's limits and a 16 GiB address space, not the host-code
# row of the limits table (the release build: a sanitizer's shadow memory needs no limit) ---
if [ -x "$E2E_SRC/bin/cudalab" ] && [ -x "$E2E_SRC/build/libexec/cudalab/cudalab-driver" ]; then
    cat >b4.cu <<CU
// the sum when every limit is limits.def's host-code row and an 8 GiB mapping fails; else the
// sum plus one bit per difference
#include <sys/mman.h>
#include <sys/resource.h>
static unsigned long long cur(int r)
{
    struct rlimit l;
    return getrlimit(r, &l) == 0 ? (unsigned long long)l.rlim_cur : 0;
}
int recursiveReduce(int *data, int const size)
{
    int sum = 0, bad = 0;
    for (int i = 0; i < size; i++)
        sum += data[i];
    bad |= (cur(RLIMIT_CPU) != $(limit HOST cpu)ull) << 0;
    bad |= (cur(RLIMIT_AS) != $(limit HOST as)ull) << 1;
    bad |= (cur(RLIMIT_FSIZE) != $(limit HOST fsize)ull) << 2;
    bad |= (cur(RLIMIT_NPROC) != $(limit HOST nproc)ull) << 3;
    bad |= (cur(RLIMIT_NOFILE) != $(limit HOST nofile)ull) << 4;
    bad |= (mmap(0, 8ull << 30, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) !=
            MAP_FAILED) << 5;
    return sum + bad;
}
CU
    CUDALAB_LIBEXECDIR=$E2E_SRC/build/libexec/cudalab run "$E2E_SRC/bin/cudalab" grade $rec b4.cu \
        --no-record
    expect_out_re "B4: host code gets limits.def's host-code row, and no 8 GiB of memory: PASS" '^PASS '
fi

at B2
# --- B2: one student's fork bomb gave others COMPILE_ERROR or ERROR ("bwrap: Can't fork"), and a
# re-run skipped them as already graded ---
cat >"$T/bomb.cu" <<'CU'
// forks until it may not, and holds its processes
#include <unistd.h>
int recursiveReduce(int *data, int const size)
{
    for (int i = 0; i < 4096 && fork() > 0; i++)
        ;
    sleep(1000);
    return 0;
}
CU
copy_datadir "$T/b2data"
sed -i 's/^run_timeout *=.*/run_timeout = 40/' "$T/b2data/exercises/reduction/recursive/exercise.ini"
chmod -R a+rX "$T/b2data"
# b2 LABEL DIR LAB...: the bomb's batch, run by LAB (a cudalab command line), then, while the bomb
# holds its processes, the batch of two honest students in DIR, whose verdicts must be theirs
b2() {
    local label=$1 dir=$2 bomber n=0 i
    shift 2
    mkdir -p "$dir/bomb" "$dir/subs"
    cp "$T/bomb.cu" "$dir/bomb/aa-bomb.cu"
    for i in 1 2; do cp "$CUDALAB_DATADIR_TEST/solutions/reduction/recursive.cu" "$dir/subs/victim$i.cu"; done
    chmod -R a+rwX "$dir"
    "$@" batch $rec "$dir/bomb/aa-bomb.cu" --out "$dir/gbomb" >"$dir/bomb.log" 2>&1 &
    bomber=$!
    for i in $(seq 900); do
        n=$(pgrep -c -f -- "$T/.*host-reduce-int")
        [ "$n" -ge 64 ] && break
        sleep 0.1
    done
    [ "$n" -ge 64 ]
    check "B2, $label: the bomb forks ($n processes)" $?
    run "$@" batch $rec "$dir"/subs/* --out "$dir/gb" --jobs 2
    expect_eq "B2, $label: the bomb harms no other student" "$(verdicts "$dir/gb/gradebook.csv")" \
        "victim1 PASS
victim2 PASS"
    kill -TERM $bomber
    wait $bomber
    expect_no_process "B2, $label: nothing of the bomb is left" "$dir/"
}
b2 "root (each job its own user)" "$T/b2root" env CUDALAB_DATADIR="$T/b2data" CUDALAB_LIBEXECDIR="$fx" \
    "$CUDALAB_TEST_BIN"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
    # a user of its own, with no other process, whose processes all count against one limit;
    # the lab under test copied where that user may read it
    uid=4242424
    lab=$T/b2lab
    mkdir -p "$lab/bin" "$lab/libexec" "$lab/locale" "$T/b2user"
    cp "$CUDALAB_TEST_BIN" "$lab/bin/"
    cp -R "$CUDALAB_LIBEXECDIR_TEST"/. "$lab/libexec/"
    cp -R "$CUDALAB_LOCALEDIR"/. "$lab/locale/"
    chmod -R a+rX "$lab"
    chmod o+x "$T"
    chown $uid:$uid "$T/b2user"
    b2 "a user of its own (each job its own user namespace)" "$T/b2user" \
        setpriv --reuid=$uid --regid=$uid --clear-groups env HOME="$T/b2user" \
        XDG_DATA_HOME="$T/b2user/data" XDG_CACHE_HOME="$T/b2user/cache" CUDALAB_DATADIR="$T/b2data" \
        CUDALAB_LIBEXECDIR="$lab/libexec" CUDALAB_LOCALEDIR="$lab/locale" "$lab/bin/cudalab"
fi

# --- the rest: device code, whose verdict a fake driver replays ---
export CUDALAB_LIBEXECDIR=$fx CUDALAB_ARCH=sm_90
fake_driver "printf '{\"version\":1,\"family\":\"reduce-int\",\"backend\":\"cuda\",\"status\":\"no_gpu\",\"reason\":\"env:%s end\"}' \"\$(env | cut -d= -f1 | grep -E '^(SECRET_TOKEN|HOME|XDG_.*)\$' | sed 's/^/ /' | tr -d '\n')\" >&3"
sub b7.cu
SECRET_TOKEN=hunter2-$E2E_MARK run cudalab grade $less b7.cu --no-record
expect_out "B7: the driver's environment has no SECRET_TOKEN, HOME or XDG_* of the grader's" "env: end"

at B3
# --- B3: the sandbox's /tmp and /dev/shm were tmpfs of half the RAM each, outside every rlimit ---
fake_driver "why=''
for d in /tmp /dev/shm; do why=\"\$why \$d=\$(df -k --output=size \$d | tail -1 | tr -d ' ')\"; done
head -c 100000000 /dev/zero >/dev/shm/big 2>/dev/null && why=\"\$why shm-took-100MB\"
for d in / /dev; do touch \$d/x 2>/dev/null && why=\"\$why \$d-writable\"; done
printf '{\"version\":1,\"family\":\"reduce-int\",\"backend\":\"cuda\",\"status\":\"no_gpu\",\"reason\":\"sizes:%s end\"}' \"\$why\" >&3"
run cudalab grade $less b7.cu --no-record
kib=$(($(limit DRIVER tmpfs) / 1024))
expect_out "B3: /tmp and /dev/shm are limits.def's size, and nothing else is writable memory" \
    "sizes: /tmp=$kib /dev/shm=$kib end"

replay_driver

at B12
# --- B12: escape sequences in a file name or an #error were written raw to the grader's terminal
# (clear the screen, print a fake verdict) ---
esc=$'x\e[2J\e[1;1Hall PASS\e]0;pwned\a'
sub "$esc.cu"
run cudalab grade $less "$esc.cu" --no-record
expect_out_re "B12: the file with escapes in its name is graded" '^PASS '
expect_out "B12: its name is shown, ESC as U+241B" "x␛[2J␛[1;1Hall PASS␛]0;pwned␇"
printf '#error \e[2J\e[1;1Hall PASS\n' >b12-error.cu
run cudalab grade $less b12-error.cu --no-record
expect_out_re "B12: an #error with escapes is a COMPILE_ERROR" '^COMPILE_ERROR'
expect_out "B12: its message is shown, not obeyed" "#error ␛[2J␛[1;1Hall PASS"
mkdir -p b12
sub "b12/$esc.cu"
run cudalab batch $less b12/* --out gb12
grep -q $'\e' "$T/.out" "$T/.err" 2>/dev/null
[ $? -ne 0 ]
check "B12: no ESC byte in what the batch prints either" $?
run cudalab grade $less "$esc.cu" --no-record
grep -q $'\e' "$T/.out" "$T/.err"
[ $? -ne 0 ]
check "B12: no ESC byte in what the grading prints" $?

at B10
# --- B10: a UTF-8 byte order mark before valid code was a COMPILE_ERROR (the lab's #line went
# before it) ---
sub plain.cu
{ printf '\xef\xbb\xbf'; cat plain.cu; } >bom.cu
run cudalab grade $less bom.cu --no-record
expect_out_re "B10: a file that starts with a BOM compiles and is graded" '^PASS '

at B11
# --- B11: the build cache grew without bound (a 100 MiB __device__ array per submission stayed) ---
mkdir -p b11
for i in 1 2 3; do
    { echo "__device__ char fill$i[3u << 20] = {$i};"; cat "$sol"; } >"b11/fill$i-body.cu"
    sub "b11/fill$i.cu" "b11/fill$i-body.cu"
    rm "b11/fill$i-body.cu"
done
rm -rf "$CACHE"
CUDALAB_CACHE_MAX_MB=4 run cudalab batch $less b11/* --out gb11 --jobs 1
expect_eq "B11: three 3 MiB builds, each graded" "$(verdicts gb11/gradebook.csv)" "fill1 PASS
fill2 PASS
fill3 PASS"
kib=$(du -sk --exclude=.tmp "$CACHE" | cut -f1)
[ "$kib" -le $((4 * 1024)) ]
check "B11: the cache stays within CUDALAB_CACHE_MAX_MB=4 ($kib KiB)" $?

# a sandbox that fails is the lab's error (ERROR), never the student's verdict, and the next run
# grades the submission again
cat >"$T/flaky-bwrap" <<SH
#!/bin/sh
# bubblewrap, except for a compile while $T/b2fail exists: bwrap's own failure, as a bomb caused
case " \$* " in *nvcc*) [ -e "$T/b2fail" ] && { echo "bwrap: Can't fork for pid 1: Resource temporarily unavailable" >&2; exit 1; } ;; esac
exec bwrap "\$@"
SH
chmod +x "$T/flaky-bwrap"
mkdir -p b2flaky
sub b2flaky/ann.cu
touch "$T/b2fail"
CUDALAB_BWRAP=$T/flaky-bwrap run cudalab batch $less b2flaky/ann.cu --out gbf
expect_eq "B2: bubblewrap's own failure is the lab's ERROR, not COMPILE_ERROR" "$(verdicts gbf/gradebook.csv)" "ann ERROR"
python3 - gbf/gradebook.json <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))["submissions"][0]["message"]
assert "the sandbox could not run" in m and "Can't fork" in m, m
PY
check "B2: its message says the sandbox failed, in bubblewrap's words" $?
rm "$T/b2fail"
CUDALAB_BWRAP=$T/flaky-bwrap run cudalab batch $less b2flaky/ann.cu --out gbf
expect_out_re "B2: the next run grades it again (not 'already graded')" '^graded 1, skipped 0'
expect_eq "B2: and now it passes" "$(verdicts gbf/gradebook.csv)" "ann PASS"

e2e_finish

#!/bin/bash
# e2e-timeout: 420
# Issue 35: `cudalab batch` over every GPU of a node, on a pretend node of three GPUs: the
# stand-in libcuda (tests/fakecuda, built with FAKECUDA_DEVICES=3) under the real, sanitized lab and
# driver, with the students' files really compiled by nvcc (each holds the key line the fake
# reads from its cubin).  Checked: every GPU is used; two timings never share a GPU (the fake
# logs each process's work on its GPU: no two intervals on one GPU overlap), a student's
# grading beside the batch included; each grader's driver is pinned to its GPU (the gradebook's
# GPU is the one its driver's report names) and the gradebook records the GPU (index, name,
# UUID, PCI bus) and the speed line of each submission; --gpus chooses (by number or UUID) and
# refuses what is not there; CUDA_VISIBLE_DEVICES is honoured with its own numbering; the same
# submissions graded on each GPU get the same verdicts; kill -9 half-way and a rerun lose
# nothing and grade nothing twice; the sandbox carries the libraries that come through
# LD_LIBRARY_PATH (the fake libcuda, a driver's own library), and a library the loader cannot
# find is the lab's error naming it, never the student's RUNTIME_ERROR.
set -u
. "$(dirname "$0")/lib.sh"

ex=reduction/sum-atomic
sandbox=()
bwrap_usable() {
    bwrap --ro-bind / / --dev /dev --proc /proc --unshare-all --unshare-user --uid 65534 \
        --gid 65534 --die-with-parent true 2>/dev/null
}
bwrap_usable || sandbox=(--no-sandbox)

. "$E2E_SRC/tests/fakecuda/node.sh"
fakecuda_node "$E2E_SRC" 3 "$T"
check "the pretend node of three GPUs builds" $?
cp data/solutions/$ex.cu sol.cu
export CUDALAB_DATADIR=$T/data LD_LIBRARY_PATH=$T/fake
unset CUDA_VISIBLE_DEVICES # lib.sh hides real GPUs so; the pretend node's are all wanted here
uuid() { printf 'GPU-fa4ec0da-0000-4000-8000-0000000000%02x' "$1"; }

# the class: each verdict the fake GPU gives (PASS; SLOW at 25x the reference's time; WRONG, a
# lost update the fake makes on the GPU), a compile error, each submission its own code
mkdir -p subs
n=0
for kind in pass pass pass pass slow slow wrong wrong broken; do
    n=$((n + 1))
    f=subs/s$n-$kind.cu
    { echo "#define STUDENT \"s$n\""
      case $kind in
      pass) fakecuda_source devsum 4000 ;;
      slow) fakecuda_source devsum 100000 ;;
      wrong) fakecuda_source racy 4000 ;;
      broken) echo "int broken(" && cat "$CUDALAB_DATADIR_TEST/solutions/$ex.cu" ;;
      esac; } >"$f"
    case $kind in broken) want=COMPILE_ERROR ;; *) want=$(tr a-z A-Z <<<"$kind") ;; esac
    echo "s$n-$kind $want" >>want.txt
done

# verdicts_right GB: every verdict of GB/gradebook.csv the one want.txt names
verdicts_right() {
    python3 - "$1/gradebook.csv" want.txt <<'PY'
import csv, sys
got = {r["student"]: r["verdict"] for r in csv.DictReader(open(sys.argv[1], newline=""))}
want = dict(l.split() for l in open(sys.argv[2]))
bad = {s: (w, got.get(s)) for s, w in want.items() if got.get(s) != w}
assert not bad and len(got) == len(want), bad
PY
}

# no_overlap DIR: the fake's busy log: no two processes' work on one GPU overlaps; prints
# "UUID count" per GPU used
no_overlap() {
    python3 - "$1" <<'PY'
import glob, sys, collections
runs = collections.defaultdict(list)
for f in glob.glob(sys.argv[1] + "/busy-*"):
    uuid, first, last, pid = open(f).read().split()
    runs[uuid].append((float(first), float(last), pid))
for uuid, r in sorted(runs.items()):
    r.sort()
    for a, b in zip(r, r[1:]):
        assert a[1] <= b[0], f"{uuid}: pid {a[2]} worked until {a[1]:.3f}, pid {b[2]} from {b[0]:.3f}"
    print(uuid, len(r))
PY
}

# --- the whole node, a student's grading beside it --------------------------------------------
mkdir -p busy
export FAKECUDA_BUSY_LOG=$T/busy FAKECUDA_LAUNCH_US=1500
cudalab batch $ex subs/* --out g3 --jobs 4 --no-sandbox >b3.out 2>b3.err &
pb=$!
# the student's lab sees every GPU and opens GPU 0: it must queue behind the batch's graders
# on GPU 0 (one lock per GPU, keyed by its UUID, whatever the numbering); it grades again and
# again while the batch runs
students=0 student_ok=0
while kill -0 $pb 2>/dev/null; do
    cudalab grade $ex sol.cu --no-record >student.out 2>&1
    students=$((students + 1))
    grep -q '^PASS' student.out && student_ok=$((student_ok + 1))
done
wait $pb
RC=$? OUT=$(<b3.out) ERR=$(<b3.err) RUN_CMD="cudalab batch $ex subs/* --out g3 --jobs 4"
expect_status "three GPUs: the batch" 0
[ "$students" -ge 2 ] && [ "$student_ok" -eq "$students" ]
check "three GPUs: the student's $students gradings beside it all pass" $?
expect_out "three GPUs: the summary counts every verdict" \
    "verdicts: PASS 4, SLOW 2, WRONG 2, COMPILE_ERROR 1"
for i in 0 1 2; do
    expect_out_re "three GPUs: GPU $i's share in the summary" \
        "^GPU $i Fake GPU \(tests/fakecuda\) \($(uuid $i)\): [1-9][0-9]* timed$"
done
expect_err_re "three GPUs: progress lines name the GPU" '^\[[0-9]+/9\] s[0-9]+-[a-z]+ [A-Z_]+ on GPU [012] \('
verdicts_right g3
check "three GPUs: every verdict right" $?
busy=$(no_overlap busy)
check "three GPUs: no two timings ever shared a GPU (the fake's busy log)" $?
expect_eq "three GPUs: every GPU worked, GPU 0 for the student's gradings too" \
    "$(cut -d' ' -f1 <<<"$busy" | paste -sd' ')" "$(uuid 0) $(uuid 1) $(uuid 2)"
python3 - g3/gradebook.json "$busy" "$students" <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))
logged = dict(l.split() for l in sys.argv[2].splitlines())
timed = {}
for s in b["submissions"]:
    if s["verdict"] == "COMPILE_ERROR":
        assert "gpu" not in s, s["student"]
        continue
    g = s["gpu"]
    assert g["name"] == "Fake GPU (tests/fakecuda)" and g["pci_bus_id"] == "00000000:%02X:00.0" % (0x10 + g["index"]), g
    assert g["uuid"] == "GPU-fa4ec0da-0000-4000-8000-0000000000%02x" % g["index"], g
    # pinned: the driver's own report names the GPU the gradebook records
    assert s["report"]["device"]["uuid"] == g["uuid"], (s["student"], s["report"]["device"])
    if s["verdict"] in ("PASS", "SLOW"):  # judged on speed: the line this GPU gave (issue 31)
        line = s["speed_line"]
        assert (line["manifest_min_speedup"], line["manifest_min_fraction_of_reference"]) == (0.1, 0.5), line
        assert line["source"] in ("manifest", "this-gpu", "match-reference"), line
    else:  # a WRONG kernel's speed is held to no line
        assert "speed_line" not in s, s["speed_line"]
    timed[g["uuid"]] = timed.get(g["uuid"], 0) + 1
# every process that worked on a GPU was a timed submission's driver, or the student's
timed["GPU-fa4ec0da-0000-4000-8000-000000000000"] += int(sys.argv[3])
assert {u: int(n) for u, n in logged.items()} == timed, (logged, timed)
PY
check "three GPUs: each result names the GPU its driver ran on (name, index, UUID, PCI bus) and the line it was held to" $?
python3 - g3/gradebook.csv g3/gradebook.json <<'PY'
import csv, json, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
assert rows[0][12:] == ["gpu", "gpu_uuid"], rows[0]
gpus = {s["student"]: s.get("gpu") for s in json.load(open(sys.argv[2]))["submissions"]}
for r in rows[1:]:
    g = gpus[r[0]]
    assert r[12:] == ([str(g["index"]), g["uuid"]] if g else ["", ""]), (r, g)
PY
check "three GPUs: the CSV's gpu and gpu_uuid columns" $?

# --- --gpus: by number and by UUID, and what is not there ---------------------------------------
rm -f busy/*
run cudalab batch $ex subs/* --out g12 --jobs 3 --no-sandbox --gpus "1,$(uuid 2)"
expect_status "--gpus 1,UUID: graded" 0
expect_eq "--gpus 1,UUID: only those two GPUs worked" "$(no_overlap busy | cut -d' ' -f1 | paste -sd' ')" \
    "$(uuid 1) $(uuid 2)"
expect_out_lacks "--gpus 1,UUID: GPU 0 is not in the summary" "GPU 0 "
run cudalab batch $ex subs/* --out gbad --gpus 3 --no-sandbox
expect_status "--gpus 3 of three: refused" 2
expect_err "--gpus 3 of three: says what is there" \
    "--gpus: no GPU '3' here; the drivers see 3: 0 Fake GPU (tests/fakecuda) ($(uuid 0)), 1"
run cudalab batch $ex subs/* --out gbad --gpus 1,1 --no-sandbox
expect_status "--gpus 1,1: refused" 2
expect_err "--gpus 1,1: says so" "--gpus: GPU '1' named twice"
CUDA_VISIBLE_DEVICES= run cudalab batch $ex subs/* --out gbad --gpus 0 --no-sandbox
expect_status "--gpus with no GPU visible: refused" 2
expect_err "--gpus with no GPU visible: says why" "--gpus 0: no GPU here: no CUDA-capable device is visible"
run cudalab batch $ex subs/* --out gbad --gpus 0 --slurm --no-sandbox
expect_status "--gpus with --slurm: a usage error" 2
expect_err "--gpus with --slurm: says to ask Slurm" "ask with --gres gpu:N"

# --- on a terminal: one live line, rewritten ---------------------------------------------------
cmd=$(printf '%q ' "$CUDALAB_TEST_BIN" batch $ex subs/s1-pass.cu subs/s2-pass.cu subs/s5-slow.cu \
    --out gt --jobs 2 --no-sandbox)
run script -qec "$cmd" /dev/null </dev/null
expect_status "on a terminal: graded" 0
grep -q $'\r\033\[K\[#*' <<<"$OUT" && grep -Eq '3/3  [0-9.]+/min  ETA 0m00s  GPU0\*? [0-9]+ GPU1\*? [0-9]+ GPU2\*? [0-9]+  ' <<<"$OUT"
check "on a terminal: the live line (done/total, rate, ETA, what each GPU timed)" $?
expect_out_lacks "on a terminal: no plain progress lines" "[1/3]"

# --- CUDA_VISIBLE_DEVICES: the batch's own numbering, each grader pinned by UUID ----------------
rm -f busy/*
CUDA_VISIBLE_DEVICES=2,0 run cudalab batch $ex subs/* --out gv --jobs 3 --no-sandbox
expect_status "CUDA_VISIBLE_DEVICES=2,0: graded" 0
expect_out "CUDA_VISIBLE_DEVICES=2,0: its GPU 0 is the node's GPU 2" "GPU 0 Fake GPU (tests/fakecuda) ($(uuid 2))"
expect_out "CUDA_VISIBLE_DEVICES=2,0: its GPU 1 is the node's GPU 0" "GPU 1 Fake GPU (tests/fakecuda) ($(uuid 0))"
expect_eq "CUDA_VISIBLE_DEVICES=2,0: GPU 1 of the node untouched" "$(no_overlap busy | cut -d' ' -f1 | paste -sd' ')" \
    "$(uuid 0) $(uuid 2)"
unset FAKECUDA_BUSY_LOG

# --- identical GPUs, identical verdicts: the class on each GPU alone ------------------------------
for i in 0 1 2; do
    run cudalab batch $ex subs/* --out "gone-$i" --jobs 3 --no-sandbox --gpus $i
    expect_status "the class on GPU $i alone" 0
done
python3 - gone-0 gone-1 gone-2 <<'PY'
import csv, sys
books = [{r["student"]: r for r in csv.DictReader(open(d + "/gradebook.csv", newline=""))} for d in sys.argv[1:]]
for i, b in enumerate(books):
    assert {r["gpu"] for r in b.values() if r["verdict"] != "COMPILE_ERROR"} == {str(i)}, (i, b)
same = lambda r: (r["verdict"], r["points"], r["median_us"], r["fraction_of_reference"], r["flags"])
for s in books[0]:
    assert same(books[0][s]) == same(books[1][s]) == same(books[2][s]), s
PY
check "identical GPUs: each submission's verdict, points, time and flags the same on each" $?

# --- kill -9 half-way, then a rerun: nothing lost, nothing graded twice ------------------------
mkdir -p many
for i in $(seq 1 12); do
    { echo "#define STUDENT \"m$i\""; fakecuda_source devsum 4000; } >many/m$i.cu
done
cudalab batch $ex many/* --out gk --jobs 2 --no-sandbox >/dev/null 2>&1 # the build cache
rm -rf gk
FAKECUDA_LAUNCH_US=5000 "$CUDALAB_TEST_BIN" batch $ex "$T"/many/* --out "$T/gk" --jobs 3 \
    --no-sandbox >/dev/null 2>&1 &
pk=$!
for i in $(seq 600); do
    [ "$(ls gk/results 2>/dev/null | wc -l)" -ge 3 ] && break
    sleep 0.1
done
kill -KILL $pk
wait $pk 2>/dev/null
kept=$(ls gk/results | wc -l)
[ "$kept" -ge 3 ] && [ "$kept" -lt 12 ]
check "kill -9 half-way: $kept of 12 graded before it" $?
expect_no_process "kill -9 half-way: no grader or driver left" "$T/gk/"
md5sum gk/results/*.json >before.md5
run cudalab batch $ex many/* --out gk --jobs 3 --no-sandbox
expect_status "the rerun" 0
expect_out "the rerun: grades only what was not graded" "graded $((12 - kept)), skipped $kept (already graded), 12 passed"
expect_cmd "the rerun: the results kept are untouched" md5sum -c --quiet before.md5
expect_eq "the rerun: every submission in the gradebook, once" "$(tail -n +2 gk/gradebook.csv | cut -d, -f1 | sort | uniq -c | awk '{print $1}' | sort -u)
$(($(wc -l <gk/gradebook.csv) - 1))" "1
12"

# --- the sandbox carries what the driver loads through LD_LIBRARY_PATH ------------------------
if [ ${#sandbox[@]} -eq 0 ]; then
    run cudalab batch $ex subs/* --out gs --jobs 3
    expect_status "sandboxed, the fake libcuda from LD_LIBRARY_PATH: graded" 0
    verdicts_right gs
    check "sandboxed: every verdict right (the libcuda outside the system carried in)" $?
    python3 -c '
import json, sys
b = json.load(open(sys.argv[1]))
assert all(s["report"]["device"]["uuid"] == s["gpu"]["uuid"] for s in b["submissions"] if "gpu" in s)
assert len({s["gpu"]["uuid"] for s in b["submissions"] if "gpu" in s}) == 3' gs/gradebook.json
    check "sandboxed: each driver pinned to its GPU through the sandbox, all three used" $?

    # a driver program that needs a library of its own from LD_LIBRARY_PATH (a build carried to
    # a machine that lacks libcjson): the issue's "driver exited with status 127"
    fx=$T/libexec-needs
    mkdir -p "$fx" needs
    cp "$CUDALAB_LIBEXECDIR_TEST"/*.ptx "$fx/"
    cp "$CUDALAB_LIBEXECDIR_TEST/cudalab-driver" "$fx/cudalab-driver.real"
    echo 'int lab_needs_me(void) { return 0; }' >needs/needs.c
    cc -shared -fPIC -o needs/liblabneeds.so needs/needs.c
    cat >needs/wrapper.c <<'C'
#include <stdio.h>
#include <string.h>
#include <unistd.h>
int lab_needs_me(void);
int main(int argc, char **argv) { /* the real driver beside it, once its library loaded */
    char real[4096];
    (void)argc;
    snprintf(real, sizeof(real), "%s.real", argv[0]);
    execv(real, argv);
    return lab_needs_me() + 126;
}
C
    cc -o "$fx/cudalab-driver" needs/wrapper.c -Lneeds -llabneeds
    export CUDALAB_LIBEXECDIR=$fx
    LD_LIBRARY_PATH=$T/fake:$T/needs run cudalab batch $ex subs/s1-pass.cu subs/s5-slow.cu --out gn
    expect_status "sandboxed, a driver library from LD_LIBRARY_PATH: graded" 0
    expect_out "sandboxed, a driver library from LD_LIBRARY_PATH: carried, right verdicts" "verdicts: PASS 1, SLOW 1"
    run cudalab batch $ex subs/s1-pass.cu --out gm
    expect_status "a driver library the loader finds nowhere: the batch stops" 2
    expect_err "a driver library the loader finds nowhere: named" "liblabneeds.so"
    [ ! -e gm/results/s1-pass.json ]
    check "a driver library the loader finds nowhere: no student charged with it" $?
    # the probe kept from before, the library gone: the grading's own driver cannot start
    LD_LIBRARY_PATH=$T/fake:$T/needs run cudalab grade $ex sol.cu --no-record
    mv needs/liblabneeds.so needs/moved.so
    LD_LIBRARY_PATH=$T/fake:$T/needs run cudalab grade $ex sol.cu --no-record
    expect_status "a grading whose driver cannot load its library: a lab error" 2
    expect_err "a grading whose driver cannot load its library: names it" \
        "could not start (exit status 127, before any submitted code ran): error while loading shared libraries: liblabneeds.so"
    expect_out_lacks "a grading whose driver cannot load its library: no RUNTIME_ERROR" "RUNTIME_ERROR"
    CUDALAB_SANDBOX=on LD_LIBRARY_PATH=$T/fake:$T/needs run cudalab grade $ex sol.cu --no-record
    expect_status "sandboxed, the library gone: a lab error" 2
    expect_err "sandboxed, the library gone: names it" "needs liblabneeds.so, which the dynamic loader does not find here"
    export CUDALAB_LIBEXECDIR=$CUDALAB_LIBEXECDIR_TEST
else
    echo "NOTE: bubblewrap cannot run here: the sandbox's part is skipped"
fi

e2e_finish

#!/bin/bash
# cudalab batch and gradebook merge, with the real nvcc and fake drivers that
# replay the reports recorded on an H100: each submission names its report by
# a __device__ variable the fake driver finds in the submission's PTX.
# Gradebook contents, flags, gradescope, odd submissions, resume, SIGKILL at
# random moments, two batches and a student's grading at once (the per-GPU
# lock), and nothing left running.
set -u
. "$(dirname "$0")/lib.sh"

less=reduction/neighbored-less
sol=$CUDALAB_DATADIR_TEST/solutions/reduction/neighbored-less.cu
ex=$CUDALAB_DATADIR_TEST/exercises/reduction/neighbored-less
. "$(dirname "$0")/fake-gpu.sh"
fake_driver "# replays the report the student's cubin names (its symbol table; the sandbox shows the driver
# only the modules it loads)
ptx=\$(printf '%s\n' \"\$@\" | sed -n 's/^--student=//p')
tag=\$(grep -a -o 'lab_fake_report_[a-z_]*' \"\$ptx\" | head -1)
tag=\${tag#lab_fake_report_}
sleep \"\${FAKE_SLEEP:-0}\"
cat \"$reports/\${tag//_/-}.json\" >&3"

sandbox=()
if ! bwrap_usable; then
    echo "NOTE: bubblewrap cannot run here: the batches below run with --no-sandbox"
    sandbox=(--no-sandbox)
fi

# sub FILE REPORT [KERNEL-FILE]: a submission replaying REPORT
sub() {
    mkdir -p "$(dirname "$1")"
    { echo "__device__ int lab_fake_report_${2//-/_};"; cat "${3:-$sol}"; } >"$1"
}
mkdir -p subs
sub subs/ann.cu less-ref
{ echo "// my own work, honest"; sed 's/^/  /' subs/ann.cu; } >subs/ben.cu # ann's, re-indented
sub subs/cat.cu less-starter
sub subs/dan.cu wrong
sub subs/fay/neighbored-less.cu less-ref "$ex/examples/wrong/drops-odd-elements.cu"
echo "int broken(" >subs/fay/notes.txt
cp "$ex/examples/wrong/missing-semicolon.cu" subs/eve.cu
sub subs/ivy.cu oob "$ex/examples/cheat/ignores-input.cu"
printf '__device__ int lab_fake_report_less_ref;\n__global__ void reduceNeighboredLess(int *g_idata, int *g_odata, unsigned int n) {\n    long long t = clock64();\n    unsigned sm;\n    asm volatile("mov.u32 %%0, %%%%smid;" : "=r"(sm));\n    if (threadIdx.x == 0) g_odata[blockIdx.x] = g_idata[blockIdx.x * blockDim.x] + (int)(t & 0) + (int)(sm & 0);\n}\n' >subs/jo.cu
mkdir -p subs/gus
ln -s "$sol" subs/gus/neighbored-less.cu
ln -s "$sol" subs/hal.cu
sub "subs/o'dd, \"name\".cu" less-ref "$ex/examples/wrong/writes-before-sum.cu"
mkdir -p subs/two
sub subs/two/a.cu less-ref
sub subs/two/b.cu less-ref

run cudalab batch $less subs/* --out gb --jobs 3 --format gradescope "${sandbox[@]}"
expect_status "batch: ok" 0
expect_out_re "batch: summary" '^graded 12, skipped 0 \(already graded\), [0-9]+ passed, [0-9]+ flagged'
expect_err_re "batch: plain progress lines without a terminal" '^\[12/12\] '
[ -s gb/gradebook.csv ] && [ -s gb/gradebook.json ]
check "batch: gradebook.csv and gradebook.json written" $?
expect_eq "batch: the CSV header" "$(head -1 gb/gradebook.csv | tr -d '\r')" \
    "student,exercise,verdict,points,max_points,median_us,speedup,fraction_of_reference,line,line_source,flags,content_hash,gpu,gpu_uuid"
verdicts=$(python3 - gb/gradebook.csv <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1], newline="")):
    print(r["student"], r["verdict"], r["points"], r["flags"] or "-")
PY
)
expect_eq "batch: every verdict, points and flags" "$verdicts" "ann PASS 10 identical
ben PASS 10 identical
cat SLOW 5 -
dan WRONG 0 -
eve COMPILE_ERROR 0 -
fay PASS 10 -
gus MISSING 0 -
hal MISSING 0 -
ivy RUNTIME_ERROR 0 ignores-input
jo CONSTRAINT 0 reads-clock;reads-gpu-ids
o'dd, \"name\" PASS 10 -
two MISSING 0 -"
python3 - gb/gradebook.json <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))
s = {x["student"]: x for x in b["submissions"]}
assert b["version"] == 1 and b["exercise"] == "reduction/neighbored-less"
assert s["ann"]["report"]["timings"][0]["kernels"][0]["samples"] == 300, "every timing kept"
assert "error" in s["eve"]["compiler_log"], "compiler messages kept"
assert "outside its folder" in s["gus"]["message"], s["gus"]["message"]
assert "symbolic link" in s["hal"]["message"], s["hal"]["message"]
assert "several .cu files" in s["two"]["message"], s["two"]["message"]
assert any("ann" in f["reason"] for f in s["ben"]["flags"]), "identical names the other"
assert s["ann"]["seed"] != s["ben"]["seed"], "a fresh seed per submission"
PY
check "batch: gradebook.json keeps reports, compiler logs, reasons, seeds" $?
python3 - gb/gradescope/ann/results.json <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["score"] == 10 and r["max_score"] == 10 and r["tests"][0]["status"] == "passed"
PY
check "batch --format gradescope: results.json per student" $?
[ "$(find gb/gradescope -name results.json | wc -l)" -eq 12 ]
check "batch --format gradescope: one per submission" $?

# --- resume: same content skipped, changed content graded, --force grades all ---
run cudalab batch $less subs/* --out gb --jobs 3 "${sandbox[@]}"
expect_out_re "re-run: every gradable submission skipped (the 3 unusable looked at again)" '^graded 3, skipped 9'
sub subs/dan.cu less-ref
run cudalab batch $less subs/* --out gb --jobs 3 "${sandbox[@]}"
expect_out_re "re-run after a change: only that one graded (and the 3 unusable)" '^graded 4, skipped 8'
grep -q '^dan,reduction/neighbored-less,PASS,' gb/gradebook.csv
check "re-run after a change: the gradebook has the new verdict" $?
run cudalab batch $less subs/* --out gb --jobs 3 --force "${sandbox[@]}"
expect_out_re "--force: all graded again" '^graded 12, skipped 0'

# --- SIGKILL at random moments, five times, then a re-run: the same gradebook ---
cp gb/gradebook.csv want.csv
rm -rf gk
for i in 1 2 3 4 5; do
    FAKE_SLEEP=0.2 "$CUDALAB_TEST_BIN" batch $less "$T"/subs/* --out "$T/gk" --jobs 2 "${sandbox[@]}" \
        >/dev/null 2>&1 &
    pid=$!
    sleep "0.$((RANDOM % 9 + 1))"
    kill -KILL $pid 2>/dev/null
    wait $pid 2>/dev/null
    if [ -e gk/gradebook.csv ]; then
        python3 -c 'import csv,sys; list(csv.reader(open(sys.argv[1])))' gk/gradebook.csv
        check "SIGKILL $i: the gradebook left behind is whole" $?
    fi
done
expect_no_process "SIGKILL: no grader or driver left behind" "$T/gk/"
run cudalab batch $less subs/* --out gk --jobs 3 "${sandbox[@]}"
expect_status "after the kills: the re-run finishes" 0
expect_eq "after the kills: the same gradebook as one clean run" \
    "$(cut -d, -f1-11 gk/gradebook.csv)" "$(cut -d, -f1-11 want.csv)"

# --- two batches and a student's grading at once: one GPU run at a time ---
mkdir -p s1 s2
for n in 1 2 3; do sub s1/a$n.cu less-ref; sub s2/b$n.cu wrong; done
export FAKE_LOG=$T/gpu.log FAKE_SLEEP=0.3
: >"$FAKE_LOG"
"$CUDALAB_TEST_BIN" batch $less s1/* --out g1 --jobs 2 --no-sandbox >b1.out 2>&1 &
p1=$!
"$CUDALAB_TEST_BIN" batch $less s2/* --out g2 --jobs 2 --no-sandbox >b2.out 2>&1 &
p2=$!
cudalab grade $less s1/a1.cu >g.out 2>&1
wait $p1 && wait $p2
check "concurrent: both batches and the grading finish" $?
unset FAKE_LOG FAKE_SLEEP
python3 - "$T/gpu.log" <<'PY'
import sys
ev = [l.split() for l in open(sys.argv[1])]
ev = [(kind, t) for kind, pid, t in ev if kind in ("start", "end")]
assert len(ev) == 14, len(ev)
depth = 0
for kind, t in sorted(ev, key=lambda e: float(e[1])):
    depth += 1 if kind == "start" else -1
    assert 0 <= depth <= 1, "two driver runs overlapped"
PY
check "concurrent: the 7 driver runs never overlapped (per-GPU lock)" $?
grep -q "PASS" g.out
check "concurrent: the student's grading got its verdict" $?
[ -n "$(ls "$XDG_CACHE_HOME"/cudalab/locks/gpu-NVIDIA_H100_80GB_HBM3-*.lock 2>/dev/null)" ]
check "concurrent: the lock file is keyed by the device" $?

# --- on a terminal: a progress bar with the rate and ETA (tmux gives the terminal) ---
if command -v tmux >/dev/null; then
    sock=$E2E_MARK-tmux
    tmux -L "$sock" -f /dev/null new-session -d -x 120 -y 10 \
        "FAKE_SLEEP=0.2 '$CUDALAB_TEST_BIN' batch $less $T/s1/a1.cu $T/s1/a2.cu $T/s1/a3.cu --out $T/gt --jobs 1 --no-sandbox; echo BATCH-DONE; sleep 30"
    for i in $(seq 100); do
        tmux -L "$sock" capture-pane -p >"$T/pane.txt" 2>/dev/null
        grep -q BATCH-DONE "$T/pane.txt" && break
        sleep 0.2
    done
    tmux -L "$sock" kill-server 2>/dev/null
    grep -Eq '^\[#+ *\] 3/3 .*/min  ETA [0-9]+m[0-9]{2}s' "$T/pane.txt"
    check "on a terminal: a progress bar with rate and ETA" $?
    ! grep -q '^\[1/3\]' "$T/pane.txt"
    check "on a terminal: no plain lines" $?
else
    echo "SKIP: tmux missing: the progress bar is not checked"
fi

# --- bad input ---
run cudalab batch $less
expect_status "batch without submissions: usage" 2
run cudalab batch $less subs/ann.cu --jobs 0
expect_status "batch --jobs 0: refused" 2
run cudalab batch reduction/none subs/ann.cu
expect_status "batch unknown exercise: refused" 2

# --- gradebook merge: parts into one ---
run cudalab gradebook merge --out merged gb
expect_status "gradebook merge: ok" 0
expect_eq "gradebook merge of one part: the same CSV" "$(cat merged/gradebook.csv)" "$(cat gb/gradebook.csv)"
run cudalab gradebook merge --out merged
expect_status "gradebook merge without parts: usage" 2

e2e_finish

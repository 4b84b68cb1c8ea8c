#!/bin/bash
# e2e-timeout: 300
# The security review of 2026-11-28 (# 34), the batch's half: what a hostile class does with the
# names, contents and timing of its submissions, and what real faults do to a batch.  Each check
# names its break (B5, B6, B8, B9, B13, B14, B16) and failed on b6292df.  Fake drivers replay
# the reports recorded on an H100 (fake-gpu.sh); the students' files are really compiled, in the
# sandbox where bubblewrap runs.
set -u
. "$(dirname "$0")/lib.sh"

less=reduction/neighbored-less
sol=$CUDALAB_DATADIR_TEST/solutions/reduction/neighbored-less.cu
. "$(dirname "$0")/fake-gpu.sh"
fake_driver "ptx=\$(printf '%s\n' \"\$@\" | sed -n 's/^--student=//p')
tag=\$(grep -a -o 'lab_fake_report_[a-z_]*' \"\$ptx\" | head -1)
tag=\${tag#lab_fake_report_}
sleep \"\${FAKE_SLEEP:-0}\"
cat \"$reports/\${tag//_/-}.json\" >&3"
sandbox=()
bwrap_usable || sandbox=(--no-sandbox)

# sub FILE [REPORT]: a submission replaying REPORT (less-ref: PASS)
sub() {
    mkdir -p "$(dirname "$1")"
    { echo "__device__ int lab_fake_report_${2:-less_ref};" | tr - _; cat "$sol"; } >"$1"
}

# utf8_json FILE...: every file is valid UTF-8 and JSON
utf8_json() {
    python3 - "$@" <<'PY'
import json, sys
for f in sys.argv[1:]:
    json.loads(open(f, "rb").read().decode("utf-8", errors="strict"))
PY
}

# --- B5: one long name stopped the class batch for good (results/<id>.json.tmp.<pid> past
# NAME_MAX: exit 2, no gradebook, every re-run the same) ---
long=$(printf 'L%.0s' $(seq 245))
longdir=$(printf 'D%.0s' $(seq 255))
sub b5/alice.cu
sub "b5/$long.cu"
sub "b5/$longdir/neighbored-less.cu"
run cudalab batch $less b5/* --out gb5 --jobs 2 "${sandbox[@]}"
expect_status "B5: a 245-byte name and a 255-byte folder: the batch ends well" 0
expect_eq "B5: a row for each, all graded" "$(tail -n +2 gb5/gradebook.csv | cut -d, -f3 | sort | uniq -c | tr -s ' ')" " 3 PASS"
longest=$(find gb5 -printf '%f\n' | awk '{ print length }' | sort -n | tail -1)
[ "$longest" -le 160 ]
check "B5: no file name of the batch's is longer than 160 bytes (longest $longest)" $?
python3 - gb5/gradebook.json "$long" "$longdir" <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))
ids = [s["id"] for s in b["submissions"]]
students = {s["student"] for s in b["submissions"]}
assert len(set(ids)) == 3, ids
assert sys.argv[2] in students and sys.argv[3] in students, "the student keeps the whole name"
PY
check "B5: the ids are unique, the students keep their whole names" $?

# --- B9: ".x.cu" was graded but missing from the gradebook (its result a hidden file) ---
sub b9/.x.cu
sub b9/bob.cu
sub b9/..cu
run cudalab batch $less b9/.x.cu b9/bob.cu b9/..cu --out gb9 "${sandbox[@]}"
expect_status "B9: a batch of .x.cu, ..cu and bob.cu" 0
expect_eq "B9: a row for each of them" "$(tail -n +2 gb9/gradebook.csv | cut -d, -f1,3 | sort)" ".,PASS
.x,PASS
bob,PASS"

# --- B8: a file name or a compiler's log in another encoding made gradebook.json, results/*.json
# and grade --json invalid UTF-8 ---
sub "b8/bad"$'\xff\xfe'".cu"
head -c 3000 /dev/urandom >b8/binary.cu
printf '#error caf\xe9 \xff\xfe not UTF-8\n' >b8/latin1.cu
run cudalab batch $less b8/* --out gb8 "${sandbox[@]}"
expect_status "B8: a batch with a Latin-1 name, a binary file and a Latin-1 #error" 0
utf8_json gb8/gradebook.json gb8/results/*.json
check "B8: gradebook.json and every results/*.json are valid UTF-8 JSON" $?
python3 -c 'import sys; open(sys.argv[1], "rb").read().decode("utf-8", errors="strict")' gb8/gradebook.csv
check "B8: gradebook.csv is valid UTF-8" $?
grep -q $'\xef\xbf\xbd' gb8/gradebook.json
check "B8: the invalid bytes are shown as U+FFFD, not dropped" $?
run cudalab grade $less b8/latin1.cu --json --no-record
utf8_json "$T/.out"
check "B8: grade --json of a Latin-1 #error is valid UTF-8" $?

# --- B6: a submission checked at the start and swapped for a symbolic link while an earlier one
# runs was then opened with open(), which follows it; a hard link to a file the student cannot
# read was accepted.  As root the batch read /etc/shadow into the result ---
secret=$T/secret-$E2E_MARK
echo "root-only-$E2E_MARK" >"$secret"
chmod 600 "$secret"
sub b6/alice.cu
sub b6/mallory/neighbored-less.cu
sub b6/zed.cu
run ln "$secret" b6/hard.cu
(
    sleep 2
    ln -sf "$secret" b6/mallory/neighbored-less.cu
    ln -sf "$secret" b6/zed.cu
) &
swapper=$!
FAKE_SLEEP=4 run cudalab batch $less b6/alice.cu b6/hard.cu b6/mallory b6/zed.cu --out gb6 --jobs 1 \
    "${sandbox[@]}"
wait $swapper
expect_status "B6: the batch ends" 0
expect_eq "B6: the swapped and the hard-linked submissions are MISSING, the rest graded" \
    "$(tail -n +2 gb6/gradebook.csv | cut -d, -f1,3 | sort)" "alice,PASS
hard,MISSING
mallory,MISSING
zed,MISSING"
run grep -rl "root-only-$E2E_MARK" gb6
expect_out_empty "B6: nothing of the file behind the links in the results or the gradebook"
python3 - gb6/gradebook.json <<'PY'
import json, sys
s = {x["student"]: x["message"] for x in json.load(open(sys.argv[1]))["submissions"]}
assert "hard links" in s["hard"], s["hard"]
assert "outside its folder" in s["mallory"] or "symbolic link" in s["mallory"], s["mallory"]
assert "symbolic link" in s["zed"], s["zed"]
PY
check "B6: each says why: a link out of its folder, a symbolic link, hard links" $?

# --- B13: a FIFO among the results hung the gradebook's rebuild forever ---
sub b13/ann.cu
mkdir -p gb13/results
mkfifo gb13/results/zz.json
run timeout 60 "$CUDALAB_TEST_BIN" batch $less b13/ann.cu --out gb13 "${sandbox[@]}"
expect_status "B13: a FIFO in results/ does not hang the batch" 0
mkdir -p part/results
mkfifo part/results/fifo.json
run timeout 60 "$CUDALAB_TEST_BIN" gradebook merge --out merged gb13 part
expect_status "B13: nor gradebook merge" 0
expect_eq "B13: the merged gradebook has the one result" "$(tail -n +2 merged/gradebook.csv | cut -d, -f1)" "ann"

# --- B14: a newline in one name stopped a whole Slurm batch, and newlines in --gres or
# --partition became lines of the job script ---
sub b14/plain.cu
sub "b14/new"$'\n'"line.cu"
run cudalab batch $less b14/* --out gb14 --slurm --dry-run --chunk 5 "${sandbox[@]}"
expect_status "B14: a name with a newline: the Slurm scripts are written" 0
python3 - gb14/slurm/list-0 <<'PY'
import sys
entries = open(sys.argv[1], "rb").read().split(b"\0")
assert entries[-1] == b"" and sorted(e.rsplit(b"/", 1)[1] for e in entries[:-1]) == [b"new\nline.cu", b"plain.cu"], entries
PY
check "B14: the task's list holds both paths, each ended by a NUL" $?
run cudalab batch $less --from gb14/slurm/list-0 --out gb14/parts/0 "${sandbox[@]}"
expect_status "B14: the task's batch reads that list" 0
verdicts=$(python3 -c 'import csv, sys; print(sorted(r["verdict"] for r in csv.DictReader(open(sys.argv[1], newline=""))))' gb14/parts/0/gradebook.csv)
expect_eq "B14: and grades both" "$verdicts" "['PASS', 'PASS']"
run cudalab batch $less b14/plain.cu --out gb14b --slurm --dry-run --gres $'gpu:1\ntouch '"$T/PWNED"
expect_status "B14: --gres with a newline is refused" 2
expect_err "B14: saying why" "#SBATCH line takes"
run cudalab batch $less b14/plain.cu --out gb14b --slurm --dry-run --partition $'gpu\n#SBATCH --x'
expect_status "B14: --partition with a newline is refused" 2
[ ! -e gb14b/slurm/array.sh ] && [ ! -e "$T/PWNED" ]
check "B14: no script written" $?

# --- B16: a batch stopped by SIGINT kept the private copies (.work) until the next whole run ---
for s in a b c d; do sub "b16/$s.cu"; done
# (a background job of a script starts with SIGINT ignored: undo that)
FAKE_SLEEP=30 env --default-signal=INT "$CUDALAB_TEST_BIN" batch $less b16/* --out gb16 --jobs 2 "${sandbox[@]}" \
    >b16.out 2>b16.err &
batch=$!
for i in $(seq 100); do
    [ -n "$(ls gb16/.work 2>/dev/null)" ] && break
    sleep 0.1
done
sleep 3 # the graders under way
kill -INT $batch
wait $batch
status=$?
expect_eq "B16: the interrupted batch dies of SIGINT" "$status" 130
[ ! -e gb16/.work ]
check "B16: no private copy of a submission is left" $?
[ -e gb16/gradebook.csv ]
check "B16: the gradebook of what was graded is written" $?
expect_no_process "B16: no grader or driver left behind" "$T/gb16/"
if [ -x "$E2E_SRC/build/san/tests/test-doctor" ]; then
    mkdir -p doctmp
    TMPDIR=$T/doctmp "$E2E_SRC/build/san/tests/test-doctor" >doctor.out 2>&1
    expect_eq "B16: make test's test-doctor leaves no folder behind" "$(ls doctmp)" ""
fi

e2e_finish

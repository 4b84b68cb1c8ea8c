#!/bin/bash
# e2e-timeout: 240
# Files that are not files (# 19 item 2): the student's file, a submission, a manifest, a
# task text, a questions file or a --from list that is a FIFO, a device or a link to one is
# refused at once with its name, never waited on or read until memory runs out; the rest
# of the catalog still loads.  A line too long for the INI reader is a file:line: error
# (a questions.ini line of 200+ characters was cut, and its tail read as a line of its own).
set -u
. "$(dirname "$0")/lib.sh"

src=$CUDALAB_DATADIR_TEST
sol=$src/solutions/reduction/neighbored.cu

# --- the student's file ---
mkfifo fifo.cu
run timeout 20 "$CUDALAB_TEST_BIN" grade reduction/neighbored fifo.cu
expect_status "a FIFO as the student's file: a lab error" 2
expect_err "a FIFO: named" "'fifo.cu' is a FIFO, not a regular file"
ln -s /dev/zero zero.cu
run timeout 20 "$CUDALAB_TEST_BIN" grade reduction/neighbored zero.cu
expect_status "a link to /dev/zero as the student's file: a lab error" 2
expect_err "a character device: named" "'zero.cu' is a character device, not a regular file"
run db_rows "select count(*) from attempts"
[ ! -e "$STORE" ] || [ "$OUT" = 0 ]
check "nothing stored for a file that is no file" $?

# --- a batch whose submissions folder holds a FIFO ---
mkdir -p subs/ann subs/ben
cp "$sol" subs/ann/neighbored.cu
mkfifo subs/ben/neighbored.cu
run timeout 120 "$CUDALAB_TEST_BIN" batch reduction/neighbored subs/* --out gb --no-sandbox
expect_status "batch with a FIFO submission: finishes" 0
python3 - gb/gradebook.json >"$T/.verdicts" <<'EOF'
import json, sys
for r in json.load(open(sys.argv[1]))["submissions"]:
    print(r["student"], r["verdict"], r["message"])
EOF
run cat "$T/.verdicts"
expect_out "batch: ann graded" "ann PASS"
expect_out_re "batch: ben's FIFO named as a problem" "^ben .*is a FIFO, not a regular file"
printf '%s\n' subs/ann >list.txt
mkfifo fifo-list
run timeout 20 "$CUDALAB_TEST_BIN" batch reduction/neighbored --from fifo-list --out gb2 --no-sandbox
expect_status "batch --from a FIFO: refused at once" 2
expect_err "batch --from a FIFO: named" "'fifo-list' is a FIFO, not a regular file"

# --- manifests ---
data=$T/data
copy_datadir "$data"
rm "$data/exercises/reduction/neighbored-less/exercise.ini"
mkfifo "$data/exercises/reduction/neighbored-less/exercise.ini"
rm "$data/exercises/reduction/interleaved/exercise.ini"
ln -s /dev/zero "$data/exercises/reduction/interleaved/exercise.ini"
CUDALAB_DATADIR=$data run timeout 20 "$CUDALAB_TEST_BIN" list
expect_status "list with a FIFO manifest and one linked to /dev/zero: runs" 0
expect_err "the FIFO manifest is named" \
    "exercises/reduction/neighbored-less/exercise.ini:0: '$data/exercises/reduction/neighbored-less/exercise.ini' is a FIFO, not a regular file"
expect_err "the /dev/zero manifest is named" \
    "exercises/reduction/interleaved/exercise.ini' is a character device, not a regular file"
expect_out_re "the rest of the catalog loads" '^  reduction/neighbored +'
expect_out_re "other chapters load" '^  warp/'
head -c $((70 * 1024)) /dev/zero | tr '\0' '#' >"$data/exercises/reduction/neighbored/exercise.ini"
CUDALAB_DATADIR=$data run cudalab list
expect_err "a manifest past 64 KiB is named" \
    "exercises/reduction/neighbored/exercise.ini' is larger than 64 KiB"

# --- a task text ---
data=$T/data-task
copy_datadir "$data"
rm "$data/exercises/reduction/neighbored/task.md"
mkfifo "$data/exercises/reduction/neighbored/task.md"
CUDALAB_DATADIR=$data run timeout 20 "$CUDALAB_TEST_BIN" show reduction/neighbored
[ "$RC" -ne 124 ]
check "show of an exercise whose task is a FIFO: does not wait" $?
expect_status "show of an exercise whose task is a FIFO: a lab error" 2
expect_err "the task FIFO is named" "'task': 'task.md' is not a regular file"

# --- questions.ini: a FIFO, and a line too long ---
data=$T/data-questions
copy_datadir "$data"
long=$(printf 'x%.0s' $(seq 230))
sed -i "s/^kind = number\$/kind = number\nprompt2 = $long/" "$data/exercises/reduction/questions.ini"
line=$(grep -n '^prompt2' "$data/exercises/reduction/questions.ini" | cut -d: -f1)
CUDALAB_DATADIR=$data run cudalab predict reduction
expect_status "a questions.ini line of 240 characters: an error" 2
expect_err "the long line is named file:line" \
    "exercises/reduction/questions.ini:$line: line too long (more than"
rm "$data/exercises/reduction/questions.ini"
mkfifo "$data/exercises/reduction/questions.ini"
CUDALAB_DATADIR=$data run timeout 20 "$CUDALAB_TEST_BIN" predict reduction
expect_status "a FIFO questions.ini: an error at once" 2
expect_err "the FIFO is named" "questions.ini' is a FIFO, not a regular file"

e2e_finish

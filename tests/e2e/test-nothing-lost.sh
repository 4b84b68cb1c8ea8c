#!/bin/bash
# e2e-timeout: 300
# Nothing lost (# 19 item 4): a store that fails still lets the student see the verdict and
# the compiler's messages, then names the store's problem and its fix (exit 2); a damaged
# store still lets `list` list; one batch at a time writes an output folder; a batch removes
# its private copies unless asked to keep them; a resumed batch counts what passed before;
# a compile killed by SIGTERM leaves neither nvcc's children nor its temporary files.
set -u
. "$(dirname "$0")/lib.sh"

src=$CUDALAB_DATADIR_TEST
sol=$src/solutions/reduction/neighbored.cu
starter=$src/exercises/reduction/neighbored/starter.cu

# --- a damaged store: the verdict first, then the store's problem and its fix ---
mkdir -p "$(dirname "$STORE")"
echo "not a database, not at all, but long enough to have a header......................." >"$STORE"
cp "$sol" mine.cu
run cudalab grade reduction/neighbored mine.cu
expect_status "a damaged store: a lab error" 2
expect_out_re "a damaged store: the verdict is shown" '^PASS  modelled for an H100'
expect_err "a damaged store: says the verdict was not recorded, and why" \
    "the verdict above was not recorded: cannot open progress store '$STORE'"
expect_err "a damaged store: the fix" "fix: make the store's folder writable, move a damaged store aside"
cp "$starter" broken.cu
printf 'int broken = undefined_name;\n' >>broken.cu
run cudalab grade reduction/neighbored broken.cu
expect_status "a damaged store, a compile error: a lab error" 2
expect_out "a damaged store: the compiler's messages are shown" \
    "broken.cu:$(wc -l <broken.cu): error: identifier \"undefined_name\" is undefined"
expect_out_re "a damaged store: the COMPILE_ERROR is shown" '^COMPILE_ERROR  '
run cudalab grade reduction/neighbored mine.cu --json
expect_status "a damaged store, --json: a lab error" 2
expect_json "a damaged store, --json: the verdict is printed" 'j["verdict"] == "PASS"'
run cudalab list
expect_status "list with a damaged store: a lab error" 2
expect_out_re "list with a damaged store: still lists the exercises" \
    '^  reduction/neighbored +.*unknown \(no progress store\)$'
expect_err "list with a damaged store: names it" "progress not shown: cannot open progress store"
rm -f "$STORE"
run cudalab grade reduction/neighbored mine.cu
expect_status "a fresh store: recorded" 0

# --- batch: one at a time per output folder, no copies left, counts of a resumed batch ---
mkdir -p subs
cp "$sol" subs/ann.cu
cp "$sol" subs/bob.cu
cp "$starter" subs/cy.cu # WRONG
run cudalab batch reduction/neighbored subs/ann.cu subs/bob.cu subs/cy.cu --out gb --no-sandbox
expect_status "batch" 0
expect_out "batch: the counts" "graded 3, skipped 0 (already graded), 2 passed"
[ ! -e gb/.work ]
check "batch: the private copies are removed" $?
run cudalab batch reduction/neighbored subs/ann.cu subs/bob.cu subs/cy.cu --out gb --no-sandbox
expect_status "batch again" 0
expect_out "batch again: what passed before still counts" "graded 0, skipped 3 (already graded), 2 passed"
run cudalab batch reduction/neighbored subs/ann.cu --out gb-kept --no-sandbox --keep-work
expect_out "batch --keep-work: says where the copies are" \
    "the graded copies of the submissions are kept in gb-kept/.work"
[ -f gb-kept/.work/ann/neighbored.cu ]
check "batch --keep-work: the copies are there" $?

# another batch holds the folder: this one refuses, and writes nothing
flock gb/.lock sleep 30 &
holder=$!
sleep 0.3
before=$(cat gb/gradebook.json)
run cudalab batch reduction/neighbored subs/cy.cu --out gb --no-sandbox --force
expect_status "a second batch on one folder: refused" 2
expect_err "a second batch: says why" "another batch is writing 'gb'"
expect_eq "a second batch: the gradebook is untouched" "$(cat gb/gradebook.json)" "$before"
kill "$holder"
wait "$holder" 2>/dev/null

# --- SIGTERM during a compile: nvcc's group killed, its temporary files gone with its folder ---
mkdir -p "$T/tmp"
nvcc=$T/nvcc-$E2E_MARK
sleeper=$(marked_sleep "$E2E_MARK-cicc")
cat >"$nvcc" <<END
#!/bin/sh
case "\$1" in --version) echo "Cuda compilation tools, release 13.0, V13.0.88"; exit 0;; esac
touch "\$TMPDIR/tmpxft_00001234_00000000-1_source.cpp"
"$sleeper" 60 &
wait
END
chmod +x "$nvcc"
printf '\n// a fresh build\n' >>mine.cu
TMPDIR=$T/tmp CUDALAB_NVCC=$nvcc "$CUDALAB_TEST_BIN" grade reduction/neighbored mine.cu \
    --no-record >"$T/.out" 2>"$T/.err" &
lab=$!
expect_process "the fake nvcc's child runs" "$E2E_MARK-cicc"
kill -TERM "$lab"
wait "$lab"
RC=$?
expect_eq "SIGTERM: the lab ends by it" "$RC" 143
expect_no_process "SIGTERM: nothing of nvcc's group survives" "$E2E_MARK-cicc"
run find "$T/tmp" -name 'tmpxft*'
expect_out_empty "SIGTERM: no tmpxft file in \$TMPDIR"
run cudalab grade reduction/neighbored mine.cu --no-record
run find "$CACHE/.tmp" -mindepth 1
expect_out_empty "the killed build's folder is removed by the next build"

e2e_finish

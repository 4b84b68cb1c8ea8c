#!/bin/bash
# Grading on this machine, which has nvcc and no GPU: everything up to the run
# is real (probe driver, nvcc, the PTX checks, the compile cache, the store).
set -u
. "$(dirname "$0")/lib.sh"
# Here the GPU backend is asked for (without it the lab grades on the simulator, see
# test-grade-sim.sh): with no GPU the verdict is NO_GPU.
export CUDALAB_BACKEND=cuda

nb_starter=$CUDALAB_DATADIR_TEST/exercises/reduction/neighbored/starter.cu
mkdir -p attempts

# cache_files: the compile cache's file names, sorted.
cache_files() {
    ls "$CACHE" 2>/dev/null
}

# --- files that are not there: the lab's error, nothing recorded ---
run cudalab grade reduction/neighbored
expect_status "grade before start" 2
expect_err "grade before start names the file" "work/reduction/neighbored.cu"
expect_err "grade before start says to start" "run 'cudalab start reduction/neighbored' to create it"
run cudalab grade reduction/neighbored attempts/missing.cu
expect_status "grade a missing file" 2
expect_err "grade a missing file says so" "cannot read 'attempts/missing.cu': No such file or directory"

# --- the untouched starter: compiles, then no GPU ---
run cudalab start reduction/neighbored
run cudalab grade reduction/neighbored
expect_status "grade the starter" 1
expect_out_re "starter: NO_GPU" '^NO_GPU  '
expect_out "starter: the verdict says it compiled" "compiled for sm_90; no GPU to run it on: "
expect_out "starter: 0/10 points" "0/10 points"
expect_out "starter: names the file" "reduction/neighbored  work/reduction/neighbored.cu"
# from another folder the work file is not found; start there would make a second copy, so the
# lab says where the graded one is (issue 21: the work folder is wherever the lab runs)
mkdir -p elsewhere
run env -C elsewhere "$CUDALAB_TEST_BIN" grade reduction/neighbored
expect_status "grade from another folder: not found" 2
expect_err "grade from another folder: the attempts are elsewhere, not 'start'" \
    "(your progress has 1 attempt at reduction/neighbored, graded from a work/ folder elsewhere: run the lab in the folder that holds it, or name the file; 'cudalab start reduction/neighbored' makes a new copy of the starter here)"

ls "$CACHE"/*.ptx >/dev/null 2>&1 && ls "$CACHE"/*.cubin >/dev/null 2>&1
check "the compile cache holds .ptx and .cubin files" $?
first=$(cache_files)
# the student's file and the reference solution, each a .ptx and a .cubin
expect_eq "the compile cache holds 4 files" "$(wc -l <<<"$first")" 4
expect_eq "the compile cache holds only finished builds" \
    "$(grep -Evx '[0-9a-f]{32}\.(ptx|cubin)' <<<"$first")" ""

# The same file again: from the cache, nvcc only asked its version.
nvcc_real=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
printf '#!/bin/sh\necho "$*" >>"%s"\nexec "%s" "$@"\n' "$T/nvcc.log" "$nvcc_real" >"$T/nvcc-logged"
chmod +x "$T/nvcc-logged"
CUDALAB_NVCC=$T/nvcc-logged run cudalab grade reduction/neighbored
expect_status "grade the starter again" 1
expect_out_re "starter again: NO_GPU" '^NO_GPU  '
expect_eq "starter again: the cache does not grow" "$(cache_files)" "$first"
expect_eq "starter again: nvcc only asked its version" "$(cat "$T/nvcc.log")" "--version"

# --- a syntax error: nvcc's message at the student's file and line ---
sed 's/unsigned int tid = threadIdx.x;/unsigned int tid = threadIdx.x + undeclared_thing;/' \
    "$nb_starter" >attempts/syntax.cu
line=$(grep -n undeclared_thing attempts/syntax.cu | cut -d: -f1)
run cudalab grade reduction/neighbored attempts/syntax.cu
expect_status "grade a syntax error" 1
expect_out_re "syntax error: COMPILE_ERROR" '^COMPILE_ERROR  '
expect_out "syntax error: FILE:LINE: error at line $line" \
    "attempts/syntax.cu:$line: error: identifier \"undeclared_thing\" is undefined"
expect_out_lacks "syntax error: no nvcc-style FILE(LINE)" "attempts/syntax.cu($line)"
expect_out "syntax error: the verdict names the file" "attempts/syntax.cu does not compile"
expect_eq "syntax error: nothing cached" "$(cache_files)" "$first"
run cudalab grade reduction/neighbored attempts/syntax.cu --json --no-record
expect_json "syntax error --json: COMPILE_ERROR with the FILE:LINE log" \
    'j["verdict"] == "COMPILE_ERROR" and "attempts/syntax.cu:'"$line"': error" in j["compiler_log"]'

# The same error in a file whose name has parentheses of its own, as file
# managers name copies: nvcc writes "attempts/neighbored (copy).cu(21): error".
cp attempts/syntax.cu "attempts/neighbored (copy).cu"
run cudalab grade reduction/neighbored "attempts/neighbored (copy).cu" --no-record
expect_status "grade a syntax error in 'neighbored (copy).cu'" 1
expect_out "'neighbored (copy).cu': the error as FILE:LINE: error at line $line" \
    "attempts/neighbored (copy).cu:$line: error: identifier \"undeclared_thing\" is undefined"

# --- the wrong kernel: its demangled signature is named ---
cp "$nb_starter" attempts/wrong-name.cu
run cudalab grade reduction/neighbored-less attempts/wrong-name.cu
expect_status "grade a file with the wrong kernel" 1
expect_out_re "wrong kernel: COMPILE_ERROR" '^COMPILE_ERROR  '
expect_out "wrong kernel: says which kernel is missing" "defines no kernel reduceNeighboredLess"
expect_out "wrong kernel: names what it defines, demangled" \
    "it defines: reduceNeighbored(int*, int*, unsigned int)"

sed 's/int \*g_idata, int \*g_odata/float *g_idata, float *g_odata/; s/int \*idata/float *idata/' \
    "$nb_starter" >attempts/wrong-params.cu
run cudalab grade reduction/neighbored attempts/wrong-params.cu --no-record
expect_status "grade a kernel with the wrong parameters" 1
expect_out "wrong parameters: names what it defines" \
    "it defines: reduceNeighbored(float*, float*, unsigned int)"

# --- a forbidden instruction ---
cat >attempts/atomic.cu <<'EOF'
__global__ void reduceNeighbored(int *g_idata, int *g_odata, unsigned int n) {
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n) atomicAdd(&g_odata[blockIdx.x], g_idata[idx]);
}
EOF
run cudalab grade reduction/neighbored attempts/atomic.cu
expect_status "grade a kernel with atomicAdd" 1
expect_out_re "atomicAdd: CONSTRAINT" '^CONSTRAINT  '
expect_out "atomicAdd: names the CUDA and the line" "atomicAdd at atomic.cu:3 is an atomic operation"
expect_out "atomicAdd: says it is forbidden" "which this exercise forbids"

# --- --json ---
run cudalab grade reduction/neighbored --json --seed 7
expect_status "grade --json" 1
expect_json "grade --json is valid JSON"
expect_json "grade --json: verdict NO_GPU, 0 of 10 points" \
    'j["verdict"] == "NO_GPU" and j["points"] == 0 and j["max_points"] == 10'
expect_json "grade --json: exercise, file, seed, arch" \
    '(j["exercise"], j["file"], j["seed"], j["arch"], j["report"])
     == ("reduction/neighbored", "work/reduction/neighbored.cu", 7, "sm_90", None)'
json_hash=$(python3 -c 'import json,sys; print(json.loads(sys.stdin.read())["file_hash"])' <<<"$OUT")

# --- --no-record adds no attempt ---
run cudalab grade reduction/neighbored --no-record
expect_status "grade --no-record" 1

# --- nvcc that is not there, or never finishes ---
CUDALAB_NVCC=$T/no-such-nvcc run cudalab grade reduction/neighbored --no-record
expect_status "grade with a missing nvcc" 2
expect_err "missing nvcc: names it" "cannot run '$T/no-such-nvcc'"

sleeper=$(marked_sleep)
nvcc_slow=$T/nvcc-$E2E_MARK
cat >"$nvcc_slow" <<END
#!/bin/sh
case "\$1" in --version) echo "Cuda compilation tools, release 13.0, V13.0.88"; exit 0;; esac
"$sleeper" 60
END
chmod +x "$nvcc_slow"
copy_datadir "$T/short"
sed -i 's/^build_timeout *=.*/build_timeout = 1/' "$T/short/exercises/reduction/neighbored/exercise.ini"
CUDALAB_DATADIR=$T/short CUDALAB_NVCC=$nvcc_slow XDG_CACHE_HOME=$T/cache-slow \
    run cudalab grade reduction/neighbored attempts/atomic.cu --no-record
expect_status "nvcc past the build timeout" 1
expect_out_re "nvcc past the build timeout: COMPILE_ERROR" '^COMPILE_ERROR  '
expect_out "nvcc past the build timeout: says so" "nvcc did not finish within 1 s"
expect_faster "nvcc past the build timeout: stopped promptly" 5
expect_no_process "nvcc past the build timeout: no nvcc left" "$E2E_MARK"

# --- progress: list and the store ---
run cudalab list
expect_status "list after grading" 0
expect_out_re "list: reduction/neighbored attempted, last NO_GPU" \
    '^  reduction/neighbored +.* attempted, last NO_GPU$'
expect_out_re "list: reduction/neighbored-less attempted, last COMPILE_ERROR" \
    '^  reduction/neighbored-less +.* attempted, last COMPILE_ERROR$'
run cudalab list --json
expect_json "list --json: 5 attempts at reduction/neighbored" \
    '{e["id"]: (e["status"], e["attempts"]) for e in j["exercises"] if e["attempts"]} == {"reduction/neighbored": ("attempted", 5), "reduction/neighbored-less": ("attempted", 1)}'

[ -f "$STORE" ]
check "the store is at \$XDG_DATA_HOME/cudalab/progress.db" $?
expect_eq "the store: one row per recorded attempt, in order" \
    "$(db_rows 'SELECT exercise, file, verdict, points, backend FROM attempts ORDER BY id')" \
    "reduction/neighbored|work/reduction/neighbored.cu|NO_GPU|0|none
reduction/neighbored|work/reduction/neighbored.cu|NO_GPU|0|none
reduction/neighbored|attempts/syntax.cu|COMPILE_ERROR|0|none
reduction/neighbored-less|attempts/wrong-name.cu|COMPILE_ERROR|0|none
reduction/neighbored|attempts/atomic.cu|CONSTRAINT|0|none
reduction/neighbored|work/reduction/neighbored.cu|NO_GPU|0|none"
expect_eq "the store: the starter's attempts share the hash --json printed" \
    "$(db_rows "SELECT DISTINCT file_hash FROM attempts WHERE file = 'work/reduction/neighbored.cu'")" \
    "$json_hash"
expect_eq "the store: every attempt has a time and a message" \
    "$(db_rows "SELECT count(*) FROM attempts WHERE time > 0 AND message <> ''")" 6

# --- several gradings at once, on a new store and an empty cache ---
pids=()
for i in 1 2 3 4 5 6; do
    XDG_DATA_HOME=$T/data-par XDG_CACHE_HOME=$T/cache-par \
        "$CUDALAB_TEST_BIN" grade reduction/neighbored >"$T/par$i.out" 2>"$T/par$i.err" &
    pids+=($!)
done
statuses=
for pid in "${pids[@]}"; do
    wait "$pid"
    statuses+="$? "
done
expect_eq "6 gradings at once: each exits 1" "$statuses" "1 1 1 1 1 1 "
expect_eq "6 gradings at once: each says NO_GPU, none complains" \
    "$(grep -h '^NO_GPU  ' "$T"/par*.out | wc -l) $(cat "$T"/par*.err)" "6 "
expect_eq "6 gradings at once: one build of each file in the cache" \
    "$(ls "$T/cache-par/cudalab/build")" "$first"
expect_eq "6 gradings at once: 6 attempts in the new store" \
    "$(STORE=$T/data-par/cudalab/progress.db db_rows 'SELECT count(*) FROM attempts')" 6

# --- what the cache key covers: the source and the arch ---
n=$(cache_files | wc -l)
echo '// an edit' >>work/reduction/neighbored.cu
run cudalab grade reduction/neighbored --no-record
expect_out_re "an edited file: NO_GPU" '^NO_GPU  '
expect_eq "an edited file is compiled again (one more .ptx and .cubin)" \
    "$(cache_files | wc -l)" $((n + 2))
n=$((n + 2))
CUDALAB_ARCH=sm_80 run cudalab grade reduction/neighbored --no-record
expect_out "another arch: compiled for it" "compiled for sm_80"
expect_eq "another arch: the file and the reference are built again" "$(cache_files | wc -l)" $((n + 4))

e2e_finish

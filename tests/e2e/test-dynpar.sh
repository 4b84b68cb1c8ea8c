#!/bin/bash
# The dynpar chapter without a GPU: an exercise whose manifest says rdc = true
# is built as relocatable device code and linked with the CUDA device runtime
# into one cubin (real nvcc), cached like any build; the CUDA 11 starter that
# waits for its child with cudaDeviceSynchronize() is a COMPILE_ERROR at its
# line; the reference is graded on the PTX simulator, which runs the child
# grids itself, and passes in seconds at the simulator's sizes; planted
# mistakes (a block that ignores n, no barrier before the launch) are WRONG
# there, the second by the simulator's check; the reduce-nested driver
# reports no_gpu when told to use CUDA here, runs on the simulator with the
# child grids in its metrics, and on a stand-in libcuda (tests/fakecuda) that
# runs the family's contract on the host it checks every block exactly,
# catches reads past n and unwritten sums, and raises the pending-launch limit.
set -u
. "$(dirname "$0")/lib.sh"

ex=dynpar/nested-reduce
ref=$CUDALAB_DATADIR_TEST/solutions/dynpar/nested-reduce.cu
starter=$CUDALAB_DATADIR_TEST/exercises/dynpar/nested-reduce/starter.cu

run cudalab list --json
expect_json "the catalog lists $ex in chapter dynpar, no problems" \
    'any(e["id"] == "dynpar/nested-reduce" and e["chapter"] == "dynpar" for e in j["exercises"]) and not j["problems"]'

# --- the reference: compiles (rdc, linked), then passes on the simulator, sizes capped ---
run cudalab grade $ex "$ref"
expect_status "grade the reference" 0
expect_out "the reference ran on the simulator" "PTX simulator (no GPU: correctness only)"
expect_out_re "the reference: PASS on the simulator" \
    '^PASS  correct on the simulator at every size \(this step grades no speed\) \(sizes capped at 1048576 on the simulator\)'
expect_out "the header names the size the simulator runs in the place of the task's 2^22" \
    "the simulator runs these sizes smaller, the last block's remainder kept: 4194304 as 1048576"
expect_out_re "the largest size is the simulator's cap, 2^20" '^  1048576 +ok'
expect_faster "the reference: graded on the simulator in seconds (sanitized build)" 30
CUDALAB_BACKEND=cuda run cudalab grade $ex "$ref"
expect_out_re "the reference with CUDA asked for: NO_GPU" '^NO_GPU  '
expect_out "the reference compiled for sm_90" "compiled for sm_90; no GPU to run it on: "
files=$(ls "$CACHE" 2>/dev/null)
expect_eq "the cache holds one .ptx and one .cubin (student file = reference)" \
    "$(grep -Ecx '[0-9a-f]{32}\.(ptx|cubin)' <<<"$files")" 2
expect_eq "no relocatable intermediate is left in the cache" "$(grep -c 'o\.cubin' <<<"$files")" 0
cubin=$(ls "$CACHE"/*.cubin | head -n 1)
expect_cmd "the cubin is linked: an ELF executable defining nestedReduce and the device runtime" \
    python3 -c '
import struct, sys
b = open(sys.argv[1], "rb").read()
assert b[:4] == b"\x7fELF", "not ELF"
assert struct.unpack_from("<H", b, 16)[0] == 2, "not ET_EXEC: relocatable"
assert b"_Z12nestedReducePiS_j" in b, "no nestedReduce"
assert b"__cudaCDP2LaunchDeviceV2" in b, "no device runtime"
' "$cubin"
ptx=$(ls "$CACHE"/*.ptx | head -n 1)
expect_cmd "the PTX is kept for the checks and declares the device-side launch" \
    grep -q '__cudaCDP2LaunchDeviceV2' "$ptx"

# The same file again: a cache hit, nvcc only asked its version.
nvcc_real=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
printf '#!/bin/sh\necho "$*" >>"%s"\nexec "%s" "$@"\n' "$T/nvcc.log" "$nvcc_real" >"$T/nvcc-logged"
chmod +x "$T/nvcc-logged"
CUDALAB_NVCC=$T/nvcc-logged run cudalab grade $ex "$ref"
expect_out_re "the reference again: PASS" '^PASS  '
expect_eq "the reference again: the cache does not grow" "$(ls "$CACHE")" "$files"
expect_eq "the reference again: nvcc only asked its version" "$(cat "$T/nvcc.log")" "--version"

# --- the starter: cudaDeviceSynchronize() in device code is gone since CUDA 12 ---
line=$(grep -n 'cudaDeviceSynchronize();' "$starter" | cut -d: -f1)
run cudalab grade $ex "$starter"
expect_status "grade the starter" 1
expect_out_re "the starter: COMPILE_ERROR" '^COMPILE_ERROR  '
expect_out "the starter: nvcc's message at the line of the wait ($line)" \
    "starter.cu:$line: error: calling a __host__ function(\"cudaDeviceSynchronize\") from a __global__ function(\"nestedReduce\") is not allowed"

# --- planted mistakes, caught on the simulator ---
mkdir -p planted
sed -f "$E2E_SRC/tests/gpu/planted/nested-no-bound.sed" "$ref" >planted/no-bound.cu
run cudalab grade $ex planted/no-bound.cu --json --no-record
expect_json "a block that ignores n: WRONG on the simulator, the poison past n in its sum" \
    'j["verdict"] == "WRONG" and j["backend"] == "sim" and any(not c["correct"] and c["detail"].startswith("block 0 (elements 0..0)") for c in j["report"]["cases"])'
grep -v '__syncthreads();' "$ref" >planted/no-barrier.cu
line=$(grep -n 'idata\[tid\] += ' planted/no-barrier.cu | cut -d: -f1)
run cudalab grade $ex planted/no-barrier.cu --json --no-record
expect_json "no barrier before the launch: WRONG though every sum is right (the simulator's check)" \
    'j["verdict"] == "WRONG" and all(c["got"] == c["expected"] for c in j["report"]["cases"])'
expect_json "no barrier before the launch: the race, its thread and the line of the fold" \
    'any(c.get("check") == "global-memory race" and "thread 1 of the launching block wrote with no __syncthreads() before the launch" in c["detail"] and "no-barrier.cu:'"$line"'" in c["detail"] for c in j["report"]["cases"])'

# --- without rdc the launch itself does not build: the manifest key is what makes it work ---
mkdir -p attempts
cp "$ref" attempts/plain.cu
run nvcc -ptx -arch=sm_90 -o attempts/plain.ptx attempts/plain.cu
expect_err "nvcc without -rdc=true rejects the device-side launch" \
    "kernel launch from __device__ or __global__ functions requires separate compilation mode"

# --- the driver on its own: no GPU here, so a no_gpu report ---
run bash -c '"$1" reduce-nested --backend cuda --report-fd 3 --lab-kernels "$2" --student "$3" \
    --baseline cpu --reference "$3" --kernel nestedReduce --entry _Z12nestedReducePiS_j \
    --sizes 1,1000 --block 512 3>&1 >/dev/null' _ \
    "$CUDALAB_LIBEXECDIR_TEST/cudalab-driver" "$CUDALAB_LIBEXECDIR_TEST/lab-kernels.ptx" "$cubin"
expect_status "the reduce-nested driver runs" 0
expect_json "its report: family reduce-nested, status no_gpu" \
    'j["family"] == "reduce-nested" and j["status"] == "no_gpu"'
run "$CUDALAB_LIBEXECDIR_TEST/cudalab-driver" reduce-nested --backend cuda --block x
expect_status "the driver refuses bad arguments" 2
run bash -c '"$1" reduce-nested --backend sim --report-fd 3 --lab-kernels "$2" --student "$3" \
    --baseline cpu --reference "$3" --kernel nestedReduce --entry _Z12nestedReducePiS_j \
    --sizes 1,1000,65537 --block 512 3>&1 >/dev/null' _ \
    "$CUDALAB_LIBEXECDIR_TEST/cudalab-driver" "$CUDALAB_LIBEXECDIR_TEST/lab-kernels.ptx" "$ptx"
expect_json "on the simulator: every case correct, each once (no round 2: nothing is timed there to replay)" \
    'j["status"] == "ok" and len(j["cases"]) == 6 and all(c["correct"] for c in j["cases"]) and
     not any(c.get("round") == 2 for c in j["cases"])'
expect_json "on the simulator: the child grids are counted (9 per chain; n = 65537: the last block holds 1)" \
    '[m["child_grids"] for m in j["sim_metrics"] if m["role"] == "student"] == [0, 2 * 9, 128 * 9]'

# --- the driver's checks, on a stand-in libcuda ---
mkdir -p fake
cc -shared -fPIC -O1 -o fake/libcuda.so.1 "$E2E_SRC/tests/fakecuda/fakecuda.c"
check "the fake libcuda builds" $?
echo "_Z12nestedReducePiS_j mode=int-partials" >ref.mod
# nested MODE SIZES [VAR=VALUE...]: the driver with a student module of MODE; the report on stdout
nested() {
    echo "_Z12nestedReducePiS_j mode=$1" >student.mod
    run env LD_LIBRARY_PATH="$T/fake" "${@:3}" bash -c '"$@" 3>&1 >/dev/null' _ \
        "$CUDALAB_LIBEXECDIR_TEST/cudalab-driver" reduce-nested --backend cuda --report-fd 3 \
        --lab-kernels "$CUDALAB_LIBEXECDIR_TEST/lab-kernels.ptx" --student student.mod \
        --baseline cpu --reference ref.mod --kernel nestedReduce --entry _Z12nestedReducePiS_j \
        --sizes "$2" --block 512 --seed 5
}
nested int-partials 1,2,3,7,1000,65537,4194304
expect_json "correct sums: every case of student and reference correct" \
    'j["status"] == "ok" and len(j["cases"]) == 21 and all(c["correct"] for c in j["cases"])'
expect_json "one case per size and role, with the grid of ceil(n / 512) blocks" \
    '[c["grid"] for c in j["cases"] if c["role"] == "student" and "round" not in c] == [1, 1, 1, 1, 2, 129, 8192]'
expect_json "the pending-launch limit covers 8192 chains of 10 grids" \
    'j["pending_launch_limit"] == 81920 and "pending_launch_limit_error" not in j'
nested int-tail 1,1000
expect_json "a block that reads past n is caught at n = 1 with its elements named" \
    'not j["cases"][0]["correct"] and j["cases"][0]["detail"].startswith("block 0 (elements 0..0): expected")'
expect_json "the reference stays correct beside it" \
    'all(c["correct"] for c in j["cases"] if c["role"] == "reference")'
nested int-missing 1000
expect_json "a block sum never written is named" \
    'j["cases"][0]["detail"].startswith("g_odata[1] was never written (block 1)")'
nested int-partials 1,1000 FAKECUDA_REFUSE_LIMIT=1
expect_json "a refused limit is reported and the checks go on" \
    'j["pending_launch_limit"] == 2048 and "cuCtxSetLimit" in j["pending_launch_limit_error"] and j["status"] == "ok" and all(c["correct"] for c in j["cases"])'

e2e_finish

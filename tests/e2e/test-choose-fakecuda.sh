#!/bin/bash
# A choice exercise's sweep (common/choose.h) without a GPU: the stand-in
# libcuda (tests/fakecuda/fakecuda.c) runs the sum-matrix contract with a
# virtual clock on which 256-thread blocks are fastest and 1024-thread ones 16 %
# slower; the real, sanitized sum-matrix driver must read the module's
# chosenBlockX/Y, check the kernel at that shape only, time every shape of
# --block and report the sweep, and tell a choice outside the list apart.
set -u
. "$(dirname "$0")/lib.sh"

mkdir -p fake
cc -shared -fPIC -O1 -o fake/libcuda.so.1 "$E2E_SRC/tests/fakecuda/fakecuda.c"
check "the fake libcuda builds" $?
drv=$CUDALAB_LIBEXECDIR_TEST/cudalab-driver
kernel=_Z16sumMatrixOnGPU2DPfS_S_ii
shapes=32x32,128x2,64x4,128x4,256,16x16

# drive STUDENT-CHOICE [EXTRA...]: run the driver with the reference choosing 128x2
drive() {
    echo "$kernel mode=matrix cost=100000 choose=$1" >student.mod
    echo "$kernel mode=matrix cost=100000 choose=128x2" >ref.mod
    shift
    run env LD_LIBRARY_PATH="$T/fake" bash -c '"$@" 3>report.json' _ "$drv" sum-matrix --backend cuda \
        --report-fd 3 --lab-kernels "$CUDALAB_LIBEXECDIR_TEST/lab-kernels.ptx" \
        --student student.mod --baseline cpu --reference ref.mod --kernel sumMatrixOnGPU2D \
        --entry "$kernel" --sizes 33,1000 --timing-sizes 1000 --block "$shapes" --seed 11 --min-samples 20 \
        --time-cap 2 --choose-block "$@"
    OUT=$(<report.json)
}

drive 32x32
expect_status "a choice: the driver reports" 0
expect_json "the kernel is checked at the chosen shape only, for student and reference" \
    'j["status"] == "ok" and len([c for c in j["cases"] if "round" not in c]) == 4 and all(c["correct"] for c in j["cases"])'
expect_json "and the student again on new inputs in the same buffers (round 2)" \
    '[(c["size"], c["role"]) for c in j["cases"] if c.get("round") == 2] == [(33, "student"), (1000, "student")]'
expect_json "every shape's timed runs checked, none wrong" \
    'all(r["verified"] >= 2 and not r["wrong"] for r in j["sweep"]["rows"])'
expect_json "the sweep: every shape timed, the student's choice named" \
    'j["sweep"]["size"] == 1000 and j["sweep"]["choice"] == "32x32"
     and [r["block"] for r in j["sweep"]["rows"]] == ["32x32", "128x2", "64x4", "128x4", "256", "16x16"]
     and all(r["launched"] and r["samples"] >= 20 and r["median_ns"] > 0 for r in j["sweep"]["rows"])'
expect_json "the sweep's times follow the clock: 256 threads fastest, 1024 16 % slower" \
    '[round(r["median_ns"] / 1000, 3) for r in j["sweep"]["rows"]] == [116, 100, 100, 108, 100, 100]'
expect_json "no three-role timings for a choice exercise" 'j["timings"] == []'

drive 128x2
expect_json "the reference's choice timed like any other" 'j["sweep"]["choice"] == "128x2"'

drive 48x2
expect_status "a choice outside the list: still a report" 0
expect_json "a choice outside the list: a wrong case naming the list, and no sweep" \
    'j["status"] == "ok" and "sweep" not in j
     and any(not c["correct"] and "chosenBlock 48x2 is not one of the shapes this exercise sweeps: 32x32, 128x2" in c["detail"]
             for c in j["cases"])'

echo "$kernel mode=matrix cost=100000" >nochoice.mod
run env LD_LIBRARY_PATH="$T/fake" bash -c '"$@" 3>report.json' _ "$drv" sum-matrix --backend cuda \
    --report-fd 3 --lab-kernels "$CUDALAB_LIBEXECDIR_TEST/lab-kernels.ptx" \
    --student nochoice.mod --baseline cpu --reference ref.mod --kernel sumMatrixOnGPU2D \
    --entry "$kernel" --sizes 33 --block "$shapes" --seed 11 --choose-block
OUT=$(<report.json)
expect_json "no chosenBlockX: the case says what to define" \
    'any("defines no __device__ unsigned int chosenBlockX" in c["detail"] for c in j["cases"])'

e2e_finish

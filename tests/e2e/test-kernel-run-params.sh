#!/bin/bash
# kernel-run refuses what it cannot pass: a kernel with 19 parameters (as cuda-samples'
# bisectKernelLarge) runs on the simulator, one with 33 is refused by name with exit 1, and
# neither crashes (kernel-run used to pass 16 arguments whatever the kernel declared, and
# lab_sim_launch read past them: SIGSEGV).
set -u
. "$(dirname "$0")/lib.sh"

{
    echo '__global__ void wide19(int *out, int a1, int a2, int a3, int a4, int a5, int a6, int a7,'
    echo '    int a8, int a9, int a10, int a11, int a12, int a13, int a14, int a15, int a16, int a17,'
    echo '    int a18) {'
    echo '    if (threadIdx.x == 0 && blockIdx.x == 0) out[0] = a1 + a9 + a18;'
    echo '}'
    printf '__global__ void wide33(int *out'
    for i in $(seq 1 32); do printf ', int a%d' "$i"; done
    echo ') {'
    echo '    if (threadIdx.x == 0 && blockIdx.x == 0) out[0] = a1 + a32;'
    echo '}'
} >"$T/wide.cu"
nvcc -ptx -arch=compute_75 -O3 -o "$T/wide.ptx" "$T/wide.cu"
check "the wide kernels build" $?

run "$CUDALAB_KERNEL_RUN_TEST" --backend sim --n 64 --block 32 --kernel _Z6wide19Piiiiiiiiiiiiiiiiiii \
    "$T/wide.ptx"
expect_status "a kernel of 19 parameters runs" 0
# its arguments: every int is n (64); out[0] = 3 * 64
python3 -c 'import json,sys; k=json.load(sys.stdin)["kernels"][0]; sys.exit(k["status"] != "ok" or k["buffers"][0]["words"][0] != 192)' <<<"$OUT"
check "and gets each of them (out[0] = a1 + a9 + a18 = 192)" $?

run "$CUDALAB_KERNEL_RUN_TEST" --backend sim --n 64 --block 32 "$T/wide.ptx"
expect_status "a kernel of 33 parameters is refused" 1
expect_out "by name, saying why" "has 33 parameters; kernel-run passes at most 32"
[ "$RC" -lt 128 ]
check "without a crash" $?

e2e_finish

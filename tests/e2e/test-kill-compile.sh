#!/bin/bash
# e2e-timeout: 200
# kill -9 of the lab in the middle of a compile by the real nvcc, unsandboxed: nothing of
# nvcc's process group (nvcc, its shell, cicc, ptxas) outlives the lab (# 19: nvcc died by
# its parent-death signal, and its cicc ran on).  The lab's child that leads the group keeps
# it: the kernel tells it when the lab dies, and it kills the group.
set -u
. "$(dirname "$0")/lib.sh"

# processes working in a build folder of this test's cache: nvcc and all it starts
compilers() {
    local p
    for p in /proc/[0-9]*; do
        case $(readlink "$p/cwd" 2>/dev/null) in "$CACHE"/.tmp/*) echo "${p#/proc/}" ;; esac
    done
}

# a kernel cicc and ptxas work on for several seconds each: a template of 2^23 calls, inlined
cat >slow.cu <<'CU'
template <int N> struct Deep {
    __device__ static float f(float x) { return Deep<N - 1>::f(x * 1.0001f + N) + Deep<N - 2>::f(x - N); }
};
template <> struct Deep<0> { __device__ static float f(float x) { return x; } };
template <> struct Deep<1> { __device__ static float f(float x) { return x * x; } };
__global__ void slow(float *o) { o[threadIdx.x] = Deep<24>::f(o[threadIdx.x]); }
CU
# a grading for the GPU (NO_GPU here, after the build): on the simulator the build is the PTX
# alone, whose ptxas (nvcc -ptx's check of it) ends in milliseconds
CUDALAB_SANDBOX=off CUDALAB_BACKEND=cuda "$CUDALAB_TEST_BIN" grade reduction/neighbored slow.cu \
    --no-record >"$T/.out" 2>"$T/.err" &
lab=$!
# killed while ptxas works on the PTX (cicc's children die of a broken pipe more often)
running() { compilers | xargs -r ps -o comm= -p | grep -qx "$1"; }
for i in $(seq 900); do
    running ptxas && break
    kill -0 "$lab" 2>/dev/null || break
    sleep 0.1
done
# on a loaded machine cicc may still be at work after 90 s: killed then, the test holds as well;
# and the build runs nvcc twice (the PTX, then the cubin from it), so the ptxas seen may just have
# ended, with the second nvcc not yet at its own ptxas: nvcc itself at work counts too
running ptxas || running cicc || running nvcc
check "the real nvcc (its ptxas, cicc, or itself between them) is at work for the lab" $?
kill -KILL "$lab"
wait "$lab" 2>/dev/null
left=
for i in $(seq 40); do
    left=$(compilers)
    [ -z "$left" ] && break
    sleep 0.05
done
if [ -z "$left" ]; then
    pass "kill -9 of the lab: nothing of nvcc's group survives (nvcc, cicc, ptxas)"
else
    fail "kill -9 of the lab: nothing of nvcc's group survives (nvcc, cicc, ptxas)" "  survivors:" \
        "$(ps -o pid,ppid,pgid,stat,args -p "$(paste -sd, <<<"$left")" | indent)"
    kill -KILL $left 2>/dev/null
fi

e2e_finish

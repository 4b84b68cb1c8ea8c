#!/bin/bash
# The compile cache of a grading on the simulator (issue 22): the simulator reads PTX alone, so
# nvcc builds no cubin of the lab's own files for it; the student's file gets its cubin all the
# same, while the simulator runs, as ptxas's checks are part of its verdict (too much shared data
# is a COMPILE_ERROR on the simulator too; a file saved again in the meantime is graded again).  A later grading on a GPU (the pretend one of fake-gpu.sh) makes the lab's
# cubins from the cached PTX, without compiling the files again, and a grading on the simulator
# after a GPU's finds everything it needs in the cache.
set -u
. "$(dirname "$0")/lib.sh"

nvcc_real=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
printf '#!/bin/sh\necho "$*" >>"%s"\nexec "%s" "$@"\n' "$T/nvcc.log" "$nvcc_real" >"$T/nvcc-logged"
chmod +x "$T/nvcc-logged"
export CUDALAB_NVCC=$T/nvcc-logged

less=reduction/neighbored-less
cp "$CUDALAB_DATADIR_TEST/solutions/reduction/neighbored-less.cu" less.cu

# nvcc_runs KIND: how many of the logged nvcc runs were builds of KIND: -ptx (a file compiled),
# -cubin (a build's cubin from its PTX; not inspect's `-cubin -Xptxas -v`)
nvcc_runs() {
    case $1 in
    -ptx) grep -c -- "^-ptx " "$T/nvcc.log" ;;
    -cubin) grep -c -- "^-cubin .*-o out.cubin out.ptx\$" "$T/nvcc.log" ;;
    esac
}
# cached EXT: how many of the cache's files end in .EXT
cached() {
    ls "$CACHE" 2>/dev/null | grep -c "\.$1\$"
}

# --- on the simulator: PTX only for the lab's files ---
CUDALAB_SIM_MAX_SIZE=70000 run cudalab grade $less less.cu --sim --no-record --json
expect_json "on the simulator: graded there, correct" \
    'j["backend"] == "sim" and j["message"].startswith("correct on the simulator")'
expect_eq "on the simulator: nvcc -ptx for the student, the reference and the baseline" \
    "$(nvcc_runs -ptx)" 3
expect_eq "on the simulator: nvcc -cubin for the student's alone" "$(nvcc_runs -cubin)" 1
expect_eq "on the simulator: the cache holds three PTX files and the student's cubin" \
    "$(cached ptx) $(cached cubin)" "3 1"

: >"$T/nvcc.log"
CUDALAB_SIM_MAX_SIZE=70000 run cudalab grade $less less.cu --sim --no-record --json
expect_json "on the simulator again: graded" 'j["backend"] == "sim"'
expect_eq "on the simulator again: from the cache, nvcc only asked its version" \
    "$(cat "$T/nvcc.log")" "--version"

# --- then on a GPU: the cubins of the cached PTX, which the driver gets ---
. "$(dirname "$0")/fake-gpu.sh"
# the GPU's driver checks that every role's module is a cubin (an ELF file), then replays the
# H100's report; the simulator's check beside it replays it too
fake_driver "for a in \"\$@\"; do
    case \$a in
    --backend=sim) cat '$reports/less-ref.json' >&3; exit 0 ;;
    --student=*|--reference=*|--baseline=*)
        [ \"\$(head -c 4 \"\${a#*=}\" | tail -c 3)\" = ELF ] || { echo \"not a cubin: \$a\" >&2; exit 3; } ;;
    esac
done
cat '$reports/less-ref.json' >&3"
: >"$T/nvcc.log"
run cudalab grade $less less.cu --no-record --json --seed 42
expect_json "on the GPU: the driver got three cubins and reported" \
    'j["backend"] == "cuda" and j["verdict"] in ("PASS", "SLOW")'
expect_eq "on the GPU: no file compiled again (no nvcc -ptx)" "$(nvcc_runs -ptx)" 0
expect_eq "on the GPU: nvcc -cubin from the cached PTX, once for each of the lab's files" \
    "$(nvcc_runs -cubin)" 2
expect_eq "on the GPU: the cache holds three PTX files and their cubins" \
    "$(cached ptx) $(cached cubin)" "3 3"

: >"$T/nvcc.log"
run cudalab grade $less less.cu --no-record --json --seed 42
expect_eq "on the GPU again: from the cache, nvcc only asked its version" \
    "$(cat "$T/nvcc.log")" "--version"
unset CUDALAB_ARCH
export CUDALAB_LIBEXECDIR=$CUDALAB_LIBEXECDIR_TEST

# --- what only ptxas refuses is a COMPILE_ERROR on the simulator too ---
# 64 KiB of static shared memory: nvcc -ptx writes it, ptxas refuses it for every GPU
sed '/^__global__ void reduceNeighboredLess/a\
    __shared__ int big[16384];\
    big[threadIdx.x] = 1;\
    __syncthreads();\
    if (big[(threadIdx.x + 1) % 16384] == 7)\
        g_odata[0] = 0;' less.cu >big.cu
grep -q 'big\[16384\]' big.cu
check "big.cu: the kernel declares 64 KiB of shared memory" $?
CUDALAB_SIM_MAX_SIZE=70000 run cudalab grade $less big.cu --sim --no-record
expect_out_re "64 KiB of static shared memory on the simulator: COMPILE_ERROR" '^COMPILE_ERROR '
expect_out "64 KiB of static shared memory on the simulator: ptxas's message" "too much shared data"

# --- the file saved again while the simulator runs: ptxas's check is of what the simulator ran ---
# an nvcc that, on its first -ptx, saves the student's file again (as an editor would)
cp less.cu moving.cu
printf '#!/bin/sh\ncase "$1" in -ptx) [ -e "%s" ] || { touch "%s"; echo "// saved again" >>"%s"; } ;; esac\nexec "%s" "$@"\n' \
    "$T/saved" "$T/saved" "$T/moving.cu" "$nvcc_real" >"$T/nvcc-saving"
chmod +x "$T/nvcc-saving"
CUDALAB_NVCC=$T/nvcc-saving CUDALAB_SIM_MAX_SIZE=70000 run cudalab grade $less moving.cu --sim \
    --no-record
expect_status "saved again while graded: no verdict (exit 2)" 2
expect_err "saved again while graded: says so" "moving.cu changed while it was graded: grade it again"
CUDALAB_SIM_MAX_SIZE=70000 run cudalab grade $less moving.cu --sim --no-record
expect_out_re "saved again while graded: graded again, a verdict" '^NO_GPU +correct on the simulator'

e2e_finish

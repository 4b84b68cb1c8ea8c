#!/bin/bash
# e2e-timeout: 240
# The lab's own settings are never charged to the student (# 19 item 5): a bad CUDALAB_*
# value is a lab error (exit 2) naming the variable, and nothing is stored as a verdict.
# Before, CUDALAB_ARCH=sm_10 made every grading a COMPILE_ERROR, CUDALAB_SIM_MAX_SIZE=-1
# was taken as 2^64-1, and a file the lab cannot compile (/dev/stdin, a 253-character
# name) was the student's COMPILE_ERROR with "fix the first error".
set -u
. "$(dirname "$0")/lib.sh"

starter=$CUDALAB_DATADIR_TEST/solutions/reduction/neighbored.cu # passes on the simulator
cp "$starter" mine.cu

bad() { # VAR=VALUE WANT: grading under VAR=VALUE is a lab error whose message has WANT
    local name=${1%%=*}
    env "$1" "$CUDALAB_TEST_BIN" grade reduction/neighbored mine.cu >"$T/.out" 2>"$T/.err"
    RC=$? OUT=$(<"$T/.out") ERR=$(<"$T/.err") RUN_CMD="$1 cudalab grade reduction/neighbored mine.cu"
    expect_status "$1: a lab error" 2
    expect_err "$1: the message names the variable and what it should be" "$name='${1#*=}'$2"
    expect_out_lacks "$1: no verdict" "COMPILE_ERROR"
}

bad CUDALAB_ARCH=banana " is not a GPU architecture like sm_90"
bad CUDALAB_ARCH=sm_10 ": nvcc" # well formed: nvcc's own list says no
expect_err "CUDALAB_ARCH=sm_10: nvcc's own list of architectures" "does not build for 'sm_10': it builds for sm_"
bad CUDALAB_SIM_MAX_SIZE=-1 " is not a number of elements from 1 to"
bad CUDALAB_SIM_MAX_SIZE=1e6 " is not a number of elements from 1 to"
bad CUDALAB_SIM_MAX_SIZE=0 " is not a number of elements from 1 to"
bad CUDALAB_SIM_THREADS=-4 " is not a number of threads from 1 to 1024"
bad CUDALAB_SIM_CHECKS=yes " is not 0 or 1"
bad CUDALAB_BACKEND=gpu " is not cuda, sim or auto"
bad CUDALAB_SANDBOX=maybe " is not off, auto or on"
bad CUDALAB_DB=/ " is not the progress store's file"
bad CUDALAB_DB="$T" " is not the progress store's file"
bad CUDALAB_CACHE_DIR=mine.cu " is not a folder for compiled kernels"
bad CUDALAB_TRACE=/ " is not a regular file"
mkfifo trace-fifo
bad CUDALAB_TRACE=trace-fifo " is not a regular file"
run db_rows "select count(*) from attempts"
[ ! -e "$STORE" ] || [ "$OUT" = 0 ]
check "no attempt was stored for a setting of the lab's" $?

CUDALAB_ARCH=sm_90a run cudalab grade reduction/neighbored mine.cu --no-record
expect_status "CUDALAB_ARCH=sm_90a (a variant nvcc lists as sm_90) builds" 0
CUDALAB_SIM_MAX_SIZE=4096 run cudalab grade reduction/neighbored mine.cu --no-record
expect_out_re "CUDALAB_SIM_MAX_SIZE=4096 is fine: correct, no speed verdict below the model's sizes" \
    '^NO_GPU  correct on the simulator; no speed verdict: .*CUDALAB_SIM_MAX_SIZE=4096'
CUDALAB_SIM_MAX_SIZE=262144 run cudalab grade reduction/neighbored mine.cu --no-record
expect_status "CUDALAB_SIM_MAX_SIZE=262144 (the model's size) is fine: a modelled PASS" 0

# files the lab cannot compile are the lab's error, not the student's verdict
run cudalab grade reduction/neighbored /dev/stdin </dev/null
expect_status "/dev/stdin: a lab error" 2
expect_err "/dev/stdin: says it is no regular file" "is a character device, not a regular file"
mkfifo fifo.cu
run timeout 20 "$CUDALAB_TEST_BIN" grade reduction/neighbored fifo.cu
expect_status "a FIFO: a lab error, at once" 2
expect_err "a FIFO: says so" "'fifo.cu' is a FIFO, not a regular file"
long=$(printf 'k%.0s' $(seq 250)).cu
cp "$starter" "$long"
run cudalab grade reduction/neighbored "$long" --no-record
expect_status "a 253-character name: graded (the lab's copy has a short name)" 0
head -c $((1024 * 1024 + 1)) /dev/zero | tr '\0' ' ' >huge.cu
run cudalab grade reduction/neighbored huge.cu
expect_status "a source past 1 MiB: a lab error" 2
expect_err "a source past 1 MiB: says so" "'huge.cu' is larger than 1024 KiB"

# nvcc that answers --version and is gone when the build starts: the error says so once
# (toolchain.c formatted its message into itself: "cannot run nvcc: cannot run nvcc: ...")
vanishing=$T/nvcc-vanishing
printf '#!/bin/sh\necho "Cuda compilation tools, release 13.0, V13.0.88"\nrm -f "$0"\n' >"$vanishing"
chmod +x "$vanishing"
printf '\n// a new hash\n' >>mine.cu
CUDALAB_NVCC=$vanishing run cudalab grade reduction/neighbored mine.cu --no-record
expect_status "nvcc gone when the build starts: a lab error" 2
expect_eq "nvcc gone: one plain message" "$ERR" \
    "cudalab: cannot run '$vanishing': No such file or directory"

# CUDALAB_TRACE: the timeline of one grading (tests/bench/latency.sh), whole lines from the
# lab and from its driver
CUDALAB_TRACE=$T/trace.txt run cudalab grade reduction/neighbored mine.cu --no-record
expect_status "CUDALAB_TRACE: the grading passes" 0
run cat "$T/trace.txt"
expect_out_re "CUDALAB_TRACE: the lab marks its start" "^[0-9]+\.[0-9]{6} [0-9]+ cudalab start$"
expect_out_re "CUDALAB_TRACE: and its stages" " cudalab stage 2: the PTX simulator$"
expect_out_re "CUDALAB_TRACE: the driver marks its checks" " driver n=1000: checked$"
expect_out_re "CUDALAB_TRACE: the lab marks the driver's end" " cudalab driver: done$"

e2e_finish

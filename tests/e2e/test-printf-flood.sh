#!/bin/bash
# A printf flood (review of 2026-11-28: a debugging printf in every thread at 2^24 elements ran
# into the 120 s TIMEOUT on the H200, with the advice to look for an endless loop): on the
# simulator the real driver stops the launch at 1 MiB of printf (LAB_SIM_PRINTF_FLOOD), and the
# grading is a RUNTIME_ERROR that names the flood, in seconds, with advice about printf.  The
# GPU's side (the driver's stdout past 1 MiB) is test-grade-recorded.sh's and test-sandbox.sh's;
# on a real GPU, tests/gpu/run.sh grades the same planted kernel.
set -u
. "$(dirname "$0")/lib.sh"

planted=$E2E_SRC/tests/gpu/planted/printf-flood.cu
run cudalab grade reduction/neighbored-less "$planted" --no-record
expect_status "printf flood on the simulator: a verdict, not the lab's error" 1
expect_out_re "printf flood: RUNTIME_ERROR naming the MiB printed and the size" \
    '^RUNTIME_ERROR  your kernel printed 1\.[0-9] MiB at n = [0-9]+ on the simulator, and the lab stopped it'
expect_out "printf flood: the advice is about printf" "print from one thread"
expect_out_lacks "printf flood: not the advice for an endless loop" "a loop whose condition"
expect_out_re "printf flood: the table says which sizes were stopped" 'stopped +after 1\.[0-9] MiB of printf output'
expect_faster "printf flood: stopped in seconds, not at the run timeout" 30
run cudalab grade reduction/neighbored-less "$planted" --no-record --json
expect_json "printf flood --json: the cases carry printf_bytes and printf_cut" \
    'j["verdict"] == "RUNTIME_ERROR" and any(c.get("printf_cut") and c.get("printf_bytes", 0) > 1 << 20 for c in j["report"]["cases"])'
# a kernel that prints at small sizes only is no flood: its printf reaches the report
sed 's|printf("block|if (n <= 1000 \&\& tid == 0) printf("block|' "$planted" >quiet.cu
run cudalab grade reduction/neighbored-less quiet.cu --no-record --json
expect_json "a printf of one thread a block: no flood, graded as usual" \
    'j["verdict"] != "RUNTIME_ERROR" and not any(c.get("printf_cut") for c in j["report"]["cases"])'
e2e_finish

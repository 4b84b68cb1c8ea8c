#!/bin/bash
# cudalab profile without a GPU: ncu missing, no GPU, counters not permitted,
# and the whole path with a fake device probe and a fake ncu that checks its
# command line, runs the real driver's argument parsing and answers with the
# CSV fixture (tests/fixtures/ncu, hand-written until the lead records one).
set -u
. "$(dirname "$0")/lib.sh"

sol=$E2E_SRC/solutions/reduction/neighbored-less.cu
csv=$FIXTURES/ncu/reduction-h100.csv

# --- ncu missing -------------------------------------------------------------
run env PATH=/usr/bin:/bin CUDA_HOME=/nonexistent "$CUDALAB_TEST_BIN" profile reduction/neighbored-less "$sol"
if [ -x /usr/local/cuda/bin/ncu ]; then
    pass "ncu is in the toolkit here: the missing-ncu message cannot be shown"
else
    expect_status "no ncu" 2
    expect_err "no ncu: says so" "ncu not found"
    expect_err "no ncu: says where to get it" "nsight-compute"
    expect_err "no ncu: points at inspect" "cudalab inspect reduction/neighbored-less"
    expect_err "no ncu: says the simulator's figures follow" "below: the simulator's figures"
    expect_out_re "no ncu: threads per instruction under its own name, not nvprof's percentage" \
        '^  threads_per_inst +[0-9.]+  active threads per executed instruction'
    expect_out_lacks "no ncu: no count of threads under nvprof's warp_execution_efficiency" \
        "  warp_execution_efficiency "
    # review D11: the simulator counts PTX; the previous step divides by a variable, which a GPU
    # runs as many SASS instructions: the 1.4x here is the chapter's 2.5x in ncu
    expect_out "no ncu: figures at 2^24 capped to 65536, full blocks" "PTX-level figures at n = 65536"
    expect_out "no ncu: why the dividing kernel's count is far below ncu's" \
        "  reduceNeighbored divides (a % or / by a variable): one PTX instruction here"
    expect_out_lacks "no ncu: no such note under a kernel that does not divide" \
        "reduceNeighboredLess divides"
fi

# --- a fake ncu ----------------------------------------------------------------
fake=$T/fake-ncu
cat >"$fake" <<SH
#!/bin/bash
# $E2E_MARK
printf '%s\n' "\$@" >"$T/ncu-args"
[ -n "\${FAKE_NCU_DENY:-}" ] && { echo "==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU Performance Counters on the target device 0."; exit 1; }
log=
while [ \$# -gt 0 ]; do
    case \$1 in --log-file) log=\$2; shift 2;; --metrics|--clock-control|--page|--print-kernel-base) shift 2;;
    --*) shift;; *) break;; esac
done
"\$@" --help >/dev/null 2>&1
cp "$csv" "\$log"
SH
chmod +x "$fake"
export CUDALAB_NCU=$fake

run cudalab profile reduction/neighbored-less "$sol"
expect_status "no GPU" 2
expect_err "no GPU: says so" "profiling needs a GPU"

# --- a fake GPU: the recorded H100 probe ----------------------------------------
fx=$T/libexec-$E2E_MARK
fake_programs "$fx"
printf '#!/bin/sh\ncat "%s" >&3\n' "$FIXTURES/reports/probe.json" >"$fx/device-probe"
chmod +x "$fx/device-probe"
export CUDALAB_LIBEXECDIR=$fx CUDALAB_ARCH=sm_90

run cudalab profile reduction/neighbored-less "$sol"
expect_status "profile" 0
expect_out "names the device" "on NVIDIA H100"
expect_out "says ncu's times never grade" "ncu's times never grade"
expect_out_re "student's kernel section" '^reduceNeighboredLess \(your kernel\)'
expect_out_re "previous step section" '^reduceNeighbored \(the previous step\)'
expect_out_re "reference section" '^reduceNeighboredLess \(the reference solution\)'
expect_out_re "inst_per_warp row: nvprof name, ncu metric, value, the simulator's, meaning" \
    '^  inst_per_warp +smsp__average_inst_executed_per_warp\.ratio +[0-9.]+ +[0-9.]+ +instructions each warp'
expect_out_re "stall_sync row" '^  stall_sync +smsp__warp_issue_stalled_barrier_per_warp_active\.pct +[0-9.]+ %'
expect_out "simulator column: the PTX simulator ran the same kernels" "simulator: the same kernels on the PTX simulator"
args=$(cat "$T/ncu-args")
for a in "--clock-control" "none" "--csv" "raw" "--kernel-name=regex:^(reduceNeighboredLess|reduceNeighbored)\$" \
    "--launch-count=3" "--min-samples=1" "--sizes=16777216"; do
    grep -qxF -- "$a" <<<"$args"
    check "ncu command line has '$a'" $?
done
grep -q "smsp__average_inst_executed_per_warp.ratio" <<<"$args"
check "ncu gets the chapter's metrics (exercises/reduction/profile.ini)" $?

run cudalab profile reduction/neighbored-less "$sol" --json
expect_status "profile --json" 0
got=$(python3 -c "
import json; d=json.load(open('$T/.out'))
k={x['role']: x for x in d['kernels']}
ipw={r: [m['value'] for m in k[r]['metrics'] if m['key']=='inst_per_warp'][0] for r in k}
print(sorted(k), ipw['student'] < ipw['baseline'], d['command'][0].endswith('fake-ncu'))")
expect_eq "--json: three kernels, fewer instructions per warp than the previous step, the command" \
    "$got" "['baseline', 'reference', 'student'] True True"

# the simulator's run: a driver that answers --backend=sim with issue6-sim's recorded report
cat >"$fx/reduce-int" <<SH
#!/bin/bash
# $E2E_MARK
case " \$* " in
*" --backend=sim "*) printf '%s\n' "\$@" >"$T/sim-args"; cat "$FIXTURES/reports/sim-metrics-issue6.json" >&3 ;;
*) exec "$fx/cudalab-driver.real" reduce-int "\$@" ;;
esac
SH
chmod +x "$fx/reduce-int"
run cudalab profile reduction/neighbored-less "$sol"
expect_status "profile with simulator figures" 0
expect_out "says where the simulator's figures come from" "on the PTX simulator at n = 65536"
expect_out_re "inst_per_warp: ncu value beside the simulator's" \
    '^  inst_per_warp +smsp__average_inst_executed_per_warp\.ratio +[0-9.]+  109\.38 '
expect_out_re "branch efficiency of the previous step on the simulator: 70 %" \
    '^  branch_efficiency +smsp__sass_average_branch_targets_threads_uniform\.pct +[0-9.]+ %  70\.00 %'
grep -q -- '--student=.*\.ptx$' "$T/sim-args"
check "the simulator gets PTX modules" $?
# review D11: 2^24 as a grading capped at 2^16 runs it, full blocks, not the task's n = 1000
grep -qxF -- '--sizes=65536' "$T/sim-args"
check "the simulator runs 2^24 as a grading capped at 65536 would" $?
rm "$fx/reduce-int"

FAKE_NCU_DENY=1 run cudalab profile reduction/neighbored-less "$sol"
expect_status "counters not permitted" 2
expect_err "says ERR_NVGPUCTRPERM" "ERR_NVGPUCTRPERM"
expect_err "gives the fix" "NVreg_RestrictProfilingToAdminUsers=0"

printf '__global__ void reduceNeighboredLess(int *g, int *o, unsigned n) { o[0] = nope; }\n' >"$T/bad.cu"
run cudalab profile reduction/neighbored-less "$T/bad.cu"
expect_status "a compile error" 2
expect_err "shows nvcc's message" "bad.cu:1: error"

# host code: nothing to profile, said at once (it printed "ncu not found", then sent the student
# to inspect, which refuses host code too)
run cudalab profile occupancy/calculator "$E2E_SRC/solutions/occupancy/calculator.cu"
expect_status "profile host code" 2
expect_err "profile host code: no kernel" "occupancy/calculator is host code: there is no kernel to profile"
[[ $ERR != *"inspect occupancy/calculator"* && $ERR != *"ncu"* ]]
check "profile host code: no ncu, no inspect advice" $?

run cudalab profile
expect_status "profile without an exercise" 2
expect_err "gives its usage" "usage: cudalab profile EXERCISE"
run cudalab profile reduction/neighbored-less --frob
expect_status "unknown option" 2
e2e_finish

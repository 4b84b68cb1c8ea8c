#!/bin/bash
# cudalab demo: usage errors, the real demo drivers on this GPU-less machine
# (on the simulator, modelled: test-demo-sim.sh has the rest), then
# a fake demo driver replaying a demo report through the whole parse ->
# table / bar chart / heat map path, and drivers that misbehave.
set -u
. "$(dirname "$0")/lib.sh"

fixture=$FIXTURES/demo/blockshape.json

# --- usage ---
run cudalab demo
expect_status "demo without a chapter" 2
expect_err "demo without a chapter: usage" "usage: cudalab demo CHAPTER [--json] [--save FILE]"
run cudalab demo nosuch
expect_status "demo of an unknown chapter" 2
expect_err "demo of an unknown chapter says so" "cudalab: unknown chapter 'nosuch'"
run cudalab demo dynpar
expect_status "demo of a chapter without a demo" 2
expect_err "a chapter without a demo says so" "cudalab: chapter 'dynpar' has no demo"
run cudalab demo occupancy --fast
expect_status "demo with an unknown option" 2
expect_err "an unknown option is named" "cudalab demo: unknown option '--fast'"
run cudalab help demo
expect_out "help demo" "run a chapter's demo: measured on the GPU, modelled on the simulator"
expect_out "help demo: what it does without a GPU" "its times are modelled for an H100"

# --- the real drivers, no GPU here: on the simulator, times modelled (test-demo-sim.sh) ---
run cudalab demo divergence --json
expect_status "demo divergence without a GPU: runs on the simulator" 0
expect_json "demo divergence --json: a modelled demo report" \
    'j["kind"] == "demo" and j["chapter"] == "divergence" and j["status"] == "ok"
     and j["backend"] == "sim" and j["timing"] == "modelled" and j["version"] == 1'
# occupancy's Little's law with the fake libcuda (tests/fakecuda), every row computed alike from its
# bandwidth and clock (issue 33): the notes' C2070 over its 14 SMs, their Kepler from their own inputs
# (250 GB/s / 1.6 GHz is 156 bytes a cycle, not the 96 they printed), this GPU's at its SM clock
mkdir -p "$T/fake"
cc -shared -fPIC -O1 -o "$T/fake/libcuda.so.1" "$E2E_SRC/tests/fakecuda/fakecuda.c"
check "the fake libcuda builds" $?
LD_LIBRARY_PATH=$T/fake run cudalab demo occupancy
expect_out_re "demo occupancy: the notes' C2070, its 575 warps over its 14 SMs: 41 of 48" \
    '^  Fermi C2070 \(notes\) +144 +1\.57 +92(\.0)? +72 +18391 +575 +14 +41(\.1)? +48$'
expect_out_re "demo occupancy: Kepler from the notes' own inputs, 156 bytes a cycle, 75 warps per SM of 64" \
    '^  Kepler K20 \(notes\) +250 +1\.60 +156(\.2)? +122 +31250 +977 +13 +75(\.1)? +64$'
expect_out_re "demo occupancy: this GPU's row counts the cycles at its SM clock (the fake's 1 GHz)" \
    '^  Fake GPU \(tests/fakecuda\) +[0-9]+ +1\.00 '
expect_status "demo occupancy with a driver that has no occupancy calls: the tables stand" 0
expect_out "... and the sweep says why it did not run" "note: the occupancy sweep did not run: the NVIDIA"

# the warp chapter's demo times nothing: with no GPU it runs on the PTX simulator
run cudalab demo warp --json
expect_status "demo warp without a GPU: runs on the simulator" 0
expect_json "demo warp: status ok on the simulator, two tables" \
    'j["status"] == "ok" and j["backend"] == "sim" and len(j["sections"]) == 2'
expect_json "demo warp: the 40x2 block's third warp holds row 1's last 16 threads, 16 lanes idle" \
    '[r[1:] for r in j["sections"][0]["rows"] if r[0] == "(40,2)"] == [
        [0, "(0,0)", "(31,0)", "0-31", 32, 0, "0xffffffff"],
        [1, "(32,0)", "(23,1)", "32-63", 32, 0, "0xffffffff"],
        [2, "(24,1)", "(39,1)", "64-79", 16, 16, "0x0000ffff"]]'
expect_json "demo warp: a 3D block's warps run x, then y, then z" \
    '[r[2:4] for r in j["sections"][0]["rows"] if r[0] == "(16,3,3)"][1] == ["(0,2,0)", "(15,0,1)"]'
expect_json "demo warp: warps measured = ceil(threads / 32) for every shape" \
    'all(r[2] == r[3] == -(-r[1] // 32) and r[5] == r[4] - r[1] for r in j["sections"][1]["rows"])
     and [r[0] for r in j["sections"][1]["rows"]][:3] == ["(32)", "(33)", "(40,2)"]'
expect_eq "demo warp: no note of a different cut" "$(grep -c 'cut this block differently' <<<"$OUT")" 0
run cudalab demo warp
expect_out "demo warp, text: names the simulator" "demo warp on cudalab PTX simulator (sim)"
expect_out_re "demo warp, text: the 40x2 block's partial warp" '^  \(40,2\) +2 +\(24,1\) +\(39,1\) +64-79 +16 +16 +0x0000ffff$'
# $CUDALAB_BACKEND=sim forces the simulator; a demo that times gets modelled times there
CUDALAB_BACKEND=sim run cudalab demo occupancy --json
expect_json "demo occupancy forced onto the simulator: modelled" \
    'j["backend"] == "sim" and j["status"] == "ok" and j["timing"] == "modelled"'

# under ncu a demo driver only launches its kernels: no report fd needed, no report
run "$CUDALAB_LIBEXECDIR_TEST/cudalab-driver" demo-divergence --ncu-child --backend cuda \
    --lab-kernels "$CUDALAB_LIBEXECDIR_TEST/lab-kernels.ptx"
expect_status "demo driver --ncu-child without a GPU" 1
expect_eq "demo driver --ncu-child: nothing on stderr" "$ERR" ""
run "$CUDALAB_LIBEXECDIR_TEST/cudalab-driver" demo-divergence --backend cuda \
    --lab-kernels "$CUDALAB_LIBEXECDIR_TEST/lab-kernels.ptx"
expect_status "demo driver without --report-fd" 2
expect_err "demo driver without --report-fd: usage" "--report-fd and --lab-kernels are required"

# --- a fake demo driver replaying a report ---
. "$E2E_SRC/tests/e2e/fake-gpu.sh"
fake_demo() { # BODY: demo-blockshape becomes a sh script running BODY
    printf '#!/bin/sh\n# %s\n%s\n' "$E2E_MARK" "$1" >"$fx/demo-blockshape"
    chmod +x "$fx/demo-blockshape"
}
fake_demo "printf '%s\\n' \"\$@\" >'$T/driver-args'
cat '$fixture' >&3"

run cudalab demo blockshape
expect_status "replayed demo" 0
expect_out "replayed demo: header names the GPU" "demo blockshape on NVIDIA H100 80GB HBM3 (cuda)"
expect_out "replayed demo: section title" "sumMatrixOnGPU2D, 16384 x 16384 floats"
expect_out_re "replayed demo: table header with units" \
    '^  block\.x +block\.y +grid +time \(us\) +bandwidth \(GB/s\) +vs best \(x\)'
expect_out_re "replayed demo: the (128,2) row, each column with its own decimals" \
    '^ +128 +2 +128x8192 +1175 +2741 +1\.00 +0 +1175 +32\.7 +ok$'
expect_out_re "replayed demo: the (256,1) row" '^ +256 +1 +64x16384 +1176 +2738 +1\.00 +0 +1176 +31\.0 +ok$'
expect_out_re "replayed demo: (256,8) failed at launch, nulls as -" \
    '^ +256 +8 +64x2048 +- +- +- +- +- +- +cuLaunchKernel: CUDA_ERROR_INVALID_VALUE: invalid argument$'
expect_out "replayed demo: heat map title" "time by block.y (rows) and block.x (columns)"
expect_out_re "replayed demo: heat map columns are the block.x values, sorted" \
    '^ +16 +32 +64 +128 +256$'
expect_out_re "replayed demo: heat map row block.y = 2, shaded" \
    '^ +2 +[ .:=+*#%@-]+1285 +[ .:=+*#%@-]+1175 +[ .:=+*#%@-]+1218$'
expect_out_re "replayed demo: heat map: the fastest cell is the lightest shade" '^ +1 +.* 1281 +  1176$'
expect_out "replayed demo: heat map scale" "scale: ' ' 1175 ... '@' 1373 us"
expect_out_re "replayed demo: bar chart: the largest value is 40 wide" '^  \(128,2\) \|#{40} 76\.6 %$'
expect_out_re "replayed demo: bar chart: 74.4 of 76.6 is 39 wide" '^  \(16,16\) \|#{39} 74\.4 %$'
expect_out_re "replayed demo: bar chart: 62.6 of 76.6 is 33 wide" '^  \(32,32\) \|#{33} 62\.6 %$'
expect_out "replayed demo: the note" "note: block (256,8) = 2048 threads is over the limit of 1024"
expect_out_lacks "replayed demo: measured on a GPU, nothing said modelled" "modelled for an"
expect_cmd "the driver got --backend=cuda" grep -Fqx -- "--backend=cuda" "$T/driver-args"
expect_cmd "the driver got --lab-kernels" grep -Fqx -- "--lab-kernels=$fx/lab-kernels.ptx" "$T/driver-args"
step=$(grep -m1 -- '--step=' "$T/driver-args")
expect_eq "the driver got one --step per exercise" "$(grep -c -- '--step=' "$T/driver-args")" 2
expect_eq "the step: id, kernel, family, first block shape, unroll" \
    "$(cut -d, -f1-5 <<<"$step")" "--step=blockshape/sum-matrix-bounds,sumMatrixOnGPU2D,sum-matrix,32x32,1"
expect_eq "the second step: the shape-choosing exercise" \
    "$(grep -- '--step=' "$T/driver-args" | sed -n 2p | cut -d, -f1-3)" "--step=blockshape/fastest-shape,sumMatrixOnGPU2D,sum-matrix"
module=$(cut -d, -f6 <<<"$step")
[ -s "$module" ] && [ "${module##*.}" = cubin ]
check "the step's module is a compiled cubin ($module)" $?
expect_eq "the step ends with the kernel's entry, from the family registry" \
    "${step##*,}" "entry=_Z16sumMatrixOnGPU2DPfS_S_ii"

run cudalab demo blockshape --save "$T/saved.json"
expect_status "replayed demo --save" 0
expect_out "replayed demo --save: the table still printed" "sumMatrixOnGPU2D, 16384 x 16384 floats"
python3 -c 'import json,sys; sys.exit(json.load(open(sys.argv[1])) != json.load(open(sys.argv[2])))' \
    "$T/saved.json" "$fixture"
check "--save keeps the driver's report as sent" $?
run cudalab demo blockshape --save "$T/no/such/dir/x.json"
expect_status "--save into a missing folder" 2
expect_err "--save into a missing folder: says so" "$T/no/such/dir/x.json"
run cudalab demo blockshape --json
expect_status "replayed demo --json" 0
python3 -c 'import json,sys; sys.exit(json.loads(sys.argv[1]) != json.load(open(sys.argv[2])))' "$OUT" "$fixture"
check "--json prints the driver's report as sent" $?

run script -qec "$CUDALAB_TEST_BIN demo blockshape" /dev/null
expect_out "on a terminal the heat map is coloured" $'\033[48;5;21m'
NO_COLOR=1 run script -qec "$CUDALAB_TEST_BIN demo blockshape" /dev/null
expect_out "NO_COLOR on a terminal: the heat map's shade characters" "scale: ' ' 1175 ... '@' 1373 us"
! grep -q $'\033' <<<"$OUT"
check "NO_COLOR on a terminal: no escape sequence" $?
run cudalab demo blockshape
! grep -q $'\033' <<<"$OUT"
check "piped: no escape sequence" $?

# --- Nsight Compute sections: the lab runs ncu on the driver and fills the cells ---
# (the replayed report with its occupancy section turned into a request; a stand-in ncu prints
# the CSV recorded on the H100, tests/fixtures/ncu)
python3 - "$fixture" "$T/ncu-report.json" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
s = j["sections"][1]
s["ncu"] = {"kernels": "sumMatrix", "metrics": ["sm__warps_active.avg.pct_of_peak_sustained_active"],
            "columns": [1], "status": -1}
for r in s["rows"]:
    r[1] = None
json.dump(j, open(sys.argv[2], "w"))
EOF
fake_demo "cat '$T/ncu-report.json' >&3"
printf '#!/bin/sh\nprintf "%%s\\n" "$@" >"%s"\ncat "%s"\n' "$T/ncu-args" \
    "$FIXTURES/ncu/reduction-h100.csv" >"$T/fake-ncu"
chmod +x "$T/fake-ncu"
CUDALAB_NCU=$T/fake-ncu run cudalab demo blockshape --json
expect_status "ncu section: the demo runs" 0
want=$(python3 - "$FIXTURES/ncu/reduction-h100.csv" <<'EOF'
import csv, sys
rows = [r for r in csv.reader(l for l in open(sys.argv[1]) if not l.startswith("=="))]
col = rows[0].index("sm__warps_active.avg.pct_of_peak_sustained_active")
print([float(r[col].replace(",", "")) for r in rows[2:]])
EOF
)
got=$(python3 -c 'import json,sys; j = json.loads(sys.argv[1]); print([r[1] for r in j["sections"][1]["rows"]][:int(sys.argv[2])])' \
    "$OUT" "$(python3 -c 'import sys; print(len(eval(sys.argv[1])))' "$want")")
expect_eq "ncu section: row i holds launch i's value" "$got" "$want"
expect_cmd "ncu ran on the driver program's --ncu-child" grep -Fqx -- "--ncu-child" "$T/ncu-args"
expect_cmd "ncu measured the section's kernels" grep -Fqx -- "--kernel-name=regex:sumMatrix" \
    "$T/ncu-args"
expect_cmd "ncu ran the demo program" grep -Fqx -- "demo-blockshape" "$T/ncu-args"
python3 - "$T/ncu-report.json" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
j["sections"][1]["ncu"]["status"] = 1
json.dump(j, open(sys.argv[1], "w"))
EOF
CUDALAB_NCU=$T/no-such-ncu PATH=/usr/bin:/bin run cudalab demo blockshape --json
expect_json "no ncu: every row says so" \
    'all(r[1] == "ncu not found" for r in j["sections"][1]["rows"])'

# --- drivers that misbehave ---
fake_demo "echo 'demo: it broke' >&2; exit 3"
run cudalab demo blockshape
expect_status "a driver with no report" 2
expect_err "no report: says how the driver ended" "demo driver 'demo-blockshape' sent no report: it exited with status 3"
expect_err "no report: the driver's stderr is shown" "demo: it broke"
fake_demo "echo 'not json' >&3"
run cudalab demo blockshape
expect_status "a driver sending garbage" 2
expect_err "garbage: the parse error" "cudalab: demo report: not a JSON object"
fake_demo "echo '{\"version\":1,\"kind\":\"demo\",\"status\":\"ok\",\"sections\":[{\"title\":\"t\",\"columns\":[],\"rows\":[],\"chart\":{\"type\":\"bars\",\"label\":0,\"value\":0}}]}' >&3"
run cudalab demo blockshape
expect_status "a chart naming a missing column" 2
expect_err "a chart naming a missing column is refused" "section 0: chart's 'label' is not a column index"
fake_demo "echo '{\"version\":1,\"kind\":\"demo\",\"chapter\":\"blockshape\",\"status\":\"error\",\"reason\":\"sumMatrixOnGPU2D: out of memory\"}' >&3"
run cudalab demo blockshape
expect_status "an error report" 1
expect_out "an error report: the reason" "error: sumMatrixOnGPU2D: out of memory"
expect_no_process "no demo driver is left behind" "$E2E_MARK"

e2e_finish

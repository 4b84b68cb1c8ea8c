#!/bin/bash
# The demos without a GPU (issue 20, item 4): divergence, occupancy, blockshape and reduction run
# on the PTX simulator, their outputs the simulator's, their times modelled for an H100 from its
# counts and labelled so in the text and in the JSON; the relations the chapters teach hold in
# the modelled times; the predictions these demos decide are decided on modelled times, saying
# so, or left undecided where the model cannot tell the choices apart.  Each demo runs once
# (text on stdout, the report kept with --save) and its time is printed.
set -u
. "$(dirname "$0")/lib.sh"

# saved_json FILE NAME EXPR: expect_json on a report kept with --save
saved_json() {
    local OUT
    OUT=$(cat "$1")
    expect_json "${@:2}"
}

# demo_on_sim CHAPTER [OPTION...]: runs it, keeps its report in $T/CHAPTER.json, checks the labels
demo_on_sim() {
    local ch=$1
    shift
    run cudalab demo "$ch" --save "$T/$ch.json" "$@"
    echo "# demo $ch on the simulator: $MS ms (sanitized build)"
    expect_status "demo $ch without a GPU: runs" 0
    expect_out "demo $ch: on the simulator" "demo $ch on cudalab PTX simulator (sim)"
    expect_out "demo $ch: says the times are modelled, not measured" \
        "the times and rates are modelled for an H100 from the"
    saved_json "$T/$ch.json" "demo $ch --save: status ok, timing modelled for the H100" \
        'j["status"] == "ok" and j["backend"] == "sim" and j["timing"] == "modelled"
         and j["model"]["gpu"] == "H100" and 0 < j["model"]["median_abs_error"] < 0.2'
}

# --- divergence: mathKernel1-4 and the long branch ---
run cudalab predict divergence fastest-mathkernel mathKernel1
expect_status "a prediction the divergence demo decides" 0
demo_on_sim divergence
expect_out "divergence: each timed table says modelled" \
    "mathKernel1-4: short branches, 2^22 floats [times modelled for an H100, not measured]"
expect_out "divergence: the long branch too" \
    "Long branches: divergence that costs time [times modelled for an H100, not measured]"
expect_out_re "divergence: mathKernel4 wrote 200 everywhere, on the simulator at 2^22" \
    '^  mathKernel4 +itid & 0x01 == 0 \(bug\) +[0-9.]+ +[0-9.]+ +0 +4194304 +0 '
saved_json "$T/divergence.json" "divergence: every output right, counted at the full 2^22" \
    'all(r[6] == 0 and r[4] + r[5] == 4194304 for r in j["sections"][0]["rows"])'
saved_json "$T/divergence.json" "divergence: both timed sections modelled, the ncu one not" \
    '[s.get("modelled", False) for s in j["sections"]] == [True, True, False]'
saved_json "$T/divergence.json" "divergence: each kernel counted at 2^16 and 2^18 threads, scaled to 2^22" \
    'all(l["counted"] == [65536, 262144] and l["work"] == 4194304 and l["bound"]
         for s in j["sections"][:2] for l in s["model_launches"])'
saved_json "$T/divergence.json" "divergence: the short branches are modelled alike, within 1 % (a select each)" \
    '(lambda t: max(t) < 1.01 * min(t))([r[3] for r in j["sections"][0]["rows"]])'
saved_json "$T/divergence.json" "divergence: by thread is modelled slower than uniform and than by warp" \
    '(lambda t: t["longBranch by thread"] > t["longBranch by warp"] > t["longBranch uniform, FMA side"]
       and t["longBranch by thread"] > t["longBranch uniform, rsqrt side"])(
       {r[0]: r[2] for r in j["sections"][1]["rows"]})'
saved_json "$T/divergence.json" "divergence: by thread costs ~2x the undivided mix, by warp ~1x" \
    '(lambda x: x["longBranch by thread"] > 1.5 and x["longBranch by warp"] < 1.2)(
       {r[0]: r[4] for r in j["sections"][1]["rows"]})'
saved_json "$T/divergence.json" "divergence: Nsight Compute's table says it needs a GPU" \
    'all(r[3] == "Nsight Compute needs a GPU" for r in j["sections"][2]["rows"])'
expect_out "divergence: the prediction is judged on the modelled times" \
    "[fastest-mathkernel] you said: mathKernel1  -> not this time"
expect_out "divergence: and says they were modelled" \
    "modelled for an H100, not measured: fastest block 512:"
expect_out "divergence: about the same, as on the H100" "so the answer here is: about the same"
run cudalab predict divergence --json
expect_json "predict --json: the modelled decision is marked" \
    '[(q["held"], q["modelled"]) for q in j["questions"] if q["id"] == "fastest-mathkernel"] == [(False, True)]'

# --- reduction: the staircase ---
demo_on_sim reduction
expect_out "reduction: the note says where the sums were checked" \
    "on the simulator every sum was checked on 2^18 ints"
saved_json "$T/reduction.json" "reduction: every rung's sum right on the simulator" \
    'all(r[-1] == "ok" for s in j["sections"] for r in s["rows"]) and len(j["sections"][0]["rows"]) >= 9'
saved_json "$T/reduction.json" "reduction: the staircase: each named rung modelled faster than the one before" \
    '(lambda t: t["reduceNeighbored"] > t["reduceNeighboredLess"] > t["reduceInterleaved"]
       > t["reduceUnrolling2"] > t["reduceUnrolling4"] > t["reduceUnrolling8"])(
       {r[0]: r[2] for r in j["sections"][0]["rows"]})'
saved_json "$T/reduction.json" "reduction: the later rungs are at least 5x faster than neighbored" \
    'all(r[6] > 5 for r in j["sections"][0]["rows"][5:])'
saved_json "$T/reduction.json" "reduction: at 2^28 no rung beats the modelled copy rate by more than 5 %" \
    'all(0 < r[5] < 105 for r in j["sections"][1]["rows"])'
saved_json "$T/reduction.json" "reduction: the grid-stride rung scales as a fixed grid" \
    '[l["counted"] for l in j["sections"][0]["model_launches"] if l["grid"] == "528"] == [[65536, 262144]]'

# --- blockshape: the heat map ---
run cudalab predict blockshape best-shape "(128,2)"
expect_status "a prediction the blockshape demo decides" 0
demo_on_sim blockshape
expect_out "blockshape: the heat map, modelled" "time by block.y (rows) and block.x (columns)"
saved_json "$T/blockshape.json" "blockshape: every shape's sums right on the simulator, (256,8) refused" \
    'all(r[6] == 0 for r in j["sections"][0]["rows"][:-1]) and j["sections"][0]["rows"][-1][3] is None'
saved_json "$T/blockshape.json" "blockshape: each shape counted on 256^2 and 512^2, scaled to 16384^2" \
    'all(l["counted"] == [65536, 262144] and l["work"] == 16384 * 16384
         for l in j["sections"][0]["model_launches"]) and len(j["sections"][0]["model_launches"]) == 14'
expect_out "blockshape: the prediction is judged on the modelled times, saying so" \
    "[best-shape] you said: (128,2)"
expect_out "blockshape: a modelled ranking says so" "modelled for an H100, not measured: fastest time:"
if grep -Fq "[best-shape] you said: (128,2)  -> not decided yet" <<<"$OUT"; then
    expect_out "blockshape: undecided only where the model cannot tell the shapes apart" \
        "so the model cannot tell them apart: it is decided when the demo runs on a GPU"
fi

# --- occupancy: the device it stands for, the copy rate modelled ---
demo_on_sim occupancy
expect_out_re "occupancy: the copy bandwidth is labelled modelled" '^  modelled copy bandwidth +[0-9]+ +GB/s$'
expect_out_lacks "occupancy: nothing called measured" "measured copy bandwidth"
saved_json "$T/occupancy.json" "occupancy: Little's law row of the H100 modelled" \
    '[r[0] for r in j["sections"][1]["rows"]][-1] == "H100" and j["sections"][1]["rows"][-1][1] > 2000'
expect_out "occupancy: the sweep, modelled" \
    "The occupancy sweep: a 40 KiB table per block, 2^24 ints [times modelled for an H100, not measured]"
saved_json "$T/occupancy.json" "occupancy sweep: the table-map reference right at every block size" \
    '(lambda s: s["modelled"] and len(s["rows"]) >= 9 and all(r[5] == 0 for r in s["rows"]))(j["sections"][3])'
saved_json "$T/occupancy.json" "occupancy sweep: shared memory limits 256 and 512 to 5 and 4 blocks per SM" \
    '{r[0]: r[1] for r in j["sections"][3]["rows"]}[256] == 5 and {r[0]: r[1] for r in j["sections"][3]["rows"]}[512] == 4'
saved_json "$T/occupancy.json" "occupancy sweep: fewer resident warps, slower (32 < 128 < 256 < 512 threads)" \
    '(lambda t: t[32] > t[128] > t[256] > t[512])({r[0]: r[4] for r in j["sections"][3]["rows"]})'
saved_json "$T/occupancy.json" "occupancy sweep: one wave of blocks, a fixed grid, counted at 2^16 and 2^18" \
    'all(l["counted"] == [65536, 262144] and l["work"] == 2**24 for l in j["sections"][3]["model_launches"])'

# --- the figures the chapters quote are the demos' own (docs/numbers.ini, docs/design/numbers.md) ---
# table_figure KEY: the value docs/numbers.ini gives KEY, as the texts show it
table_figure() {
    python3 - "$CUDALAB_DATADIR_TEST/docs/numbers.ini" "$1" <<'PY'
import configparser, sys
cp = configparser.ConfigParser(interpolation=None, inline_comment_prefixes=(";",))
cp.optionxform = str
cp.read(sys.argv[1], encoding="utf-8")
section, _, key = sys.argv[2].rpartition(".")
while section and not cp.has_section(section):  # names hold dots: the longest section wins
    section, _, rest = section.rpartition(".")
    key = rest + "." + key
print(cp.get(section, key))
PY
}
# figure_is KEY REPORT EXPR: EXPR on the saved report j, written as the table writes KEY
figure_is() {
    local want got
    want=$(table_figure "$1")
    got=$(python3 - "$2" "$3" "$want" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
rows = lambda s, col: {r[0]: r[col] for r in j["sections"][s]["rows"]}
v, want = eval(sys.argv[2]), sys.argv[3]
print(v if v is None else "%.*f" % (len(want.split(".")[1]) if "." in want else 0, v))
PY
)
    expect_eq "the texts' $1 ($want) is what the demo shows" "$got" "$want"
}
D=$T/divergence.json R=$T/reduction.json O=$T/occupancy.json B=$T/blockshape.json
figure_is model.h100.divergence.short.block512.us "$D" 'rows(0, 3)["mathKernel1"]'
figure_is model.h100.divergence.short.block64.us "$D" 'rows(0, 2)["mathKernel1"]'
figure_is model.h100.divergence.fma_side.us "$D" 'rows(1, 2)["longBranch uniform, FMA side"]'
figure_is model.h100.divergence.by_thread.x "$D" 'rows(1, 4)["longBranch by thread"]'
figure_is model.h100.divergence.by_warp.x "$D" 'rows(1, 4)["longBranch by warp"]'
for k in neighbored:reduceNeighbored neighbored_less:reduceNeighboredLess \
         unrolling8:reduceUnrolling8 single_pass:reduceSinglePass; do
    figure_is "model.h100.reduction.${k%%:*}.us" "$R" "rows(0, 2)[\"${k#*:}\"]"
done
figure_is model.h100.copy.gbps "$O" 'rows(0, 1)["modelled copy bandwidth"]'
for b in 32 256 512 1024; do
    figure_is "model.h100.occupancy.$b.us" "$O" "rows(3, 4)[$b]"
done
figure_is model.h100.occupancy.256.over_1024.x "$O" 'rows(3, 4)[256] / rows(3, 4)[1024]'
figure_is model.h100.occupancy.512.over_1024.x "$O" 'rows(3, 4)[512] / rows(3, 4)[1024]'
figure_is model.h100.blockshape.spread.pct "$B" \
    '(lambda t: 100 * (max(t) / min(t) - 1))([r[3] for r in j["sections"][0]["rows"] if r[3]])'
# ... and the columns the demos show beside their own times come from the same table
figure_is h100.demo.divergence.mathkernel2.block512.us "$D" 'rows(0, 7)["mathKernel2"]'
figure_is h100.demo.divergence.by_thread.us "$D" 'rows(1, 5)["longBranch by thread"]'
saved_json "$D" "divergence: the -G column has no figure for the optimised long branch (another kernel's 50 % was there)" \
    '{r[0]: r[2] for r in j["sections"][2]["rows"]}["longBranch by thread"] is None'
figure_is h100.divergence.g.mathkernel3.branch_efficiency.pct "$D" 'rows(2, 2)["mathKernel3"]'
figure_is notes.000.unrolling8.us "$R" 'rows(0, 7)["reduceUnrolling8"] * 1000'
figure_is notes.003.sum_matrix.64x4.ms "$B" \
    '[r[8] for r in j["sections"][0]["rows"] if r[0] == 64 and r[1] == 4][0]'
# Little's law from the notes' own inputs: Kepler's 250 GB/s at 1.6 GHz is 156 bytes a cycle, not 96
figure_is notes.003.kepler.bytes_per_cycle.computed "$O" 'rows(1, 3)["Kepler K20 (notes)"]'
figure_is notes.003.kepler.warps_per_sm.computed "$O" 'rows(1, 8)["Kepler K20 (notes)"]'

# --- another GPU's model ---
run cudalab demo reduction --gpu h200 --json
expect_status "demo --gpu h200" 0
expect_json "demo --gpu h200: modelled for the H200" \
    'j["timing"] == "modelled" and j["model"]["gpu"] == "H200" and j["sections"][0]["modelled"]'
run cudalab demo reduction --gpu nosuch
expect_status "demo --gpu of a GPU the model does not know" 2
expect_err "names the GPUs it knows" \
    "unknown GPU 'nosuch': the model knows a100, h100, h200, l4, rtx4090"

# --- the driver alone: no model, no times ---
run sh -c '"$0" demo-divergence --backend sim --report-fd 3 --lab-kernels "$1" 3>"$2"' \
    "$CUDALAB_LIBEXECDIR_TEST/cudalab-driver" "$CUDALAB_LIBEXECDIR_TEST/lab-kernels.ptx" "$T/nomodel.json"
saved_json "$T/nomodel.json" "the driver on the simulator without --model-gpu: refuses to time, says why" \
    'j["status"] == "error" and "no clock" in j["reason"] and j["timing"] == "none"'
e2e_finish

#!/bin/bash
# e2e-timeout: 300
# The simulator against the GPU: for every fixture that tests/gpu/record-sim.sh
# recorded on a GPU (tests/fixtures/sim-diff/*.json), the same kernel file is
# built the same way and each kernel runs on the simulator with the same seed
# and sizes.  Integer buffers must hash the same; float buffers match when
# their first words agree within a relative 1e-5 (float atomics add in any
# order); the address-derived metrics Nsight Compute recorded must be equal:
# global load and store requests and sectors, shared-memory wavefronts (loads
# plus stores), and global atomics (op_atom + op_red) where recorded.  Shared
# float atomics are the one exception: SASS turns them into a CAS loop whose
# shared loads depend on contention (27,998 and 29,496 on two runs of the same
# code), so a kernel that has them gets its shared wavefronts skipped, saying
# why.  With no fixtures yet, it says so.
set -u
. "$(dirname "$0")/lib.sh"

fixtures=$E2E_SRC/tests/fixtures/sim-diff
shopt -s nullglob
files=("$fixtures"/*.json)
if [ ${#files[@]} -eq 0 ]; then
    echo "skip - no GPU recordings in tests/fixtures/sim-diff: run tests/gpu/record-sim.sh on a GPU" |
        tee -a "$E2E_RESULTS"
    e2e_finish
    exit 0
fi
for fx in "${files[@]}"; do
    src=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["source"])' "$fx")
    if [ ! -f "$CUDALAB_DATADIR_TEST/$src" ]; then
        echo "skip - $src is no longer in the tree (fixture ${fx##*/})" | tee -a "$E2E_RESULTS"
        continue
    fi
    ptx=$T/$(tr / _ <<<"$src").ptx
    arch=$(python3 -c 'import json,re,sys; print(re.search(r"-arch=(\S+)", json.load(open(sys.argv[1]))["nvcc"]).group(1))' "$fx")
    nvcc -ptx -arch="$arch" -O3 -lineinfo -I "$CUDALAB_DATADIR_TEST" -o "$ptx" "$CUDALAB_DATADIR_TEST/$src"
    check "$src: builds" $?
    read -r n block seed < <(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(j["n"], j["block"], j["seed"])' "$fx")
    CUDALAB_SIM_THREADS=2 timeout 300 "$CUDALAB_KERNEL_RUN_TEST" --backend sim --n "$n" \
        --block "$block" --seed "$seed" "$ptx" >"$T/sim.json" 2>"$T/sim.err"
    python3 - "$fx" "$T/sim.json" "$src" >"$T/verdicts" <<'PY'
import json, struct, sys
fx, sim, src = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
mine = {k["name"]: k for k in sim["kernels"]}
def close(a, b):
    fa, fb = (struct.unpack("<f", struct.pack("<I", w))[0] for w in (a, b))
    return fa == fb or abs(fa - fb) <= 1e-5 * max(abs(fa), abs(fb))
# Differences the H100 recording showed that the simulator does not model (yet), each with why;
# the rest of the kernel is still compared.
KNOWN_METRICS = {
    "calls": "calls the compiler kept make the GPU's calling sequence store through generic "
             "addresses, requests the simulator does not count",
    "heap_sums": "the device heap's allocator loads, stores and updates its own bookkeeping on "
                 "the GPU; the simulator's malloc touches no memory of the kernel's",
    # tests/sim/features.cu (issue 18), said before its recording: a warp that waits for another
    # spins as long as the other takes, and wmma's fragments are the simulator's own layout
    "tile64_sum": "a multi-warp tile's warps spin on shared memory as long as the others take",
    "nanosleep_wait": "a warp spins on a shared flag as long as the other warp takes",
    "barrier_objects": "mbarrier.try_wait spins as long as the other warps take",
    "wmma_f16": "wmma fragments are laid out the simulator's way: its loads and stores are "
                "per element, the GPU's are not",
    "wmma_int_tf32": "wmma fragments are laid out the simulator's way: its loads and stores are "
                     "per element, the GPU's are not",
}
KNOWN_BUFFERS = {
    ("trig_slow_path", 1): "tanf's rcp.approx.ftz.f32 is the H100's own approximation: a whole "
                           "dump (2026-11-26) differs in 179 of 32832 words, every one a tanf "
                           "result, each by 1 ulp; sincosf's slow path matches bit for bit",
}
# Files of correct kernels that the simulator's checks once accused (issue 32): besides equal
# buffers, no finding
CLEAN = {"tests/sim/warp-tiles.cu"}
for g in fx["kernels"]:
    s = mine.get(g["name"])
    name = "%s %s" % (src, g["name"])
    if src in CLEAN and s:
        finding = s.get("sim", {}).get("finding", "")
        print("%s - %s: no finding on the simulator%s" % ("FAIL" if finding else "ok", name,
              ": " + finding[:160] if finding else ""))
    if g.get("status") != "ok":
        print("skip - %s: failed on the GPU (%s)" % (name, g.get("error", "")[:80])); continue
    if not s or s.get("status") != "ok":
        print("FAIL - %s: the simulator did not run it: %s" % (name, s and s.get("error"))); continue
    if s.get("sim", {}).get("fatal"):
        print("skip - %s: the simulator stopped it: %s" % (name, s["sim"]["finding"][:100])); continue
    for gb, sb in zip(g.get("buffers", []), s.get("buffers", [])):
        if gb["hash"] == sb["hash"]:
            print("ok - %s: buffer %d (%s) identical" % (name, gb["param"], gb["type"]))
        elif gb["type"] == "float" and all(close(a, b) for a, b in zip(gb["words"], sb["words"])):
            print("ok - %s: buffer %d (float) within 1e-5 (summation order)" % (name, gb["param"]))
        else:
            first = [(w, a, b) for w, (a, b) in enumerate(zip(gb["words"], sb["words"])) if a != b]
            where = ("word %d: GPU 0x%08x, sim 0x%08x" % first[0] if first
                     else "past the %d recorded words" % len(gb["words"]))
            known = KNOWN_BUFFERS.get((g["name"], gb["param"]))
            print("%s - %s: buffer %d (%s) differs, first at %s%s" % ("skip" if known else "FAIL", name,
                  gb["param"], gb["type"], where, ": " + known if known else ""))
    ncu, m = g.get("ncu", {}), s.get("sim", {})
    def gpu(*keys):
        return sum(ncu[k] for k in keys) if all(k in ncu for k in keys) else None
    pre = "l1tex__t_%s_pipe_lsu_mem_global_op_%s.sum"
    wf = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_%s.sum"
    for keys, ours in (((pre % ("requests", "ld"),), "gld_requests"),
                       ((pre % ("sectors", "ld"),), "gld_sectors"),
                       ((pre % ("requests", "st"),), "gst_requests"),
                       ((pre % ("sectors", "st"),), "gst_sectors"),
                       ((pre % ("requests", "atom"), pre % ("requests", "red")), "gatom_requests"),
                       ((pre % ("sectors", "atom"), pre % ("sectors", "red")), "gatom_sectors"),
                       ((wf % "ld", wf % "st"), "shared_wavefronts")):
        v = gpu(*keys)
        if v is None:
            continue
        if ours == "shared_wavefronts" and m.get("shared_atom_requests", 0):
            print("skip - %s: shared_wavefronts GPU %d: shared atomics are a CAS loop in SASS "
                  "(contention-dependent loads)" % (name, int(v)))
            continue
        ok = int(v) == int(m.get(ours, -1))
        known = KNOWN_METRICS.get(g["name"]) if not ok else None
        print("%s - %s: %s GPU %d, simulator %d%s" % ("ok" if ok else "skip" if known else "FAIL", name,
              ours, int(v), int(m.get(ours, -1)), ": " + known if known else ""))
PY
    cat "$T/verdicts" | tee -a "$E2E_RESULTS" >/dev/null
    cat "$T/verdicts"
done
# a kernel file of the corpus that no GPU has recorded yet (a new one): compared once it is
for f in $("$E2E_SRC/tests/sim-corpus.sh" "$CUDALAB_DATADIR_TEST"); do
    [ -f "$fixtures/$(tr / _ <<<"${f%.cu}").json" ] ||
        echo "skip - $f: not recorded on a GPU yet (SIM_DIFF_FILES=$f tests/gpu/record-sim.sh)" |
        tee -a "$E2E_RESULTS"
done
e2e_finish

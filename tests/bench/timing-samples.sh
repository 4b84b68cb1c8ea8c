#!/bin/bash
# tests/bench/timing-samples.sh N CONFIG... -- EXERCISE...: how the timing's minimum sample count
# and flush size change a grading's speed-ups, verdicts and wall time (issue 22).  CONFIG is
# MIN_SAMPLES:FLUSH_L2 (the driver's --min-samples and --flush-l2); each EXERCISE's reference is
# graded N times and its untouched starter twice with every CONFIG, the CONFIGs interleaved
# (A B C A B C ...) so that the machine's drift hits them alike, compile cached.  Prints one line
# per exercise and CONFIG: the reference's verdicts, speed-up and fraction of the reference's
# (min..max, and the spread max/min - 1), the student kernel's median time at the first timing
# size (us), the most samples any kernel took, the median wall time; then the starter's verdicts.  Needs a GPU (the simulator times nothing).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${CUDALAB_BIN:-$root/bin/cudalab}
n=${1:?usage: timing-samples.sh N CONFIG... -- EXERCISE...}
shift
configs=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do configs+=("$1"); shift; done
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_DATA_HOME=$tmp/data XDG_CACHE_HOME=$tmp/cache CUDALAB_DATADIR=$root

# a libexec folder per CONFIG whose driver adds the CONFIG's options (the gradings unsandboxed:
# the wrapper is a script)
for c in "${configs[@]}"; do
    d=$tmp/libexec-${c/:/-}
    cp -r "$root/build/libexec/cudalab" "$d"
    mv "$d/cudalab-driver" "$d/cudalab-driver.real"
    printf '#!/bin/sh\nexec "%s/cudalab-driver.real" "$@" --min-samples=%s --flush-l2=%s\n' \
        "$d" "${c%%:*}" "${c#*:}" >"$d/cudalab-driver"
    chmod +x "$d/cudalab-driver"
done

one() { # CONFIG EXERCISE FILE: one grading, a line "ms verdict speedup fraction max_samples"
    local d=$tmp/libexec-${1/:/-} t0 t1 line
    t0=$(date +%s%N)
    line=$(CUDALAB_SANDBOX=off CUDALAB_LIBEXECDIR=$d "$bin" grade "$2" "$3" --no-record --json \
        2>/dev/null | python3 -c '
import json, sys
try:
    j = json.load(sys.stdin)
    r = j.get("report") or {}
    ks = [k for t in r.get("timings", []) for k in t.get("kernels", [])]
    most = max([k.get("samples", 0) for k in ks] or [0])
    us = [k.get("median_ns", 0) / 1e3 for k in ks if k.get("role") == "student"] or [0]
    print(j["verdict"], j.get("speedup", 0), j.get("fraction_of_reference", 0), most, us[0])
except Exception:
    print("ERROR 0 0 0 0")')
    t1=$(date +%s%N)
    echo "$(((t1 - t0) / 1000000)) $line"
}

for ex in "${@}"; do
    ch=${ex%%/*} name=${ex#*/}
    ref=$root/solutions/$ch/$name.cu sta=$root/exercises/$ch/$name/starter.cu
    for c in "${configs[@]}"; do one "$c" "$ex" "$ref" >/dev/null; done # fills the compile cache
    for _ in $(seq "$n"); do
        for c in "${configs[@]}"; do one "$c" "$ex" "$ref" >>"$tmp/ref.${c/:/-}"; done
    done
    for _ in 1 2; do
        for c in "${configs[@]}"; do one "$c" "$ex" "$sta" >>"$tmp/sta.${c/:/-}"; done
    done
    for c in "${configs[@]}"; do
        python3 - "$ex" "$c" "$tmp/ref.${c/:/-}" "$tmp/sta.${c/:/-}" <<'EOF'
import statistics, sys
ex, c, ref, sta = sys.argv[1:5]
rows = [l.split() for l in open(ref)]
verdicts = {}
for r in rows:
    verdicts[r[1]] = verdicts.get(r[1], 0) + 1
sp = [float(r[2]) for r in rows if float(r[2]) > 0]
fr = [float(r[3]) for r in rows if float(r[3]) > 0]
rng = lambda v: "%.3f..%.3f (%.2f %%)" % (min(v), max(v), 100 * (max(v) / min(v) - 1)) if v else "-"
st = {}
for r in (l.split() for l in open(sta)):
    st[r[1]] = st.get(r[1], 0) + 1
us = [float(r[5]) for r in rows if float(r[5]) > 0]
print("%-28s %-7s ref %-9s speed-up %-26s fraction %-26s its time %-26s samples<=%-4s wall %5.0f ms | starter %s" % (
    ex, c, " ".join("%s x%d" % kv for kv in sorted(verdicts.items())), rng(sp), rng(fr), rng(us),
    max(int(r[4]) for r in rows), statistics.median(int(r[0]) for r in rows),
    " ".join("%s x%d" % kv for kv in sorted(st.items()))))
EOF
    done
    rm -f "$tmp"/ref.* "$tmp"/sta.*
done

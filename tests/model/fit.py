#!/usr/bin/env python3
"""tests/model/fit.py TIMES.jsonl COUNTS.jsonl [--write] [--check] [--gpu kernels/gpus/h100.ini]
[--table docs/bench/model.md]

The performance model (lab/model/) against a GPU's measured times.

TIMES.jsonl: one line per graded file, recorded on the GPU by tests/gpu/record-times.sh (the
exercise, the file, the GPU's verdict, the driver's report with every timed kernel's median);
COUNTS.jsonl: the simulator's counts of the same files (tests/model/collect.py; its "model"
holds each role's counts at the timing size).

Two sets, never mixed: the TRAINING set (references, starters, the examples/cheat files a GPU
times, and the reference's sweep of a choice exercise) is what a fit may use; the HELD-OUT set
(tests/model/heldout/, and every exercise's examples/ok/) is what the model is measured on and
never fitted on.  A fit refuses a held-out row.

The model's arithmetic is the lab's own (build/tools/libcudalab-model.so, lab/model/model.c,
through ctypes); its parameters are named by lab/model/model.def.  The GPU's architecture values
come from its report; the fitted ones minimise the squared log error of the student's time over
every training file, and the shortfall of a file whose modelled times give its verdict by less
than 1 % or give the other one (Nelder-Mead in log space, from the data file's values or
model.def's defaults).

A modelled verdict holds the modelled speed-ups to the manifest's lines with the model's error
band, as the grader does (lab/grade/policy.c): PASS only inside both lines by more than the band,
SLOW past one by more, too close to call (NO_GPU) between; exact (no band) where the student's
counts are the baseline's or the reference's.  The band is the data file's speedup_error_p90
(20 % where it has none); with --write, the 90th percentile over the held-out files of
|modelled / measured - 1| of the ratio their verdict stands on (the speed-up over the baseline,
or over a CPU baseline the time against the reference's), written with the parameters.

--write   fit on the training set, then write the parameters, the training set's error and the
          held-out set's (kernels, median error, the band) to the GPU's data file
--check   fail (exit 1) unless the training set meets the bounds of issue 20 (median absolute
          error <= 10 %, >= 90 % within +-20 %) and no file of either set gets the opposite of
          the GPU's verdict (a false SLOW or a false PASS; too close to call is allowed, but never
          for an untouched starter's SLOW), nor a shape of the training set's sweeps as a choice
          (the held-out sweeps' shapes that no file chose are counted, not held)
--table   write the validation table (Markdown) there
--fit     with --write: fit only these parameters (comma-separated model.def names), the
          others kept at the data file's values
--comment with --write: lines (separated by "|") for the data file's header: where the times
          came from
--name    the GPU's name in the table (default: the data file's); with another GPU's times and
          no --write, the prediction of the fitted model on that GPU with only the architecture
          values (SMs, clock, bandwidth, L2) of its report
The last two lines: "model: training: N kernels, median error X %, ..." and "model: held-out:
N kernels, ..."."""
import configparser
import ctypes
import functools
import json
import math
import random
import os
import re
import sys

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BOUNDS = {"median": 0.10, "within20": 0.90}
RATIO_WEIGHT = 16
SHAPE_WEIGHT = 0.1  # a shape's own time: the sweep's 15 shapes are one kernel's
SWEEP_WEIGHT = 4  # a shape's time over the fastest's: what a choice's verdict stands on
VERDICT_WEIGHT = 100  # a file's speed-up on the wrong side of its thresholds, or within 1 % of them
VERDICT_MARGIN = 0.01
STARTS = 4  # Nelder-Mead runs: from the best so far, and from random points near it  # the speed-ups decide the verdicts: their error weighs more than a time's


def read_def():
    text = open(os.path.join(root, "lab", "model", "model.def")).read()
    counts = re.findall(r'^LAB_MODEL_COUNT\(\w+, "(\w+)"', text, re.M)
    params = [(n, k, float(d), float(lo), float(hi)) for n, k, d, lo, hi in
              re.findall(r'^LAB_MODEL_PARAM\(\w+, "(\w+)", (ARCH|FIT), ([0-9.e+-]+), ([0-9.e+-]+), '
                         r'([0-9.e+-]+)', text, re.M)]
    return counts, params


COUNTS, PARAMS = read_def()
PNAMES = [p[0] for p in PARAMS]
FITTED = [i for i, p in enumerate(PARAMS) if p[1] == "FIT"]
lib = ctypes.CDLL(os.environ.get("CUDALAB_MODEL_LIB",
                                 os.path.join(root, "build", "tools", "libcudalab-model.so")))
lib.lab_model_time_raw.restype = ctypes.c_double
lib.lab_model_time_raw.argtypes = [ctypes.POINTER(ctypes.c_double)] * 3
DArr = ctypes.c_double * len(COUNTS)
PArr = ctypes.c_double * len(PARAMS)


def model_ns(params, counts):
    return lib.lab_model_time_raw(PArr(*params), counts, None)


def load_ini(path):
    """The parameters of a GPU's data file (model.def's defaults where it has none), its name,
    and the error band it holds a modelled speed-up to (its speedup_error_p90 where it measured
    one on held-out kernels, else BAND_UNMEASURED, as the judge's model_certainty does)."""
    values = {p[0]: p[2] for p in PARAMS}
    name = "H100"
    band = BAND_UNMEASURED
    cp = configparser.ConfigParser(inline_comment_prefixes=(";",))
    if os.path.exists(path):
        cp.read(path)
        for k, v in cp.items("gpu") if cp.has_section("gpu") else []:
            if k in values:
                values[k] = float(v)
            elif k == "name":
                name = v
        if cp.has_section("validation"):
            v = cp["validation"]
            if float(v.get("heldout_kernels", "0")) > 0 and float(v.get("speedup_error_p90", "0")) > 0:
                band = float(v["speedup_error_p90"])
    return values, name, band


def held_out(path):
    """Whether a file belongs to the held-out set: tests/model/heldout/, or an exercise's
    examples/ok/ (alternative correct solutions, never fitted on)."""
    return path.startswith("tests/model/heldout/") or "/examples/ok/" in path


@functools.lru_cache(maxsize=None)
def manifest(ex):
    cp = configparser.ConfigParser(inline_comment_prefixes=(";",))
    cp.read(os.path.join(root, "exercises", ex, "exercise.ini"))
    e = cp["exercise"]
    return {"baseline": e.get("baseline"), "min_speedup": float(e.get("min_speedup", "1.10")),
            "min_fraction": float(e.get("min_fraction_of_reference", "0.75")),
            "choose": e.get("choose_block", "false") == "true"}


def measured(report):
    """The role -> median ns at the largest timing size of a GPU report."""
    timings = report.get("timings") or []
    if not timings:
        return {}
    last = max(timings, key=lambda t: t["size"])
    return {k["role"]: k["median_ns"] for k in last["kernels"] if k.get("median_ns", 0) > 0}


def verdict_ratios(ex, times):
    """The ratios a verdict stands on, each beside its line: the speed-up over the baseline and
    the time against the reference's (over a CPU baseline, the latter alone, as the grader judges
    a modelled time: the CPU is not modelled)."""
    m = manifest(ex)
    st, rt = times["student"], times["reference"]
    ratios = [(rt / st, m["min_fraction"])]
    if "baseline" in times and m["baseline"] != "cpu":
        speedup, ref = times["baseline"] / st, times["baseline"] / rt
        ratios = [(speedup, m["min_speedup"]), (speedup / ref, m["min_fraction"])]
    return ratios


def verdict_margin(ex, times):
    """How far role -> ns clear the manifest's thresholds, in log terms (>= 0: PASS)."""
    return min(math.log(value / line) for value, line in verdict_ratios(ex, times))


def verdict(ex, times, band=0.0):
    """PASS, SLOW or NO_GPU (too close to call) from role -> ns with the manifest's thresholds
    and an error band, as lab/grade/policy.c's call_against: PASS inside both lines by more than
    the band, SLOW past one by more, too close to call between (band 0: PASS or SLOW)."""
    calls = []
    for value, line in verdict_ratios(ex, times):
        if value >= line * (1 + band):
            calls.append(0)
        else:
            calls.append(2 if value < line / (1 + band) else 1)
    return ("PASS", "NO_GPU", "SLOW")[max(calls)]


def binding_ratio(ex, times):
    """The index in verdict_ratios of the ratio nearest its line: what the verdict stands on."""
    ratios = verdict_ratios(ex, times)
    return min(range(len(ratios)), key=lambda i: math.log(ratios[i][0] / ratios[i][1]))


def verdict_miss(ex, times, want):
    """How far the modelled times fall on the wrong side of the verdict the GPU gave (0 where
    they give it by more than VERDICT_MARGIN in log terms): what the fit weighs besides the
    times, as the verdicts stand on thresholds."""
    margin = verdict_margin(ex, times)
    miss = VERDICT_MARGIN - margin if want == "PASS" else margin + VERDICT_MARGIN
    return miss * miss if miss > 0 else 0.0


def grader_constant(name, default=None):
    """A constant #defined in one of the grader's headers (lab/grade/*.h); default where none
    defines it (None: an error)."""
    for h in sorted(os.listdir(os.path.join(root, "lab", "grade"))):
        if h.endswith(".h"):
            m = re.search(r"#define %s ([0-9.]+)" % name,
                          open(os.path.join(root, "lab", "grade", h)).read())
            if m:
                return float(m.group(1))
    if default is not None:
        return default
    raise SystemExit("fit.py: %s is defined in no header of lab/grade/" % name)


# past how far over the modelled fastest shape a modelled choice is SLOW
SLOW_PAST = grader_constant("LAB_MODELLED_CHOICE_SLOW")
# the grader's band where a data file has none measured (20 % until the grader defines it)
BAND_UNMEASURED = grader_constant("LAB_MODEL_BAND_UNMEASURED", 0.20)
CHOICE_FLOOR = 0.02  # LAB_GRADE_CHOICE_FLOOR of lab/grade/policy.h: a measured tie


def gpu_choice_verdicts(sweep):
    """The GPU's verdict of every shape of a recorded sweep, as lab/grade/policy.c judges a
    choice: within twice both medians' 95 % intervals (at least 2 %) of the fastest."""
    rows = [r for r in sweep["rows"] if r["launched"] and r["median_ns"] > 0]
    best = min(rows, key=lambda r: r["median_ns"])
    return {r["block"]: "PASS" if r["median_ns"] / best["median_ns"] - 1 <=
            max(CHOICE_FLOOR, 2 * (r["ci_rel"] + best["ci_rel"])) else "SLOW" for r in rows}


def model_choice_verdicts(ns):
    """The modelled verdict of every shape (block -> ns), as lab/grade/modelled.c judges it:
    PASS for the fastest, SLOW past SLOW_PAST over it, NO_GPU (too close to call) between."""
    best = min(ns.values())
    return {b: "PASS" if t == best else "SLOW" if t / best - 1 > SLOW_PAST else "NO_GPU"
            for b, t in ns.items()}


def rows_of(times_path, counts_path):
    """The rows: one per file with a GPU time (its roles' counts), and for a choice exercise one
    per shape of a sweep (the student's kernel at that shape: "block"; the reference's sweep, in
    the training set, and each held-out file's own), beside one per file for its verdict alone
    ("choice").  Each row says whether it is held out (held_out)."""
    counts = {}
    for line in open(counts_path):
        c = json.loads(line)
        if c.get("model"):
            counts[(c["exercise"], c["file"])] = c
    rows, choices = [], []
    for line in open(times_path):
        t = json.loads(line)
        key = (t["exercise"], t["file"])
        report = t.get("report") or {}
        heldout = held_out(key[1])
        if key not in counts:
            continue
        if manifest(t["exercise"])["choose"]:
            sweep = report.get("sweep")
            model = counts[key]["model"]
            if not sweep or not model.get("sweep"):
                continue
            shapes = {s["block"]: s for s in model["sweep"]}
            verdicts = gpu_choice_verdicts(sweep)
            choices.append({"exercise": key[0], "file": key[1], "gpu_verdict": t["verdict"],
                            "choice": sweep["choice"], "shapes": shapes,
                            "gpu_verdicts": verdicts, "heldout": heldout})
            # one training sweep per exercise, the reference's; each held-out file's its own
            if key[1].startswith("solutions/") or heldout:
                for r in sweep["rows"]:
                    if r["block"] in shapes and r["launched"]:
                        rows.append({"exercise": key[0], "file": key[1], "block": r["block"],
                                     "gpu": {"student": r["median_ns"]},
                                     "gpu_verdict": verdicts[r["block"]],
                                     "roles": {"student": DArr(*[shapes[r["block"]]["counts"][n]
                                                                 for n in COUNTS])},
                                     "device": report.get("device", {}), "heldout": heldout})
            continue
        gpu = measured(report)
        if "student" not in gpu:
            continue
        roles = {r: DArr(*[v["counts"][n] for n in COUNTS])
                 for r, v in counts[key]["model"]["roles"].items()}
        rows.append({"exercise": key[0], "file": key[1], "gpu": gpu, "gpu_verdict": t["verdict"],
                     "roles": roles, "device": report.get("device", {}), "heldout": heldout})
    return rows, choices


def same_counts(roles, a, b):
    """Whether roles a and b have the same counts: the same kernel to the model, whose modelled
    ratio is exact whatever its error (as lab_modelled_same_counts)."""
    return a in roles and b in roles and list(roles[a]) == list(roles[b])


def evaluate(params, rows):
    out = []
    for r in rows:
        ns = {role: model_ns(params, c) for role, c in r["roles"].items()}
        out.append(ns)
    return out


def huber(e):
    return e * e if abs(e) < 0.3 else 0.6 * abs(e) - 0.09


def loss(params, rows):
    """Squared log error (Huber past 30 %) of every role's time of every file (the baselines
    and references are kernels of their own: the divergence chapter's baselines are timed
    nowhere else), and of the speed-ups over the baseline that the verdicts stand on; in a
    sweep, of each shape's time over the GPU's fastest shape's, which the choice's verdict
    stands on."""
    total = 0.0
    fastest = {}
    for r in rows:
        ns = {role: model_ns(params, c) for role, c in r["roles"].items() if role in r["gpu"]}
        for role, t in ns.items():  # a sweep's shapes are one kernel's: together, one file
            total += (SHAPE_WEIGHT if "block" in r else 1) * huber(math.log(t / r["gpu"][role]))
        if "baseline" in ns:
            total += RATIO_WEIGHT * huber(math.log(ns["baseline"] / ns["student"]) -
                                          math.log(r["gpu"]["baseline"] / r["gpu"]["student"]))
        if "block" not in r and "reference" in ns:
            total += VERDICT_WEIGHT * verdict_miss(r["exercise"], ns, r["gpu_verdict"])
        if "block" in r:
            r["_ns"] = ns["student"]
            best = fastest.get(r["exercise"])
            if not best or r["gpu"]["student"] < best["gpu"]["student"]:
                fastest[r["exercise"]] = r
    for r in rows:
        if "block" in r:
            best = fastest[r["exercise"]]
            total += SWEEP_WEIGHT * huber(math.log(r["_ns"] / best["_ns"]) -
                                          math.log(r["gpu"]["student"] / best["gpu"]["student"]))
    return total


def nelder_mead(f, x0, steps, iters):
    n = len(x0)
    pts = [x0[:]] + [[x0[j] + (steps if i == j else 0) for j in range(n)] for i in range(n)]
    vals = [f(p) for p in pts]
    for _ in range(iters):
        order = sorted(range(n + 1), key=lambda i: vals[i])
        pts, vals = [pts[i] for i in order], [vals[i] for i in order]
        c = [sum(p[j] for p in pts[:-1]) / n for j in range(n)]
        xr = [c[j] + (c[j] - pts[-1][j]) for j in range(n)]
        fr = f(xr)
        if fr < vals[0]:
            xe = [c[j] + 2 * (c[j] - pts[-1][j]) for j in range(n)]
            fe = f(xe)
            pts[-1], vals[-1] = (xe, fe) if fe < fr else (xr, fr)
        elif fr < vals[-2]:
            pts[-1], vals[-1] = xr, fr
        else:
            xc = [c[j] + 0.5 * (pts[-1][j] - c[j]) for j in range(n)]
            fc = f(xc)
            if fc < vals[-1]:
                pts[-1], vals[-1] = xc, fc
            else:
                for i in range(1, n + 1):
                    pts[i] = [pts[0][j] + 0.5 * (pts[i][j] - pts[0][j]) for j in range(n)]
                    vals[i] = f(pts[i])
    best = min(range(n + 1), key=lambda i: vals[i])
    return pts[best], vals[best]


def arch_from(rows, values):
    d = rows[0]["device"]
    if d.get("sm_count"):
        values["sm_count"] = float(d["sm_count"])
    if d.get("sm_clock_khz"):
        values["clock_ghz"] = d["sm_clock_khz"] / 1e6
    if d.get("peak_gbps"):
        values["dram_gbps"] = float(d["peak_gbps"])
    if d.get("l2_bytes"):
        values["l2_bytes"] = float(d["l2_bytes"])
    return values


def fit(rows, values, only=None):
    """Nelder-Mead on x, each parameter log-uniformly inside its model.def range:
    p = lo * (hi / lo) ** sigmoid(x); only: the names of the parameters to fit (default: every
    FIT one), the others kept at the data file's values.  Rows of the held-out set are refused:
    the model is measured on them, never fitted."""
    refused = sorted({r["file"] for r in rows if r["heldout"]})
    if refused:
        raise SystemExit("fit.py: refusing to fit on held-out files: " + ", ".join(refused))
    base = [values[n] for n in PNAMES]
    fitted = [i for i in FITTED if only is None or PNAMES[i] in only]

    def param(k, x):
        lo, hi = PARAMS[fitted[k]][3], PARAMS[fitted[k]][4]
        return lo * (hi / lo) ** (1 / (1 + math.exp(-max(-30, min(30, x)))))

    def f(x):
        p = base[:]
        for k, i in enumerate(fitted):
            p[i] = param(k, x[k])
        return loss(p, rows)

    x = []
    for k, i in enumerate(fitted):
        lo, hi = PARAMS[i][3], PARAMS[i][4]
        u = min(0.99, max(0.01, math.log(min(hi, max(lo, base[i])) / lo) / math.log(hi / lo)))
        x.append(math.log(u / (1 - u)))
    best, best_v = x, f(x)
    rng = random.Random(20)  # the same fit every time
    for start in range(STARTS):  # Nelder-Mead stalls in 15 dimensions: restarts, from afar too
        y = best if start % 2 == 0 else [v + rng.gauss(0, 1.5) for v in best]
        for _ in range(3):
            y, v = nelder_mead(f, y, 1.0, 1000)
        if v < best_v:
            best, best_v = y, v
    x = best
    for k, i in enumerate(fitted):
        values[PNAMES[i]] = param(k, x[k])
    return values


def stats(rows, choices, params, band):
    """Each row's modelled times and error; each file's modelled verdict (with the error band;
    a choice exercise's file: its choice on its modelled sweep, as the grader judges it) and
    each sweep's shapes' as choices.  Then, for the training and the held-out set apart
    (stats_of), the errors and the verdicts against the GPU's."""
    sweeps = {}
    for r in rows:
        ns = {role: model_ns(params, c) for role, c in r["roles"].items()}
        r["model"] = ns
        r["error"] = ns["student"] / r["gpu"]["student"] - 1
        if "block" in r:
            sweeps.setdefault((r["exercise"], r["file"]), {})[r["block"]] = ns["student"]
            continue
        exact = same_counts(r["roles"], "student", "baseline") or \
            same_counts(r["roles"], "student", "reference")
        r["model_verdict"] = verdict(r["exercise"], ns, 0.0 if exact else band)
        if "reference" in r["gpu"]:
            # the ratio the measured verdict stands on, modelled over measured
            i = binding_ratio(r["exercise"], r["gpu"])
            r["ratio_error"] = (verdict_ratios(r["exercise"], ns)[i][0] /
                                verdict_ratios(r["exercise"], r["gpu"])[i][0] - 1)
    for r in rows:
        if "block" in r:
            r["model_verdict"] = model_choice_verdicts(sweeps[(r["exercise"], r["file"])])[r["block"]]
    for c in choices:
        ns = {b: model_ns(params, DArr(*[sh["counts"][n] for n in COUNTS]))
              for b, sh in c["shapes"].items()}
        c["model_ns"] = ns
        c["model_verdict"] = model_choice_verdicts(ns)[c["choice"]]
    return {name: stats_of([r for r in rows if r["heldout"] == h],
                           [c for c in choices if c["heldout"] == h])
            for name, h in (("training", False), ("held-out", True))}


def stats_of(rows, choices):
    """One set's figures: its kernels' time errors (median, 90th percentile, within 20 %), the
    error of the ratios their verdicts stand on (90th percentile: the error band), and its files'
    verdicts against the GPU's: agreeing, too close to call, false SLOW (the GPU passes it),
    false PASS (the GPU calls it SLOW); "must" are the references and starters, whose verdicts
    the check holds (a starter never better than SLOW's, a reference never SLOW where the GPU
    passes it).  The shapes of sweeps apart, as choices."""
    files = [r for r in rows if "block" not in r] + choices
    errors = [abs(r["error"]) for r in rows if "block" not in r]
    median, within = median_within(errors)
    shape_median, shape_within = median_within([abs(r["error"]) for r in rows if "block" in r])
    shapes = [r for r in rows if "block" in r]

    def count(items, model, gpu):
        return sum(i["model_verdict"] == model and i["gpu_verdict"] == gpu for i in items)

    must = [f for f in files if "/examples/" not in f["file"] and not held_out(f["file"])]
    return {"n": len(errors), "median": median, "p90": percentile(errors, 0.9),
            "within20": within, "files": len(files),
            "agree": sum(f["model_verdict"] == f["gpu_verdict"] for f in files),
            "close": sum(f["model_verdict"] == "NO_GPU" for f in files),
            "false_slow": count(files, "SLOW", "PASS"), "false_pass": count(files, "PASS", "SLOW"),
            "must": len(must), "must_ok": sum(f["model_verdict"] == f["gpu_verdict"] for f in must),
            "starter_close": [f["file"] for f in must if f["file"].endswith("/starter.cu") and
                              f["model_verdict"] == "NO_GPU" and f["gpu_verdict"] == "SLOW"],
            "band": percentile([abs(r["ratio_error"]) for r in rows if "ratio_error" in r], 0.9),
            "nratios": sum("ratio_error" in r for r in rows),
            "shapes": len(shapes), "shape_median": shape_median, "shape_within20": shape_within,
            "shape_agree": sum(r["model_verdict"] == r["gpu_verdict"] for r in shapes),
            "shape_false_pass": count(shapes, "PASS", "SLOW"),
            "shape_false_slow": count(shapes, "SLOW", "PASS")}


def median_within(errors):
    """The median of absolute errors and the share within 20 % (0, 0 for none)."""
    errors = sorted(errors)
    n = len(errors)
    if not n:
        return 0, 0
    return (errors[(n - 1) // 2] + errors[n // 2]) / 2, sum(e <= 0.20 for e in errors) / n


def percentile(values, q):
    """The q-quantile of values (linear between the two nearest ranks; 0 for none)."""
    values = sorted(values)
    if not values:
        return 0.0
    k = (len(values) - 1) * q
    lo = int(math.floor(k))
    hi = min(lo + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


def write_ini(path, values, s, name, comment):
    """The data file: the parameters, the training set's error ([validation] median_abs_error,
    within_20, kernels) and the held-out set's (heldout_kernels, heldout_median_abs_error,
    speedup_error_p90: the error band the grader holds a modelled speed-up to).  comment: the
    lines that say where the times came from."""
    t, h = s["training"], s["held-out"]
    lines = ["; The performance model's parameters for an NVIDIA %s (lab/model/model.def says" % name,
             "; what each is), written by tests/model/fit.py: the architecture values from the",
             "; GPU's report, the rest fitted on the training set of its times (never the held-out",
             "; set: tests/model/heldout/README.md)."] + ["; " + c for c in comment] + \
        ["[gpu]", "name = %s" % name]
    lines += ["%s = %.6g" % (n, values[n]) for n in PNAMES]
    lines += ["", "[validation]", "median_abs_error = %.4f" % t["median"],
              "within_20 = %.4f" % t["within20"], "kernels = %d" % t["n"]]
    if h["n"]:
        lines += ["heldout_kernels = %d" % h["n"],
                  "heldout_median_abs_error = %.4f" % h["median"],
                  "speedup_error_p90 = %.4f" % h["band"]]
    open(path, "w").write("\n".join(lines) + "\n")


def summary(label, s, name):
    """One set's line: its kernels' errors, its files' verdicts, its shapes as choices."""
    return ("%s: %d kernels, median error %.1f %%, 90th percentile %.1f %%, %.0f %% within 20 %%; "
            "verdicts %d/%d agree with the %s's (%d/%d references and starters), %d too close to "
            "call, %d false SLOW, %d false PASS; speed-up error 90th percentile %.1f %% over %d "
            "files; %d shapes: median error %.1f %%, as choices %d/%d agree, %d false PASS, "
            "%d false SLOW" % (
                label, s["n"], 100 * s["median"], 100 * s["p90"], 100 * s["within20"], s["agree"],
                s["files"], name, s["must_ok"], s["must"], s["close"], s["false_slow"],
                s["false_pass"], 100 * s["band"], s["nratios"], s["shapes"],
                100 * s["shape_median"], s["shape_agree"], s["shapes"], s["shape_false_pass"],
                s["shape_false_slow"]))


def write_table(path, rows, choices, s, name, band):
    """The validation table between its markers in path (the GPU's own: appended where it has
    none): the summary of both sets, then every row, the training set's first."""
    out = ["| set | exercise | file | %s | modelled | error | %s verdict | modelled verdict |" %
           (name, name), "| --- | --- | --- | ---: | ---: | ---: | --- | --- |"]
    for held in (False, True):
        for r in rows:
            if r["heldout"] != held:
                continue
            out.append("| %s | %s | %s | %.1f us | %.1f us | %+.0f %% | %s | %s%s |" % (
                "held-out" if held else "training", r["exercise"],
                r["file"] + (" at block %s" % r["block"] if "block" in r else ""),
                r["gpu"]["student"] / 1e3, r["model"]["student"] / 1e3, 100 * r["error"],
                r["gpu_verdict"], r["model_verdict"],
                "" if r["model_verdict"] == r["gpu_verdict"] else " (differs)"))
        for c in choices:
            if c["heldout"] != held:
                continue
            out.append("| %s | %s | %s (chooses %s) | | %.1f us | | %s | %s%s |" % (
                "held-out" if held else "training", c["exercise"], c["file"], c["choice"],
                c["model_ns"][c["choice"]] / 1e3, c["gpu_verdict"], c["model_verdict"],
                "" if c["model_verdict"] == c["gpu_verdict"] else " (differs)"))
    text = open(path).read() if os.path.exists(path) else ""
    begin, end = "<!-- table: tests/model/fit.py %s -->" % name, "<!-- end of %s table -->" % name
    lines = ["Modelled verdicts with an error band of %.1f %%." % (100 * band), "",
             "- " + summary("Training set", s["training"], name) + ".",
             "- " + summary("Held-out set", s["held-out"], name) + "."]
    block = "\n".join([begin, ""] + lines + [""] + out + ["", end])
    if begin in text and end in text:
        text = text[:text.index(begin)] + block + text[text.index(end) + len(end):]
    else:
        text += "\n" + block + "\n"
    open(path, "w").write(text)


def check(s, rows, choices):
    """What --check fails on, one line each (none: the model holds)."""
    t, bad = s["training"], []
    if t["median"] > BOUNDS["median"]:
        bad.append("training: median error %.1f %% > 10 %%" % (100 * t["median"]))
    if t["within20"] < BOUNDS["within20"]:
        bad.append("training: %.0f %% within 20 %% < 90 %%" % (100 * t["within20"]))
    for label, x in s.items():
        if x["false_slow"] or x["false_pass"]:
            bad.append("%s: %d files modelled SLOW that the GPU passes, %d modelled PASS that it "
                       "calls SLOW" % (label, x["false_slow"], x["false_pass"]))
        # the held-out sweeps' other shapes are choices no file made: reported, not held
        if label == "training" and (x["shape_false_pass"] or x["shape_false_slow"]):
            bad.append("%s: as modelled choices, %d shapes the GPU calls SLOW pass and %d it "
                       "passes are SLOW" % (label, x["shape_false_pass"], x["shape_false_slow"]))
        if x["starter_close"]:
            bad.append("%s: untouched starters too close to call: %s" %
                       (label, ", ".join(x["starter_close"])))
    for r in rows:
        if abs(r["error"]) > 0.2 or r["model_verdict"] != r["gpu_verdict"]:
            print("  %-8s %-34s %-58s %+.0f %% %s/%s" % (
                "held-out" if r["heldout"] else "training", r["exercise"],
                r["file"] + (" @" + r["block"] if "block" in r else ""),
                100 * r["error"], r["gpu_verdict"], r["model_verdict"]))
    for c in choices:
        if c["model_verdict"] != c["gpu_verdict"]:
            print("  %-8s %-34s %-58s chooses %s: %s/%s" % (
                "held-out" if c["heldout"] else "training", c["exercise"], c["file"],
                c["choice"], c["gpu_verdict"], c["model_verdict"]))
    return bad


def main():
    args = sys.argv[1:]
    opt = lambda k: args[args.index(k) + 1] if k in args else None
    pos = [a for i, a in enumerate(args) if not a.startswith("--") and
           (i == 0 or args[i - 1] not in ("--gpu", "--table", "--name", "--fit", "--comment"))]
    times_path, counts_path = pos[0], pos[1]
    ini = opt("--gpu") or os.path.join(root, "kernels", "gpus", "h100.ini")
    rows, choices = rows_of(times_path, counts_path)
    if not rows:
        print("model: no file has both a GPU time and the simulator's counts")
        return 1
    values, name, band = load_ini(ini)
    values = arch_from(rows, values)
    name = opt("--name") or name
    if "--write" in args:
        values = fit([r for r in rows if not r["heldout"]], values,
                     opt("--fit").split(",") if opt("--fit") else None)
    params = [values[n] for n in PNAMES]
    s = stats(rows, choices, params, band)
    if "--write" in args and s["held-out"]["n"]:
        band = s["held-out"]["band"]  # the band measured now, as the data file will hold it
        s = stats(rows, choices, params, band)
    if "--write" in args:
        write_ini(ini, values, s, name, (opt("--comment") or "").split("|") if opt("--comment") else [])
    if opt("--table"):
        write_table(opt("--table"), rows, choices, s, name, band)
    bad = check(s, rows, choices) if "--check" in args else []
    print("model: error band %.1f %%" % (100 * band))
    print("model: " + summary("training", s["training"], name))
    print("model: " + summary("held-out", s["held-out"], name))
    if bad:
        print("model: drifted past the bounds: " + "; ".join(bad))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

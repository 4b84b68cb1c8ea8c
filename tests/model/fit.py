#!/usr/bin/env python3
"""tests/model/fit.py TIMES.jsonl COUNTS.jsonl [--write] [--check] [--gpu kernels/gpus/h100.ini]
[--table docs/bench/model.md]

The performance model (lab/model/) against a GPU's measured times.

TIMES.jsonl: one line per graded file, recorded on the GPU by tests/gpu/record-times.sh (the
exercise, the file, the GPU's verdict, the driver's report with every timed kernel's median);
COUNTS.jsonl: the simulator's counts of the same files (tests/model/collect.py; its "model"
holds each role's counts at the timing size).

The model's arithmetic is the lab's own (build/tools/libcudalab-model.so, lab/model/model.c,
through ctypes); its parameters are named by lab/model/model.def.  The GPU's architecture values
come from its report; the fitted ones minimise the squared log error of the student's time over
every file, and the shortfall of a file whose modelled times give its verdict by less than 1 %
or give the other one (Nelder-Mead in log space, from the data file's values or model.def's
defaults).

--write   fit, then write the parameters and the measured error to the GPU's data file
--check   fail (exit 1) unless the model meets the bounds of issue 20: median absolute error
          <= 10 %, >= 90 % within +-20 %, verdicts equal for >= 95 % of the files and for every
          reference and starter
--table   write the validation table (Markdown) there
--fit     with --write: fit only these parameters (comma-separated model.def names), the
          others kept at the data file's values
--name    the GPU's name in the table (default: the data file's); with another GPU's times and
          no --write, the prediction of the fitted model on that GPU with only the architecture
          values (SMs, clock, bandwidth, L2) of its report
The last line: "model: N kernels, median error X %, Y % within 20 %, verdicts A/B agree"."""
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
BOUNDS = {"median": 0.10, "within20": 0.90, "agree": 0.95}
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
    """The parameters of a GPU's data file (model.def's defaults where it has none), and its name."""
    values = {p[0]: p[2] for p in PARAMS}
    name = "H100"
    cp = configparser.ConfigParser(inline_comment_prefixes=(";",))
    if os.path.exists(path):
        cp.read(path)
        for k, v in cp.items("gpu") if cp.has_section("gpu") else []:
            if k in values:
                values[k] = float(v)
            elif k == "name":
                name = v
    return values, name


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


def verdict_margin(ex, times):
    """How far role -> ns clear the manifest's thresholds, in log terms (>= 0: PASS; a CPU
    baseline: the fraction of the reference alone, as lab/grade/modelled.c judges)."""
    m = manifest(ex)
    st, rt = times["student"], times["reference"]
    if "baseline" in times and m["baseline"] != "cpu":
        speedup, ref = times["baseline"] / st, times["baseline"] / rt
        return min(math.log(speedup / m["min_speedup"]),
                   math.log(speedup / ref / m["min_fraction"]))
    return math.log(rt / st / m["min_fraction"])


def verdict(ex, times):
    """PASS or SLOW from role -> ns with the manifest's thresholds."""
    return "PASS" if verdict_margin(ex, times) >= 0 else "SLOW"


def verdict_miss(ex, times, want):
    """How far the modelled times fall on the wrong side of the verdict the GPU gave (0 where
    they give it by more than VERDICT_MARGIN in log terms): what the fit weighs besides the
    times, as the verdicts stand on thresholds."""
    margin = verdict_margin(ex, times)
    miss = VERDICT_MARGIN - margin if want == "PASS" else margin + VERDICT_MARGIN
    return miss * miss if miss > 0 else 0.0


def choice_slow():
    """LAB_MODELLED_CHOICE_SLOW of lab/grade/modelled.h: past how far over the modelled fastest
    shape a modelled choice is SLOW."""
    text = open(os.path.join(root, "lab", "grade", "modelled.h")).read()
    return float(re.search(r"#define LAB_MODELLED_CHOICE_SLOW ([0-9.]+)", text).group(1))


SLOW_PAST = choice_slow()
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
    per shape of the reference's sweep (the student's kernel at that shape: "block"), beside
    one per file for its verdict alone ("choice")."""
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
                            "gpu_verdicts": verdicts})
            if key[1].startswith("solutions/"):  # one sweep per exercise: the reference's
                for r in sweep["rows"]:
                    if r["block"] in shapes and r["launched"]:
                        rows.append({"exercise": key[0], "file": key[1], "block": r["block"],
                                     "gpu": {"student": r["median_ns"]},
                                     "gpu_verdict": verdicts[r["block"]],
                                     "roles": {"student": DArr(*[shapes[r["block"]]["counts"][n]
                                                                 for n in COUNTS])},
                                     "device": report.get("device", {})})
            continue
        gpu = measured(report)
        if "student" not in gpu:
            continue
        roles = {r: DArr(*[v["counts"][n] for n in COUNTS])
                 for r, v in counts[key]["model"]["roles"].items()}
        rows.append({"exercise": key[0], "file": key[1], "gpu": gpu, "gpu_verdict": t["verdict"],
                     "roles": roles, "device": report.get("device", {})})
    return rows, choices


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
    FIT one), the others kept at the data file's values."""
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


def stats(rows, choices, params):
    """The errors of every row's time; the verdicts of every file (a choice exercise's file: its
    choice on the modelled sweep, as lab/grade/modelled.c judges it); and of every shape of a
    sweep as a choice: "false_pass", the shapes the model passes and the GPU calls SLOW."""
    modelled = evaluate(params, rows)
    errors, agree, must, must_ok, files = [], 0, 0, 0, 0
    sweeps = {}
    for r, ns in zip(rows, modelled):
        r["model"] = ns
        r["error"] = ns["student"] / r["gpu"]["student"] - 1
        if "block" in r:
            sweeps.setdefault(r["exercise"], {})[r["block"]] = ns["student"]
            continue
        errors.append(abs(r["error"]))
        r["model_verdict"] = verdict(r["exercise"], ns)
        verdicts = [(r["file"], r["model_verdict"] == r["gpu_verdict"])]
        files += 1
        agree += verdicts[0][1]
        if not r["file"].count("/examples/"):
            must += 1
            must_ok += verdicts[0][1]
    shape_agree = shapes = false_pass = false_slow = 0
    for r in rows:
        if "block" in r:
            r["model_verdict"] = model_choice_verdicts(sweeps[r["exercise"]])[r["block"]]
            shapes += 1
            shape_agree += r["model_verdict"] == r["gpu_verdict"]
            false_pass += r["model_verdict"] == "PASS" and r["gpu_verdict"] == "SLOW"
            false_slow += r["model_verdict"] == "SLOW" and r["gpu_verdict"] == "PASS"
    # a choice file agrees when its verdict is the GPU's; one the model cannot call (NO_GPU)
    # is counted apart: it neither passes nor fails the student, and the check allows it for
    # a reference, never for a starter
    undecided = []
    for c in choices:
        ns = {b: model_ns(params, DArr(*[sh["counts"][n] for n in COUNTS]))
              for b, sh in c["shapes"].items()}
        c["model_ns"] = ns
        c["model_verdict"] = model_choice_verdicts(ns)[c["choice"]]
        same = c["model_verdict"] == c["gpu_verdict"]
        files += 1
        agree += same
        if c["model_verdict"] == "NO_GPU" and not c["file"].endswith("/starter.cu"):
            undecided.append(c["file"])
            files -= 1
            continue
        if not c["file"].count("/examples/"):
            must += 1
            must_ok += same
    n = len(errors)
    median, within = median_within(errors)
    shape_median, shape_within = median_within([abs(r["error"]) for r in rows if "block" in r])
    return {"n": n, "median": median, "within20": within, "agree": agree, "files": files,
            "must": must, "must_ok": must_ok, "shapes": shapes, "shape_agree": shape_agree,
            "false_pass": false_pass, "false_slow": false_slow, "undecided": undecided,
            "shape_median": shape_median,
            "shape_within20": shape_within}


def median_within(errors):
    """The median of absolute errors and the share within 20 % (0, 0 for none)."""
    errors = sorted(errors)
    n = len(errors)
    if not n:
        return 0, 0
    return (errors[(n - 1) // 2] + errors[n // 2]) / 2, sum(e <= 0.20 for e in errors) / n


def write_ini(path, values, s, name):
    lines = ["; The performance model's parameters for an NVIDIA %s (lab/model/model.def says" % name,
             "; what each is), written by tests/model/fit.py from the GPU's times in",
             "; tests/fixtures/model/: the architecture values from the GPU's report, the rest fitted.",
             "[gpu]", "name = %s" % name]
    lines += ["%s = %.6g" % (n, values[n]) for n in PNAMES]
    lines += ["", "[validation]", "median_abs_error = %.4f" % s["median"],
              "within_20 = %.4f" % s["within20"], "kernels = %d" % s["n"]]
    open(path, "w").write("\n".join(lines) + "\n")


def write_table(path, rows, choices, s, name):
    out = ["| exercise | file | %s | modelled | error | %s verdict | modelled verdict |" % (name, name),
           "| --- | --- | ---: | ---: | ---: | --- | --- |"]
    for r in rows:
        out.append("| %s | %s | %.1f us | %.1f us | %+.0f %% | %s | %s%s |" % (
            r["exercise"], r["file"] + (" at block %s" % r["block"] if "block" in r else ""),
            r["gpu"]["student"] / 1e3, r["model"]["student"] / 1e3,
            100 * r["error"], r["gpu_verdict"], r["model_verdict"],
            "" if r["model_verdict"] == r["gpu_verdict"] else " (differs)"))
    for c in choices:
        out.append("| %s | %s (chooses %s) | | %.1f us | | %s | %s%s |" % (
            c["exercise"], c["file"], c["choice"], c["model_ns"][c["choice"]] / 1e3,
            c["gpu_verdict"], c["model_verdict"],
            "" if c["model_verdict"] == c["gpu_verdict"] else " (differs)"))
    text = open(path).read() if os.path.exists(path) else ""
    begin, end = "<!-- table: tests/model/fit.py -->", "<!-- end of table -->"
    summary = ("%d kernels: median absolute error %.1f %%, %.0f %% within +-20 %%; verdicts agree on "
               "%d of %d files, and on %d of %d references and starters%s.  The %d shapes of the "
               "choice exercises' sweeps: median absolute error %.1f %%, %.0f %% within +-20 %%; "
               "as choices, %d of %d get the %s's verdict, %d that it calls SLOW pass, %d that "
               "it passes are SLOW, the others are too close to call (NO_GPU)." % (
                   s["n"], 100 * s["median"], 100 * s["within20"], s["agree"], s["files"],
                   s["must_ok"], s["must"],
                   "; too close to call (NO_GPU): " + ", ".join(s["undecided"])
                   if s["undecided"] else "", s["shapes"], 100 * s["shape_median"],
                   100 * s["shape_within20"], s["shape_agree"], s["shapes"], name,
                   s["false_pass"], s["false_slow"]))
    block = "\n".join([begin, "", summary, ""] + out + ["", end])
    if begin in text and end in text:
        text = text[:text.index(begin)] + block + text[text.index(end) + len(end):]
    else:
        text += "\n" + block + "\n"
    open(path, "w").write(text)


def main():
    args = sys.argv[1:]
    opt = lambda k: args[args.index(k) + 1] if k in args else None
    pos = [a for i, a in enumerate(args) if not a.startswith("--") and
           (i == 0 or args[i - 1] not in ("--gpu", "--table", "--name", "--fit"))]
    times_path, counts_path = pos[0], pos[1]
    ini = opt("--gpu") or os.path.join(root, "kernels", "gpus", "h100.ini")
    rows, choices = rows_of(times_path, counts_path)
    if not rows:
        print("model: no file has both a GPU time and the simulator's counts")
        return 1
    values, name = load_ini(ini)
    values = arch_from(rows, values)
    name = opt("--name") or name
    if "--write" in args:
        values = fit(rows, values, opt("--fit").split(",") if opt("--fit") else None)
    params = [values[n] for n in PNAMES]
    s = stats(rows, choices, params)
    if "--write" in args:
        write_ini(ini, values, s, name)
    if opt("--table"):
        write_table(opt("--table"), rows, choices, s, name)
    print("model: %d kernels, median error %.1f %%, %.0f %% within 20 %%, verdicts %d/%d agree "
          "(%d/%d references and starters, %d too close to call); %d shapes: median error "
          "%.1f %%, %.0f %% within 20 %%, as choices %d/%d agree, %d false passes, %d false "
          "SLOW" % (s["n"], 100 * s["median"], 100 * s["within20"], s["agree"], s["files"],
                    s["must_ok"], s["must"], len(s["undecided"]), s["shapes"],
                    100 * s["shape_median"], 100 * s["shape_within20"], s["shape_agree"],
                    s["shapes"], s["false_pass"], s["false_slow"]))
    if "--check" in args:
        bad = []
        if s["median"] > BOUNDS["median"]:
            bad.append("median error %.1f %% > 10 %%" % (100 * s["median"]))
        if s["within20"] < BOUNDS["within20"]:
            bad.append("%.0f %% within 20 %% < 90 %%" % (100 * s["within20"]))
        if s["agree"] < BOUNDS["agree"] * s["files"] or s["must_ok"] < s["must"]:
            bad.append("verdicts agree on %d/%d (%d/%d references and starters)" %
                       (s["agree"], s["files"], s["must_ok"], s["must"]))
        if s["false_pass"] or s["false_slow"]:
            bad.append("as modelled choices, %d shapes the GPU calls SLOW pass and %d it passes "
                       "are SLOW" % (s["false_pass"], s["false_slow"]))
        for r in rows:
            if abs(r["error"]) > 0.2 or r["model_verdict"] != r["gpu_verdict"]:
                print("  %-34s %-58s %+.0f %% %s/%s" % (
                    r["exercise"], r["file"] + (" @" + r["block"] if "block" in r else ""),
                    100 * r["error"], r["gpu_verdict"], r["model_verdict"]))
        for c in choices:
            if c["model_verdict"] != c["gpu_verdict"]:
                print("  %-34s %-58s chooses %s: %s/%s" % (c["exercise"], c["file"], c["choice"],
                                                          c["gpu_verdict"], c["model_verdict"]))
        if bad:
            print("model: drifted past the bounds: " + "; ".join(bad))
            return 1
    return 0


sys.exit(main())

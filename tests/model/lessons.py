#!/usr/bin/env python3
"""tests/model/lessons.py COUNTS.jsonl [--table docs/bench/model.md] [--check]

Where each speed step's lesson shows, GPU by GPU: every exercise's reference and untouched
starter through the performance model for every GPU data file (kernels/gpus/*.ini, measured or
a datasheet's prediction), from the simulator's counts that tests/model/collect.py took (the
counts do not depend on the GPU; where a grid does, the lab's own scaling makes them the GPU's:
lab_model_scale for a grid the driver sizes by the SMs, lab_model_scale_wave for one wave of
resident blocks, through ctypes as fit.py calls the model).

A speed step's lesson SHOWS on a GPU where its reference is modelled inside both of the
manifest's lines by more than that GPU's error band (fit.py's verdict: PASS), does NOT SHOW where
it is modelled past one by more (SLOW), and is too close to call between.  A choice exercise's
lesson shows where the reference's shape is the modelled fastest.  The untouched starter must
never be modelled PASS on any GPU.

--table   write the table between its markers in that file
--check   fail (exit 1) when a starter is modelled PASS on some GPU, or when a chapter
          (docs/CHAPTER.md) does not name, for a step whose lesson does not show on a GPU, that
          GPU in a line that names the step (its id)
The last line: "lessons: N steps on G GPUs: S show, D do not, C too close to call"."""
import ctypes
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fit  # noqa: E402  (the model's library, its data files and verdicts)

root = fit.root
GPUS = os.path.join(root, "kernels", "gpus")
fit.lib.lab_model_scale.restype = None
fit.lib.lab_model_scale.argtypes = [ctypes.POINTER(fit.DArr), ctypes.c_double,
                                    ctypes.POINTER(fit.DArr), ctypes.c_double, ctypes.c_double,
                                    ctypes.c_double, ctypes.POINTER(fit.DArr)]
fit.lib.lab_model_scale_wave.restype = None
fit.lib.lab_model_scale_wave.argtypes = [fit.PArr, ctypes.POINTER(fit.DArr), ctypes.c_double,
                                         ctypes.POINTER(fit.DArr), ctypes.c_double,
                                         ctypes.c_double, ctypes.POINTER(fit.DArr)]


def darr(counts):
    return fit.DArr(*[counts[n] for n in fit.COUNTS])


def role_counts(model, role, params, h100_sms):
    """A role's counts at the timed size on the GPU of params: as the grading modelled them (for
    the H100) where the grid grows with the work; for a grid the driver sizes by the SMs (the
    same blocks at both simulated sizes), scaled again with this GPU's SMs."""
    r = model["roles"][role]
    small, big = r.get("counts_small"), r["counts_big"]
    if not small or small["blocks"] != big["blocks"] or model["small_size"] == model["simulated_size"]:
        return darr(r["counts"])
    sim_sms = h100_sms * big["blocks"] / r["counts"]["blocks"]  # the simulator's SMs
    out = fit.DArr()
    fit.lib.lab_model_scale(ctypes.byref(darr(small)), float(model["small_size"]),
                            ctypes.byref(darr(big)), float(model["simulated_size"]),
                            float(model["timed_size"]), params[fit.PNAMES.index("sm_count")] / sim_sms,
                            ctypes.byref(out))
    return out


def shape_counts(model, shape, params):
    """A choice's shape's counts at the timed size on the GPU of params: as modelled where the
    grid grows with the work; for one wave of resident blocks (model["wave"]), its part per block
    and part per element solved from the simulated and the H100's timed counts, then the wave of
    this GPU (lab_model_scale_wave)."""
    if not model.get("wave"):
        return darr(shape["counts"])
    at, timed = shape["counts_simulated"], shape["counts"]
    ba, bt = at["blocks"], timed["blocks"]
    wa, wt = float(model["simulated_size"]), float(model["timed_size"])
    per_work = {n: (timed[n] - at[n] * bt / ba) / (wt - wa * bt / ba) for n in fit.COUNTS}
    out = fit.DArr()
    fit.lib.lab_model_scale_wave(fit.PArr(*params), ctypes.byref(darr(at)), wa,
                                 ctypes.byref(darr(per_work)), wt, 0.0, ctypes.byref(out))
    return out


def gpus():
    """(file name, name, params, band) of every GPU data file, sorted."""
    out = []
    for f in sorted(os.listdir(GPUS)):
        if f.endswith(".ini"):
            values, name, band = fit.load_ini(os.path.join(GPUS, f))
            out.append((f[:-4], name, [values[n] for n in fit.PNAMES], band))
    return out


def measured(key):
    """Whether the GPU's data file holds errors measured on it ([validation]), or predicts it."""
    cp = fit.configparser.ConfigParser(inline_comment_prefixes=(";",))
    cp.read(os.path.join(GPUS, key + ".ini"))
    return cp.has_section("validation")


def lessons(counts_path):
    """For every exercise with a reference in the counts: per GPU, the reference's and the
    starter's modelled verdicts and the reference's ratio over its baseline (or its choice)."""
    lines = [json.loads(l) for l in open(counts_path)]
    by = {(c["exercise"], c["file"]): c for c in lines if c.get("model")}
    h100 = fit.load_ini(os.path.join(GPUS, "h100.ini"))[0]["sm_count"]
    rows = []
    for ex in sorted({e for e, _ in by}):
        ch, name = ex.split("/")
        ref = by.get((ex, "solutions/%s/%s.cu" % (ch, name)))
        sta = by.get((ex, "exercises/%s/%s/starter.cu" % (ch, name)))
        if not ref:
            continue
        row = {"exercise": ex, "gpus": {}}
        for key, gname, params, band in gpus():
            if fit.manifest(ex)["choose"]:
                got = {}
                for who, c in (("reference", ref), ("starter", sta)):
                    if not c or not c["model"].get("sweep"):
                        continue
                    ns = {s["block"]: fit.lib.lab_model_time_raw(
                        fit.PArr(*params), shape_counts(c["model"], s, params), None)
                          for s in c["model"]["sweep"]}
                    got[who] = fit.model_choice_verdicts(ns)[c["model"]["choice"]]
                    if who == "reference":
                        got["fastest"] = min(ns, key=ns.get)
                row["gpus"][key] = {"name": gname, "reference": got.get("reference"),
                                    "starter": got.get("starter"), "fastest": got.get("fastest")}
                continue
            got = {}
            for who, c in (("reference", ref), ("starter", sta)):
                if not c:
                    continue
                roles = {r: role_counts(c["model"], r, params, h100) for r in c["model"]["roles"]}
                ns = {r: fit.lib.lab_model_time_raw(fit.PArr(*params), v, None)
                      for r, v in roles.items()}
                exact = fit.same_counts(roles, "student", "baseline") or \
                    fit.same_counts(roles, "student", "reference")
                got[who] = fit.verdict(ex, ns, 0.0 if exact else band)
                if who == "reference":
                    got["ratio"] = fit.verdict_ratios(ex, ns)[0][0]
            row["gpus"][key] = {"name": gname, "reference": got.get("reference"),
                                "starter": got.get("starter"), "ratio": got.get("ratio")}
        rows.append(row)
    return rows


SHOWS = {"PASS": "shows", "SLOW": "does not show", "NO_GPU": "too close to call"}


def cell(ex, g):
    """One table cell: whether the lesson shows, and the figure it stands on."""
    if g["reference"] is None:
        return ""
    if fit.manifest(ex)["choose"]:
        return "%s (fastest %s)" % (SHOWS[g["reference"]], g["fastest"])
    if fit.manifest(ex)["baseline"] == "cpu":  # the CPU is not modelled: no speed-up to show
        return "%s (over the CPU: not modelled)" % SHOWS[g["reference"]]
    return "%s (%.2fx over its baseline)" % (SHOWS[g["reference"]], g["ratio"])


def table(rows):
    keys = [k for k, _, _, _ in gpus()]
    names = {k: n for k, n, _, _ in gpus()}
    bands = {k: b for k, _, _, b in gpus()}
    out = ["| step | line | " + " | ".join(
        names[k] + ("" if measured(k) else " (not measured)") for k in keys) + " |",
           "| --- | --- | " + " | ".join("---" for _ in keys) + " |"]
    for r in rows:
        m = fit.manifest(r["exercise"])
        line = ("fastest shape" if m["choose"] else
                "%.0f %% of the reference" % (100 * m["min_fraction"]) if m["baseline"] == "cpu"
                else "%.2fx" % m["min_speedup"])
        out.append("| %s | %s | %s |" % (r["exercise"], line, " | ".join(
            cell(r["exercise"], r["gpus"][k]) for k in keys)))
    return ["Error bands applied: " + ", ".join("%s %.0f %%" % (names[k], 100 * bands[k])
                                                for k in keys) + ".", ""] + out


def check(rows):
    """A starter modelled PASS anywhere; a step whose lesson does not show on a GPU whose
    chapter does not say so (a line naming the step's id and the GPU)."""
    bad = []
    for r in rows:
        ch = r["exercise"].split("/")[0]
        chapter = open(os.path.join(root, "docs", ch + ".md")).read().splitlines()
        for k, g in r["gpus"].items():
            if g["starter"] == "PASS":
                bad.append("%s: the starter is modelled PASS on the %s" % (r["exercise"], g["name"]))
            if g["reference"] == "SLOW" and not any(
                    r["exercise"] in l and g["name"] in l for l in chapter):
                bad.append("%s: its lesson does not show on the %s, and docs/%s.md does not say "
                           "so" % (r["exercise"], g["name"], ch))
    return bad


def main():
    args = sys.argv[1:]
    rows = lessons(args[0])
    if "--table" in args:
        path = args[args.index("--table") + 1]
        text = open(path).read()
        begin, end = "<!-- lessons: tests/model/lessons.py -->", "<!-- end of lessons -->"
        block = "\n".join([begin, ""] + table(rows) + ["", end])
        if begin in text and end in text:
            text = text[:text.index(begin)] + block + text[text.index(end) + len(end):]
        else:
            text += "\n" + block + "\n"
        open(path, "w").write(text)
    n = {v: 0 for v in SHOWS}
    for r in rows:
        for g in r["gpus"].values():
            if g["reference"]:
                n[g["reference"]] += 1
    for r in rows:
        print("%-34s %s" % (r["exercise"], "; ".join(
            "%s %s" % (g["name"], SHOWS.get(g["reference"], "-")) for g in r["gpus"].values())))
    bad = check(rows) if "--check" in args else []
    for b in bad:
        print("  " + b)
    print("lessons: %d steps on %d GPUs: %d show, %d do not, %d too close to call" % (
        len(rows), len(gpus()), n["PASS"], n["SLOW"], n["NO_GPU"]))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

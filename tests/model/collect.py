#!/usr/bin/env python3
"""tests/model/collect.py OUT.jsonl [--from TIMES.jsonl | EXERCISE...]: the simulator's counts of every reference,
starter and example of each timed device exercise (default: all of the catalog's), one JSON
line per file: the exercise, the file, the simulator's verdict and the student's counts at the
largest simulated size (report.sim_metrics), its grid and block.  What the performance model
is fitted on (tests/model/fit.py) beside the GPU's times (tests/gpu/record-times.sh).  With
--from, only the files that TIMES.jsonl holds a GPU time of (the model's validation set)."""
import glob
import json
import os
import subprocess
import sys
import tempfile

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
binary = os.environ.get("CUDALAB_BIN", os.path.join(root, "bin", "cudalab"))


def files_of(ex):
    ch, name = ex.split("/")
    files = ["solutions/%s/%s.cu" % (ch, name), "exercises/%s/%s/starter.cu" % (ch, name)]
    files += sorted(os.path.relpath(f, root)
                    for f in glob.glob(os.path.join(root, "exercises", ch, name, "examples", "*", "*.cu")))
    return files


def main():
    out = sys.argv[1]
    tmp = tempfile.mkdtemp()
    env = dict(os.environ, XDG_DATA_HOME=os.path.join(tmp, "data"),
               XDG_CACHE_HOME=os.environ.get("XDG_CACHE_HOME", os.path.join(tmp, "cache")))
    exercises = sys.argv[2:]
    only = None
    if exercises[:1] == ["--from"]:
        only = [(t["exercise"], t["file"]) for t in map(json.loads, open(exercises[1]))]
        exercises = list(dict.fromkeys(e for e, _ in only))
    if not exercises:
        listing = json.loads(subprocess.run([binary, "list", "--json"], env=env, check=True,
                                            capture_output=True, text=True).stdout)
        exercises = [e["id"] for e in listing["exercises"] if e["kind"] == "device"]
    with open(out, "w") as fp:
        for ex in exercises:
            for f in files_of(ex):
                if only is not None and (ex, f) not in only:
                    continue
                p = subprocess.run([binary, "grade", ex, os.path.join(root, f), "--sim", "--json",
                                    "--no-record"], env=env, capture_output=True, text=True)
                try:
                    g = json.loads(p.stdout)
                except ValueError:
                    print("%-34s %-58s no report" % (ex, f), flush=True)
                    continue
                r = g.get("report") or {}
                line = {"exercise": ex, "file": f, "verdict": g["verdict"], "block": r.get("block"),
                        "model": g.get("model")}
                ms = [m for m in r.get("sim_metrics", []) if m["role"] == "student"]
                if ms:
                    size = max(m["size"] for m in ms)
                    line["size"] = size
                    line["metrics"] = [m for m in ms if m["size"] == size][0]
                    line["grid"] = [c["grid"] for c in r["cases"]
                                    if c["role"] == "student" and c["size"] == size][0]
                print(json.dumps(line, separators=(",", ":")), file=fp, flush=True)
                print("%-34s %-58s %s" % (ex, f, g["verdict"]), flush=True)


main()

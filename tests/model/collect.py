#!/usr/bin/env python3
"""tests/model/collect.py OUT.jsonl [-j N] [--from TIMES.jsonl... | EXERCISE...]: the simulator's counts of every reference,
starter, example and held-out file (tests/model/heldout/) of each timed device exercise (default: all of the catalog's), one JSON
line per file: the exercise, the file, the simulator's verdict and the student's counts at the
largest simulated size (report.sim_metrics), its grid and block.  What the performance model
is fitted on (tests/model/fit.py) beside the GPU's times (tests/gpu/record-times.sh).  With
--from (once per times file), only the files that those TIMES.jsonl hold a GPU time of.
With -j N, N gradings at a time (default 1); the lines keep the files' order."""
import concurrent.futures
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
    files += sorted(os.path.relpath(f, root)
                    for f in glob.glob(os.path.join(root, "tests", "model", "heldout", ch, name, "*.cu")))
    return files


def grade(ex, f, env):
    """One file graded on the simulator: its line, or None when no report came."""
    p = subprocess.run([binary, "grade", ex, os.path.join(root, f), "--sim", "--json",
                        "--no-record"], env=env, capture_output=True, text=True)
    try:
        g = json.loads(p.stdout)
    except ValueError:
        return None
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
    return line


def main():
    args = sys.argv[1:]
    out = args.pop(0)
    jobs = 1
    if args[:1] == ["-j"]:
        jobs = int(args[1])
        args = args[2:]
    tmp = tempfile.mkdtemp()
    env = dict(os.environ, XDG_DATA_HOME=os.path.join(tmp, "data"),
               XDG_CACHE_HOME=os.environ.get("XDG_CACHE_HOME", os.path.join(tmp, "cache")))
    exercises = args
    only = None
    while exercises[:1] == ["--from"]:  # each file's, once
        only = (only or []) + [(t["exercise"], t["file"]) for t in map(json.loads, open(exercises[1]))]
        exercises = exercises[2:]
    if only is not None:
        only = list(dict.fromkeys(only))
        exercises = list(dict.fromkeys(e for e, _ in only))
    if not exercises:
        listing = json.loads(subprocess.run([binary, "list", "--json"], env=env, check=True,
                                            capture_output=True, text=True).stdout)
        exercises = [e["id"] for e in listing["exercises"] if e["kind"] == "device"]
    todo = [(ex, f) for ex in exercises for f in files_of(ex)
            if only is None or (ex, f) in only]
    with open(out, "w") as fp, concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for (ex, f), line in zip(todo, pool.map(lambda t: grade(t[0], t[1], env), todo)):
            if line is None:
                print("%-34s %-58s no report" % (ex, f), flush=True)
                continue
            print(json.dumps(line, separators=(",", ":")), file=fp, flush=True)
            print("%-34s %-58s %s" % (ex, f, line["verdict"]), flush=True)


main()

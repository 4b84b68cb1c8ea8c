#!/usr/bin/env python3
"""tests/model/predict.py [--check]: the data files of the GPUs the model has not measured
(kernels/gpus/*.ini with no [validation] section: predictions from a datasheet) get the fitted
parameters of kernels/gpus/h100.ini, their architecture values (model.def's ARCH: SMs, clock,
bandwidth, L2, the occupancy limits) kept as their files give them.  Run it after a refit of
h100.ini; with --check, change nothing and fail (exit 1) naming each file that differs."""
import configparser
import os
import re
import sys

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
gpus = os.path.join(root, "kernels", "gpus")
SOURCE = "h100.ini"


def fitted_names():
    """model.def's FIT parameters, in its order."""
    text = open(os.path.join(root, "lab", "model", "model.def")).read()
    return re.findall(r'^LAB_MODEL_PARAM\(\w+, "(\w+)", FIT,', text, re.M)


def ini(path):
    cp = configparser.ConfigParser(inline_comment_prefixes=(";",))
    cp.read(path)
    return cp


def predicted(path, source):
    """The text of the prediction file at path with source's fitted values (lines in model.def's
    order after its own [gpu] lines; comments and architecture values as they were)."""
    names = fitted_names()
    lines = [l for l in open(path).read().splitlines()
             if not re.match(r"^(%s) *=" % "|".join(names), l)]
    while lines and not lines[-1].strip():
        lines.pop()
    lines += ["%s = %s" % (n, source["gpu"][n]) for n in names]
    return "\n".join(lines) + "\n"


def main():
    check = "--check" in sys.argv[1:]
    source = ini(os.path.join(gpus, SOURCE))
    stale = []
    for name in sorted(os.listdir(gpus)):
        path = os.path.join(gpus, name)
        if not name.endswith(".ini") or name == SOURCE or ini(path).has_section("validation"):
            continue
        text = predicted(path, source)
        if text != open(path).read():
            stale.append(name)
            if not check:
                open(path, "w").write(text)
    if check and stale:
        print("predict.py: not the fit of %s: %s (run tests/model/predict.py)" %
              (SOURCE, ", ".join(stale)))
        return 1
    print("predict.py: %s %s" % ("wrote" if stale and not check else "checked",
                                 ", ".join(stale) or "nothing to change"))
    return 0


sys.exit(main())

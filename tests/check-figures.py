#!/usr/bin/env python3
"""tests/check-figures.py - every figure the course's texts quote comes from docs/numbers.ini.

The chapters (docs/*.md), tasks, hints and questions, in every language, name a measured figure
as {{name}} and never write one themselves (docs/design/numbers.md).  This check, run by
`make test`, fails:

- where a text writes a time (µs, us, ms, ns), a bandwidth (GB/s), a speed-up or ratio (1.81×,
  2x, 배, 倍) or a percentage itself, outside code: that figure belongs in the table;
- where a text names a figure the table does not have (or a threshold of an exercise that is
  not there: EXERCISE.min_speedup, EXERCISE.min_fraction_pct);
- where a translation names other figures than its English file (the same names, as often);
- where the table holds a figure no text and no demo quotes.

Two percentages are words rather than figures and may be written: "100 %" (full occupancy,
every byte used) and "95 %" (the confidence interval); a quotation ("...") is someone's words,
the figures in it included; and a question's `choices` and `answer` are the options it offers
("about 2x"), which the lab shows as written.  Prints "figures: ok" or each problem
as file:line: message.
"""
import collections
import configparser
import glob
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
TABLE = "docs/numbers.ini"
ABOUT = {"source", "gpu", "date", "about"}
WORDS = {"100", "95"}  # percentages that are terms, not figures

FIGURE = re.compile(r"\{\{([^{}\n]*)\}\}")
TIME = re.compile(r"(?<![\w.])\d[\d.,]*(?:[ \u202f]\d{3})*\s?(?:µs|us|ms|ns)(?![\w/])")
RATE = re.compile(r"(?<![\w.])\d[\d.,]*\s?(?:GB/s|TB/s|MB/s)")
FACTOR = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?:×|x(?![0-9A-Za-z])|\s?배|\s?倍)")
PERCENT = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s?%")


def table():
    cp = configparser.ConfigParser(interpolation=None, inline_comment_prefixes=(";",))
    cp.optionxform = str
    cp.read(os.path.join(ROOT, TABLE), encoding="utf-8")
    names = {}
    for section in cp.sections():
        for key, _ in cp.items(section):
            if key not in ABOUT:
                names[section + "." + key] = True
    return names


def exercises():
    found = set()
    for manifest in glob.glob(os.path.join(ROOT, "exercises/*/*/exercise.ini")):
        d = os.path.dirname(manifest)
        found.add(os.path.basename(os.path.dirname(d)) + "/" + os.path.basename(d))
    return found


def texts():
    """(path, english path) of every text the lab shows a learner."""
    paths = glob.glob(os.path.join(ROOT, "docs/*.md"))
    for pattern in ("task*.md", "hints*.md"):
        paths += glob.glob(os.path.join(ROOT, "exercises/*/*", pattern))
    paths += glob.glob(os.path.join(ROOT, "exercises/*/questions*.ini"))
    out = []
    for p in sorted(paths):
        m = re.match(r"(.*?)\.(ko|zh_CN|[a-z][a-z](?:_[A-Z][A-Z])?)\.(md|ini)$", p)
        out.append((p, m.group(1) + "." + m.group(3) if m else p))
    return out


def prose(text, markdown):
    """text with code (fenced, indented, inline) blanked out, lines kept in place; an INI file's
    indented lines are its values' continuations, not code.  A question's `choices` and `answer`
    are blanked too: they are the options a prediction offers ("about 2x", "within 15 %"), shown
    as written (lab_questions_fill fills prompts and explanations only), not figures of a source"""
    lines, fenced, options = [], False, False
    for line in text.split("\n"):
        if not markdown and not re.match(r"\s", line):
            options = bool(re.match(r"(choices|answer)\s*=", line))
        if markdown and line.lstrip().startswith("```"):
            fenced = not fenced
            lines.append("")
        elif options:
            lines.append("")
        elif fenced or markdown and re.match(r"    \S", line) and not re.match(r"    [-*\d]", line):
            lines.append("")
        else:
            lines.append(re.sub(r"`[^`]*`", "``", line))
    return lines


def main():
    names = table()
    known_exercises = exercises()
    problems = []
    used = collections.Counter()
    by_file = {}
    for path, english in texts():
        rel = os.path.relpath(path, ROOT)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        quoted = collections.Counter()
        for n, line in enumerate(prose(text, path.endswith(".md")), 1):
            for name in FIGURE.findall(line):
                quoted[name] += 1
                used[name] += 1
                ex, _, field = name.rpartition(".")
                if name in names:
                    continue
                if field in ("min_speedup", "min_fraction_pct") and ex in known_exercises:
                    continue
                problems.append("%s:%d: unknown figure '%s' (not in %s)" % (rel, n, name, TABLE))
            # a quotation ("...", “...”) is someone's words, figures and all
            bare = re.sub(r'"[^"]*"|“[^”]*”', '""', FIGURE.sub("", line))
            for pattern, what in ((TIME, "a time"), (RATE, "a bandwidth"), (FACTOR, "a ratio")):
                for m in pattern.finditer(bare):
                    problems.append("%s:%d: %s written in the text, '%s': quote it from %s"
                                    % (rel, n, what, m.group(0), TABLE))
            for m in PERCENT.finditer(bare):
                if m.group(1) not in WORDS:
                    problems.append("%s:%d: a percentage written in the text, '%s': quote it "
                                    "from %s" % (rel, n, m.group(0), TABLE))
        by_file[path] = (quoted, english)
    for path, (quoted, english) in sorted(by_file.items()):
        if english == path or english not in by_file:
            continue
        want = by_file[english][0]
        if quoted != want:
            missing = sorted((want - quoted).elements())
            extra = sorted((quoted - want).elements())
            problems.append("%s:0: names other figures than %s (missing %s, extra %s)"
                            % (os.path.relpath(path, ROOT), os.path.basename(english),
                               missing or "none", extra or "none"))
    code = ""
    for src in glob.glob(os.path.join(ROOT, "lab/demos/*.c")):
        with open(src, encoding="utf-8") as f:
            code += f.read()
    for name in sorted(names):
        if not used[name] and ('"%s"' % name) not in code:
            problems.append("%s:0: '%s' is quoted by no text and no demo" % (TABLE, name))
    for p in problems:
        print(p)
    print("figures: ok" if not problems else "figures: %d problems" % len(problems))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

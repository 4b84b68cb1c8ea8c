#!/usr/bin/env python3
"""screen-widths.py CHECK COLS < SCREEN: checks on a captured terminal screen, by display
width as a terminal lays out East Asian text (unicodedata.east_asian_width: W and F take two
columns, combining marks none), for tests/e2e/test-l10n-screen.sh.

  fits      no line is wider than COLS
  status W  the lines that end in W all start W in the same column (two lines at least)
  table     the ' | ' and '-+-' of each drawn table stand in the same columns on every row
  underline a line of '=' is as wide as the line above it

Exit 0 when the check holds; else 1 with the lines that break it."""
import sys
import unicodedata


def width(s):
    w = 0
    for c in s:
        if unicodedata.combining(c):
            continue
        w += 2 if unicodedata.east_asian_width(c) in "WF" else 1
    return w


def columns_of(line, marks):
    """The display columns at which any of marks starts in line."""
    out = []
    for i in range(len(line)):
        for m in marks:
            if line.startswith(m, i):
                out.append(width(line[:i]))
    return out


def main():
    check, cols = sys.argv[1], int(sys.argv[2])
    lines = [l.rstrip("\n") for l in sys.stdin]
    bad = []
    if check == "fits":
        bad = [f"{width(l)} columns: {l}" for l in lines if width(l) > cols]
    elif check == "status":
        word = sys.argv[3]
        rows = [(width(l[: l.rindex(word)]), l) for l in lines if l.rstrip().endswith(word)]
        if len(rows) < 2:
            bad = [f"fewer than two lines end in '{word}'"]
        elif len({c for c, _ in rows}) > 1:
            bad = [f"'{word}' at column {c}: {l}" for c, l in rows]
    elif check == "table":
        # each run of consecutive table lines is one table: its bars line up
        runs, run = [], []
        for l in lines + [""]:
            if " | " in l or "-+-" in l:
                run.append(l)
            else:
                if len(run) >= 2:
                    runs.append(run)
                run = []
        if not any(len(r) >= 3 for r in runs):
            bad = ["no table of three rows or more on the screen"]
        for r in runs:
            if len({tuple(columns_of(l, [" | ", "-+-"])) for l in r}) > 1:
                bad += [f"bars at {columns_of(l, [' | ', '-+-'])}: {l}" for l in r]
    elif check == "underline":
        n = 0
        for above, l in zip(lines, lines[1:]):
            if l.strip() and set(l.strip()) == {"="}:
                n += 1
                if width(l.rstrip()) != width(above.rstrip()):
                    bad.append(f"{width(l.rstrip())} '=' under {width(above.rstrip())} columns: {above}")
        if not n:
            bad = ["no underlined heading on the screen"]
    else:
        sys.exit(f"screen-widths.py: unknown check '{check}'")
    for b in bad:
        print("  " + b)
    sys.exit(1 if bad else 0)


main()

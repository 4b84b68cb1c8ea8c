#!/usr/bin/env python3
"""tests/bench/shell-loop.py [-n N] [-e] CUDALAB EXERCISE FILE: the student's loop in
`cudalab shell`, timed from outside (docs/bench/latency.md).

One shell stays open, as a student's does; it grades FILE once untimed (the compile cache, the
store, the device probe), then N times, each timed from the moment the `grade` line is written to
the shell's stdin until the shell has answered it.  The shell reads its lines in turn, so a line
that is not a command, written right after `grade`, marks the grading's end when its error comes
back on stderr.  With -e the file is edited before each grading (a comment with a counter is
appended), so that nvcc runs every time.  The lab under test is CUDALAB (its CUDALAB_LIBEXECDIR,
CUDALAB_DATADIR from the environment).  Prints the times in ms, their median and the verdicts.
"""
import argparse
import os
import selectors
import statistics
import subprocess
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=8)
    ap.add_argument("-e", action="store_true", help="edit the file before each grading")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds one grading may take")
    ap.add_argument("cudalab")
    ap.add_argument("exercise")
    ap.add_argument("file")
    a = ap.parse_args()

    shell = subprocess.Popen([a.cudalab, "shell"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
    sel = selectors.DefaultSelector()
    sel.register(shell.stdout, selectors.EVENT_READ)
    sel.register(shell.stderr, selectors.EVENT_READ)
    out, err = bytearray(), bytearray()

    def grade(i):
        """One grading; its wall time in ms and the lines it wrote to stdout."""
        marker = b"zz-shell-loop-%d" % i
        start = len(out)
        t0 = time.monotonic()
        shell.stdin.write(b"grade %s %s --no-record\n%s\n" % (a.exercise.encode(), a.file.encode(), marker))
        shell.stdin.flush()
        while marker not in err:
            if time.monotonic() - t0 > a.timeout:
                raise SystemExit("shell-loop: grading %d took more than %.0f s" % (i, a.timeout))
            for key, _ in sel.select(timeout=1.0):
                chunk = os.read(key.fd, 65536)
                if not chunk:
                    raise SystemExit("shell-loop: the shell ended: %s" % bytes(err[-400:]).decode(errors="replace"))
                (out if key.fileobj is shell.stdout else err).extend(chunk)
        return (time.monotonic() - t0) * 1000, bytes(out[start:]).decode(errors="replace")

    try:
        grade(0)
        times, verdicts = [], {}
        for i in range(1, a.n + 1):
            if a.e:
                with open(a.file, "a") as f:
                    f.write("\n// edit %d\n" % i)
            ms, text = grade(i)
            times.append(ms)
            words = [l.split()[0] for l in text.splitlines() if l.split() and l.split()[0] in ("PASS", "FAIL")]
            v = words[-1] if words else "ERROR"
            verdicts[v] = verdicts.get(v, 0) + 1
    finally:
        shell.stdin.close()
        try:
            shell.wait(timeout=30)
        except subprocess.TimeoutExpired:
            shell.kill()
            shell.wait()
    print("%s %s%s: median %.0f ms, min %.0f, max %.0f; each: %s; verdicts: %s" % (
        a.exercise, "after an edit" if a.e else "compile cached", "", statistics.median(times), min(times),
        max(times), " ".join("%.0f" % t for t in times), " ".join("%s %d" % kv for kv in sorted(verdicts.items()))))
    return 0


if __name__ == "__main__":
    sys.exit(main())

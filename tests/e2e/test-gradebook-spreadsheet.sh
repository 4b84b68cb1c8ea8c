#!/bin/bash
# The gradebook opens in a spreadsheet: a real batch (the real nvcc, a driver
# replaying reports recorded on an H100) writes gradebook.csv; Gnumeric's
# ssconvert (Debian: gnumeric) turns it into .xlsx and back, and every cell
# must come back as written: student ids with commas, quotes, UTF-8, and ids a
# spreadsheet would otherwise read as a number, date, boolean or formula
# ("007", "12:30", "TRUE", "=1+1"); verdicts and flags as text; points and
# times as numbers.  The truth is gradebook.json.
set -u
. "$(dirname "$0")/lib.sh"

less=reduction/neighbored-less
sol=$CUDALAB_DATADIR_TEST/solutions/reduction/neighbored-less.cu
ex=$CUDALAB_DATADIR_TEST/exercises/reduction/neighbored-less
. "$(dirname "$0")/fake-gpu.sh"
fake_driver "# replays the report the student's cubin names (its symbol table; the sandbox shows the driver
# only the modules it loads)
ptx=\$(printf '%s\n' \"\$@\" | sed -n 's/^--student=//p')
tag=\$(grep -a -o 'lab_fake_report_[a-z_]*' \"\$ptx\" | head -1)
tag=\${tag#lab_fake_report_}
cat \"$reports/\${tag//_/-}.json\" >&3"
sandbox=()
bwrap_usable || sandbox=(--no-sandbox)

if ! command -v ssconvert >/dev/null; then
    fail "ssconvert (Debian: gnumeric) is installed: make deps installs it" "not found"
    e2e_finish
    exit 0
fi

# sub FILE REPORT [KERNEL-FILE]: a submission replaying REPORT
sub() {
    { echo "__device__ int lab_fake_report_${2//-/_};"; cat "${3:-$sol}"; } >"subs/$1.cu"
}
mkdir -p subs
sub ann less-ref
{ echo "// mine"; cat subs/ann.cu; } >subs/ben.cu # ann's: flagged identical
sub 007 less-starter "$ex/examples/ok/shift-index.cu"
sub "=1+1" wrong "$ex/examples/wrong/half-strides.cu"
sub "o'dd, \"name\"" less-ref "$ex/examples/wrong/writes-before-sum.cu"
sub "Zoë Ünal" less-ref "$ex/examples/wrong/drops-odd-elements.cu"
sub TRUE wrong "$ex/examples/wrong/missing-semicolon.cu"
sub 12:30 less-starter "$ex/starter.cu"
sub 1e5 oob "$ex/examples/cheat/ignores-input.cu"

run cudalab batch $less subs/* --out gb --jobs 2 "${sandbox[@]}"
expect_status "batch: ok" 0
expect_out_re "batch: all nine graded" '^graded 9, '

# the CSV itself: RFC 4180
python3 - gb/gradebook.csv <<'PY'
import sys
raw = open(sys.argv[1], "rb").read()
assert raw.decode("utf-8"), "UTF-8"
assert raw.count(b"\r\n") == 10 and raw.count(b"\n") == 10, "CRLF after each of 10 rows"
assert raw.startswith(b"student,exercise,verdict,"), "a header row"
PY
check "gradebook.csv: UTF-8, a header row, CRLF line ends" $?

# .csv -> .xlsx -> .csv with Gnumeric
if ssconvert gb/gradebook.csv book.xlsx >ss.log 2>&1 && ssconvert book.xlsx back.csv >>ss.log 2>&1; then
    pass "ssconvert: the gradebook converts to .xlsx and back"
else
    fail "ssconvert: the gradebook converts to .xlsx and back" "$(cat ss.log)"
fi

out=$(python3 - gb/gradebook.json book.xlsx back.csv <<'PY' 2>&1
import csv, json, re, sys, zipfile
import xml.etree.ElementTree as ET

book = json.load(open(sys.argv[1]))["submissions"]
ns = {"m": "http://schemas.openxmlformats.org/spreadsheetml/2006/main"}
z = zipfile.ZipFile(sys.argv[2])
shared = []
if "xl/sharedStrings.xml" in z.namelist():
    for si in ET.fromstring(z.read("xl/sharedStrings.xml")).findall("m:si", ns):
        shared.append("".join(t.text or "" for t in si.iter("{%s}t" % ns["m"])))
rows = []
for row in ET.fromstring(z.read("xl/worksheets/sheet1.xml")).iter("{%s}row" % ns["m"]):
    cells = {}
    for c in row.findall("m:c", ns):
        col = re.match(r"[A-Z]+", c.get("r")).group(0)
        t, v = c.get("t"), c.find("m:v", ns)
        if v is None and t != "inlineStr":
            continue  # an empty cell
        if t == "s":
            cells[col] = ("text", shared[int(v.text)])
        elif t == "inlineStr":
            cells[col] = ("text", "".join(x.text or "" for x in c.iter("{%s}t" % ns["m"])))
        elif t in ("str", "b", "e"):
            cells[col] = ({"str": "text", "b": "bool", "e": "error"}[t], v.text if v is not None else "")
        else:
            cells[col] = ("number", float(v.text))
    rows.append(cells)
head = [rows[0][c][1] for c in sorted(rows[0], key=lambda c: (len(c), c))]
col = {name: chr(ord("A") + i) for i, name in enumerate(head)}
problems = []
by_student = {}
for r in rows[1:]:
    kind, s = r.get(col["student"], ("none", ""))
    if kind != "text":
        problems.append(f"student cell {s!r} opened as {kind}")
    by_student[s] = r
for sub in book:
    s = sub["student"]
    r = by_student.get(s)
    if r is None:
        problems.append(f"student {s!r} is not in the spreadsheet (it has {sorted(by_student)})")
        continue
    want_text = {"exercise": sub["exercise"], "verdict": sub["verdict"],
                 "flags": ";".join(f["flag"] for f in sub.get("flags", [])),
                 "content_hash": sub["content_hash"]}
    for name, want in want_text.items():
        got = r.get(col[name], ("text", ""))
        if want and got != ("text", want):
            problems.append(f"{s}: {name} {got} instead of text {want!r}")
    want_num = {"points": sub.get("points", 0), "max_points": sub["max_points"],
                "median_us": sub.get("median_ns", 0) / 1e3, "speedup": sub.get("speedup", 0),
                "fraction_of_reference": sub.get("fraction_of_reference", 0)}
    for name, want in want_num.items():
        got = r.get(col[name])
        if not want and name not in ("points",):
            if got is not None:
                problems.append(f"{s}: {name} {got} where there is none")
            continue
        if got is None or got[0] != "number" or abs(got[1] - want) > 5e-4 * max(1, abs(want)):
            problems.append(f"{s}: {name} {got} instead of the number {want}")
# and back to CSV: the students as written
back = [r["student"] for r in csv.DictReader(open(sys.argv[3], newline="", encoding="utf-8"))]
if sorted(back) != sorted(x["student"] for x in book):
    problems.append(f"back to CSV: {back}")
numbers = sum(1 for r in rows[1:] for k, _ in r.values() if k == "number")
print("\n".join(problems) if problems else f"ok: {len(rows) - 1} rows, {numbers} number cells")
PY
)
if [ "${out%% *}" = ok: ]; then
    pass "spreadsheet: every cell comes back as written, text as text, numbers as numbers ($out)"
else
    fail "spreadsheet: every cell comes back as written, text as text, numbers as numbers" "$out"
fi
grep -q '"=1+1"' <<<"$(cat back.csv)" || grep -q '^=1+1,' back.csv
check "spreadsheet: the id =1+1 is text, never a formula that runs" $?
# what a program reads from the CSV: the wrapped ids are the only change
python3 - gb/gradebook.csv <<'PY'
import csv, sys
s = sorted(r["student"] for r in csv.DictReader(open(sys.argv[1], newline="", encoding="utf-8")))
want = sorted(['="007"', '="12:30"', '="1e5"', '="=1+1"', '="TRUE"', "Zoë Ünal", "ann", "ben", "o'dd, \"name\""])
assert s == want, s
PY
check "gradebook.csv: ids a spreadsheet would change are written as =\"...\", the others as they are" $?
e2e_finish

#!/bin/bash
# e2e-timeout: 300
# A student's file name never reaches a shell: nvcc runs its steps through one, so the lab
# hands it only names it made (a private copy in a private folder) and shows the student's
# own name in the messages.  "# 19": `cudalab grade EX 'work/$(touch PWNED).cu'` created
# PWNED, backticks too, and a '"' in the name broke nvcc with "Unterminated quoted string".
set -u
. "$(dirname "$0")/lib.sh"

src=$CUDALAB_DATADIR_TEST
starter=$src/exercises/reduction/neighbored/starter.cu
mkdir -p work

# shellcheck disable=SC2016 # the names are meant literally
names=('work/$(touch PWNED-dollar).cu' 'work/`touch PWNED-backtick`.cu' 'work/a"b.cu'
    "work/it's; touch PWNED-semicolon.cu" 'work/-rf *.cu')
for name in "${names[@]}"; do
    cp "$starter" "$name"
    run cudalab grade reduction/neighbored "$name" --json --no-record --seed 3
    expect_json "$name: graded to a verdict of its kernel, not of its name" \
        'j["verdict"] in ("WRONG", "PASS")'
    cp "$starter" "$name"
    printf 'int broken = undefined_name;\n' >>"$name"
    run cudalab grade reduction/neighbored "$name" --no-record
    expect_status "$name: a compile error" 1
    line=$(($(wc -l <"$starter") + 1))
    expect_out "$name: the compiler's message names the student's file and line" \
        "$name:$line: error: identifier \"undefined_name\" is undefined"
    expect_out_lacks "$name: no private name in the messages" "cudalab-source"
done
run ls
expect_out_lacks "nothing ran what a name spelled" "PWNED"

# a template exercise: the instantiation wrapper includes the private copy, errors keep the name
name='work/$(touch PWNED-template)".cu'
cp "$src/exercises/reduction/complete-unroll/starter.cu" "$name"
printf 'int broken = undefined_name;\n' >>"$name"
run cudalab grade reduction/complete-unroll "$name" --no-record
line=$(wc -l <"$name")
expect_out "template exercise: the message names the student's file and line" \
    "$name:$line: error: identifier \"undefined_name\" is undefined"
run ls
expect_out_lacks "template exercise: nothing ran what the name spelled" "PWNED"

# the simulator's findings name the student's file too (the copy's #line gives the PTX's line
# information the student's name, a quote or a backslash as '?'), an odd name and a plain one; a quote in the name was
# a COMPILE_ERROR of a kernel that builds (ptxas: "Parsing error" on the PTX's .file), and the
# same bytes under another name named the first file (the cache key lacked the name)
for name in 'work/$(no) "barrier".cu' 'work/back\slash.cu' work/plain-name.cu work/same-bytes.cu; do
    grep -v '__syncthreads();' "$src/solutions/dynpar/nested-reduce.cu" >"$name"
    line=$(grep -n 'idata\[tid\] += ' "$name" | cut -d: -f1)
    run cudalab grade dynpar/nested-reduce "$name" --json --no-record
    shown=${name##*/} # the finding's name: quotes and backslashes read '?' in the PTX's .file
    shown=${shown//[\"\\]/?}
    NAME=$shown:$line expect_json "$name: the simulator's finding names the file and line" \
        'any(c.get("check") == "global-memory race" and __import__("os").environ["NAME"] in c["detail"] for c in j["report"]["cases"])'
done

# the private folders go with the build; nvcc's temporary files go with them
run find "$CACHE/.tmp" -mindepth 1
expect_out_empty "no build folder is left behind"

# a folder left by a lab that was killed (its pid is gone) is removed by the next build
host=$(hostname)
host=${host%%.*}
mkdir -p "$CACHE/.tmp/$host.999999999.abcdef/nvcc-tmp"
touch "$CACHE/.tmp/$host.999999999.abcdef/nvcc-tmp/tmpxft_0000_00000000-1_x.cpp"
printf '\n// a new hash\n' >>"work/a\"b.cu"
run cudalab grade reduction/neighbored 'work/a"b.cu' --no-record
run find "$CACHE/.tmp" -mindepth 1
expect_out_empty "a dead build's folder is swept by the next build"

e2e_finish

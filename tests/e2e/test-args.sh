#!/bin/bash
# The arguments every command declares (lab/cli/cli.h) and all that is made from
# them: each command's --help and `cudalab --help` list every option, so do the
# man page and the bash and zsh completions (generated here from the binary under
# test, as the Makefile does); the one parser's errors are one line naming the
# command and the option, exit status 2, in the CLI and in the shell.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/package/installed.sh" # completions_bash, completions_zsh

# the completions run `cudalab list --ids`: the lab under test, by that name
mkdir -p "$T/bin"
ln -s "$CUDALAB_TEST_BIN" "$T/bin/cudalab"
export PATH=$T/bin:$PATH

run cudalab --dump-commands
expect_status "--dump-commands" 0
dump=$OUT
commands=$(awk -F'\t' '$1 == "command" { print $2 }' <<<"$dump")
[ "$(wc -l <<<"$commands")" -ge 20 ]
check "--dump-commands: a row for each command ($(wc -l <<<"$commands"))" $?
bad=$(awk -F'\t' '!($1 == "command" && NF == 5 || $1 == "arg" && NF == 7 ||
                    $1 == "option" && NF == 9)' <<<"$dump")
expect_eq "--dump-commands: every row has its fields" "$bad" ""
expect_eq "--dump-commands: each command's group, students' first" \
    "$(awk -F'\t' '$1 == "command" { print $5 }' <<<"$dump" | uniq)" \
    "for students
for instructors and graders"

# rows of a command: its options (--NAME), those with a value of TYPE, its arguments
options_of() { # CMD [TYPE]
    awk -F'\t' -v c="$1" -v t="${2:-}" \
        '$1 == "option" && $2 == c && (t == "" || t == "value" && $5 != "none" || $5 == t) { print $3 }' \
        <<<"$dump"
}
args_of() { # CMD
    awk -F'\t' -v c="$1" '$1 == "arg" && $2 == c { print $3 }' <<<"$dump"
}
field_of() { # CMD --NAME FIELD: a field of the option's row
    awk -F'\t' -v c="$1" -v o="$2" -v f="$3" '$1 == "option" && $2 == c && $3 == o { print $f }' \
        <<<"$dump"
}
all_options=$(awk -F'\t' '$1 == "option"' <<<"$dump" | wc -l)
[ "$all_options" -ge 30 ]
check "--dump-commands: the options ($all_options)" $?

# --- every command's --help, `cudalab help CMD`: usage, each argument and option ---
for c in $commands; do
    run cudalab "$c" --help
    expect_status "$c --help" 0
    help=$OUT
    missing=
    for o in $(options_of "$c") $(args_of "$c"); do
        grep -Eq -- "^  $o( |\$)" <<<"$help" || missing="$missing $o"
        grep -Eq -- "[ []$o" <<<"$(head -1 <<<"$help")" || missing="$missing usage:$o"
    done
    expect_eq "$c --help: the usage and a line for every argument and option" "$missing" ""
    run cudalab help "$c"
    expect_eq "help $c: the same as $c --help" "$OUT" "$help"
done

# --- cudalab --help: every command, every option under its command ---
run cudalab --help
expect_status "--help" 0
for c in $commands; do
    block=$(awk -v c="$c" '/^  [a-z]/ { on = $1 == c } on' <<<"$OUT")
    missing=
    for o in $(options_of "$c"); do
        grep -Eq -- "^      $o( |\$)" <<<"$block" || missing="$missing $o"
    done
    expect_eq "--help: '$c' with its options" "$missing" ""
done

# --- the man page: every option of every command, under it ---
man_page=$T/cudalab.1
cudalab --dump-commands | "$E2E_SRC/lab/cli/gen-man.sh" 0.0.0 sm_90 \
    "$E2E_SRC/lab/cli/cudalab.1.in" >"$man_page"
check "gen-man.sh makes the man page" $?
# its roff as plain text: "cudalab grade EXERCISE ...", then ".I EXERCISE", "--seed N"
plain=$(sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' "$man_page")
for c in $commands; do
    block=$(awk -v c="$c" '/^cudalab / { on = $2 == c } on' <<<"$plain")
    missing=
    for o in $(options_of "$c"); do
        grep -Eq -- "^$o( |\$)" <<<"$block" || missing="$missing $o"
    done
    for a in $(args_of "$c"); do
        grep -Fxq -- ".I $a" <<<"$block" || missing="$missing $a"
    done
    expect_eq "man page: 'cudalab $c' with its arguments and options" "$missing" ""
done
if command -v man >/dev/null && command -v groff >/dev/null; then
    run man -l "$man_page"
    expect_status "man -l renders it" 0
    expect_out_re "man: an option under its command" '^ +--no-record$'
    run groff -man -Tutf8 -ww -z "$man_page"
    expect_eq "groff: no warning" "$ERR" ""
else
    echo "SKIP: man or groff missing: the man page is not rendered"
fi

# --- bash completion: options, option values and positionals by type ---
cudalab --dump-commands | "$E2E_SRC/lab/cli/gen-completion.sh" bash >"$T/cudalab.bash"
check "gen-completion.sh bash" $?
expect_cmd "bash -n: the bash completion parses" bash -n "$T/cudalab.bash"
ids=$(cudalab list --ids | sort)
mkdir -p a-folder && : >a-file.txt && : >a-kernel.cu
for c in $commands; do
    run completions_bash "$T/cudalab.bash" cudalab "$c" --
    expect_eq "bash: '$c --' offers its options" "$(paste -sd' ' <<<"$OUT")" \
        "$(options_of "$c" | paste -sd' ')"
    for o in $(options_of "$c" choice); do
        run completions_bash "$T/cudalab.bash" cudalab "$c" "$o" ""
        expect_eq "bash: '$c $o' offers its choices" "$(paste -sd, <<<"$OUT")" \
            "$(field_of "$c" "$o" 8)"
    done
    for o in $(options_of "$c" dir); do
        run completions_bash "$T/cudalab.bash" cudalab "$c" "$o" a-
        expect_eq "bash: '$c $o' offers folders" "$OUT" "a-folder"
    done
    for o in $(options_of "$c" number); do
        run completions_bash "$T/cudalab.bash" cudalab "$c" "$o" ""
        expect_eq "bash: '$c $o' offers nothing for a number" "$OUT" ""
    done
    if [ "$(awk -F'\t' -v c="$c" '$1 == "arg" && $2 == c { print $4; exit }' <<<"$dump")" = exercise ]
    then
        run completions_bash "$T/cudalab.bash" cudalab "$c" ""
        expect_eq "bash: '$c' offers the exercise ids first" "$(sort <<<"$OUT")" "$ids"
    fi
done
run completions_bash "$T/cudalab.bash" cudalab grade --seed 7 reduction/neighbored-l
expect_eq "bash: an option's value is not a positional" "$OUT" "reduction/neighbored-less"
run completions_bash "$T/cudalab.bash" cudalab grade reduction/neighbored a-
expect_eq "bash: a .cu file second, and folders" "$(sort <<<"$OUT" | paste -sd' ')" \
    "a-folder a-kernel.cu"
run completions_bash "$T/cudalab.bash" cudalab demo occ
expect_eq "bash: a chapter" "$OUT" "occupancy"
run completions_bash "$T/cudalab.bash" cudalab batch reduction/neighbored s1 s2 a-f
expect_eq "bash: a repeated argument (submissions: files and folders)" \
    "$(sort <<<"$OUT" | paste -sd' ')" "a-file.txt a-folder"
run completions_bash "$T/cudalab.bash" cudalab help gra
expect_eq "bash: help offers commands" "$(paste -sd' ' <<<"$OUT")" "grade gradebook"

# --- zsh completion ---
cudalab --dump-commands | "$E2E_SRC/lab/cli/gen-completion.sh" zsh >"$T/_cudalab"
check "gen-completion.sh zsh" $?
if command -v zsh >/dev/null; then
    expect_cmd "zsh -n: the zsh completion parses" zsh -n "$T/_cudalab"
    for c in $commands; do
        run completions_zsh "$T/_cudalab" cudalab "$c" --
        expect_eq "zsh: '$c --' offers its options" "$(paste -sd' ' <<<"$OUT")" \
            "$(options_of "$c" | paste -sd' ')"
    done
    run completions_zsh "$T/_cudalab" cudalab new-exercise x/y --family ""
    expect_eq "zsh: --family offers the families" "$(paste -sd, <<<"$OUT")" \
        "$(field_of new-exercise --family 8)"
    run completions_zsh "$T/_cudalab" cudalab batch reduction/neighbored --out ""
    expect_eq "zsh: --out offers folders" "$OUT" "_files -/"
    run completions_zsh "$T/_cudalab" cudalab demo ""
    expect_out "zsh: demo offers the chapters" "occupancy"
else
    echo "SKIP: zsh missing: the zsh completion is not run"
fi

# --- the parser's errors: one line naming the command and the option, exit 2 ---
one_line() { # NAME WANT: the last run failed with exactly the line WANT
    expect_status "$1" 2
    expect_eq "$1: one line" "$ERR" "$2"
}
for c in $commands; do
    run cudalab "$c" --no-such-option
    one_line "$c --no-such-option" \
        "cudalab $c: unknown option '--no-such-option' (see: cudalab help $c)"
    for o in $(options_of "$c" value); do
        run cudalab "$c" "$o"
        one_line "$c $o without its value" \
            "cudalab $c: $o needs a value ($(field_of "$c" "$o" 6))"
    done
    for o in $(options_of "$c" number); do
        run cudalab "$c" "$o" many
        one_line "$c $o many" "cudalab $c: $o: 'many' is not a number"
    done
    for o in $(options_of "$c" choice); do
        run cudalab "$c" "$o=nope"
        one_line "$c $o=nope" \
            "cudalab $c: $o: 'nope' is not one of: $(field_of "$c" "$o" 8 | sed 's/,/, /g')"
    done
    for o in $(options_of "$c" none); do
        run cudalab "$c" "$o=1"
        one_line "$c $o=1" "cudalab $c: $o takes no value"
    done
done
# before the one parser: "grade: unknown option '--seed'"
run cudalab grade reduction/neighbored --seed
one_line "grade --seed without its value" "cudalab grade: --seed needs a value (N)"
run cudalab grade reduction/neighbored --seed 0
one_line "grade --seed 0" "cudalab grade: --seed must be at least 1, not '0'"
run cudalab batch reduction/neighbored x.cu --jobs=2000
one_line "batch --jobs=2000" "cudalab batch: --jobs must be 1 to 1024, not '2000'"
run cudalab show
one_line "show without its exercise" "cudalab show: missing EXERCISE (usage: cudalab show EXERCISE)"
run cudalab show reduction/neighbored extra
one_line "show with one argument too many" \
    "cudalab show: unexpected argument 'extra' (usage: cudalab show EXERCISE)"
run cudalab reset reduction/neighbored
one_line "reset without --yes" \
    "cudalab reset: --yes is required (usage: cudalab reset EXERCISE --yes)"
run cudalab hint reduction/neighbored two
one_line "hint N not a number" "cudalab hint: N: 'two' is not a number"

# --- the forms a line may take ---
run cudalab hint reduction/neighbored-less -- 2
expect_out "-- ends the options" "Hint 2 of 3 for reduction/neighbored-less"
run cudalab predict reduction blocks-per-sm -3 --json
expect_status "predict: a negative number is an answer, not an option" 1
expect_out "predict: the negative answer is judged" "Not this time: the answer is 4."
CUDALAB_DATADIR=$T/nowhere run cudalab grade --help
expect_status "grade --help needs no catalog" 0
expect_out "grade --help needs no catalog: its usage" "usage: cudalab grade EXERCISE [FILE]"

# --- the shell: the same parser ---
run cudalab shell <<<"grade --sed
help batch
show reduction/neighbored-less
hint -- 2"
expect_err "shell: the parser's error" \
    "cudalab grade: unknown option '--sed' (see: cudalab help grade)"
expect_out "shell: help lists a command's options" "  --no-sandbox"
expect_out "shell: the current exercise goes before the other words" \
    "Hint 2 of 3 for reduction/neighbored-less"

e2e_finish

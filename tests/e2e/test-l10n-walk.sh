#!/bin/bash
# e2e-timeout: 400
# No English sentence of the lab's catalog on a Korean or Chinese screen (issue 33): the
# student's path walked in each language with the course's own translations, through the real
# binary, without a GPU (the simulator grades) - the menu in tmux at 80x24 (home, its keys, a
# chapter, an exercise with a hint, a grading with a finding of the simulator's, the history
# chart, a chapter's demo with its predictions) and every command a learner types (the bare
# listing, help, list, show, hint, grade with the model's bars, doctor,
# device, demo, predict, history, next).  tests/e2e/untranslated.py cuts every message of
# po/LANG.po, and every string literal of the sources (a string left unmarked), into its
# literal pieces and fails on any piece of three English words that stands on a screen where
# the language's translation does not keep it: code, kernel names, verdict names and the
# system's own words (a loader's error) are no such words.  Each screen is
# kept in the test's folder (walk/LANG/*.txt) to be read when it fails.
set -u
. "$(dirname "$0")/lib.sh"
. "$E2E_SRC/tests/e2e/tmux.sh"

src=$CUDALAB_DATADIR_TEST
dup=$T/dup-thread-ids.cu # review D2's kernel: a thread id that leaves out blockDim.z
sed 's/unsigned threads = blockDim.x \* blockDim.y \* blockDim.z;/unsigned threads = blockDim.x * blockDim.y;/;
     s/unsigned t = threadIdx.z \* blockDim.y \* blockDim.x + /unsigned t = /' \
    "$src/solutions/warp/thread-ids.cu" >"$dup"
cmp -s "$dup" "$src/solutions/warp/thread-ids.cu" && fail "the planted thread-ids kernel differs from the reference" "sed matched nothing"
export LC_ALL=C.UTF-8 COLUMNS=80

# shot LANG NAME: the tmux screen now, as walk/LANG/NAME.txt
shot() {
    screen >"$T/walk/$1/$2.txt"
}

# say LANG NAME CMD...: a command's output and errors in LANG, as walk/LANG/NAME.txt
say() {
    local lang=$1 name=$2
    shift 2
    LANGUAGE=$lang cudalab "$@" >"$T/walk/$lang/$name.txt" 2>&1
}

# title LANG INI: the translated title of a chapter.ini or exercise.ini
title() {
    sed -n 's/^title = //p' "${2%.ini}.$1.ini"
}

# msg LANG TEXT: the lab's message TEXT in LANG, as its catalog has it
msg() {
    LANGUAGE=$1 TEXTDOMAINDIR=$CUDALAB_LOCALEDIR gettext -d cudalab -- "$2"
}

walk_cli() {
    local lang=$1
    say "$lang" listing
    say "$lang" help help
    say "$lang" help-grade help grade
    say "$lang" list list
    say "$lang" show show warp/thread-ids
    say "$lang" hint-1 hint warp/thread-ids
    say "$lang" hint-2 hint warp/thread-ids
    say "$lang" hint-end hint warp/thread-ids 9
    say "$lang" grade-modelled grade reduction/neighbored-less "$src/solutions/reduction/neighbored-less.cu"
    say "$lang" grade-usage grade
    say "$lang" doctor doctor
    say "$lang" device device
    say "$lang" demo demo warp
    say "$lang" predict-list predict divergence
    # the last choice, "about the same", in the learner's words (review C4: echoed in English)
    say "$lang" predict-answer predict divergence fastest-mathkernel "$(sed -n 's/^choices = //p' \
        "$src/exercises/divergence/questions.$lang.ini" | head -1 | awk -F' [|] ' '{ print $NF }')"
    say "$lang" predict-after predict divergence
    say "$lang" history history warp/thread-ids
    say "$lang" next next
    say "$lang" unknown-option --bogus
}

walk_menu() {
    local lang=$1 chapter exercise wrong done
    chapter=$(title "$lang" "$src/exercises/warp/chapter.ini")
    exercise=$(title "$lang" "$src/exercises/warp/thread-ids/exercise.ini")
    wrong=$(msg "$lang" 'wrong on the simulator at n = %lu: %s%s') # the verdict line's start
    wrong=${wrong%%%lu*}
    done=$(msg "$lang" 'Which threads share a warp') # the demo's first section
    tmux_start env LANGUAGE="$lang" bash -c '"$0"; echo EXITED; sleep 60' "$CUDALAB_TEST_BIN"
    wait_screen "$lang: the menu" "$chapter" || { tmux_end; return; }
    shot "$lang" menu-home
    tmux_keys NPage
    sleep 0.3
    shot "$lang" menu-home-2
    tmux_keys Home '?'
    sleep 0.3
    shot "$lang" menu-keys
    tmux_keys q / "$chapter" Enter Enter
    sleep 0.5
    shot "$lang" menu-chapter
    tmux_keys q Home / "$exercise" Enter Enter
    wait_screen "$lang: the exercise" "(warp/thread-ids)" || { tmux_end; return; }
    shot "$lang" menu-exercise
    tmux_keys h
    sleep 0.3
    shot "$lang" menu-hint
    tmux_keys g
    wait_screen "$lang: the menu's grading, WRONG with the simulator's finding" "WRONG: $wrong" 60 || {
        tmux_end
        return
    }
    shot "$lang" menu-graded
    tmux_keys End
    sleep 0.3
    shot "$lang" menu-graded-end
    tmux_keys q t
    sleep 0.5
    shot "$lang" menu-history
    tmux_keys q q Home / "$chapter" Enter d
    sleep 0.5
    shot "$lang" menu-predict
    tmux_keys Enter
    sleep 0.3
    tmux_keys 3 Enter
    sleep 0.3
    shot "$lang" menu-predict-2
    tmux_keys Enter
    sleep 0.3
    tmux_keys 16 Enter
    wait_screen "$lang: the warp chapter's demo" "$done" 60
    sleep 0.5
    shot "$lang" menu-demo
    tmux_keys End
    sleep 0.3
    shot "$lang" menu-demo-end
    tmux_end
}

# every string literal of the lab's sources: one a front end forgot to mark counts too
find "$E2E_SRC/lab" "$E2E_SRC/common" -name '*.[ch]' -print0 |
    xargs -0 xgettext --language=C --from-code=UTF-8 -a --no-location -o "$T/literals.pot" 2>/dev/null
[ -s "$T/literals.pot" ] || fail "xgettext lists the sources' string literals" "$T/literals.pot is empty"

for lang in ko zh_CN; do
    mkdir -p "$T/walk/$lang" "work/warp"
    cp "$dup" work/warp/thread-ids.cu
    t0=$(now_us)
    walk_cli "$lang"
    t1=$(now_us)
    walk_menu "$lang"
    echo "# $lang: the commands in $(((t1 - t0) / 1000)) ms, the menu in $((($(now_us) - t1) / 1000)) ms"
    if why=$(python3 "$E2E_SRC/tests/e2e/untranslated.py" "$E2E_SRC/po/$lang.po" \
        --literals "$T/literals.pot" "$T/walk/$lang"/*.txt); then
        pass "$lang: no English sentence of the catalog on $(ls "$T/walk/$lang" | wc -l) screens"
    else
        fail "$lang: no English sentence of the catalog on the screens" "$why"
    fi
    # what the review found, each checked on its own screen
    expect_eq "$lang: the exercise's status line in $lang (review C1)" \
        "$(grep -c 'Status:\|points)' "$T/walk/$lang/menu-exercise.txt")" 0
    expect_eq "$lang: the simulator's finding in $lang (review C2)" \
        "$(grep -c 'global word\|computed the same index' "$T/walk/$lang/menu-graded.txt")" 0
    expect_eq "$lang: the demo's body in $lang (review C3)" \
        "$(grep -c 'Which threads share a warp\|done' "$T/walk/$lang/menu-demo.txt")" 0
done

e2e_finish

#!/bin/bash
# e2e-timeout: 240
# The menu in Korean and in Chinese at 80x24 and 120x40 (# 23): Hangul and Hanzi take two
# columns, so the home screen's status column, the chapter text's wrapping, its table and its
# heading's underline must be laid out by display width.  The captured screens are measured
# with Python's unicodedata.east_asian_width (tests/e2e/screen-widths.py), not by the lab's own
# wcwidth.  Content: the course's translations where there are any, else the fixtures
# (tests/fixtures/l10n).
set -u
. "$(dirname "$0")/lib.sh"
. "$E2E_SRC/tests/e2e/tmux.sh"
. "$E2E_SRC/tests/e2e/l10n.sh"

data=$T/data
copy_datadir "$data"
export CUDALAB_DATADIR=$data LC_ALL=C.UTF-8 # tmux and the lab both in UTF-8
# the warp chapter's text is always the fixture's: a long paragraph and a table, in both scripts
for lang in ko zh_CN; do
    l10n_install "$data" "$lang"
    l10n_write "$data/docs/warp.md" "$lang" <"$FIXTURES/l10n/warp-chapter.$lang.md"
done
# where the course has its own chapter texts, the tables of one of them (blockshape, or a chapter
# near it) are measured too: its place among the chapters on the home screen
nth_blockshape=$(cudalab list | grep -E '  \([a-z]+\)$' | grep -n '(blockshape)$' | cut -d: -f1)

# measure NAME CHECK [ARGS...]: a check of screen-widths.py on the screen now
measure() {
    local name=$1 why
    shift
    if why=$(screen | python3 "$E2E_SRC/tests/e2e/screen-widths.py" "$1" "$COLS_NOW" "${@:2}"); then
        pass "$name"
    else
        fail "$name" "$why" "  screen:" "$(screen | indent)"
    fi
}

# screens LANG COLS ROWS: home, the chapter text and an exercise, each measured
# msg LANG TEXT: the lab's message TEXT in LANG, as its catalog has it
msg() {
    LC_ALL=C.UTF-8 LANGUAGE=$1 TEXTDOMAINDIR=$CUDALAB_LOCALEDIR gettext -d cudalab -- "$2"
}

screens() {
    local lang=$1 at="$1 $2x$3" title heading chapter_text not_started
    COLS_NOW=$2
    TMUX_COLS=$2 TMUX_ROWS=$3 tmux_start env LANGUAGE="$lang" bash -c '"$0"; echo EXITED; sleep 60' \
        "$CUDALAB_TEST_BIN"
    title=$(sed -n 's/^title = //p' "$(l10n_path "$data/exercises/warp/chapter.ini" "$lang")")
    # the chapter's heading, "%s  (chapter text)%s%s%s" in LANG, up to its second %s
    heading=$(msg "$lang" '%s  (chapter text)%s%s%s')
    heading=${heading/\%s/$title}
    heading=${heading%%\%s*}
    chapter_text=${heading#"$title  "}
    not_started=$(msg "$lang" "not started")
    [ "$chapter_text" != "(chapter text)" ] && [ "$not_started" != "not started" ] ||
        fail "$at: the menu's words have a $lang translation" "$chapter_text, $not_started"
    wait_screen "$at: the menu, with the chapter's title in $lang" "$heading"
    measure "$at: home fits the screen" fits
    measure "$at: home's status column is one column for every title" status "$not_started"
    tmux_keys NPage
    sleep 0.3
    measure "$at: home, next page: still one status column" status "$not_started"
    tmux_keys Home
    tmux_keys / "$chapter_text" Enter Enter
    wait_screen "$at: the warp chapter text" "warp"
    sleep 0.3
    measure "$at: the chapter text wraps within the screen" fits
    measure "$at: the chapter's table aligned by display width" table
    measure "$at: the heading's underline as wide as the heading" underline
    if [ -e "$(l10n_path "$data/docs/blockshape.md" "$lang")" ] && [ -n "$nth_blockshape" ]; then
        tmux_keys q Home / "$chapter_text" Enter
        for ((i = 1; i < nth_blockshape; i++)); do tmux_keys n; done
        tmux_keys Enter / -+- Enter
        wait_screen "$at: a chapter of the course's own with a table" "-+-"
        sleep 0.3
        measure "$at: the course's own tables aligned by display width" table
    fi
    tmux_keys q Home / thread Enter Enter
    wait_screen "$at: the exercise" "(warp/thread-ids)"
    sleep 0.3
    measure "$at: the exercise page fits" fits
    measure "$at: the task's heading underlined to its width" underline
    tmux_end
}

for lang in ko zh_CN; do
    screens "$lang" 80 24
    screens "$lang" 120 40
done

e2e_finish

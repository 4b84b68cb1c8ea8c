#!/bin/bash
# e2e-timeout: 300
# The lab's messages in Korean and Chinese (GNU gettext, po/*.po; docs/design/i18n.md): a
# grading's verdict line and advice in ko and zh_CN with the verdict names kept, --json and
# the exit status the same byte for byte in every language, --lang, the language the menu
# picks and the store keeps, LANGUAGE with C.UTF-8 (a fresh Debian has no other locale), a
# locale this machine has not generated, and English with a note in a locale that is not UTF-8.
set -u
. "$(dirname "$0")/lib.sh"

src=$CUDALAB_DATADIR_TEST
less=reduction/neighbored-less
starter=$src/exercises/$less/starter.cu
wrong=$src/exercises/reduction/neighbored/starter.cu

# in_lang LANG CMD...: the lab with LANGUAGE=LANG in C.UTF-8, the one locale every Debian has
in_lang() {
    local lang=$1
    shift
    env LC_ALL=C.UTF-8 LANGUAGE="$lang" "$CUDALAB_TEST_BIN" "$@"
}

# tr LANG MSGID: the catalog's translation, read by gettext(1) from the compiled messages, so
# that a better wording in po/ does not break the test; it must differ from the English
tr() {
    LC_ALL=C.UTF-8 LANGUAGE=$1 TEXTDOMAINDIR=$CUDALAB_LOCALEDIR gettext -d cudalab -- "$2"
}

# ... of a message with plural forms, for a count of n
trn() {
    LC_ALL=C.UTF-8 LANGUAGE=$1 TEXTDOMAINDIR=$CUDALAB_LOCALEDIR ngettext -d cudalab -- "$2" "$3" "$4"
}

hangul='[가-힣]'
hanzi='[一-龥]'

# --- a grading in Korean and in Chinese ------------------------------------------------
slow_advice="correct; now make it faster: read the task's hints (cudalab show)"
wrong_advice="a value came out wrong: work the first wrong block by hand at that n: which elements it owns, the partial last block, each step of its loop"
for lang in ko zh_CN; do
    script=$hangul
    [ $lang = zh_CN ] && script=$hanzi
    expect_cmd "$lang: the catalog translates the advice" test "$(tr $lang "$slow_advice")" != "$slow_advice"

    run in_lang $lang grade $less "$starter" --no-record --seed 11
    expect_status "$lang: the untouched starter, SLOW" 1
    expect_out_re "$lang: the verdict keeps its name, the line is in $lang" "^SLOW  .*$script"
    expect_out "$lang: the modelled-speed message is translated" \
        "$(tr $lang "modelled for an %s, not measured (%s): %s" | sed 's/%[0-9]*\$*[.0-9]*[a-z]*.*//')"
    expect_out "$lang: the advice after SLOW" "$(tr $lang "$slow_advice")"
    expect_out "$lang: next: in $lang" "$(tr $lang "next:") "
    expect_out_lacks "$lang: no English advice" "$slow_advice"

    run in_lang $lang grade reduction/neighbored "$wrong" --no-record --seed 11
    expect_status "$lang: a wrong sum, WRONG" 1
    expect_out_re "$lang: WRONG keeps its name" "^WRONG  .*$script"
    expect_out "$lang: the advice about the wrong value" "$(tr $lang "$wrong_advice")"
    # the driver's description of the wrong block: its format translated, its numbers filled in
    expect_out_lacks "$lang: the wrong block's detail is not English" "(elements 0..0): expected"
    expect_out_re "$lang: the wrong block's detail in $lang, block 0's numbers in it" \
        "^WRONG  .*block 0.*0\.\.0.*$script.*[0-9]"
done
for cmd in "grade reduction/neighbored $wrong --no-record --seed 11"; do
    # shellcheck disable=SC2086 # the words of cmd
    en=$(in_lang en $cmd --json 2>/dev/null)
    for lang in ko zh_CN; do
        # shellcheck disable=SC2086
        run in_lang $lang $cmd --json
        expect_eq "$lang: a WRONG grading's --json (the driver's detail included) is the English one" \
            "$OUT" "$en"
    done
    OUT=$en
    expect_json "the WRONG detail in --json is the driver's English" \
        '"block 0 (elements 0..0): expected " in j["message"]'
done

# --- what programs read: the same in every language -------------------------------------
for cmd in "grade $less $starter --no-record --seed 11 --json" "list --json" "device --json" \
    "predict divergence --json"; do
    # shellcheck disable=SC2086 # the words of cmd
    en=$(in_lang en $cmd 2>/dev/null)
    en_rc=$?
    for lang in ko zh_CN; do
        # shellcheck disable=SC2086
        run in_lang $lang $cmd
        expect_eq "$lang: '${cmd%% *} ... --json' is byte for byte the English one" "$OUT" "$en"
        expect_eq "$lang: '${cmd%% *} --json' exits as in English" "$RC" "$en_rc"
    done
done
run in_lang ko grade $less "$starter" --no-record --seed 11 --json
expect_json "ko: --json keeps the English message and advice" \
    'j["verdict"] == "SLOW" and j["message"].startswith("modelled for an H100") and j["advice"].startswith("correct; now")'

# --- --lang ------------------------------------------------------------------------------
run env LC_ALL=C.UTF-8 "$CUDALAB_TEST_BIN" --lang ko help
expect_status "--lang ko" 0
expect_out "--lang ko: the help in Korean" "$(tr ko "show the commands, or one command's usage")"
run env LC_ALL=C.UTF-8 LANGUAGE=ko "$CUDALAB_TEST_BIN" --lang=zh_CN help
expect_out "--lang=zh_CN comes before LANGUAGE" "$(tr zh_CN "show the commands, or one command's usage")"
run env LC_ALL=C.UTF-8 LANGUAGE=ko "$CUDALAB_TEST_BIN" --lang en help
expect_out "--lang en: English" "show the commands, or one command's usage"
run env LC_ALL=C.UTF-8 "$CUDALAB_TEST_BIN" help --lang ko
expect_out "--lang after the command" "$(tr ko "show the commands, or one command's usage")"
run env LC_ALL=C.UTF-8 "$CUDALAB_TEST_BIN" hint --lang
expect_status "--lang without a language" 2
expect_err "--lang without a language: says which there are" "--lang needs a language: en, ko or zh_CN"
run env LC_ALL=C.UTF-8 "$CUDALAB_TEST_BIN" --lang fr list
expect_status "--lang fr: no such messages" 2
expect_err "--lang fr: names the languages there are" "no messages in 'fr' (the languages: en, ko, zh_CN)"
run env LC_ALL=C.UTF-8 "$CUDALAB_TEST_BIN" --lang 'ko;x' list
expect_status "--lang with a character no language name has" 2
run env LC_ALL=C.UTF-8 "$CUDALAB_TEST_BIN" --lang ko nosuch
expect_status "--lang ko, then an unknown command" 2
expect_err_re "--lang ko: the error in Korean" "^cudalab: .*nosuch.*$hangul"

# --- the environment --------------------------------------------------------------------
run env LC_ALL= LC_MESSAGES= LANG=C.UTF-8 LANGUAGE=zh_CN "$CUDALAB_TEST_BIN" help
expect_out "LANG=C.UTF-8 LANGUAGE=zh_CN: Chinese" "$(tr zh_CN "for students")"
# a locale this machine has not generated (a fresh Debian has only C.UTF-8): its language all
# the same, the characters through C.UTF-8
run env LC_ALL= LC_MESSAGES= LANGUAGE= LANG=ko_KR.UTF-8 "$CUDALAB_TEST_BIN" help
expect_out "LANG=ko_KR.UTF-8 without that locale: Korean" "$(tr ko "for students")"
expect_cmd "the note about a locale is not printed for a UTF-8 one" test -z "$ERR"
# a locale that is not UTF-8 cannot show Hangul or Hanzi: English, and a note says why
run env LC_ALL=C LANGUAGE=ko "$CUDALAB_TEST_BIN" grade $less "$starter" --no-record --seed 11
expect_status "not UTF-8: the grading still runs" 1
expect_out "not UTF-8: the advice in English" "next: $slow_advice"
expect_err "not UTF-8: a note says why" "is not UTF-8, which ko needs: the messages stay in English"
run env LC_ALL=C "$CUDALAB_TEST_BIN" list
expect_cmd "English asked for (LC_ALL=C): no note" test -z "$ERR"

# --- the menu's setting, kept in the store ----------------------------------------------
. "$E2E_SRC/tests/e2e/tmux.sh"
export LC_ALL=C.UTF-8
tmux_start "$CUDALAB_TEST_BIN"
wait_screen "menu: English at first" "Progress: 0 of"
tmux_keys L
wait_screen "menu: L picks Korean" "$(tr ko "language: %s (kept for next time; L changes it)" | sed 's/%s.*//')"
wait_screen "menu: the home screen in Korean" "$(trn ko "Progress: %d of %zu exercise passed, %d/%d points" \
    "Progress: %d of %zu exercises passed, %d/%d points" 2 | sed 's/%.*//')"
tmux_keys L
wait_screen "menu: L again: Chinese (not Korean kept by gettext)" \
    "$(trn zh_CN "Progress: %d of %zu exercise passed, %d/%d points" \
        "Progress: %d of %zu exercises passed, %d/%d points" 2 | sed 's/%.*//')"
tmux_keys q
sleep 1
tmux_end
expect_eq "the store keeps the choice" "$(db_rows "SELECT value FROM settings WHERE name = 'lang'")" zh_CN
run "$CUDALAB_TEST_BIN" help
expect_out "the next start: Chinese, from the store" "$(tr zh_CN "for students")"
run "$CUDALAB_TEST_BIN" --lang en help
expect_out "--lang en comes before the store" "commands for students:"
run env LC_ALL=C "$CUDALAB_TEST_BIN" help
expect_out "the store's zh_CN in a locale that is not UTF-8: English" "commands for students:"
expect_err "... with the note" "is not UTF-8, which zh_CN needs"

e2e_finish

#!/bin/bash
# The course's text files in the learner's language (# 23): each file's translation beside the
# English one is shown where it is current, English where it is missing, stale or broken (and a
# stale one is named once where it is read); --json stays English; check-exercise reports
# missing and stale translations as warnings (failures with --strict-translations) and broken
# ones as failures, each with file and line.  Fixture translations: tests/fixtures/l10n.
set -u
. "$(dirname "$0")/lib.sh"
. "$E2E_SRC/tests/e2e/l10n.sh"

data=$T/data
copy_datadir "$data"
# the course's own translations, where there are any, make way for the fixtures
find "$data" \( -name '*.ko.*' -o -name '*.zh_CN.*' \) -delete
l10n_install "$data" ko
l10n_install "$data" zh_CN
export CUDALAB_DATADIR=$data
ids=$data/exercises/warp/thread-ids

ko() { LC_ALL=C.UTF-8 LANGUAGE=ko cudalab "$@"; }
zh() { LC_ALL=C.UTF-8 LANGUAGE=zh_CN cudalab "$@"; }
# a message of the lab's own in LANG, as gettext gives it from the compiled catalogs
tr() {
    LC_ALL=C.UTF-8 LANGUAGE=$1 TEXTDOMAINDIR=$CUDALAB_LOCALEDIR gettext -d cudalab -- "$2"
}

# --- shown in the language asked for, file by file ----------------------------------------
run ko list
expect_status "list in Korean" 0
expect_out_re "the Korean title of warp/thread-ids" \
    "^  warp/thread-ids +1D, 2D, 3D 블록의 thread, warp, lane 번호 +$(tr ko "not started")\$"
expect_out "the Korean title of the chapter" "warp 실행  (warp)"
run ko show warp/thread-ids
expect_out "show: the Korean task" "각 thread는 자신의 전역 선형 id"
expect_out_lacks "show: not the English task" "Write writeThreadIds"
expect_out_lacks "show: the translation's first line is not shown" "translation of"
run ko hint warp/thread-ids 2
expect_out "hint 2 in Korean" "로 warp와 lane을 구하세요"
run ko show warp/active-lanes
expect_out "a task with no translation falls back to English" "Active lanes per warp"
run zh show warp/thread-ids
expect_out "show in Chinese" "编写 writeThreadIds"
run env LC_ALL=C.UTF-8 LANGUAGE=zh "$CUDALAB_TEST_BIN" show warp/thread-ids
expect_out "LANGUAGE=zh means zh_CN" "编写 writeThreadIds"
run env LC_ALL=C.UTF-8 LANGUAGE=de:ko "$CUDALAB_TEST_BIN" show warp/thread-ids
expect_out "the second language of LANGUAGE where the first has no files" "각 thread는"
run env LC_ALL=C.UTF-8 LANG=ko_KR.UTF-8 "$CUDALAB_TEST_BIN" list
expect_out "LC_ALL=C.UTF-8 wins over LANG: English" "Thread, warp and lane ids in 1D, 2D and 3D blocks"
run env LC_ALL=C LANGUAGE=ko "$CUDALAB_TEST_BIN" show warp/thread-ids
expect_out "a locale that is not UTF-8: English" "Write writeThreadIds"
expect_err "... and a note says why" "is not UTF-8, which ko needs: the messages stay in English"

# --- --json is the same in every language ---------------------------------------------------
for cmd in "list --json" "predict warp --json"; do
    # shellcheck disable=SC2086 # the words of cmd
    en=$(cudalab $cmd | sha256sum) k=$(ko $cmd | sha256sum) z=$(zh $cmd | sha256sum)
    expect_eq "$cmd: Korean output byte for byte the English" "$k" "$en"
    expect_eq "$cmd: Chinese output byte for byte the English" "$z" "$en"
done

# --- check-exercise: current translations are no warning ---------------------------------
run cudalab check-exercise --translations warp/thread-ids
expect_status "check-exercise --translations" 0
expect_out_lacks "no warning about the translated task" "task.md:0: warning"
expect_out "the exercise's untranslated chapter text is a warning" \
    "$data/docs/warp.md:0: warning: no ko translation (warp.ko.md)"
expect_out_re "the summary names the languages" \
    '^translations \(ko, zh_CN\): [1-9][0-9]* missing, 0 stale$'

# --- stale: the English task changed after the translation ----------------------------------
echo "One more English line." >>"$ids/task.md"
run ko show warp/thread-ids
expect_out "a stale translation: English shown" "Write writeThreadIds"
# shellcheck disable=SC2059 # the formats are the catalog's
stale=$(printf "$(tr ko "%s translates an older %s")" task.ko.md task.md)
# shellcheck disable=SC2059
expect_out "... and named once (in Korean)" "($(printf "$(tr ko "%s: English shown")" "$stale"))"
expect_eq "... once" "$(grep -cF "$stale" <<<"$OUT")" 1
run ko list
expect_out "the title's translation is still current" "1D, 2D, 3D 블록의"
run cudalab check-exercise --translations warp/thread-ids
expect_status "stale translations warn" 0
new=$(sha256sum "$ids/task.md" | cut -c1-12)
expect_out_re "the warning names file, line, old and new revision" \
    "^$ids/task.ko.md:1: warning: stale: it follows task.md @ [0-9a-f]{12}, which is @ $new now"
run cudalab check-exercise --translations --strict-translations warp/thread-ids
expect_status "--strict-translations fails on them" 1
l10n_write "$ids/task.md" ko <"$FIXTURES/l10n/warp-thread-ids/task.ko.md"
l10n_write "$ids/task.md" zh_CN <"$FIXTURES/l10n/warp-thread-ids/task.zh_CN.md"

# --- broken translations: errors with file and line, English shown -------------------------
printf '[exercise]\ntitle = 활성 lane\nkernel = countActive\n' |
    l10n_write "$data/exercises/warp/active-lanes/exercise.ini" ko
run cudalab check-exercise --translations warp/active-lanes
expect_status "a key that is not text in a translation fails" 1
expect_out "... named with file and line" \
    "$data/exercises/warp/active-lanes/exercise.ko.ini:4: 'kernel' is not translated"
run ko list
expect_out_re "its title stays English" '^  warp/active-lanes +Active lanes per warp'
rm "$data/exercises/warp/active-lanes/exercise.ko.ini"

printf '## Hint 1\n\n하나뿐인 힌트.\n' | l10n_write "$ids/hints.md" ko
run cudalab check-exercise --translations warp/thread-ids
expect_status "a hints translation with another number of hints fails" 1
expect_out "... said so" "$ids/hints.ko.md:0: 1 hints where the English file has 2"
run ko hint warp/thread-ids 1
expect_out "its hints are shown in English" "how many threads come before thread"
l10n_write "$ids/hints.md" ko <"$FIXTURES/l10n/warp-thread-ids/hints.ko.md"

sed 's/unsigned n);/unsigned count);/' "$FIXTURES/l10n/warp-thread-ids/task.zh_CN.md" |
    l10n_write "$ids/task.md" zh_CN
run cudalab check-exercise --translations warp/thread-ids
expect_status "a code block changed in a translation fails" 1
expect_out "... named by its line" "$ids/task.zh_CN.md:6: code block 1 differs from the English file's"
l10n_write "$ids/task.md" zh_CN <"$FIXTURES/l10n/warp-thread-ids/task.zh_CN.md"

{ echo "## Hint 1"; echo; } >"$ids/hints.ko.md"
run cudalab check-exercise --translations warp/thread-ids
expect_status "a translation without its first line fails" 1
expect_out "... which says what the first line must be" \
    "$ids/hints.ko.md:1: the first line must name the English revision it follows"
l10n_write "$ids/hints.md" ko <"$FIXTURES/l10n/warp-thread-ids/hints.ko.md"

# --- questions: text translated, answers matched in English by position -------------------
q=$data/exercises/divergence/questions.ini
printf '[question branch-in-sass]\nprompt = SASS에 분기가 남을까요?\nchoices = 예 | 아니요\nexplain = 컴파일러가 select로 바꿉니다.\n' |
    l10n_write "$q" ko
run ko predict divergence
expect_out "the Korean prompt" "[branch-in-sass] SASS에 분기가 남을까요?"
expect_out "the Korean choices" "      - 아니요"
expect_out "an untranslated question stays English" "[mathkernel4-values]"
run ko predict divergence branch-in-sass 아니요
expect_status "a translated choice answers" 0
expect_out "the Korean explanation" "컴파일러가 select로 바꿉니다."
run cudalab predict divergence --json
expect_json "the answer is kept in English" \
    '[x for x in j["questions"] if x["id"] == "branch-in-sass"][0]["answer"] == "no"'
printf '[question branch-in-sass]\nchoices = 예 | 아니요 | 모름\n' | l10n_write "$q" zh_CN
run cudalab check-exercise --translations divergence/soa
expect_status "a translated question with another number of choices fails" 1
expect_out "... named with file and line" \
    "$data/exercises/divergence/questions.zh_CN.ini:3: [question branch-in-sass] has 3 choices where the English question has 2"
printf '[question branch-in-sass]\nanswer = 예\n' | l10n_write "$q" zh_CN
run cudalab check-exercise --translations divergence/soa
expect_out "an answer in a translation fails" "questions.zh_CN.ini:3: 'answer' is not translated"
rm "$data/exercises/divergence/questions.zh_CN.ini"

e2e_finish

# shellcheck shell=bash
# tests/e2e/l10n.sh - the translation fixtures (tests/fixtures/l10n) laid beside a copy of the
# English tree, for the tests of the content in other languages.  Sourced after lib.sh.
#
#   l10n_marker FILE            the first line of a translation of FILE as it is now
#   l10n_write FILE LANG        stdin, after that line, as FILE's translation into LANG
#   l10n_install DATADIR LANG   every fixture title, and warp/thread-ids' task and hints; a
#                               translation already there (the course's own) is kept

l10n_marker() {
    local name=${1##*/} hash
    hash=$(sha256sum "$1" | cut -c1-12)
    case $1 in
    *.md) echo "<!-- translation of $name @ $hash -->" ;;
    *) echo "; translation of $name @ $hash" ;;
    esac
}

# l10n_path FILE LANG: task.md -> task.LANG.md
l10n_path() {
    echo "${1%.*}.$2.${1##*.}"
}

l10n_write() {
    {
        l10n_marker "$1"
        cat
    } >"$(l10n_path "$1" "$2")"
}

l10n_install() {
    local data=$1 lang=$2 id title ini section
    while IFS=$'\t' read -r id title; do
        if [ "${id#*/}" = "$id" ]; then
            ini=$data/exercises/$id/chapter.ini section=chapter
        else
            ini=$data/exercises/$id/exercise.ini section=exercise
        fi
        if [ ! -f "$ini" ] || [ -e "$(l10n_path "$ini" "$lang")" ]; then
            continue
        fi
        printf '[%s]\ntitle = %s\n' "$section" "$title" | l10n_write "$ini" "$lang"
    done <"$FIXTURES/l10n/titles.$lang.tsv"
    for f in task.md hints.md; do
        local en=$data/exercises/warp/thread-ids/$f
        [ -e "$(l10n_path "$en" "$lang")" ] ||
            l10n_write "$en" "$lang" <"$FIXTURES/l10n/warp-thread-ids/${f%.md}.$lang.md"
    done
}

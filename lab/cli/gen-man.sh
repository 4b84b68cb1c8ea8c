#!/bin/bash
# lab/cli/gen-man.sh VERSION ARCH TEMPLATE < COMMANDS.tsv > cudalab.1
# The man page from its template and the command table (`cudalab --dump-commands`:
# name, args, help, completion kinds, tab-separated): one .TP entry per command.
set -eu
version=$1 arch=$2 template=$3
roff() { # escape for roff: backslashes, hyphens, a leading dot
    sed -e 's/\\/\\e/g' -e 's/-/\\-/g' -e 's/^\./\\\&./'
}
commands=$(
    while IFS=$'\t' read -r name args help _; do
        printf '.TP\n\\fBcudalab %s\\fR \\fI%s\\fR\n' "$(roff <<<"$name")" "$(roff <<<"$args")"
        printf '%s\n' "$(roff <<<"$help")."
    done
)
[ -n "$commands" ] || { echo "gen-man.sh: no commands on stdin" >&2; exit 1; }
while IFS= read -r line; do
    case $line in
    @COMMANDS@) printf '%s\n' "$commands" ;;
    *) line=${line//@VERSION@/$version}; printf '%s\n' "${line//@ARCH@/$arch}" ;;
    esac
done <"$template"

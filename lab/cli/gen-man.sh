#!/bin/bash
# lab/cli/gen-man.sh VERSION ARCH TEMPLATE < COMMANDS.tsv > cudalab.1
# The man page from its template and the command table (`cudalab --dump-commands`,
# tab-separated rows: "command NAME SYNOPSIS HELP GROUP", "arg CMD NAME TYPE OCCURS CHOICES
# HELP", "option CMD --NAME -X TYPE METAVAR OCCURS CHOICES HELP"): a .SS heading per group
# ("Commands for students"), one .TP entry per command, its arguments and every option with
# its help indented below it.
set -eu
version=$1 arch=$2 template=$3
roff() { # escape for roff: backslashes, hyphens, a leading dot or quote
    sed -e 's/\\/\\e/g' -e 's/-/\\-/g' -e "s/^\([.']\)/\\\\\&\1/"
}
# " (one of: a, b)" when the name as shown (NAME, METAVAR) does not list the choices
choices() { # TYPE SHOWN CHOICES
    [ "$1" = choice ] && [ "$2" != "${3//,/|}" ] && printf ' (one of: %s)' "${3//,/, }"
    return 0
}
commands=$(
    # fields split at \037: tabs are IFS white space, whose runs swallow empty fields
    while IFS=$'\037' read -r kind f1 f2 f3 f4 f5 f6 f7 f8; do
        case $kind in
        command) # NAME SYNOPSIS HELP GROUP
            [ -n "${open:-}" ] && printf '.RE\n'
            open=
            if [ "$f4" != "${group:-}" ]; then
                group=$f4
                printf '.SS "Commands %s"\n' "$(roff <<<"$group")"
            fi
            printf '.TP\n\\fBcudalab %s\\fR \\fI%s\\fR\n' "$(roff <<<"$f1")" "$(roff <<<"$f2")"
            printf '%s\n' "$(roff <<<"$f3.")"
            ;;
        arg | option)
            [ -z "${open:-}" ] && printf '.RS\n'
            open=1
            if [ "$kind" = arg ]; then # CMD NAME TYPE OCCURS CHOICES HELP
                printf '.TP\n.I %s\n' "$(roff <<<"$f2")"
                printf '%s\n' "$(roff <<<"$f6$(choices "$f3" "$f2" "$f5").")"
            else # CMD --NAME -X TYPE METAVAR OCCURS CHOICES HELP
                printf '.TP\n'
                [ -n "$f3" ] && printf '\\fB%s\\fR, ' "$(roff <<<"$f3")"
                printf '\\fB%s\\fR' "$(roff <<<"$f2")"
                [ "$f4" != none ] && printf ' \\fI%s\\fR' "$(roff <<<"$f5")"
                printf '\n%s\n' "$(roff <<<"$f8$(choices "$f4" "$f5" "$f7").")"
            fi
            ;;
        *) echo "gen-man.sh: unknown row '$kind'" >&2; exit 1 ;;
        esac
    done < <(tr '\t' '\037')
    [ -n "${open:-}" ] && printf '.RE\n'
    true
)
[ -n "$commands" ] || { echo "gen-man.sh: no commands on stdin" >&2; exit 1; }
while IFS= read -r line; do
    case $line in
    @COMMANDS@) printf '%s\n' "$commands" ;;
    *) line=${line//@VERSION@/$version}; printf '%s\n' "${line//@ARCH@/$arch}" ;;
    esac
done <"$template"

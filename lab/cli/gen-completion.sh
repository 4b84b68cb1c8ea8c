#!/bin/bash
# lab/cli/gen-completion.sh bash|zsh < COMMANDS.tsv > completion
# Shell completion from the command table (`cudalab --dump-commands`, tab-separated
# rows: "command NAME SYNOPSIS HELP GROUP", "arg CMD NAME TYPE OCCURS CHOICES HELP",
# "option CMD --NAME -X TYPE METAVAR OCCURS CHOICES HELP").  Completes command names,
# each command's options, an option's value and a positional argument by their type:
# exercise and chapter ids (`cudalab list --ids`, at completion time), command names,
# fixed choices, .cu files, any file, folders; numbers and strings complete nothing.
set -eu
shell=$1
names=() helps=()
declare -A opts=() vopts=() args=() rep=() optdesc=()
# kind of a value: its type, "choice:a,b" for choices
kind() { # TYPE CHOICES
    if [ "$1" = choice ]; then printf 'choice:%s' "$2"; else printf '%s' "$1"; fi
}
zsh_quote() { # 'text' for zsh, a single quote as '\''
    printf "'%s'" "${1//\'/\'\\\'\'}"
}
# (fields split at \037, not at tabs: a tab is IFS white space, and runs of it would
# swallow an empty field such as an option's empty short form)
while IFS=$'\037' read -r row f1 f2 f3 f4 f5 f6 f7 f8; do
    case $row in
    command) # NAME SYNOPSIS HELP GROUP
        names+=("$f1")
        helps+=("$f3")
        opts[$f1]= vopts[$f1]=' ' args[$f1]= rep[$f1]= optdesc[$f1]=
        ;;
    arg) # CMD NAME TYPE OCCURS CHOICES HELP
        args[$f1]+="${args[$f1]:+ }$(kind "$f3" "$f5")"
        case $f4 in repeated | any) rep[$f1]=1 ;; esac
        ;;
    option) # CMD --NAME -X TYPE METAVAR OCCURS CHOICES HELP
        for o in $f2 $f3; do
            opts[$f1]+="${opts[$f1]:+ }$o"
            [ "$f4" != none ] && vopts[$f1]+="$o=$(kind "$f4" "$f7") "
            optdesc[$f1]+=" $(zsh_quote "$o:$f8")"
        done
        ;;
    *) echo "gen-completion.sh: unknown row '$row'" >&2; exit 1 ;;
    esac
done < <(tr '\t' '\037')
[ ${#names[@]} -gt 0 ] || { echo "gen-completion.sh: no commands on stdin" >&2; exit 1; }

# the case arms that set a command's opts, vopts (" --seed=number --out=dir "), args
# (the kinds of its positionals) and rep (its last positional repeats)
arms() { # bash|zsh
    local n
    for n in "${names[@]}"; do
        printf "    %s)\n" "$n"
        if [ "$1" = zsh ]; then
            printf "        optdesc=(%s)\n" "${optdesc[$n]# }"
        else
            printf "        opts='%s'\n" "${opts[$n]}"
        fi
        printf "        vopts='%s' args='%s' rep=%s\n        ;;\n" "${vopts[$n]}" "${args[$n]}" \
            "${rep[$n]}"
    done
}

case $shell in
bash)
    cat <<EOF2
# bash completion for cudalab: generated from the command table by
# lab/cli/gen-completion.sh; do not edit.
_cudalab() {
    local cur=\${COMP_WORDS[COMP_CWORD]} cmd=\${COMP_WORDS[1]:-} opts= vopts= args= rep=
    local kind= argi=0 i w v
    local -a kinds
    COMPREPLY=()
    if [ "\$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=(\$(compgen -W "${names[*]} --help --version" -- "\$cur"))
        return
    fi
    case \$cmd in
$(arms bash)
    *) return ;;
    esac
    # the words before: an option's value is skipped, positionals are counted
    for ((i = 2; i < COMP_CWORD; i++)); do
        w=\${COMP_WORDS[i]}
        if [ -n "\$kind" ]; then
            kind=
            continue
        fi
        case \$w in
        --) ;;
        -?*)
            v=\${vopts#* "\$w"=}
            [ "\$v" != "\$vopts" ] && kind=\${v%% *}
            ;;
        *) argi=\$((argi + 1)) ;;
        esac
    done
    if [ -z "\$kind" ]; then
        if [[ \$cur == -* ]]; then
            COMPREPLY=(\$(compgen -W "\$opts" -- "\$cur"))
            return
        fi
        read -ra kinds <<<"\$args"
        if [ "\$argi" -lt \${#kinds[@]} ]; then
            kind=\${kinds[argi]}
        elif [ -n "\$rep" ] && [ \${#kinds[@]} -gt 0 ]; then
            kind=\${kinds[\${#kinds[@]} - 1]}
        fi
    fi
    case \$kind in
    exercise) COMPREPLY=(\$(compgen -W "\$("\${COMP_WORDS[0]}" list --ids 2>/dev/null)" -- "\$cur")) ;;
    chapter)
        COMPREPLY=(\$(compgen -W "\$("\${COMP_WORDS[0]}" list --ids 2>/dev/null | sed 's,/.*,,' | uniq)" \\
            -- "\$cur"))
        ;;
    command) COMPREPLY=(\$(compgen -W "${names[*]}" -- "\$cur")) ;;
    choice:*)
        v=\${kind#choice:}
        COMPREPLY=(\$(compgen -W "\${v//,/ }" -- "\$cur"))
        ;;
    source)
        compopt -o filenames 2>/dev/null
        COMPREPLY=(\$(compgen -f -X '!*.cu' -- "\$cur") \$(compgen -d -- "\$cur"))
        ;;
    file)
        compopt -o filenames 2>/dev/null
        COMPREPLY=(\$(compgen -f -- "\$cur"))
        ;;
    dir)
        compopt -o filenames 2>/dev/null
        COMPREPLY=(\$(compgen -d -- "\$cur"))
        ;;
    esac
}
complete -F _cudalab cudalab
EOF2
    ;;
zsh)
    printf '#compdef cudalab\n'
    printf '# zsh completion for cudalab: generated from the command table by\n'
    printf '# lab/cli/gen-completion.sh; do not edit.\n'
    printf '_cudalab() {\n    local -a commands optdesc kinds vals\n    commands=(\n'
    for i in "${!names[@]}"; do
        printf "        %s\n" "$(zsh_quote "${names[$i]}:${helps[$i]}")"
    done
    cat <<EOF2
    )
    local cmd=\${words[2]} vopts= args= rep= kind= argi=0 i w v
    if (( CURRENT == 2 )); then
        if [[ \${words[CURRENT]} == -* ]]; then
            compadd -- --help --version
        else
            _describe -t commands 'cudalab command' commands
        fi
        return
    fi
    case \$cmd in
$(arms zsh)
    *) return ;;
    esac
    # the words before: an option's value is skipped, positionals are counted
    for (( i = 3; i < CURRENT; i++ )); do
        w=\${words[i]}
        if [[ -n \$kind ]]; then
            kind=
            continue
        fi
        case \$w in
        --) ;;
        -?*)
            v=\${vopts#* \$w=}
            [[ \$v != "\$vopts" ]] && kind=\${v%% *}
            ;;
        *) (( argi++ )) ;;
        esac
    done
    if [[ -z \$kind ]]; then
        if [[ \${words[CURRENT]} == -* ]]; then
            _describe -t options "cudalab \$cmd option" optdesc
            return
        fi
        kinds=(\${=args})
        if (( argi < \${#kinds} )); then
            kind=\${kinds[argi + 1]}
        elif [[ -n \$rep ]] && (( \${#kinds} )); then
            kind=\${kinds[-1]}
        fi
    fi
    case \$kind in
    exercise)
        vals=(\${(f)"\$(\${words[1]} list --ids 2>/dev/null)"})
        compadd -a vals
        ;;
    chapter)
        vals=(\${(u)\${(f)"\$(\${words[1]} list --ids 2>/dev/null)"}%%/*})
        compadd -a vals
        ;;
    command) _describe -t commands 'cudalab command' commands ;;
    choice:*)
        vals=(\${(s:,:)kind#choice:})
        compadd -a vals
        ;;
    source) _files -g '*.cu' ;;
    file) _files ;;
    dir) _files -/ ;;
    esac
}
_cudalab "\$@"
EOF2
    ;;
*)
    echo "usage: gen-completion.sh bash|zsh < COMMANDS.tsv" >&2
    exit 2
    ;;
esac

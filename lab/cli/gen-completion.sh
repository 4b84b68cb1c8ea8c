#!/bin/bash
# lab/cli/gen-completion.sh bash|zsh < COMMANDS.tsv > completion
# Shell completion from the command table (`cudalab --dump-commands`: name,
# args, help, completion kind of the first two arguments, tab-separated).
# Completes command names, each command's --options (read from its args),
# exercise ids (`cudalab list --ids`, at completion time), .cu files, and
# command names where the args say COMMAND.
set -eu
shell=$1
names=() helps=() opts=() kinds=()
while IFS=$'\t' read -r name args help k0 k1; do
    names+=("$name")
    helps+=("$help")
    opts+=("$(grep -oE -- '--[a-z][a-z-]*' <<<"$args" | paste -sd' ' || true)")
    [ "$k0" = none ] && [[ $args == *COMMAND* ]] && k0=command
    kinds+=("$k0 $k1")
done
[ ${#names[@]} -gt 0 ] || { echo "gen-completion.sh: no commands on stdin" >&2; exit 1; }

# case arms "cmd:N) kind=K ;;" for the positional arguments that complete something
arms() {
    local i n k
    for i in "${!names[@]}"; do
        n=0
        for k in ${kinds[$i]}; do
            [ "$k" != none ] && printf '    %s:%d) kind=%s ;;\n' "${names[$i]}" "$n" "$k"
            n=$((n + 1))
        done
    done
}
opt_arms() {
    local i
    for i in "${!names[@]}"; do
        [ -n "${opts[$i]}" ] && printf '    %s) opts="%s" ;;\n' "${names[$i]}" "${opts[$i]}"
    done
}

case $shell in
bash)
    cat <<EOF2
# bash completion for cudalab: generated from the command table by
# lab/cli/gen-completion.sh; do not edit.
_cudalab() {
    local cur=\${COMP_WORDS[COMP_CWORD]} cmd=\${COMP_WORDS[1]:-} kind=none opts= argi=0 i
    COMPREPLY=()
    if [ "\$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=(\$(compgen -W "${names[*]} --help --version" -- "\$cur"))
        return
    fi
    case \$cmd in
$(opt_arms)
    esac
    if [[ \$cur == -* ]]; then
        COMPREPLY=(\$(compgen -W "\$opts" -- "\$cur"))
        return
    fi
    for ((i = 2; i < COMP_CWORD; i++)); do
        [[ \${COMP_WORDS[i]} == -* ]] || argi=\$((argi + 1))
    done
    case \$cmd:\$argi in
$(arms)
    esac
    case \$kind in
    exercise) COMPREPLY=(\$(compgen -W "\$("\${COMP_WORDS[0]}" list --ids 2>/dev/null)" -- "\$cur")) ;;
    command) COMPREPLY=(\$(compgen -W "${names[*]}" -- "\$cur")) ;;
    file)
        compopt -o filenames 2>/dev/null
        COMPREPLY=(\$(compgen -f -X '!*.cu' -- "\$cur") \$(compgen -d -- "\$cur"))
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
    printf '_cudalab() {\n    local -a commands ids\n    commands=(\n'
    for i in "${!names[@]}"; do
        printf "        '%s:%s'\n" "${names[$i]}" "${helps[$i]//\'/\'\\\'\'}"
    done
    cat <<EOF2
    )
    local cmd=\${words[2]} kind=none opts= argi=0 w
    if (( CURRENT == 2 )); then
        if [[ \${words[CURRENT]} == -* ]]; then
            compadd -- --help --version
        else
            _describe -t commands 'cudalab command' commands
        fi
        return
    fi
    case \$cmd in
$(opt_arms)
    esac
    if [[ \${words[CURRENT]} == -* ]]; then
        compadd -- \${=opts}
        return
    fi
    for w in "\${(@)words[3,CURRENT-1]}"; do
        [[ \$w == -* ]] || (( argi++ ))
    done
    case \$cmd:\$argi in
$(arms)
    esac
    case \$kind in
    exercise) ids=(\${(f)"\$(\${words[1]} list --ids 2>/dev/null)"}); compadd -a ids ;;
    command) _describe -t commands 'cudalab command' commands ;;
    file) _files -g '*.cu' ;;
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

# tests/e2e/package/installed.sh - checks on an installed cudalab, shared by
# test-install.sh (make install) and package/test-deb.sh (the Debian package).
# Sourced after lib.sh, never run.
#
# check_installed LABEL PREFIX BASHCOMP ZSHCOMP MANPAGE: runs PREFIX/bin/cudalab
# from a student folder outside the source tree, with nothing pointing it at
# its files, and drives the man page and both completions.

# completions_bash FILE WORDS...: the bash completion's answers for the command
# line WORDS (the last one being completed), one per line.
completions_bash() {
    local file=$1
    shift
    bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _cudalab
             printf "%s\n" "${COMPREPLY[@]}"' _ "$file" "$@"
}

# completions_zsh FILE WORDS...: the same for the zsh function, loaded as zsh's
# compinit would (autoload from fpath), with the completion builtins replaced
# by stubs that print what they were given.
completions_zsh() {
    local file=$1
    shift
    zsh -f -c '
        fpath=("${1:h}" $fpath); autoload -Uz _cudalab; shift
        _describe() { print -l -- ${${(P)4}%%:*} }
        compadd() {
            if [[ $1 == -a ]]; then print -l -- ${(P)2}; return; fi
            [[ $1 == -- ]] && shift
            print -l -- "$@"
        }
        _files() { print -- "_files $*" }
        words=("$@"); CURRENT=$#; _cudalab' _ "$file" "$@"
}

check_installed() {
    local label=$1 prefix=$2 bashcomp=$3 zshcomp=$4 man=$5 lab=$2/bin/cudalab c
    local student=$T/student-$1 commands ids
    (
        unset CUDALAB_DATADIR CUDALAB_LIBEXECDIR CUDALAB_LOCALEDIR
        export PATH=$prefix/bin:$PATH
        mkdir -p "$student" && cd "$student" || exit 1

        run "$lab" --help
        commands=$(sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p' <<<"$OUT")
        expect_eq "$label: --help lists the table's commands" "$(paste -sd' ' <<<"$commands")" \
            "$("$lab" --dump-commands | awk -F'\t' '$1 == "command" { print $2 }' | paste -sd' ')"

        # the messages from PREFIX/share/locale, found beside the program as its data are
        run env LC_ALL=C.UTF-8 LANGUAGE=ko "$lab" help
        expect_out "$label: the Korean messages are installed (share/locale/ko)" "학생용 명령:"
        run env LC_ALL=C.UTF-8 "$lab" --lang zh_CN help
        expect_out "$label: the Chinese messages are installed (share/locale/zh_CN)" "面向学生的命令："

        run "$lab" --version
        expect_status "$label: --version" 0
        expect_out_re "$label: --version gives the lab's version" '^cudalab [0-9]+\.[0-9]+\.[0-9]+$'
        expect_out_re "$label: --version gives nvcc's" '^nvcc [0-9]+\.[0-9]+\.[0-9]+ \(/'
        expect_out_re "$label: --version gives the driver's (none here)" '^NVIDIA driver: none \('

        run "$lab" list
        expect_status "$label: list" 0
        expect_out_re "$label: list shows reduction/neighbored" '^  reduction/neighbored +'
        ids=$("$lab" list --ids | sort)
        expect_eq "$label: list --ids" "$ids" "$(cd "$CUDALAB_DATADIR_TEST/exercises" &&
            for m in */*/exercise.ini; do dirname "$m"; done | sort)"
        [ -f "$XDG_DATA_HOME/cudalab/progress.db" ]
        check "$label: the store is in XDG_DATA_HOME" $?

        run "$lab" start reduction/neighbored-less
        expect_status "$label: start" 0
        expect_out "$label: start names the work folder" "Your work folder: $student/work"
        expect_cmd "$label: start copies the installed starter" cmp \
            "$prefix/share/cudalab/exercises/reduction/neighbored-less/starter.cu" \
            work/reduction/neighbored-less.cu

        # Without a GPU the installed lab grades on its PTX simulator, speed on the installed
        # performance model's H100 times (share/cudalab/kernels/gpus): the untouched starter is SLOW
        run "$lab" grade reduction/neighbored-less --json
        expect_status "$label: grade the starter (no GPU: the simulator)" 1
        expect_json "$label: grade: the starter SLOW on modelled times, built by the installed copy" \
            'j["verdict"] == "SLOW" and j["backend"] == "sim" and j["arch"] == "sm_90"
             and j["message"].startswith("modelled for an H100, not measured")'
        ls "$XDG_CACHE_HOME"/cudalab/build/*.cubin >/dev/null 2>&1
        check "$label: compiled kernels are in XDG_CACHE_HOME" $?
        run "$lab" grade reduction/neighbored-less \
            "$prefix/share/cudalab/solutions/reduction/neighbored-less.cu"
        expect_out_re "$label: grade the installed solution: PASS on the simulator" \
            '^PASS  modelled for an H100, not measured'
        run "$lab" list
        expect_out_re "$label: list shows the attempts" \
            '^  reduction/neighbored-less .* passed, best [0-9.]+x'

        run "$lab" doctor
        expect_status "$label: doctor (no GPU, the simulator)" 1
        expect_out_re "$label: doctor: catalog from the installed share" \
            "^ok    catalog +[0-9]+ exercises in [0-9]+ chapters? from $prefix/share/cudalab\$"
        expect_out_re "$label: doctor: the installed drivers" \
            "^ok    lab drivers +$prefix/libexec/cudalab\$"
        expect_out "$label: doctor: grades on the simulator" "the lab grades on the simulator only"

        # the driver program: every family of the registry, every chapter's demo and the probe
        # are in it (each refuses a command line without its report's descriptor)
        local drv=$prefix/libexec/cudalab/cudalab-driver programs
        programs="$(sed -n 's/^LAB_FAMILY([a-z_]*, "\([a-z-]*\)".*/\1/p' \
            "$E2E_SRC/lab/catalog/families.def") $(sed -n 's/^demo *= *//p' \
            "$E2E_SRC"/exercises/*/chapter.ini) device-probe"
        for c in $programs; do
            run "$drv" "$c"
            expect_err "$label: the driver program runs $c" "cudalab-driver $c: --report-fd"
        done
        run "$drv" no-such-program
        expect_err "$label: the driver program names what it runs" \
            "programs: reduce-int reduce-float"

        # the man page
        run man -l "$man"
        expect_status "$label: man -l renders the man page" 0
        for c in $commands; do
            expect_out_re "$label: the man page has 'cudalab $c'" "^ +cudalab +$c( |\$)"
        done
        run bash -c 'zcat -f "$1" | groff -man -Tutf8 -ww -z' _ "$man"
        expect_eq "$label: groff has no warning on the man page" "$ERR" ""

        # bash completion
        run completions_bash "$bashcomp" cudalab ""
        for c in $commands; do
            expect_out_re "$label: bash completes '$c'" "^$c\$"
        done
        run completions_bash "$bashcomp" cudalab gra
        expect_eq "$label: bash completes gra -> the commands that start so" "$OUT" \
            "$(tr ' ' '\n' <<<"$commands" | grep '^gra')"
        run completions_bash "$bashcomp" cudalab start ""
        expect_eq "$label: bash completes exercise ids after start" "$(sort <<<"$OUT")" "$ids"
        run completions_bash "$bashcomp" cudalab grade reduction/neighbored-l
        expect_eq "$label: bash completes a partial id" "$OUT" "reduction/neighbored-less"
        run completions_bash "$bashcomp" cudalab grade reduction/neighbored-less work/reduction/
        expect_eq "$label: bash completes the .cu file" "$OUT" "work/reduction/neighbored-less.cu"
        run completions_bash "$bashcomp" cudalab grade --
        expect_eq "$label: bash completes grade's options" "$(paste -sd' ' <<<"$OUT")" \
            "--json --seed --no-record --sim --gpu --no-sim-check"
        run completions_bash "$bashcomp" cudalab help d
        expect_eq "$label: bash completes commands after help" "$(paste -sd' ' <<<"$OUT")" \
            "demo device doctor"

        # zsh completion
        run completions_zsh "$zshcomp" cudalab ""
        for c in $commands; do
            expect_out_re "$label: zsh completes '$c'" "^$c\$"
        done
        run completions_zsh "$zshcomp" cudalab start ""
        expect_eq "$label: zsh completes exercise ids after start" "$(sort <<<"$OUT")" "$ids"
        run completions_zsh "$zshcomp" cudalab grade --json reduction/neighbored ""
        expect_eq "$label: zsh completes files second" "$OUT" "_files -g *.cu"
        run completions_zsh "$zshcomp" cudalab list --
        expect_eq "$label: zsh completes list's options" "$(paste -sd' ' <<<"$OUT")" "--json --ids"
    )
}

# tests/e2e/tmux.sh - driving the real binary in tmux at 80x24, for the menu
# and shell tests.  Sourced after lib.sh.  Each test gets its own tmux server
# (socket named after the test), killed by tmux_end.
#
#   tmux_start CMD...        a session running CMD (through bash, so a test can
#                            wrap it: `cudalab; echo EXITED`), TMUX_COLS x
#                            TMUX_ROWS (default 80x24)
#   tmux_keys KEYS...        tmux send-keys
#   screen                   the pane's text now
#   wait_screen NAME TEXT [S] a check: TEXT appears on the screen within S s (default 20)

if ! command -v tmux >/dev/null; then
    echo "skip: tmux is not installed (Debian package tmux; make deps installs it)"
    e2e_finish
fi
unset TMUX
TMUX_SOCK=
TMUX_SERVERS=0
trap tmux_end EXIT # a test stopped early leaves no server behind

tmux_start() {
    # a server per session: a new one never races with the last one's exit
    TMUX_SERVERS=$((TMUX_SERVERS + 1))
    TMUX_SOCK=cudalab-e2e-$$-$TMUX_SERVERS
    tmux -L "$TMUX_SOCK" -f /dev/null new-session -d -x "${TMUX_COLS:-80}" -y "${TMUX_ROWS:-24}" \
        -s lab "$@"
    tmux -L "$TMUX_SOCK" set-option -g remain-on-exit on >/dev/null
}

tmux_keys() {
    tmux -L "$TMUX_SOCK" send-keys -t lab "$@"
}

screen() {
    tmux -L "$TMUX_SOCK" capture-pane -p -t lab 2>/dev/null
}

# wait_screen NAME TEXT [SECONDS]
wait_screen() {
    local i n=$((${3:-20} * 10))
    for ((i = 0; i < n; i++)); do
        if screen | grep -Fq -- "$2"; then
            pass "$1"
            return 0
        fi
        sleep 0.1
    done
    fail "$1" "  wanted on the screen: $2" "  screen:" "$(screen | indent)"
    return 1
}

tmux_end() {
    [ -n "$TMUX_SOCK" ] && tmux -L "$TMUX_SOCK" kill-server 2>/dev/null
    TMUX_SOCK=
}

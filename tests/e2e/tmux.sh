# tmux.sh - drive programs in a private tmux server (sourced after tap.sh).
#
# Every test gets its own server socket (-L) and kills only that server.

TMUX_SOCK="pv-test-$$"
unset TMUX
tm() { tmux -L "$TMUX_SOCK" -f /dev/null "$@"; }
cleanup_cmd "tmux -L '$TMUX_SOCK' kill-server 2>/dev/null"

# tm_start CMD: a 160x48 session named t running CMD in a POSIX shell.
tm_start() {
	tm new-session -d -s t -x "${TM_COLS:-160}" -y "${TM_ROWS:-48}" "$1"
	tm set-option -t t remain-on-exit on >/dev/null
}

# tm_screen: the visible pane text.
tm_screen() { tm capture-pane -p -t t; }

# tm_wait TEXT [SECONDS]: wait until the pane shows TEXT (fixed string).
tm_wait() {
	_tm_want=$1
	wait_for 'tm_screen | grep -qF -- "$_tm_want"' "${2:-10}"
}

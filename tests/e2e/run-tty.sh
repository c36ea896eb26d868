#!/bin/sh
# ptyvisor run on a real terminal: transparent keys, resize, terminal restored.
. "$top_srcdir/tests/tap.sh"
. "$top_srcdir/tests/e2e/tmux.sh"

T=$(mktemp -d)
cleanup_cmd "rm -rf '$T'"
export PTYVISOR_STATE_DIR="$T/state"

# An outer shell whose terminal settings we can compare before and after.
tm_start "env PS1='outer\$ ' PTYVISOR_STATE_DIR='$T/state' sh"
tm_wait 'outer$'; ok $? "outer shell is up"
tm send-keys -t t "stty -g > $T/before; $PTYVISOR run -- sh -c 'PS1=inner\\\$\\  exec sh'; echo rc=\$?" Enter
tm_wait 'inner$'; ok $? "the session's shell prompt shows through"

tm send-keys -t t 'echo typed-$((6*7))' Enter
tm_wait 'typed-42'; ok $? "keys typed reach the session"

tm send-keys -t t 'stty size' Enter
tm_wait '48 160'; ok $? "the session has the terminal's size"

tm resize-window -t t -x 100 -y 30
tm send-keys -t t 'clear; stty size' Enter
tm_wait '30 100'; ok $? "a resize reaches the session"

# Ctrl-C goes to the session's foreground job, not to ptyvisor.  Wait
# until the (uniquely long) sleep runs, so the key cannot reach the shell
# before it has handed over the terminal; then look for the echo's output
# (after-2), not for the typed text that the terminal echoes.
tm send-keys -t t 'sleep 31.7' Enter
wait_for "pgrep -f 'sleep 31.7' >/dev/null" 10
tm send-keys -t t C-c
tm send-keys -t t 'echo after-$((1+1))' Enter
tm_wait 'after-2'; ok $? "Ctrl-C interrupts the session's job only"

# A query is the terminal's to answer: one answer reaches the program, the
# terminal's, and none from a screen kept by ptyvisor (it keeps none here).
tm send-keys -t t "stty raw -echo; printf '\\033[6n'; sleep 1; timeout 3 dd bs=64 count=1 2>/dev/null | od -An -c > $T/dsr; stty sane; echo dsr-\$((2+3))" Enter
tm_wait "dsr-5"
is "$(grep -o R "$T/dsr" | wc -l)" 1 \
    "a cursor position query gets one answer, the terminal's ($(tr -s ' \n' ' ' < "$T/dsr"))"

tm send-keys -t t 'exit 5' Enter
tm_wait 'rc=5'; ok $? "ptyvisor run exits with the session's status"
# (the marker computed, so that the typed command line does not show it)
tm send-keys -t t "stty -g > $T/after; echo saved-\$((3+4))" Enter
tm_wait 'saved-7'
test -s "$T/before" && test -s "$T/after"; ok $? "terminal settings were saved before and after"
is "$(cat "$T/after")" "$(cat "$T/before")" "the terminal settings are restored"

tail -n 1 "$T/state/history.jsonl" | grep -q '"code":5'
ok $? "history has the session with code 5"

done_testing

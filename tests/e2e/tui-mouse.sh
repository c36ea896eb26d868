#!/bin/sh
# The mouse, when the person asks for it (--mouse): a click focuses the
# pane under it, the wheel over a pane opens scroll mode there, a click in
# the history selects a row.  The reports are typed as a terminal sends
# them (X10 encoding: ESC [ M, then button, column and row, each + 32).
. "$top_srcdir/tests/e2e/tui-lib.sh"

# A mouse report: $1 button code (0 left, 3 release, 64 wheel up), $2 x,
# $3 y (0-based cells, below 94).
pv_mouse() {
	pv_type "$(printf '\033[M%b%b%b' "$(printf '\\%03o' $((32 + $1)))" \
	    "$(printf '\\%03o' $((33 + $2)))" "$(printf '\\%03o' $((33 + $3)))")"
}

pv_start 120 40
pv_type "SHELL=$pv_dir/pvsh $PTYVISOR --mouse"
pv_keys Enter
pv_see 'pv$'; ok $? "the console starts with --mouse"
pv_keys C-g c
pv_see ' 2* #'; ok $? "a second pane has the focus"
pv_type "echo right-pane-mark"; pv_keys Enter

# Panes side by side: pane 1 on the left.
pv_mouse 0 5 5; pv_mouse 3 5 5
pv_see ' 1* #'; ok $? "a click in pane 1 focuses it"
pv_mouse 0 100 5; pv_mouse 3 100 5
pv_see ' 2* #'; ok $? "a click in pane 2 focuses it again"
pv_mouse 0 5 5; pv_mouse 3 5 5
pv_see ' 1* #'
pv_mouse 64 100 5
pv_see "scroll:"; ok $? "the wheel over pane 2 opens scroll mode"
pv_cap | grep -q "right-pane-mark"; ok $? "on pane 2's screen"
pv_keys q

# The history: row 1 is session 2 (newest running), row 2 session 1.
pv_keys C-g h
pv_see "history"
pv_mouse 0 10 2; pv_mouse 3 10 2
pv_keys Enter
pv_see " #1 "; ok $? "a click on the second row of the history selects it"
pv_keys q q

pv_keys C-g q
pv_see "and quit?"
pv_keys y
pv_see 'outer$'; ok $? "the console quits"
done_testing

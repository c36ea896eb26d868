#!/bin/sh
# The console on hard ground: no colours, a session spewing random bytes,
# a tiny terminal, --quit-when-done.
. "$top_srcdir/tests/e2e/tui-lib.sh"

pv_start 80 24 vt100
pv_type "$PTYVISOR -- sh -c 'head -c 5M /dev/urandom; exit 7'"
pv_keys Enter
pv_see "✘ exit 7" 60; ok $? "a session printing 5 MiB of random bytes ends (vt100)"
pv_keys C-g c
pv_see " 2* #"; ok $? "the console still takes keys"
pv_type "echo alive-\$((40+2))"; pv_keys Enter
pv_see "alive-42"; ok $? "and a new shell works"

# The help does not fit 80x24: it says so and scrolls to its last line.
pv_keys C-g '?'
pv_see "j/k scroll"; ok $? "at 80x24 the help says it scrolls"
pv_cap | grep -q "any key closes this help"
ok $(( ! $? )) "its last line is below"
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	pv_keys j
done
pv_see "any key closes this help"; ok $? "j scrolls down to its last line"
pv_see "PREFIX then:" 2
ok $(( ! $? )) "and the first has gone up"
pv_keys q
wait_for "! pv_cap | grep -q 'j/k scroll'" 10; ok $? "another key closes it"
! pv_cap | grep -q "any key closes this help\|scroll mode over\|│.*PREFIX"
ok $? "and no part of it is left on the screen"
pv_keys C-g '?'
pv_see "j/k scroll"
pv_keys Escape
wait_for "! pv_cap | grep -q 'j/k scroll'" 10
! pv_cap | grep -q "keys (prefix\|focus the next\|│.*PREFIX"
ok $? "closed with Escape: nothing of it is left either"

tmux -L "$pv_sock" resize-window -x 15 -y 4
pv_see "too small"; ok $? "a 15x4 terminal shows a 'too small' notice"
tmux -L "$pv_sock" resize-window -x 80 -y 24
pv_see " 2* #"; ok $? "growing again shows the panes"

pv_keys C-g q
pv_see "(y/n)"
pv_keys y
pv_see "outer\$"
wait_for "! pv_cap | grep -q 'ptyvisor |'" 10
ok $? "quit restores the terminal"

pv_type "$PTYVISOR --quit-when-done -- sh -c 'echo bye; exit 5'; echo rc=\$?"
pv_keys Enter
pv_see "rc=0" 15; ok $? "--quit-when-done quits with 0 once every session ended"

# Another prefix key: C-a; then C-g is an ordinary key for the session.
pv_type "$PTYVISOR --prefix C-a -- cat -v; echo rc2=\$?"
pv_keys Enter
pv_see "C-a ? help"; ok $? "--prefix C-a shows in the status line"
pv_keys C-g Enter
pv_see "^G"; ok $? "C-g goes to the session when the prefix is C-a"
pv_keys C-a q
pv_see "(y/n)"; ok $? "C-a q asks before quitting"
pv_keys y
pv_see "rc2=0"; ok $? "and quits"
pv_type "$PTYVISOR --prefix x; echo rc3=\$?"
pv_keys Enter
pv_see "rc3=125"; ok $? "a bad --prefix is refused with 125"

# A frame reaches the terminal in one write(2), not a write per row (which
# woke the terminal's reader for each): 40 lines printed at once, the 23
# shown come in one write that holds the 25th, 35th and 40th.
if command -v strace >/dev/null 2>&1; then
	seq 1 40 > "$pv_dir/forty"
	pv_type "strace -f -qq -s 4096 -e trace=write -o '$pv_dir/writes' $PTYVISOR --no-socket --quit-when-done --sandbox none -- sh -c 'cat $pv_dir/forty; sleep 1'; echo rc4=\$?"
	pv_keys Enter
	pv_see "rc4=0" 30
	pid=$(head -1 "$pv_dir/writes" | awk '{print $1}')
	# ptyvisor makes itself not dumpable (sandbox_harden_self): only a
	# tracer with CAP_SYS_PTRACE reads what it writes, others see where.
	if [ "$(id -u)" -ne 0 ] &&
	    ! grep -q "^$pid  *write(1, \"" "$pv_dir/writes"; then
		skip "not root: strace cannot read the writes of a ptyvisor that is not dumpable"
	else
		grep "^$pid  *write(1," "$pv_dir/writes" | grep -q '25.*35.*40'
		ok $? "a frame of 23 changed rows is one write to the terminal"
	fi
else
	skip "strace is missing: cannot count the console's writes"
fi

done_testing

#!/bin/sh
# Pastes through the console: the console asks its terminal for bracketed
# paste, so a paste reaches a pane's program marked as one when that
# program asked for it (bash holds a pasted line until Enter, as in a
# plain terminal); a paste is never read as console keys (the history
# view, the approval prompt).
. "$top_srcdir/tests/e2e/tui-lib.sh"

command -v bash > /dev/null 2>&1 || { echo "1..0 # SKIP bash is missing"; exit 0; }
T=$pv_dir
sock="$T/run/pv.sock"
printf '#!/bin/sh\nPS1="bash\\$ " exec bash --norc -i\n' > "$T/bashsh"
chmod 755 "$T/bashsh"

pv_start 120 40
ag_start "$sock"
pv_type "PTYVISOR_SOCKET='$sock' SHELL=$T/bashsh $PTYVISOR"
pv_keys Enter
pv_see 'bash$'; ok $? "the console starts bash in a pane"

# Two lines pasted into bash: held as one edit until Enter.
tmux -L "$pv_sock" set-buffer "$(printf 'echo pasted-one\necho pasted-two')"
tmux -L "$pv_sock" paste-buffer -p
pv_see "echo pasted-two"; ok $? "the pasted text shows in the pane"
sleep 1
pv_cap | grep -q '^pasted-one *$'
ok $(( ! $? )) "bash did not run the first pasted line at once"
pv_keys Enter
pv_see "pasted-two"
pv_cap | grep -q '^pasted-one *$'; ok $? "Enter runs the first line"
wait_for "pv_cap | grep -q '^pasted-two *\$'" 10; ok $? "and the second"

# A paste in the history view is not read as its keys (r replays, q quits).
pv_keys C-g h
pv_see "history"
tmux -L "$pv_sock" set-buffer "rq"
tmux -L "$pv_sock" paste-buffer -p
sleep 1
pv_cap | grep -q "replay #"; ok $(( ! $? )) "a pasted r starts no replay"
pv_see "history"; ok $? "a pasted q does not close the history"
pv_keys q

# A paste into the approval prompt decides nothing.
ag_run "$PTYVISOR exec -- touch '$T/never' < /dev/null & "
pv_see "1 PENDING: #1"
pv_keys C-g a
pv_see 'approve request #1?'
tmux -L "$pv_sock" set-buffer "$(printf 'y\ny')"
tmux -L "$pv_sock" paste-buffer -p
sleep 1
pv_see 'approve request #1?'; ok $? "a pasted y leaves the prompt open"
[ ! -e "$T/never" ]; ok $? "and approves nothing"
# On a terminal too short for the whole prompt, what is being edited
# stays in view (less needed rows give way).
tmux -L "$pv_sock" resize-window -x 80 -y 12
pv_keys e
pv_see "Enter check the edited command"; ok $? "at 80x12 e still edits"
pv_cap | grep -q "edit  *touch $T/never"
ok $? "and the edited command is in view: $(pv_cap | grep -c .) rows"
pv_cap | grep -q "sandbox  *workspace-write"; ok $? "so is the sandbox"
pv_keys Escape
tmux -L "$pv_sock" resize-window -x 120 -y 40
pv_see 'approve request #1?'
pv_keys n Enter
wait_for "! pv_cap | grep -q PENDING" 10; ok $? "the person's own n Enter denies"

pv_keys C-g q
pv_see "and quit?"
pv_keys y
pv_see 'outer$'; ok $? "the console quits"

done_testing

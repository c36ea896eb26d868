#!/bin/sh
# Replay in the console: a finished session's recording played in a pane
# with its timing, driven by space . + - and q, ending on its exit status;
# a missing recording is a message.
. "$top_srcdir/tests/e2e/tui-lib.sh"

printf 'echo alpha-1; sleep 3; echo bravo-2; sleep 3; echo charlie-3; exit 3\n' \
    > "$pv_dir/show.sh"

pv_start 120 30
pv_type "$PTYVISOR -- sh $pv_dir/show.sh"
pv_keys Enter
pv_see "✘ exit 3" 20; ok $? "the session exits 3"
pv_see "charlie-3"; ok $? "and printed its lines"
pv_keys C-g x
pv_see "no sessions:"; ok $? "C-g x closes its pane"

pv_keys C-g h
pv_see "history"; ok $? "C-g h opens the history"
pv_keys r
pv_see " 1* replay #1 sh "; ok $? "r opens a replay pane titled with the id"
pv_see "alpha-1"; ok $? "the replay shows the first line"
pv_keys Space
pv_see "x paused"; ok $? "space pauses (the title says so)"
pv_type "."
pv_see "bravo-2"; ok $? ". steps to the next line"
pv_cap | grep -q "charlie-3"; ok $(( ! $? )) "a step plays one event"
pv_see "x paused"; ok $? "still paused after the step"
pv_type "+"
pv_see " 2x paused"; ok $? "+ doubles the speed"
pv_type "-"
pv_see " 1x paused"; ok $? "- halves it again"
pv_keys Space
pv_see "charlie-3"; ok $? "space resumes: the last line plays"
pv_see "x exit 3"; ok $? "the title ends on the exit status"
pv_cap | grep -q "paused"; ok $(( ! $? )) "no longer paused at the end"
pv_keys Left
wait_for "! pv_cap | grep -q 'x exit 3'" 10
ok $? "left seeks back from the end"
pv_keys Right Right
pv_see "x exit 3"; ok $? "right seeks forward to the end again"

pv_type "q"
pv_see "no sessions:"; ok $? "q closes the replay pane"

# From the output view: Enter, then r.
pv_keys C-g h
pv_see "history"
pv_keys Enter
pv_see "(recording)"; ok $? "Enter opens the output view"
pv_keys r
pv_see " 1* replay #1 sh "; ok $? "r in the output view opens a replay pane"
pv_see "x exit 3" 15; ok $? "which plays to the end"
pv_keys C-g x
pv_see "no sessions:"; ok $? "C-g x closes a replay pane"

# A recording that is gone: a message, the console carries on.
rec=$(sed -n 's/.*"recording":"\([^"]*\)".*/\1/p' "$pv_dir/state/history.jsonl")
[ -n "$rec" ] && rm -f "$rec"; ok $? "the recording is removed"
pv_keys C-g h
pv_see "history"
pv_keys r
pv_see "cannot replay"; ok $? "r on a missing recording says so"
pv_keys q
pv_see "no sessions:"; ok $? "the console still takes keys"

# The output view opens at the top of the output (like less); G goes to
# the end.  100 lines on a 30-row terminal: most are in the scrollback.
pv_keys C-g c
pv_see " 1* #2"; ok $? "C-g c starts a shell"
pv_type "seq -f line-%g 1 100; exit"; pv_keys Enter
pv_see "exit 0" 20
pv_keys C-g x
pv_keys C-g h
pv_see "history"
pv_keys Enter
pv_see "(recording)"
pv_cap | grep -q "^line-1 *$"; ok $? "the output view shows the first line"
pv_cap | grep -q "^line-100 *$"; ok $(( ! $? )) "... and not the last"
pv_keys G
wait_for "pv_cap | grep -q '^line-100 *\$'" 10; ok $? "G goes to the end"
pv_keys q q
pv_see "no sessions:"

pv_keys C-g q
wait_for "! pv_cap | grep -q 'ptyvisor |'" 10
ok $? "quit restores the terminal"

done_testing

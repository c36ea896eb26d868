#!/bin/sh
# The console end to end: three sessions in their panes, exit statuses in
# the history pane, vim in a pane, resize, scroll-mode search, quitting.
. "$top_srcdir/tests/e2e/tui-lib.sh"

pv_start 160 48
pv_type "SHELL=$pv_dir/pvsh $PTYVISOR"
pv_keys Enter
pv_see ' 1* #' ; ok $? "the console opens with one pane"
pv_see 'ptyvisor | 1 running' ; ok $? "the status line counts it"
pv_see 'pv$' ; ok $? "the first session runs the shell"

pv_keys C-g c
pv_see ' 2* #' ; ok $? "C-g c opens a second pane"
pv_keys C-g c
pv_see ' 3* #' ; ok $? "C-g c opens a third pane"
wait_for "[ \$(pv_cap | grep -o 'pv\\$' | wc -l) -eq 3 ]" 10
ok $? "three shells show their prompts"
[ "$(pv_cap | grep -o ' ws running ' | wc -l)" -eq 3 ]
ok $? "every pane title shows its sandbox profile (ws)"

for n in 1 2 3; do
	pv_keys C-g $n
	pv_type "echo out-\$((${n}00+$n))"
	pv_keys Enter
done
pv_see "out-303"; ok $? "the third pane shows its output"
# pane 1 is top left, pane 2 top right, pane 3 the bottom half
pv_cap > "$pv_dir/cap"
pos() { awk -v s="$1" 'index($0, s) && $0 !~ /echo/ { print NR, index($0, s); exit }' "$pv_dir/cap"; }
set -- $(pos out-101); ok $(( !($1 < 24 && $2 < 80) )) "out-101 is in the top-left pane ($1,$2)"
set -- $(pos out-202); ok $(( !($1 < 24 && $2 > 80) )) "out-202 is in the top-right pane ($1,$2)"
set -- $(pos out-303); ok $(( !($1 > 24) )) "out-303 is in the bottom pane ($1,$2)"

# The prefix then an arrow focuses the pane that way.
pv_keys C-g 1
pv_keys C-g Right
pv_see ' 2* #'; ok $? "C-g Right: the top-right pane"
pv_keys C-g Down
pv_see ' 3* #'; ok $? "C-g Down: the bottom pane"
pv_keys C-g Up
wait_for "pv_cap | grep -q ' [12]\* #'" 10; ok $? "C-g Up: a top pane"
pv_keys C-g Left
pv_see ' 1* #'; ok $? "C-g Left: the top-left pane"
pv_keys C-g Left
pv_see ' 1* #'; ok $? "C-g Left with nothing there: it stays"

# Zoom says so, and how many panes it hides.
pv_keys C-g z
pv_see ' 1* ZOOM (+2 hidden) #'; ok $? "a zoomed pane's title says ZOOM (+2 hidden)"
pv_keys C-g z
wait_for "! pv_cap | grep -q ZOOM" 10; ok $? "and not once tiled again"

# A pane zoom hides still follows the terminal's size (its tile's), as
# tmux's do: pane 2 reports its size while pane 1 is zoomed.
pv_keys C-g 2
pv_type "while [ ! -e '$pv_dir/stop2' ]; do stty size > '$pv_dir/size2'; sleep 0.1; done; echo loop-\$((1+1))-ended"
pv_keys Enter
# (The loop rewrites the file: read it until it holds both numbers.)
size2() { i=0; while [ $i -lt 50 ]; do
	v=$(cat "$pv_dir/size2" 2> /dev/null)
	case $v in [0-9]*' '[0-9]*) echo "$v"; return ;; esac
	sleep 0.05; i=$((i + 1)); done; }
size2=$(size2)
pv_keys C-g 1
pv_keys C-g z
pv_see ' 1* ZOOM (+2 hidden) #'
tmux -L "$pv_sock" resize-window -x 120 -y 40
wait_for "[ \"\$(size2)\" != '$size2' ]" 10
ok $? "a pane hidden by zoom gets the new size too ($size2 -> $(size2))"
set -- $(size2)
[ "$1" -lt 39 ] && [ "$2" -lt 70 ]
ok $? "its tile's size, not the zoomed pane's ($1 $2)"
tmux -L "$pv_sock" resize-window -x 160 -y 48
pv_keys C-g z
wait_for "! pv_cap | grep -q ZOOM" 10
touch "$pv_dir/stop2"
pv_see 'loop-2-ended'

# exit statuses: pane 2 exits 3, pane 1 runs vim first
pv_keys C-g 2
pv_type "exit 3"; pv_keys Enter
pv_see "✘ exit 3"; ok $? "the pane title shows ✘ exit 3"

pv_keys C-g 1
pv_type "vim -u NONE -N '$pv_dir/file.txt'"; pv_keys Enter
pv_see "file.txt" ; wait_for "pv_cap | grep -q '^~'" 10
ok $? "vim opens in the pane"
pv_type "ihello-from-vim"; pv_keys Escape
pv_type ":wq"; pv_keys Enter
wait_for "grep -q hello-from-vim '$pv_dir/file.txt'" 10
ok $? "vim wrote the file"
wait_for "! pv_cap | grep -q '^~'" 10
ok $? "vim left the alternate screen"
pv_see "out-101"; ok $? "the pane shows its earlier output again"

pv_keys C-g h
pv_see "history"; ok $? "C-g h opens the history pane"
pv_see "exit 3"; ok $? "the history shows the exit status 3"
pv_see "running"; ok $? "the history shows the running sessions"
# The first row is a running session: Enter shows its live screen.
pv_keys Enter
wait_for "pv_cap | grep -q 'out-303' && ! pv_cap | grep -q '(recording)'" 10
ok $? "Enter on a running session opens its live screen"
pv_keys q
pv_see "history"; ok $? "q goes back to the history"
pv_keys q
pv_see " 1* #"; ok $? "q goes back to the panes"

# resize: the layout follows and the sessions get the new size
tmux -L "$pv_sock" resize-window -x 100 -y 30
wait_for "[ \$(pv_cap | wc -l) -eq 30 ] && pv_cap | tail -1 | grep -q 'ptyvisor |'" 10
ok $? "after resize the status line is on row 30"
pv_status_whole; ok $? "at 100 columns it holds whole fields only: $(pv_cap | tail -1)"
tmux -L "$pv_sock" resize-window -x 70 -y 30
wait_for "pv_cap | tail -1 | grep -q 'help \$'" 10
pv_status_whole; ok $? "at 70 too: $(pv_cap | tail -1)"
tmux -L "$pv_sock" resize-window -x 100 -y 30
wait_for "pv_cap | tail -1 | grep -q 'ptyvisor |'" 10
pv_keys C-g 3
pv_type "stty size"; pv_keys Enter
pv_see "14 100"; ok $? "the bottom pane's session is 14x100"

# scroll mode: search a line that scrolled away
pv_type "seq 1 400"; pv_keys Enter
pv_see "400"
pv_keys C-g '['
pv_see "scroll:"; ok $? "C-g [ opens scroll mode"
pv_type "/"; pv_type "137"; pv_keys Enter
wait_for "pv_cap | sed -n 2p | grep -qx '137 *'" 10
ok $? "/137 puts line 137 on top"
# c copies that line to the clipboard with OSC 52 (tmux takes it as a
# buffer when set-clipboard is on); C copies every line shown.
tmux -L "$pv_sock" set-option -g set-clipboard on
pv_type "c"
pv_see "copied 1 line to the clipboard"; ok $? "c says it copied one line"
wait_for "[ \"\$(tmux -L $pv_sock show-buffer 2>/dev/null)\" = 137 ]" 10
ok $? "and the clipboard (tmux's buffer) holds 137"
pv_type "C"
wait_for "tmux -L $pv_sock show-buffer 2>/dev/null | head -2 | tr '\\n' ' ' | grep -q '^137 138 '" 10
ok $? "C copies every line shown: $(tmux -L $pv_sock show-buffer 2>/dev/null | wc -l) lines"
pv_keys q
pv_see " 3* #"; ok $? "q leaves scroll mode"

# unknown key after the prefix: a hint
pv_keys C-g w
pv_see "unknown key w"; ok $? "an unknown key after the prefix shows a hint"

# quit: confirm, everything killed, the terminal is given back
pv_keys C-g q
pv_see "and quit? (y/n)"; ok $? "quitting asks while sessions run"
pv_keys y
wait_for "[ \$(pv_cap | grep -c '^outer') -eq 2 ] && ! pv_cap | grep -q 'ptyvisor |'" 15
ok $? "quitting restores the outer shell"
is "$(tmux -L "$pv_sock" display-message -p '#{alternate_on}')" 0 \
    "the alternate screen was left"
n=$(grep -c '"id"' "$pv_dir/state/history.jsonl" 2>/dev/null)
is "$n" 3 "every session is in the history file"
n=$(grep -c '"profile":"workspace-write"' "$pv_dir/state/history.jsonl" 2>/dev/null)
is "$n" 3 "every console session ran in the default sandbox"

done_testing

#!/bin/sh
# ptyvisor replay, history and show: round trip through a recording, real
# asciinema files, computed timings, keys on a real terminal, bad files.
. "$top_srcdir/tests/tap.sh"
. "$top_srcdir/tests/e2e/tmux.sh"

T=$(mktemp -d)
cleanup_cmd "rm -rf '$T'"
export PTYVISOR_STATE_DIR="$T/state"

# --- round trip: colours, cursor motion, erase, a progress bar ------------
draw='printf "\033[31mred\033[0m plain\r\n"; printf "\033[2;5Hmoved\033[K"
printf "\033[4;1H"; for i in 1 2 3 4; do printf "\rbar [%-4s]" "$(printf "%${i}s" | tr " " "#")"; sleep 0.05; done
printf "\r\n\033[1;32mdone\033[0m\r\n"; exit 3'
$PTYVISOR run --cols 40 --rows 10 -- sh -c "$draw" > /dev/null </dev/null
is "$?" 3 "recorded a drawing program (exit 3)"
printf 'red plain\n    moved\n\nbar [####]\ndone\n' > "$T/want"
$PTYVISOR replay --text 1 > "$T/text"
is "$?" 0 "replay --text 1 exits 0"
cmp -s "$T/text" "$T/want"; ok $? "replay --text is the final screen as text"
# Options may follow the operand, as the usage line writes them.
$PTYVISOR replay 1 --text > "$T/text-after" 2> "$T/text-after.err"
is "$?" 0 "replay 1 --text (option after the id) exits 0"
cmp -s "$T/text-after" "$T/want"; ok $? "... and prints the same screen"
$PTYVISOR replay 1 --text --at 0 > /dev/null 2>&1
is "$?" 0 "replay 1 --text --at 0 too"
$PTYVISOR show 1 --help > "$T/show-help" 2>&1
is "$?" 0 "show 1 --help prints the usage"
$PTYVISOR replay 1 < /dev/null > "$T/notty"
cmp -s "$T/notty" "$T/want"; ok $? "not a terminal: same as --text"
$PTYVISOR replay --text "$T/state/sessions/1.cast" > "$T/byfile"
cmp -s "$T/byfile" "$T/want"; ok $? "by file name: the same text"
$PTYVISOR show 1 > "$T/show"
is "$?" 0 "show 1 exits 0"
sed '1,/^--- output ---$/d' "$T/show" > "$T/showtext"
cmp -s "$T/showtext" "$T/text"; ok $? "show's output part equals replay --text"
grep -q '^state: *exited$' "$T/show" && grep -q '^code: *3$' "$T/show"
ok $? "show has the state and the code"
grep -q '^command: *sh -c ' "$T/show"; ok $? "show has the command"
# --at: the screen at the time of the first output event, before the bar
# is complete.
at=$($PTYVISOR replay --timings 1 | awk '$3 == "o" { print $1; exit }')
$PTYVISOR replay --text --at "$at" 1 > "$T/at"
grep -q 'red plain' "$T/at"; ok $? "--at T: what was drawn by then"
grep -q 'bar \[####\]' "$T/at"; is "$?" 1 "--at T: not what came later"

# --- a file recorded by asciinema ------------------------------------------
$PTYVISOR replay --text "$top_srcdir/tests/data/asciinema-rec.cast" > "$T/arec"
is "$?" 0 "committed asciinema rec file replays"
grep -q . "$T/arec"; ok $? "it has text"
if command -v asciinema >/dev/null && command -v script >/dev/null; then
	HOME="$T" script -qec "asciinema rec -q --overwrite -c 'printf \"\\033[34mblue\\033[0m \\303\\251t\\303\\251\\r\\nline2\\r\\n\"' '$T/fresh.cast'" /dev/null \
		< /dev/null > /dev/null 2>&1
	if [ -s "$T/fresh.cast" ]; then
		$PTYVISOR replay --text "$T/fresh.cast" > "$T/fresh"
		printf 'blue \303\251t\303\251\nline2\n' > "$T/fwant"
		cmp -s "$T/fresh" "$T/fwant"; ok $? "a fresh asciinema recording replays as text"
	else
		skip "asciinema rec produced no file here"
	fi
else
	skip "asciinema or script not installed"
fi

# --- timings: computed, never measured ---------------------------------------
cat > "$T/five.cast" <<'EOF'
{"version": 2, "width": 20, "height": 5}
[0.5, "o", "a"]
[1.0, "o", "b"]
[4.0, "o", "c"]
[5.0, "o", "d"]
EOF
last=$($PTYVISOR replay --timings --speed 10 "$T/five.cast" | tail -n 1 | cut -d' ' -f2)
is "$last" "0.500000" "--speed 10: a 5 s recording plays in 0.5 s"
$PTYVISOR replay --timings --idle-limit 0.5 "$T/five.cast" | cut -d' ' -f2 > "$T/idle"
printf '0.500000\n1.000000\n1.500000\n2.000000\n' > "$T/idle-want"
cmp -s "$T/idle" "$T/idle-want"; ok $? "--idle-limit 0.5 squeezes the 3 s pause"

# --- bad files -------------------------------------------------------------
check_err() {	# WANT-STATUS PATTERN ARGS...
	_want=$1 _pat=$2; shift 2
	$PTYVISOR replay "$@" > "$T/out" 2> "$T/err"
	is "$?" "$_want" "exit $_want: replay $*"
	is "$(wc -l < "$T/err" | tr -d ' ')" 1 "one line on stderr: replay $*"
	grep -q -- "$_pat" "$T/err"; ok $? "message names the problem: $_pat"
}
check_err 1 'No such file' --text "$T/missing.cast"
check_err 1 'directory' --text "$T"
head -c 2000 /dev/urandom > "$T/garbage.cast"
check_err 1 'not an asciicast' --text "$T/garbage.cast"
printf '{"version": 4, "width": 80, "height": 24}\n' > "$T/v4.cast"
check_err 1 'unsupported asciicast version 4' --text "$T/v4.cast"
check_err 1 'no recording for session 99' --text 99
check_err 125 'not a number' --speed x 1
check_err 125 'no recording given'
printf '{"version": 3, "term": {"cols": 20, "rows": 5}}\n[0.1, "o", "v3 ok"]\n[0.1, "x", "0"]\n' > "$T/v3.cast"
is "$($PTYVISOR replay --text "$T/v3.cast")" "v3 ok" "a v3 file plays"
printf '{"version": 2, "width": 20, "height": 5}\n[0.1, "o", "kept\\r\\n"]\n[0.2, "o", "cut' > "$T/trunc.cast"
$PTYVISOR replay --text "$T/trunc.cast" > "$T/out" 2> "$T/err"
is "$?" 0 "truncated last line: still exits 0"
is "$(cat "$T/out")" "kept" "truncated last line: the complete events play"
grep -q 'warning' "$T/err"; ok $? "truncated last line: a warning on stderr"

# --- history ---------------------------------------------------------------
$PTYVISOR run -- sh -c 'exit 0' > /dev/null </dev/null
$PTYVISOR run -- sh -c 'kill -9 $$' > /dev/null </dev/null
$PTYVISOR run --timeout 1 -- sleep 30 > /dev/null </dev/null
$PTYVISOR history > "$T/hist"
is "$?" 0 "history exits 0"
is "$(wc -l < "$T/hist" | tr -d ' ')" 4 "four sessions listed"
is "$(awk 'NR == 4 { print $1 }' "$T/hist")" 4 "newest last"
grep -q " exit 3 " "$T/hist"; ok $? "exit 3 shown as exit 3"
grep -q " exit 0 " "$T/hist"; ok $? "exit 0 shown as exit 0"
grep -q ' signal SIGKILL ' "$T/hist"; ok $? "signal 9 shown as signal SIGKILL"
awk 'NR == 4' "$T/hist" | grep -q ' timeout '
ok $? "timed out shown as timeout (not as its signal)"
# Commands that cannot start, in a state dir of their own (ids below).
touch "$T/not-x"; chmod 644 "$T/not-x"
PTYVISOR_STATE_DIR="$T/state2" $PTYVISOR run -- no-such-command-xyz \
    > /dev/null 2>&1 </dev/null
PTYVISOR_STATE_DIR="$T/state2" $PTYVISOR run -- "$T/not-x" \
    > /dev/null 2>&1 </dev/null
PTYVISOR_STATE_DIR="$T/state2" $PTYVISOR history > "$T/hist2"
awk 'NR == 1' "$T/hist2" | grep -q ' not found '; ok $? "a missing command: not found"
awk 'NR == 2' "$T/hist2" | grep -q ' not executable '
ok $? "a file that is not executable: not executable"
is "$($PTYVISOR show 4 | sed -n 's/^ending: *//p')" timeout "show names the ending too"
is "$($PTYVISOR history -n 1 | awk '{ print $1 }')" 4 "-n 1: the newest only"
is "$($PTYVISOR history --state signaled | awk '{ print $1 }')" 3 "--state signaled"
is "$($PTYVISOR history --grep 'sleep 30' | awk '{ print $1 }')" 4 "--grep"
$PTYVISOR history --json > "$T/json"
cmp -s "$T/json" "$T/state/history.jsonl"; ok $? "--json prints the lines as stored"
is "$($PTYVISOR history --json --state timed | wc -l | tr -d ' ')" 1 "--json is filtered too"
PTYVISOR_STATE_DIR="$T/empty" $PTYVISOR history > "$T/none" 2>&1
is "$?" 0 "no history: exit 0"
test ! -s "$T/none"; ok $? "no history: no output"
$PTYVISOR show 42 > /dev/null 2> "$T/err"
is "$?" 1 "show of an unknown id exits 1"
grep -q 'no session 42' "$T/err"; ok $? "and says so"
$PTYVISOR show > /dev/null 2>&1
is "$?" 125 "show without an id exits 125"

# --- on a terminal: keys and restore ---------------------------------------
$PTYVISOR run --cols 160 --rows 48 -- sh -c \
	'for i in $(seq 1 40); do printf "\033[3%dmrow %d\033[0m\r\n" $((i % 7)) $i; sleep 0.25; done; exit 2' \
	> /dev/null </dev/null
id=5
tm_start "env PS1='outer\$ ' PTYVISOR_STATE_DIR='$T/state' sh"
tm_wait 'outer$'; ok $? "outer shell is up"
tm send-keys -t t "stty -g > $T/before; $PTYVISOR replay $id; echo rc=\$?; stty -g > $T/after" Enter
tm_wait 'row 2'; ok $? "replay plays on the terminal"
tm send-keys -t t ' '
tm_wait 'paused'; ok $? "space pauses (status line)"
n1=$(tm_screen | grep -c '^row ')
tm send-keys -t t '.'
wait_for '[ "$(tm_screen | grep -c "^row ")" -gt "$n1" ]' 5
ok $? "'.' steps one event while paused"
n2=$(tm_screen | grep -c '^row ')
is "$n2" "$((n1 + 1))" "exactly one more row after one step"
tm send-keys -t t '+'
tm_wait 'speed 2x'; ok $? "'+' doubles the speed"
tm send-keys -t t '-' '-'
tm_wait 'speed 0.5x'; ok $? "'-' halves it"
tm send-keys -t t Right
tm_wait 'row 8'; ok $? "right arrow seeks forward"
tm send-keys -t t '+' '+' '+' '+' '+' ' '
tm_wait 'end: exit 2' 20; ok $? "plays to the end and shows the exit marker"
tm send-keys -t t q
tm_wait 'rc=0'; ok $? "q quits with status 0"
wait_for "test -s '$T/after'" 5
is "$(cat "$T/after")" "$(cat "$T/before")" "the terminal settings are restored"

# A recording larger than the terminal: clipped with a notice.
tm resize-window -t t -x 80 -y 20
tm send-keys -t t "clear; $PTYVISOR replay $id" Enter
tm_wait 'clipped'; ok $? "larger recording: a one-line notice"
tm send-keys -t t q
# Wait for output only a fresh command can print (a prompt is on screen
# already), so the next keys cannot reach the replay that is quitting.
tm send-keys -t t 'echo ready-$((2+3))' Enter
tm_wait 'ready-5'
# SIGTERM restores the terminal too.
tm send-keys -t t "stty -g > $T/before2; $PTYVISOR replay $id; stty -g > $T/after2; echo done-\$((1+1))" Enter
tm_wait 'row 1'
shpid=$(tm display-message -p -t t '#{pane_pid}')
rpid=$(ps -o pid= --ppid "$shpid" | tr -d ' ' | head -n 1)
test -n "$rpid" && kill -TERM "$rpid"
tm_wait 'done-2' 10; ok $? "replay ends on SIGTERM"
wait_for "test -s '$T/after2'" 5
is "$(cat "$T/after2")" "$(cat "$T/before2")" "terminal restored after SIGTERM"

# show on a session that is still running: its screen so far.
PTYVISOR_STATE_DIR="$T/state3" $PTYVISOR run -- sh -c 'echo early-marker; sleep 30' \
    > /dev/null 2>&1 < /dev/null &
RUN=$!
cleanup_pid $RUN
wait_for "PTYVISOR_STATE_DIR='$T/state3' $PTYVISOR show 1 2>/dev/null | grep -q early-marker" 15
ok $? "show on a running session prints its output so far"
PTYVISOR_STATE_DIR="$T/state3" $PTYVISOR show 1 > "$T/show-running" 2>&1
is "$?" 0 "and exits 0"
grep -q "^state: *running" "$T/show-running"; ok $? "and says it is running"
kill $RUN; wait $RUN 2>/dev/null

done_testing

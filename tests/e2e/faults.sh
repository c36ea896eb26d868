#!/bin/sh
# faults.sh - the server SIGKILLed with an agent's session running: no
# process of the session survives it (even one that ignores SIGHUP and
# SIGTERM), what the command printed is in the recording already (flushed
# within a second, not only at exit), the history has no half line, and a
# new server starts on the same socket path, which records the lost
# session as ended ("server died") and ends its recording.  The same for
# the server a console started (killing the console itself is a detach).
# A live session owned by a ptyvisor in another PID namespace is never
# taken for lost (skipped where unshare is refused).
. "$top_srcdir/tests/tap.sh"
. "$top_srcdir/tests/e2e/serve-lib.sh"

T=$(mktemp -d)
cleanup_cmd "rm -rf '$T'"
pv_serve_setup
pv_serve
ok $? "the server listens"

# A command that ignores hangups and TERM, with a mark to find it by.
mark="faults-$$-$(date +%s%N)"
(cd "$T/ws" && timeout 60 $PTYVISOR exec --raw -- sh -c "trap '' HUP TERM; \
echo printed-$mark; exec sh -c 'trap \"\" HUP TERM; \
while :; do sleep 1; done' $mark" > "$T/exec.out" 2>&1 < /dev/null) &
EXEC=$!
cleanup_pid $EXEC
wait_for "grep -q printed-$mark '$T/exec.out'" 20
ok $? "the agent's command runs and prints"
alive() { pgrep -f "^sh -c .* $mark\$" > /dev/null; }
alive; ok $? "its process is running (the probe is sound)"

# The recording is flushed within a second of the output.
sleep 1.5
kill -9 $SERVE
wait $SERVE 2> /dev/null
cast=$(ls "$PTYVISOR_STATE_DIR"/sessions/*.cast 2> /dev/null | head -n 1)
grep -q "printed-$mark" "$cast" 2> /dev/null
ok $? "what was printed is in the recording after SIGKILL"

wait_for "! alive" 5
ok $? "no process of the session survives the server"
wait_for "! kill -0 $EXEC" 5
ok $? "the agent's exec ends with the server, not at its timeout"
grep -q "printed-$mark" "$T/exec.out"
ok $? "after passing on what was printed"

# Every history line is whole (the lost session may not be in it).
bad=0
if [ -f "$PTYVISOR_STATE_DIR/history.jsonl" ]; then
	python3 -c 'import json, sys
for l in open(sys.argv[1]):
    json.loads(l)' "$PTYVISOR_STATE_DIR/history.jsonl" || bad=1
fi
is "$bad" 0 "the history has no half line"

# A new server on the same path: the dead one's socket is no obstacle.
pv_serve
ok $? "a new server starts on the same socket path"
out=$(timeout 30 $PTYVISOR exec -- echo again < /dev/null | tr -d '\r')
is "$out" again "and serves"

# The session the dead server ran: its history line and recording's end.
lost_line() {	# $1: the mark; prints state, error and the ending's name
	python3 -c 'import json, sys
for l in open(sys.argv[1]):
    e = json.loads(l)
    if sys.argv[2] in " ".join(e["argv"]):
        print(e["state"], e.get("error"), e["id"], e["recording"])' \
	    "$PTYVISOR_STATE_DIR/history.jsonl" "$1"
}
line=$(lost_line "$mark")
is "$(echo "$line" | cut -d' ' -f1-3)" "lost server died" \
    "the next start records the lost session as ended (server died)"
id=$(echo "$line" | cut -d' ' -f4)
rec=$(echo "$line" | cut -d' ' -f5)
is "$rec" "$cast" "with its recording"
tail -n 1 "$cast" | grep -q '"m", "server died"\]$'
ok $? "the recording ends with a marker event"
python3 -c 'import json, sys
for l in open(sys.argv[1]):
    json.loads(l)' "$cast"
ok $? "every line of the recording is whole JSON"
$PTYVISOR history 2> /dev/null | grep "$mark" | grep -q "server died"
ok $? "ptyvisor history names the ending"
! ls "$PTYVISOR_STATE_DIR"/sessions/*.running > /dev/null 2>&1
ok $? "no marker of a running session is left"
n=$(lost_line "$mark" | wc -l)
is "$n" 1 "one line only, however many starts"
kill $SERVE
wait $SERVE 2> /dev/null

# A marker of a live process is left alone (its session still runs).
mkdir -p "$PTYVISOR_STATE_DIR/sessions"
sleep 300 &
LIVE=$!
cleanup_pid $LIVE
start=$(awk '{ sub(/^.*\) /, ""); split($0, f, " "); print f[20] }' /proc/$LIVE/stat)
printf '%s %s\n{"id":99999,"argv":["live-%s"],"start":"2026-01-01T00:00:00.000Z","state":"running"}\n' \
    $LIVE "$start" "$mark" > "$PTYVISOR_STATE_DIR/sessions/99999.running"
timeout 30 $PTYVISOR run -- true > /dev/null 2>&1 < /dev/null
[ -f "$PTYVISOR_STATE_DIR/sessions/99999.running" ] &&
    ! grep -q "live-$mark" "$PTYVISOR_STATE_DIR/history.jsonl"
ok $? "a live owner's session is not taken for lost"
kill $LIVE
wait $LIVE 2> /dev/null
timeout 30 $PTYVISOR run -- true > /dev/null 2>&1 < /dev/null
grep -q "live-$mark" "$PTYVISOR_STATE_DIR/history.jsonl" &&
    [ ! -f "$PTYVISOR_STATE_DIR/sessions/99999.running" ]
ok $? "once its owner is gone, it is"

# The console's server SIGKILLed with an agent's session running (the
# console itself killed first: that is only a detach).
if command -v tmux > /dev/null 2>&1; then
	tm=pv-faults-$$
	cleanup_cmd "tmux -L $tm kill-server 2> /dev/null"
	tmux -L "$tm" -f /dev/null new-session -d -x 120 -y 40 \
	    "exec env TERM=screen $PTYVISOR --approval on-request 2>> '$T/tui.log'"
	wait_for "[ -S '$PTYVISOR_SOCKET' ] && timeout 2 $PTYVISOR exec -- echo" 15
	ok $? "the console serves agents"
	TUI=$(tmux -L "$tm" display -p '#{pane_pid}')
	mark2="console-$mark"
	(cd "$T/ws" && timeout 60 $PTYVISOR exec --raw -- sh -c "echo printed-$mark2; \
exec sh -c 'while :; do sleep 1; done' $mark2" > "$T/exec2.out" 2>&1 \
	    < /dev/null) &
	EXEC=$!
	cleanup_pid $EXEC
	wait_for "grep -q printed-$mark2 '$T/exec2.out'" 20
	ok $? "an agent's command runs in the console"
	sleep 1.5
	alive2() { pgrep -f "^sh -c .* $mark2\$" > /dev/null; }
	# The console is a client of the server it started: killing it is a
	# detach, killing that server ends everything.
	SRV=$($PTYVISOR ls --socket "$PTYVISOR_SOCKET" 2> /dev/null |
	    sed -n 's/.*: pid \([0-9][0-9]*\),.*/\1/p')
	[ -n "$SRV" ] && [ "$SRV" != "$TUI" ]
	ok $? "the console runs its sessions in a server (pid $SRV)"
	kill -9 "$TUI"
	sleep 1
	alive2; ok $? "the console killed: its session lives on (a detach)"
	kill -9 "$SRV"
	wait_for "! alive2" 5
	ok $? "no process of the session survives the console's server"
	tmux -L "$tm" kill-server 2> /dev/null
	timeout 30 $PTYVISOR run -- true > /dev/null 2>&1 < /dev/null
	line=$(lost_line "$mark2")
	is "$(echo "$line" | cut -d' ' -f1-3)" "lost server died" \
	    "the next start records the console's lost session"
	rec=$(echo "$line" | cut -d' ' -f5)
	tail -n 1 "$rec" 2> /dev/null | grep -q '"m", "server died"\]$'
	ok $? "and ends its recording"
else
	for i in 1 2 3 4 5; do skip "tmux is missing: the console is not tried"; done
fi

# A ptyvisor in another PID namespace sharing the state directory (a
# container, say): its marker's pid (1 there) means nothing here, so its
# live session is never recorded as lost; a truly dead owner of our own
# namespace still is.
ns_run=""
for u in "" "--user --map-root-user"; do
	# shellcheck disable=SC2086
	if unshare $u --pid --fork --mount-proc true 2> "$T/unshare.err"; then
		ns_run="unshare $u --pid --fork --mount-proc"
		break
	fi
done
if [ -z "$ns_run" ]; then
	for i in 1 2 3 4 5 6; do
		skip "unshare --pid --fork --mount-proc refused here:" \
		    "$(head -n 1 "$T/unshare.err")"
	done
else
	mark3="pidns-$mark"
	$ns_run $PTYVISOR run --sandbox none -- sh -c "echo started-$mark3; \
exec sleep 60" > "$T/ns.out" 2>&1 < /dev/null &
	NSRUN=$!
	cleanup_pid $NSRUN
	wait_for "grep -q started-$mark3 '$T/ns.out'" 20
	ok $? "a session runs under a ptyvisor in another PID namespace"
	nsmarker=$(grep -l "$mark3" "$PTYVISOR_STATE_DIR"/sessions/*.running \
	    2> /dev/null)
	head -n 1 "$nsmarker" 2> /dev/null > "$T/ns.head"
	ours="pidns:$(stat -L -c '%d:%i' /proc/self/ns/pid)"
	grep -q '^1 [0-9]* pidns:[0-9]*:[0-9]*$' "$T/ns.head" &&
	    ! grep -q " $ours\$" "$T/ns.head"
	ok $? "its marker names pid 1 and that namespace ($(cat "$T/ns.head"))"

	mark4="ourns-$mark"
	$PTYVISOR run -- sh -c "echo started-$mark4; exec sleep 60" \
	    > "$T/our.out" 2>&1 < /dev/null &
	OURRUN=$!
	cleanup_pid $OURRUN
	wait_for "grep -q started-$mark4 '$T/our.out'" 20
	kill -9 $OURRUN
	wait $OURRUN 2> /dev/null
	timeout 30 $PTYVISOR run -- true > /dev/null 2>&1 < /dev/null
	[ -f "$nsmarker" ] && ! grep -q "$mark3" \
	    "$PTYVISOR_STATE_DIR/history.jsonl"
	ok $? "the live session of the other namespace is not taken for lost"
	grep -q "started-$mark3" "$T/ns.out" && kill -0 $NSRUN 2> /dev/null
	ok $? "and it still runs"
	line=$(lost_line "$mark4")
	is "$(echo "$line" | cut -d' ' -f1-3)" "lost server died" \
	    "a dead owner of our own namespace is still recorded as lost"
	# The other namespace's server ends with its session: its own
	# history line, written there.
	kill $(pgrep -P $NSRUN) 2> /dev/null
	wait_for "! kill -0 $NSRUN 2> /dev/null" 10
	grep "$mark3" "$PTYVISOR_STATE_DIR/history.jsonl" | grep -qv '"lost"'
	ok $? "a server ending in the other namespace writes its line itself"
fi

done_testing
